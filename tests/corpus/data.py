"""Data munging with csv, json and the collections models reach for."""

from __future__ import annotations

from corpus import case

SALES_CSV = "region,product,units,price\\nnorth,apple,10,1.5\\nsouth,apple,4,1.5\\nnorth,pear,3,2.0\\neast,pear,7,2.0\\nsouth,plum,5,3.0\\n"

CASES = [
    case("csv_group_revenue", f"""
import csv, io
from collections import defaultdict
rows = list(csv.DictReader(io.StringIO("{SALES_CSV}")))
revenue = defaultdict(float)
for r in rows:
    revenue[r["region"]] += int(r["units"]) * float(r["price"])
dict(sorted(revenue.items()))
""", {"east": 14.0, "north": 21.0, "south": 21.0}),
    case("csv_top_product", f"""
import csv, io
from collections import Counter
units = Counter()
for r in csv.DictReader(io.StringIO("{SALES_CSV}")):
    units[r["product"]] += int(r["units"])
units.most_common(1)[0]
""", ["apple", 14]),
    case("csv_write_with_quotes", """
import csv, io
out = io.StringIO()
w = csv.writer(out)
w.writerow(["name", "note"])
w.writerow(["Ann", 'said "hi", left'])
out.getvalue()
""", 'name,note\r\nAnn,"said ""hi"", left"\r\n'),
    case("csv_dictwriter_roundtrip", """
import csv, io
people = [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]
buf = io.StringIO()
w = csv.DictWriter(buf, fieldnames=["id", "name"])
w.writeheader()
w.writerows(people)
back = list(csv.DictReader(io.StringIO(buf.getvalue())))
[dict(r) for r in back]
""", [{"id": "1", "name": "Ann"}, {"id": "2", "name": "Bob"}]),
    case("csv_semicolon_dialect", """
import csv, io
text = "a;b\\n1;2\\n3;4\\n"
dialect = csv.Sniffer().sniff(text)
rows = list(csv.reader(io.StringIO(text), dialect))
[dialect.delimiter, rows]
""", [";", [["a", "b"], ["1", "2"], ["3", "4"]]]),
    case("json_nested_extract", """
import json
payload = json.loads('{"users": [{"name": "a", "roles": ["admin"]}, {"name": "b", "roles": []}, {"name": "c", "roles": ["dev", "admin"]}]}')
[u["name"] for u in payload["users"] if "admin" in u["roles"]]
""", ["a", "c"]),
    case("json_pretty_sorted", """
import json
print(json.dumps({"b": 1, "a": [1, 2]}, indent=2, sort_keys=True))
""", None, ["{", '  "a": [', "    1,", "    2", "  ],", '  "b": 1', "}"]),
    case("json_lines_aggregate", """
import json
lines = '{"user": "a", "ms": 120}\\n{"user": "b", "ms": 80}\\n{"user": "a", "ms": 40}\\n'
totals = {}
for line in lines.splitlines():
    event = json.loads(line)
    totals[event["user"]] = totals.get(event["user"], 0) + event["ms"]
totals
""", {"a": 160, "b": 80}),
    case("json_default_encoder", """
import json, datetime, decimal
def default(o):
    if isinstance(o, (datetime.date, datetime.datetime)):
        return o.isoformat()
    if isinstance(o, decimal.Decimal):
        return str(o)
    raise TypeError(type(o).__name__)
json.dumps({"when": datetime.date(2024, 5, 1), "amount": decimal.Decimal("9.99")}, default=default)
""", '{"when": "2024-05-01", "amount": "9.99"}'),
    case("json_invalid_reports_position", """
import json
try:
    json.loads('{"a": 1,}')
except json.JSONDecodeError as e:
    result = [e.lineno, e.colno, e.msg]
result
""", [1, 8, "Illegal trailing comma before end of object"]),
    case("flatten_nested_dict", """
def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out
flatten({"a": {"b": 1, "c": {"d": 2}}, "e": 3})
""", {"a.b": 1, "a.c.d": 2, "e": 3}),
    case("group_by_itertools", """
from itertools import groupby
from operator import itemgetter
rows = [("fruit", "apple"), ("veg", "kale"), ("fruit", "pear"), ("veg", "leek")]
{k: [name for _, name in g] for k, g in groupby(sorted(rows), key=itemgetter(0))}
""", {"fruit": ["apple", "pear"], "veg": ["kale", "leek"]}),
    case("dedupe_preserving_order", """
emails = ["A@x.com", "b@x.com", "a@x.com", "c@x.com", "B@X.com"]
seen, unique = set(), []
for e in emails:
    key = e.lower()
    if key not in seen:
        seen.add(key)
        unique.append(key)
unique
""", ["a@x.com", "b@x.com", "c@x.com"]),
    case("statistics_summary", """
import statistics as st
latencies = [120, 95, 130, 101, 99, 250, 110]
{"mean": round(st.mean(latencies), 2), "median": st.median(latencies),
 "stdev": round(st.stdev(latencies), 2), "p_max": max(latencies)}
""", {"mean": 129.29, "median": 110, "stdev": 54.66, "p_max": 250}),
    case("statistics_quantiles", """
import statistics
statistics.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], n=4)
""", [2.75, 5.5, 8.25]),
    case("namedtuple_sort", """
from collections import namedtuple
Emp = namedtuple("Emp", "name dept salary")
staff = [Emp("a", "x", 50), Emp("b", "y", 70), Emp("c", "x", 60)]
[e.name for e in sorted(staff, key=lambda e: (-e.salary, e.name))]
""", ["b", "c", "a"]),
    case("dataclass_to_dicts", """
from dataclasses import dataclass, asdict, field
@dataclass
class Order:
    id: int
    items: list = field(default_factory=list)
    @property
    def count(self):
        return len(self.items)
orders = [Order(1, ["a", "b"]), Order(2)]
[asdict(o) | {"count": o.count} for o in orders]
""", [{"id": 1, "items": ["a", "b"], "count": 2}, {"id": 2, "items": [], "count": 0}]),
    case("pivot_table", """
rows = [("2024-01", "north", 5), ("2024-01", "south", 3), ("2024-02", "north", 7)]
regions = sorted({r for _, r, _ in rows})
table = {}
for month, region, n in rows:
    table.setdefault(month, dict.fromkeys(regions, 0))[region] += n
table
""", {"2024-01": {"north": 5, "south": 3}, "2024-02": {"north": 7, "south": 0}}),
    case("decimal_money_rounding", """
from decimal import Decimal, ROUND_HALF_UP
prices = ["19.995", "0.125", "2.675"]
[str(Decimal(p).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) for p in prices]
""", ["20.00", "0.13", "2.68"]),
    case("fractions_exact", """
from fractions import Fraction
total = sum(Fraction(1, n) for n in range(1, 5))
[str(total), float(total)]
""", ["25/12", 2.0833333333333335]),
    case("chainmap_config", """
from collections import ChainMap
defaults = {"color": "red", "user": "guest"}
env = {"user": "admin"}
cli = {"color": "blue"}
dict(ChainMap(cli, env, defaults))
""", {"color": "blue", "user": "admin"}),
    case("yaml_config_merge", """
import yaml
base = yaml.safe_load("db:\\n  host: localhost\\n  port: 5432\\nfeatures: [a, b]\\n")
override = yaml.safe_load("db:\\n  port: 6543\\n")
base["db"].update(override["db"])
yaml.safe_dump(base, sort_keys=True)
""", "db:\n  host: localhost\n  port: 6543\nfeatures:\n- a\n- b\n"),
    case("tabulate_report", """
from tabulate import tabulate
print(tabulate([["apple", 3, 1.5], ["pear", 10, 0.25]], headers=["item", "qty", "price"]))
""", None, ["item      qty    price", "------  -----  -------", "apple       3     1.5",
            "pear       10     0.25"]),
    case("pydantic_validation", """
from pydantic import BaseModel, ValidationError
class User(BaseModel):
    id: int
    email: str
ok = User(id="7", email="a@b.c")
try:
    User(id="x", email="a")
except ValidationError as e:
    errors = [err["loc"][0] for err in e.errors()]
[ok.id, errors]
""", [7, ["id"]]),
    case("attrs_classes", """
import attrs
@attrs.define
class Point:
    x: int
    y: int = 0
p = Point(3)
[attrs.asdict(p), p == Point(3, 0)]
""", [{"x": 3, "y": 0}, True]),
]

"""SQL over sqlite3 in memory."""

from __future__ import annotations

from corpus import case

SETUP = '''
import sqlite3
db = sqlite3.connect(":memory:")
db.executescript("""
create table customers(id integer primary key, name text, country text);
create table orders(id integer primary key, customer_id integer references customers(id), total real, placed text);
insert into customers values (1, 'Ann', 'FR'), (2, 'Bob', 'DE'), (3, 'Cid', 'FR');
insert into orders values (1, 1, 30.0, '2024-01-05'), (2, 1, 12.5, '2024-02-01'), (3, 2, 99.0, '2024-02-03'),
                          (4, 3, 5.0, '2024-03-09');
""")
'''

CASES = [
    case("sql_join_group", SETUP + """
db.execute(\"\"\"select c.country, round(sum(o.total), 2) from orders o join customers c on c.id = o.customer_id
group by c.country order by 2 desc\"\"\").fetchall()
""", [["DE", 99.0], ["FR", 47.5]]),
    case("sql_left_join_no_orders", SETUP + """
db.execute("insert into customers values (4, 'Dee', 'IT')")
db.execute(\"\"\"select c.name from customers c left join orders o on o.customer_id = c.id
where o.id is null\"\"\").fetchall()
""", [["Dee"]]),
    case("sql_parameters_and_rowcount", SETUP + """
cur = db.execute("update orders set total = total * ? where placed >= ?", (2, "2024-02-01"))
[cur.rowcount, db.execute("select sum(total) from orders").fetchone()[0]]
""", [3, 263.0]),
    case("sql_row_factory_dicts", SETUP + """
db.row_factory = sqlite3.Row
[dict(r) for r in db.execute("select name, country from customers where country = ? order by name", ("FR",))]
""", [{"name": "Ann", "country": "FR"}, {"name": "Cid", "country": "FR"}]),
    case("sql_window_running_total", SETUP + """
db.execute(\"\"\"select id, sum(total) over (order by placed) from orders order by placed\"\"\").fetchall()
""", [[1, 30.0], [2, 42.5], [3, 141.5], [4, 146.5]]),
    case("sql_cte_monthly", SETUP + """
db.execute(\"\"\"with m as (select substr(placed, 1, 7) month, total from orders)
select month, count(*), sum(total) from m group by month order by month\"\"\").fetchall()
""", [["2024-01", 1, 30.0], ["2024-02", 2, 111.5], ["2024-03", 1, 5.0]]),
    case("sql_executemany_and_commit", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table t(k text primary key, v int)")
with db:
    db.executemany("insert into t values (?, ?)", [("a", 1), ("b", 2), ("c", 3)])
db.execute("select count(*), sum(v) from t").fetchone()
""", [3, 6]),
    case("sql_integrity_error", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table u(email text unique)")
db.execute("insert into u values ('a@x')")
try:
    db.execute("insert into u values ('a@x')")
except sqlite3.IntegrityError as e:
    result = str(e)
result
""", "UNIQUE constraint failed: u.email"),
    case("sql_upsert", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table stock(sku text primary key, qty int)")
for sku, n in [("a", 5), ("b", 1), ("a", 3)]:
    db.execute("insert into stock values (?, ?) on conflict(sku) do update set qty = qty + excluded.qty", (sku, n))
db.execute("select * from stock order by sku").fetchall()
""", [["a", 8], ["b", 1]]),
    case("sql_json_functions", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table ev(doc text)")
db.executemany("insert into ev values (?)", [('{"type": "click", "n": 2}',), ('{"type": "view", "n": 5}',)])
db.execute("select json_extract(doc, '$.type'), json_extract(doc, '$.n') from ev order by 2 desc").fetchall()
""", [["view", 5], ["click", 2]]),
    case("sql_custom_function", """
import sqlite3
db = sqlite3.connect(":memory:")
db.create_function("slug", 1, lambda s: s.lower().replace(" ", "-"))
db.execute("select slug('Hello World')").fetchone()[0]
""", "hello-world"),
    case("sql_csv_import", """
import csv, io, sqlite3
text = "city,pop\\nParis,2100000\\nLyon,520000\\nNice,340000\\n"
db = sqlite3.connect(":memory:")
db.execute("create table c(city text, pop int)")
db.executemany("insert into c values (:city, :pop)", csv.DictReader(io.StringIO(text)))
db.execute("select city from c where pop > 400000 order by pop desc").fetchall()
""", [["Paris"], ["Lyon"]]),
    case("sql_dates_strftime", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("select date('2024-01-31', '+1 month'), strftime('%w', '2024-05-05'), julianday('2024-03-01') - julianday('2024-02-01')").fetchone()
""", ["2024-03-02", "0", 29.0]),
    case("sql_iterdump_schema", """
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table t(x int)")
db.execute("insert into t values (1)")
list(db.iterdump())
""", ["BEGIN TRANSACTION;", "CREATE TABLE t(x int);", 'INSERT INTO "t" VALUES(1);', "COMMIT;"]),
    case("sql_aggregate_class", """
import sqlite3, statistics
class Median:
    def __init__(self):
        self.values = []
    def step(self, v):
        self.values.append(v)
    def finalize(self):
        return statistics.median(self.values)
db = sqlite3.connect(":memory:")
db.create_aggregate("median", 1, Median)
db.execute("create table m(v int)")
db.executemany("insert into m values (?)", [(3,), (1,), (10,), (4,)])
db.execute("select median(v) from m").fetchone()[0]
""", 3.5),
]

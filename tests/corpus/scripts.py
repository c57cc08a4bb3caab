"""Whole scripts as models write them: argparse mains, tool calls, thread pools, unit tests,
and the standard library's small utilities."""

from __future__ import annotations

from corpus import case

CASES = [
    case("argparse_main_defaults", """
import argparse
def main():
    parser = argparse.ArgumentParser(description="summarise")
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    return {"top": args.top, "verbose": args.verbose, "prog": parser.prog}
""", {"top": 3, "verbose": False, "prog": "main.py"}),
    case("argparse_explicit_args", """
import argparse
p = argparse.ArgumentParser()
p.add_argument("files", nargs="+")
p.add_argument("-n", type=int, choices=[1, 2, 3], default=1)
vars(p.parse_args(["a.txt", "b.txt", "-n", "2"]))
""", {"files": ["a.txt", "b.txt"], "n": 2}),
    case("argparse_usage_error_exits_2", """
import argparse
p = argparse.ArgumentParser()
p.add_argument("--n", type=int)
try:
    p.parse_args(["--n", "x"])
except SystemExit as e:
    code = e.code
code
""", 2),
    case("getopt_and_optparse", """
import getopt, optparse
opts, rest = getopt.getopt(["-v", "-o", "out.txt", "in.txt"], "vo:")
parser = optparse.OptionParser()
parser.add_option("-q", action="store_true", dest="quiet")
options, args = parser.parse_args(["-q", "x"])
[opts, rest, options.quiet, args]
""", [[["-v", ""], ["-o", "out.txt"]], ["in.txt"], True, ["x"]]),
    case("tools_called_in_a_loop", """
totals = [tools.add(i, i) for i in range(4)]
sum(totals)
""", 12),
    case("tools_failure_caught", """
try:
    tools.fail(message="quota exceeded")
except ValueError as e:
    result = ["caught", str(e)]
result
""", ["caught", "quota exceeded"]),
    case("tools_through_a_thread_pool", """
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=8) as pool:
    results = list(pool.map(lambda n: tools.add(n, 100), [1, 2, 3]))
results
""", [101, 102, 103]),
    case("lone_main_with_tool", """
def main():
    pairs = [(1, 2), (3, 4)]
    return {f"{a}+{b}": tools.add(a, b) for a, b in pairs}
""", {"1+2": 3, "3+4": 7}),
    case("as_completed_results", """
from concurrent.futures import ThreadPoolExecutor, as_completed
def slow_square(n):
    return n * n
with ThreadPoolExecutor() as pool:
    futures = {pool.submit(slow_square, n): n for n in range(5)}
    done = sorted(f.result() for f in as_completed(futures))
done
""", [0, 1, 4, 9, 16]),
    case("unittest_in_code", """
import io, unittest
def parse_price(text):
    return round(float(text.strip().lstrip("$")), 2)
class PriceTests(unittest.TestCase):
    def test_dollar(self):
        self.assertEqual(parse_price(" $3.499 "), 3.5)
    def test_bad(self):
        with self.assertRaises(ValueError):
            parse_price("free")
    def test_wrong(self):
        self.assertEqual(parse_price("1"), 2)
result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(
    unittest.defaultTestLoader.loadTestsFromTestCase(PriceTests))
[result.testsRun, len(result.failures), len(result.errors)]
""", [3, 1, 0]),
    case("doctest_in_code", """
import doctest
def double(x):
    '''
    >>> double(2)
    4
    >>> double("a")
    'aa'
    '''
    return x * 2
finder = doctest.DocTestFinder()
runner = doctest.DocTestRunner()
for test in finder.find(double, "double", globs={"double": double}):
    runner.run(test, out=lambda s: None)
list(runner.summarize(verbose=False))
""", [0, 2]),
    case("enum_and_match", """
from enum import Enum, auto
class Status(Enum):
    OPEN = auto()
    CLOSED = auto()
def label(s):
    match s:
        case Status.OPEN:
            return "open"
        case Status.CLOSED:
            return "closed"
[label(Status.OPEN), Status["CLOSED"].value, [s.name for s in Status]]
""", ["open", 2, ["OPEN", "CLOSED"]]),
    case("typing_protocols_and_generics", """
from typing import Protocol, TypeVar, Generic, get_type_hints
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item
class HasLen(Protocol):
    def __len__(self) -> int: ...
def size(x: HasLen) -> int:
    return len(x)
[Box[int](3).item, size("abcd"), str(get_type_hints(size)["return"])]
""", [3, 4, "<class 'int'>"]),
    case("uuid_and_secrets_shapes", """
import uuid, secrets
u = uuid.uuid4()
[u.version, len(secrets.token_hex(16)), str(uuid.uuid5(uuid.NAMESPACE_DNS, "example.com"))]
""", [4, 32, "cfbff0d1-9375-5685-968c-48ce8b15ae17"]),
    case("ipaddress_subnets", """
import ipaddress
net = ipaddress.ip_network("10.0.0.0/24")
[net.num_addresses, str(list(net.subnets(new_prefix=26))[1]), ipaddress.ip_address("10.0.0.77") in net,
 ipaddress.ip_address("192.168.1.1").is_private]
""", [256, "10.0.0.64/26", True, True]),
    case("urllib_parse_build_query", """
from urllib.parse import urlencode, urlsplit, parse_qs, quote, urljoin
url = "https://api.example.com/v1/search?" + urlencode({"q": "café & tea", "page": 2})
parts = urlsplit(url)
[url, parse_qs(parts.query)["q"][0], quote("a b/c"), urljoin("https://x.org/a/b", "../c")]
""", ["https://api.example.com/v1/search?q=caf%C3%A9+%26+tea&page=2", "café & tea", "a%20b/c", "https://x.org/c"]),
    case("tomllib_config", """
import tomllib
cfg = tomllib.loads('''
[tool.app]
name = "demo"
ports = [80, 443]
[tool.app.db]
url = "sqlite://"
''')
[cfg["tool"]["app"]["name"], cfg["tool"]["app"]["ports"], cfg["tool"]["app"]["db"]["url"]]
""", ["demo", [80, 443], "sqlite://"]),
    case("pickle_and_copy", """
import copy, pickle
data = {"a": [1, {"b": 2}], "t": (1, 2)}
clone = pickle.loads(pickle.dumps(data))
deep = copy.deepcopy(data)
deep["a"][1]["b"] = 99
[clone == data, data["a"][1]["b"], deep["a"][1]["b"]]
""", [True, 2, 99]),
    case("functools_and_operator", """
from functools import reduce, partial, cache
from operator import mul, itemgetter, attrgetter
from itertools import accumulate
power_of_two = partial(pow, 2)
[reduce(mul, range(1, 6)), power_of_two(10), list(accumulate([1, 2, 3, 4])),
 sorted([("b", 2), ("a", 3)], key=itemgetter(1))[0][0]]
""", [120, 1024, [1, 3, 6, 10], "b"]),
    case("contextlib_suppress_and_stack", """
import contextlib, io
with contextlib.suppress(KeyError):
    {}["missing"]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    print("captured")
log = []
with contextlib.ExitStack() as stack:
    for name in ("a", "b"):
        stack.callback(log.append, name)
[out.getvalue(), log]
""", ["captured\n", ["b", "a"]]),
    case("traceback_format_in_code", """
import traceback
def inner():
    raise KeyError("k")
try:
    inner()
except KeyError:
    text = traceback.format_exc()
[text.splitlines()[0], text.splitlines()[-1]]
""", ["Traceback (most recent call last):", "KeyError: 'k'"]),
    case("ast_inspect_code", """
import ast
tree = ast.parse("def f(a, b=1):\\n    return a + b\\nclass C: pass\\n")
[[type(n).__name__ for n in tree.body], [a.arg for a in tree.body[0].args.args], ast.unparse(tree.body[0].body[0])]
""", [["FunctionDef", "ClassDef"], ["a", "b"], "return a + b"]),
    case("pprint_nested", """
import pprint
pprint.pformat({"users": [{"name": "ann", "roles": ["admin", "dev"]}] * 2, "count": 2}, width=60).splitlines()[0]
""", "{'count': 2,"),
    case("mimetypes_and_pathlib", """
import mimetypes
from pathlib import PurePosixPath
p = PurePosixPath("/data/reports/2024/q1.final.csv")
[p.name, p.stem, p.suffixes, str(p.parent), mimetypes.guess_type(p.name)[0], str(p.with_suffix(".json"))]
""", ["q1.final.csv", "q1.final", [".final", ".csv"], "/data/reports/2024", "text/csv", "/data/reports/2024/q1.final.json"]),
    case("sys_exit_status_from_main", """
import sys
def check(rows):
    bad = [r for r in rows if r < 0]
    if bad:
        print(f"{len(bad)} negative rows", file=sys.stderr)
        return 1
    return 0
sys.exit(check([1, -2, 3]))
""", None, ["[error] 1 negative rows"], exit_code=1),
    case("timeit_measures", """
import timeit
t = timeit.Timer("sum(range(100))")
number, total = t.autorange()
[number >= 1, total > 0]
""", [True, True]),
    case("dataclass_ordering_and_frozen", """
from dataclasses import dataclass, replace, FrozenInstanceError
@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
vs = sorted([Version(1, 10), Version(1, 2), Version(0, 9)])
try:
    vs[0].major = 5
except FrozenInstanceError:
    frozen = True
[[f"{v.major}.{v.minor}" for v in vs], replace(vs[0], minor=0).minor, frozen]
""", [["0.9", "1.2", "1.10"], 0, True]),
    case("packaging_versions_and_specifiers", """
from packaging.version import Version
from packaging.specifiers import SpecifierSet
versions = ["1.0", "2.0rc1", "1.10", "1.9.3"]
spec = SpecifierSet(">=1.9,<2")
[sorted(versions, key=Version), [v for v in versions if v in spec]]
""", [["1.0", "1.9.3", "1.10", "2.0rc1"], ["1.10", "1.9.3"]]),
    case("idna_and_punycode", """
import idna
[idna.encode("münchen.de").decode(), idna.decode("xn--mnchen-3ya.de"), "bücher".encode("punycode").decode()]
""", ["xn--mnchen-3ya.de", "münchen.de", "bcher-kva"]),
]

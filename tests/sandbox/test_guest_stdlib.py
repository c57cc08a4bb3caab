"""The guest's standard library and bundled packages, inside a real isolate: what the issue
found failing works, what cannot work is absent and says why, and the generated module list
is the image's own."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox import Sandbox
from sandbox import guest_modules

from stdlib import UNAVAILABLE


def run(sandbox: Sandbox, code: str) -> Any:
    outcome = sandbox.execute(code)
    assert outcome.status == "completed", outcome.error
    return outcome.result


def test_every_codec_the_issue_found_missing_works(sandbox: Sandbox) -> None:
    code = (
        "import codecs, io, zipfile, xml.etree.ElementTree as ET\n"
        "buf = io.BytesIO()\n"
        "with zipfile.ZipFile(buf, 'w') as z:\n    z.writestr('a.txt', 'hi')\n"
        "[zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist(), ET.tostring(ET.fromstring('<a/>')),\n"
        " io.TextIOWrapper(io.BytesIO('é'.encode('latin-1')), encoding='latin-1').read(),\n"
        " b'\\xef\\xbb\\xbfx'.decode('utf-8-sig'), '€'.encode('cp1252'), 'bücher.de'.encode('idna'),\n"
        " b'a\\\\tb'.decode('unicode_escape'), codecs.lookup('ascii').name, 'ü'.encode('cp437'),\n"
        " '日本'.encode('shift_jis'), codecs.encode('abc', 'rot13')]"
    )
    assert run(sandbox, code) == [["a.txt"], {"$bytes": "PGEgLz4="}, "é", "x", {"$bytes": "gA=="},
                                  {"$bytes": "eG4tLWJjaGVyLWt2YS5kZQ=="}, "a\tb", "ascii",
                                  {"$bytes": "gQ=="}, {"$bytes": "k/qWew=="}, "nop"]


def test_every_codec_the_alias_table_names_resolves(sandbox: Sandbox) -> None:
    code = ("import codecs, encodings.aliases\nmissing = []\n"
            "for name in sorted(set(encodings.aliases.aliases.values())):\n"
            "    try:\n        codecs.lookup(name)\n"
            "    except LookupError:\n        missing.append(name)\nmissing")
    # mbcs and oem are Windows' own; bz2 is not in this interpreter build.
    assert run(sandbox, code) == ["bz2_codec", "mbcs"]


def test_logging_writes_to_a_string(sandbox: Sandbox) -> None:
    code = ("import io, logging\nstream = io.StringIO()\n"
            "logging.basicConfig(stream=stream, level=logging.INFO, format='%(levelname)s:%(name)s:%(message)s')\n"
            "logging.getLogger('etl').info('loaded %d rows', 3)\nlogging.warning('careful')\n"
            "stream.getvalue()")
    assert run(sandbox, code) == "INFO:etl:loaded 3 rows\nWARNING:root:careful\n"


def test_zoneinfo_pytz_and_dateutil_know_the_iana_zones(sandbox: Sandbox) -> None:
    code = (
        "import datetime as dt, zoneinfo, pytz\nfrom dateutil import tz\n"
        "summer = dt.datetime(2024, 7, 1, 12)\n"
        "[str(summer.replace(tzinfo=zoneinfo.ZoneInfo('Europe/Paris')).utcoffset()),\n"
        " str(pytz.timezone('America/New_York').localize(summer).utcoffset()),\n"
        " str(tz.gettz('Asia/Kolkata').utcoffset(summer)),\n"
        " 'Australia/Sydney' in zoneinfo.available_timezones(), len(pytz.all_timezones) > 500]"
    )
    assert run(sandbox, code) == ["2:00:00", "-1 day, 20:00:00", "5:30:00", True, True]
    missing = sandbox.execute("import zoneinfo\nzoneinfo.ZoneInfo('Mars/Olympus')")
    assert missing.error is not None and missing.error["name"] == "ZoneInfoNotFoundError"


def test_the_modules_the_issue_found_missing_import_and_work(sandbox: Sandbox) -> None:
    code = (
        "import configparser, email, email.message, getopt, http, http.cookies, importlib.metadata\n"
        "import importlib.resources, mimetypes, optparse, platform, string.templatelib, tempfile\n"
        "import timeit, unittest, io, concurrent.futures\n"
        "msg = email.message.EmailMessage()\nmsg['Subject'] = 'Hi'\nmsg.set_content('body')\n"
        "cp = configparser.ConfigParser()\ncp.read_string('[db]\\nport = 5432')\n"
        "cookie = http.cookies.SimpleCookie()\ncookie['id'] = '7'\n"
        "class T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(1, 1)\n"
        "result = unittest.TextTestRunner(stream=io.StringIO()).run("
        "unittest.defaultTestLoader.loadTestsFromTestCase(T))\n"
        "with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:\n"
        "    doubled = list(pool.map(lambda x: 2 * x, [1, 2, 3]))\n"
        "[msg['Subject'], cp.getint('db', 'port'), getopt.getopt(['-v'], 'v')[0],\n"
        " http.HTTPStatus(404).phrase, cookie.output(), mimetypes.guess_type('a.csv')[0],\n"
        " result.wasSuccessful(), doubled, timeit.timeit('1', number=10) >= 0, platform.system()]"
    )
    assert run(sandbox, code) == ["Hi", 5432, [["-v", ""]], "Not Found", "Set-Cookie: id=7",
                                  "text/csv", True, [2, 4, 6], True, "wasi"]


@pytest.mark.parametrize("module", ["socket", "ssl", "subprocess", "multiprocessing", "asyncio",
                                    "ctypes", "lzma", "bz2", "urllib.request", "http.client",
                                    "tkinter", "concurrent.futures.process"])
def test_a_module_that_cannot_work_is_absent_and_its_import_says_why(sandbox: Sandbox,
                                                                      module: str) -> None:
    outcome = sandbox.execute(f"import {module}")
    assert outcome.error is not None and outcome.error["name"] == "ModuleNotFoundError"
    reason = UNAVAILABLE.get(module) or UNAVAILABLE[module.split(".")[0]]
    assert reason in outcome.error["message"]


def test_removing_the_import_blocker_does_not_bring_the_c_modules_back(sandbox: Sandbox) -> None:
    code = ("import sys, _imp, importlib.machinery\nsys.meta_path.pop(0)\nloaded = []\n"
            "for name in ('_socket', 'select', '_posixsubprocess'):\n"
            "    try:\n        __import__(name)\n        loaded.append(name)\n"
            "    except ImportError:\n        pass\n"
            "    try:\n        _imp.create_builtin(importlib.machinery.ModuleSpec(name, None))\n"
            "        loaded.append(name)\n    except ImportError:\n        pass\n"
            "loaded")
    assert run(sandbox, code) == []


def test_starting_a_thread_says_there_are_none(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import threading\nthreading.Thread(target=print).start()")
    assert outcome.error is not None and outcome.error["name"] == "RuntimeError"
    assert "runs no threads" in outcome.error["message"]


def test_a_thread_pool_runs_each_task_in_turn_and_keeps_its_failures(sandbox: Sandbox) -> None:
    code = ("from concurrent.futures import ThreadPoolExecutor, as_completed\n"
            "def work(n):\n    if n == 2:\n        raise ValueError(n)\n    return n * 10\n"
            "with ThreadPoolExecutor() as pool:\n    futures = [pool.submit(work, n) for n in range(4)]\n"
            "[f.result() if f.exception() is None else repr(f.exception()) for f in futures]")
    assert run(sandbox, code) == [0, 10, "ValueError(2)", 30]


def test_the_bundled_packages_import_and_work(sandbox: Sandbox) -> None:
    code = (
        "import tabulate, jinja2, markupsafe, yaml, markdown, bs4, html5lib, more_itertools, toolz\n"
        "import attrs, packaging.version, idna, openpyxl, xlsxwriter, networkx, sympy, mpmath, pydantic\n"
        "from dateutil.relativedelta import relativedelta\nimport datetime as dt\n"
        "class Item(pydantic.BaseModel):\n    qty: int\n"
        "[tabulate.tabulate([[1, 2]], headers=['a', 'b'], tablefmt='github'),\n"
        " jinja2.Template('{{ n }}!').render(n=3), str(markupsafe.escape('<b>')),\n"
        " yaml.safe_load('a: [1, 2]'), markdown.markdown('*x*'),\n"
        " bs4.BeautifulSoup('<p class=a>t</p>', 'html.parser').select_one('p.a').text,\n"
        " list(more_itertools.chunked([1, 2, 3], 2)), toolz.frequencies('aab'),\n"
        " str(packaging.version.Version('1.10') > packaging.version.Version('1.9')),\n"
        " str(sympy.factor(sympy.Symbol('x') ** 2 - 1)),\n"
        " networkx.shortest_path(networkx.path_graph(4), 0, 3), Item(qty='4').qty,\n"
        " str(dt.date(2024, 1, 31) + relativedelta(months=1)), str(mpmath.mpf(2).sqrt())[:6]]"
    )
    assert run(sandbox, code) == [
        "|   a |   b |\n|-----|-----|\n|   1 |   2 |", "3!", "&lt;b&gt;", {"a": [1, 2]},
        "<p><em>x</em></p>", "t", [[1, 2], [3]], {"a": 2, "b": 1}, "True", "(x - 1)*(x + 1)",
        [0, 1, 2, 3], 4, "2024-02-29", "1.4142"]


def test_the_generated_module_list_is_the_images_own(sandbox: Sandbox) -> None:
    stdlib, packages = run(sandbox, guest_modules.QUERY)
    assert (tuple(stdlib), tuple(packages)) == (guest_modules.STDLIB, guest_modules.PACKAGES), \
        "regenerate with: python -m sandbox.guest_modules"
    assert {"json", "logging", "zoneinfo", "email", "tempfile", "unittest"} <= set(stdlib)
    assert not set(stdlib) & set(UNAVAILABLE)
    assert guest_modules.markdown() in guest_modules.README.read_text()

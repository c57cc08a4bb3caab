"""The guest's standard library: every preloaded module imports inside a real isolate."""

from __future__ import annotations

import pytest

from sandbox import Sandbox

from preload import BLOCKED_MODULES, PRELOADED_MODULES

REQUIRED_BY_ISSUE = (
    "json re datetime collections itertools functools math statistics decimal fractions random "
    "string textwrap difflib csv io base64 hashlib hmac struct uuid html xml.etree.ElementTree "
    "urllib.parse pathlib glob fnmatch shlex typing dataclasses enum heapq bisect copy pprint "
    "zlib gzip zipfile tarfile tomllib unicodedata calendar time traceback"
).split()


def test_the_preloaded_set_covers_what_the_issue_requires() -> None:
    assert set(REQUIRED_BY_ISSUE) <= set(PRELOADED_MODULES)
    assert not set(PRELOADED_MODULES) & set(BLOCKED_MODULES)


def test_every_preloaded_module_imports_in_the_guest(sandbox: Sandbox) -> None:
    code = (
        "import importlib\nfailed = {}\n"
        f"for name in {list(PRELOADED_MODULES)!r}:\n"
        "    try:\n        importlib.import_module(name)\n"
        "    except Exception as exc:\n        failed[name] = repr(exc)\n"
        "failed"
    )
    outcome = sandbox.execute(code)
    assert outcome.status == "completed" and outcome.result == {}


@pytest.mark.parametrize("module", sorted(BLOCKED_MODULES))
def test_every_blocked_module_is_refused_in_the_guest(sandbox: Sandbox, module: str) -> None:
    outcome = sandbox.execute(f"import {module}")
    assert outcome.error is not None and outcome.error["name"] == "ModuleNotFoundError", outcome


def test_common_stdlib_work_runs(sandbox: Sandbox) -> None:
    code = (
        "import hashlib, zlib, gzip, io, csv, statistics, re, json, datetime, sqlite3\n"
        "buf = io.StringIO()\ncsv.writer(buf).writerow(['a', 1])\n"
        "db = sqlite3.connect(':memory:')\ndb.execute('create table t(x)')\n"
        "db.execute('insert into t values (41)')\n"
        "{'sha': hashlib.sha256(b'x').hexdigest()[:8],\n"
        " 'roundtrip': zlib.decompress(zlib.compress(b'abc')).decode(),\n"
        " 'gz': gzip.decompress(gzip.compress(b'hi')).decode(),\n"
        " 'csv': buf.getvalue(), 'mean': statistics.mean([1, 2, 3]),\n"
        " 'sql': db.execute('select x + 1 from t').fetchone()[0]}"
    )
    result = sandbox.execute(code).result
    assert result == {"sha": "2d711642", "roundtrip": "abc", "gz": "hi", "csv": "a,1\r\n",
                      "mean": 2, "sql": 42}

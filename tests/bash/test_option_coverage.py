"""Options the commands accept are acted on as GNU acts on them (none accepted and then
ignored): each case runs ours and the real tool on this machine and compares."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from test_files import run
from test_text_support import assert_same, run_ours

GNU_ENV = {"LC_ALL": "C", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def _times(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_atime_ns, info.st_mtime_ns


@pytest.mark.parametrize("word", ["atime", "access", "use", "a", "u", "mtime", "modify", "m", "mo"])
def test_touch_time_word_picks_the_time_changed(tmp_path: Path, word: str) -> None:
    found = []
    for who in ("ours", "gnu"):
        root = tmp_path / who
        root.mkdir()
        (root / "f").write_bytes(b"x")
        os.utime(root / "f", ns=(1_500_000_000 * 10**9, 1_600_000_000 * 10**9))
        argv = ["touch", f"--time={word}", "-d", "2021-01-01 00:00:00", "f"]
        if who == "ours":
            assert run(root, argv)[2] == 0
        else:
            subprocess.run(argv, cwd=root, env=GNU_ENV, check=True)
        found.append(_times(root / "f"))
    assert found[0] == found[1]


@pytest.mark.parametrize("argv", [
    ["touch", "--time=bad", "f"], ["touch", "--time=", "f"],
    ["ls", "--time=c", "f"], ["ls", "--time=", "f"], ["ls", "--time=bogus", "f"],
])
def test_time_word_errors_as_gnu(argv: list[str]) -> None:
    assert_same(argv, files={"f": "x"}, stderr_text=True)


def test_ls_time_word_may_be_abbreviated() -> None:
    assert_same(["ls", "-gG", "--time=st", "--time=a", "f"], files={"f": "x"})


FILES0 = {"a": "hello world\n", "b": "x\ny\n", "list": b"a\0b\0", "empty-name": b"a\0\0b\0",
          "dash": b"a\0-\0", "unended": b"a\0b"}


@pytest.mark.parametrize("prog", ["wc", "sort"])
@pytest.mark.parametrize("args,stdin", [
    (["--files0-from=list"], b""), (["--files0-from", "unended"], b""), (["--files0-from=-"], b"a\0b"),
    (["--files0-from=-"], b"a\0-\0"), (["--files0-from=empty-name"], b""), (["--files0-from=nope"], b""),
    (["--files0-from=list", "a"], b""), (["--files0-from=-"], b""), (["--files0-from=-"], b"a\0zz\0"),
    (["--files0-from=dash"], b"hi\n"), (["--files0-from=-"], b"a\0\0"), (["-r", "--files0-from=list"], b""),
])
def test_files0_from_reads_the_names_listed(prog: str, args: list[str], stdin: bytes) -> None:
    if prog == "wc" and args[0] == "-r":
        args = ["-L", *args[1:]]
    assert_same([prog, *args], stdin, files=FILES0, stderr_text=True)


def test_sort_refuses_debug_it_cannot_annotate() -> None:
    ours = run_ours(["sort", "--debug"], b"b\na\n")
    assert (ours.stdout, ours.status) == (b"", 2)
    assert ours.stderr.startswith(b"sort: unrecognized option '--debug'\n")

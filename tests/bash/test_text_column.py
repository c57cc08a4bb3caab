"""column's table options against util-linux 2.38 on this machine (LC_ALL=C): each case runs
ours and the real column and compares output, errors and status."""

from __future__ import annotations

import subprocess

import pytest

from test_text_support import assert_same, run_ours

TABLE = "a b c d\nee f ggg h\ni j\n\nk l m n o p\n"
CSV = "a,,b\n\nc\n,x,\n"
ODD = b"a\xe9 b\nc\rd e\n\r\n\x01x y\n"


@pytest.mark.parametrize("args", [
    # -l takes its number (the last column keeps the rest of the line) and checks it.
    ["-t", "-l", "2"], ["-t", "-l2", "-s", ","], ["-t", "-l", "3", "-s,"], ["-t", "-l", "1"],
    ["-t", "--table-columns-limit=4", "-o", "|"], ["-t", "-l", "0"], ["-t", "-l", "x"], ["-l", "2"],
    # -d, -H, -O: no header, hidden columns, their order (numbers, names in any case, 0, -).
    ["-t", "-N", "A,B,C", "-d"], ["-t", "-d"], ["-t", "-H", "2,3"], ["-t", "-N", "A,B,C", "-H", "b"],
    ["-t", "-N", "a", "-H", "-"], ["-t", "-H", "1,-"], ["-t", "-H", "0"], ["-t", "-H", "9"],
    ["-t", "-H", "X"], ["-t", "-H", "2-3"], ["-t", "-O", "3,1"], ["-t", "-N", "A,B,C", "-O", "c,a"],
    ["-t", "-O", "4,3,2,1"], ["-t", "-O", "0"], ["-t", "-O", "9"], ["-t", "-O", "-"],
    ["-t", "-N", "LONGNAME,B", "-d"], ["-t", "-N", "a,,b"], ["-t", "-R", "0"], ["-t", "-R", "-"],
    ["-t", "-N", "A,B", "-R", "1", "-O", "2", "-o", "|"], ["-t", "-e", "-N", "A,B"],
    # -J (with -n) builds JSON; --table-* want a table, -J wants names and neither -x.
    ["-J", "-N", "A,B,C,D,E,F"], ["-J", "-N", "A,B,C,D,E,F", "-n", "Foo"],
    ["-J", "-N", "x,y,z", "-s,", "-L"], ["-J", "-N", "A,B,C,D,E,F", "-H", "2", "-O", "4"],
    ["-J", "-N", "A,B,C"], ["-J", "-N", "A,B,C", "-H", "-"], ["-J"], ["-t", "-J"],
    ["-n", "foo"], ["-N", "a"], ["-H", "1"], ["-O", "1"], ["-J", "-x", "-N", "a"], ["-x", "-t"],
])
@pytest.mark.parametrize("text", [TABLE, CSV, ODD], ids=["table", "csv", "odd"])
def test_column_table_options_as_util_linux(args: list[str], text: str | bytes) -> None:
    assert_same(["column", *args], text, stderr_text=True)


def test_column_shows_high_bytes_as_util_linux_does() -> None:
    assert_same(["column"], ODD)
    assert_same(["column", "-t"], ODD)


@pytest.mark.parametrize("lines", [None, "7", "2", "0", "x"])
def test_column_repeats_the_header_for_each_page_of_lines(lines: str | None) -> None:
    data = "".join(f"{i} x{i}\n" for i in range(60)).encode()
    argv = ["column", "-t", "-e", "-N", "n,X"]
    env = {"LC_ALL": "C"} | ({"LINES": lines} if lines is not None else {})
    real = subprocess.run(argv, input=data, capture_output=True, env=env, check=True)
    assert run_ours(argv, data, env=env).stdout == real.stdout


@pytest.mark.parametrize("args", [["-t", "-E", "1"], ["-t", "-W", "1"], ["-t", "--table-wrap=1"],
                                  ["-t", "-T", "1"], ["-t", "-r", "1"], ["--tree=1"]])
def test_column_refuses_what_it_cannot_draw(args: list[str]) -> None:
    ours = run_ours(["column", *args], TABLE.encode())
    assert (ours.stdout, ours.status) == (b"", 1)
    assert ours.stderr.endswith(b"\nTry 'column --help' for more information.\n")

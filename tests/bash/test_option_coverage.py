"""Options the commands accept are acted on as GNU acts on them (none accepted and then
ignored): each case runs ours and the real tool on this machine and compares."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from test_files import run
from test_text_support import assert_same, run_gnu, run_ours

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


DIFF_TREE = {"x1": "a\nb\nc\n", "x2": "a\nB\nc\nd\n", "e1": "\na\n", "e2": "\nb\n", "n1": "a\nb", "n2": "a\nc",
             "d1/a.txt": "1\n", "d2/a.txt": "2\n", "d1/b": "1\n", "d2/b": "2\n", "d2/c": "3\n",
             "d1/s/z": "x\n", "d2/s/z": "y\n", "d2/s/only": "q\n", "d1/0": "k\n"}


@pytest.mark.parametrize("argv", [
    ["diff", "-T", "x1", "x2"], ["diff", "-Tu", "x1", "x2"], ["diff", "-T", "-c", "x1", "x2"],
    ["diff", "--initial-tab", "-u", "e1", "e2"], ["diff", "-T", "-c", "e1", "e2"], ["diff", "-T", "n1", "n2"],
    ["diff", "-Tu", "n1", "n2"], ["diff", "-T", "-y", "x1", "x2"],
    ["diff", "-r", "-x", "*.txt", "d1", "d2"], ["diff", "d1", "-x", "*.txt", "d2", "-r"],
    ["diff", "-x", "b", "-x", "s", "d1", "d2"], ["diff", "-rx", "s", "d1", "d2"],
    ["diff", "--recursive", "--exclude=b", "d1", "d2"],
    ["diff", "-r", "-S", "c", "d1", "d2"], ["diff", "-r", "-Sb", "d1", "d2"],
    ["diff", "-r", "--starting-file=b", "d1", "d2"], ["diff", "-r", "-S", "s", "--", "d1", "d2"],
    ["diff", "-r", "--unidirectional-new-file", "d1", "d2"],
    ["diff", "-r", "--unidirectional-new-file", "d2", "d1"],
    ["diff", "--unidirectional-new-file", "nope", "x1"], ["diff", "--unidirectional-new-file", "x1", "nope"],
    ["diff", "-ru", "d1", "d2"], ["diff", "-r", "-U1", "d1", "d2"], ["diff", "-rN", "d1", "d2"],
    ["diff", "--color", "x1", "x2"], ["diff", "--color=never", "x1", "x2"],
    ["diff", "-r", "--color=bogus", "d1", "d2"], ["diff", "x1"], ["diff", "-K", "x1", "x2"],
])
def test_diff_options_as_gnu(argv: list[str]) -> None:
    assert_same(argv, files=DIFF_TREE, stderr_text=True)


def test_diff_refuses_colour_it_does_not_draw() -> None:
    ours = run_ours(["diff", "--color=always", "x1", "x2"], files=DIFF_TREE)
    assert (ours.stdout, ours.status) == (b"", 2)
    assert ours.stderr.startswith(b"diff: unrecognized option '--color=always'\n")


XXD_FILES: dict[str, bytes | str] = {"x": "abcdefghijklmnopqrstuvwxyz0123\n", "y": bytes(range(256)), "z": "abcdef"}


@pytest.mark.parametrize("name", ["x", "y", "z"])
@pytest.mark.parametrize("args", [
    ["-e"], ["-e", "-g", "2"], ["-e", "-g", "8"], ["-e", "-g", "0"], ["-e", "-g", "32"], ["-e", "-u"],
    ["-e", "-c", "8"], ["-e", "-c", "32"], ["-e", "-s", "3", "-l", "9"], ["-e", "-g", "1"],
    ["-p", "-e"], ["-e", "-p"], ["-b", "-e"], ["-e", "-i"], ["-e", "-g", "3"], ["-r", "-e"],
])
def test_xxd_little_endian_dump_as_xxd(args: list[str], name: str) -> None:
    assert_same(["xxd", *args, name], files=XXD_FILES, stderr_text=True)


ZERO_RUNS: dict[str, bytes | str] = {
    "z0": b"", "z16": bytes(16), "z32": bytes(32), "z48": bytes(48), "z64": bytes(64), "z80": bytes(80),
    "z47": bytes(47), "mid": bytes(100) + b"ab" + bytes(40), "ends": b"x" + bytes(63) + b"y",
    "gaps": bytes(16) + b"a" + bytes(31) + b"b" + bytes(15) + bytes(48) + b"c",
}


@pytest.mark.parametrize("name", sorted(ZERO_RUNS))
@pytest.mark.parametrize("args", [["-a"], ["-a", "-c", "8"], ["-a", "-b"], ["-a", "-e"], ["-a", "-a"],
                                  ["-a", "-p"], ["-a", "-i"], ["-a", "-d", "-o", "9"], ["-a", "-s", "5", "-l", "70"]])
def test_xxd_autoskip_hides_runs_of_zero_lines_as_xxd(args: list[str], name: str) -> None:
    assert_same(["xxd", *args, name], files=ZERO_RUNS, stderr_text=True)


@pytest.mark.parametrize("args", [
    ["-d"], ["-d", "-c", "5"], ["-o", "5"], ["-o", "-2"], ["-d", "-o", "-2"], ["-o", "0x123456789"],
    ["-d", "-o", "1234567890123"], ["-o", "abc"], ["-s", "5", "-o", "100"], ["-d", "-s", "5", "-o", "100"],
    ["-b", "-d", "-o", "7"], ["-e", "-d", "-o", "3"], ["-u", "-o", "255"],
    ["-i", "-C"], ["-i", "-n", "foo"], ["-i", "-C", "-n", "bar"], ["-i", "-n", "a-b"], ["-i", "-n", "9x"],
])
@pytest.mark.parametrize("name", ["x", "y"])
def test_xxd_offsets_and_c_names_as_xxd(args: list[str], name: str) -> None:
    assert_same(["xxd", *args, name], files=XXD_FILES, stderr_text=True)


def test_xxd_names_standard_input_only_when_told() -> None:
    assert_same(["xxd", "-i", "-n", "x"], "1\n2\n3\n")
    assert_same(["xxd", "-i", "-C"], "1\n2\n3\n")


def test_xxd_refuses_ebcdic() -> None:
    ours = run_ours(["xxd", "-E", "x"], files=XXD_FILES)
    assert (ours.stdout, ours.status) == (b"", 1)
    assert b"'E'" in ours.stderr


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["-v"], ["--version"], ["-hv"], ["-vh"],
                                  ["-l", "--vers"], ["-h", "nofile"]])
def test_bc_help_and_version_exit_at_once(args: list[str]) -> None:
    assert_same(["bc", *args], "1+1\n", stderr_text=True)


def test_ln_has_no_space_option() -> None:
    assert_same(["ln", "-s ", "a", "b"], files={"a": "x"}, stderr_text=True)


TAR_TREE: dict[str, bytes | str] = {"d/a": "1\n", "d/s/b": "2\n", "e": "3\n"}


def _tar_names(archive: bytes, *args: str) -> list[str]:
    """Type letter and name of each member, as the real ``tar tvf`` lists them."""
    listing = subprocess.run(["tar", "tvf", "-", *args], input=archive, capture_output=True,
                             env=GNU_ENV, check=True).stdout.decode().splitlines()
    return [line[0] + " " + line.split()[-1] for line in listing]


@pytest.mark.parametrize("args", [["--no-recursion", "d"], ["--no-recursion", "d", "d/s", "e"],
                                  ["--no-recursion", "--recursion", "d"]])
def test_tar_no_recursion_archives_the_directory_entry_only(args: list[str]) -> None:
    ours = run_ours(["tar", "cf", "-", *args], files=TAR_TREE)
    gnu = run_gnu(["tar", "cf", "-", *args], files=TAR_TREE)
    assert ours.status == gnu.status == 0
    # GNU walks a directory in readdir order, ours in name order.
    assert sorted(_tar_names(ours.stdout)) == sorted(_tar_names(gnu.stdout))


@pytest.mark.parametrize("mode", ["tf", "tvf"])
def test_tar_no_recursion_lists_only_the_members_named(mode: str) -> None:
    archive = run_gnu(["tar", "cf", "-", "d", "e"], files=TAR_TREE).stdout
    for args in (["--no-recursion", "d"], ["--no-recursion", "d/a", "d/s"], ["d/s"]):
        ours = run_ours(["tar", mode, "-", *args], archive)
        gnu = run_gnu(["tar", mode, "-", *args], archive)
        assert (ours.status, ours.stdout.count(b"\n")) == (gnu.status, gnu.stdout.count(b"\n"))
        if mode == "tf":
            assert ours.stdout == gnu.stdout

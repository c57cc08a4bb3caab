"""The file commands (ls, cp, find, stat, ...) driven directly through the command protocol.

Most tests state the GNU behaviour they pin; ``test_matches_gnu`` also runs the real GNU
tool on this machine over the same tree and compares bytes.
"""

from __future__ import annotations

import grp
import io
import itertools
import os
import pwd
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pytest

from bash.commands import files
from bash.commands.files import common as files_common
from bash.commands.files.common import human, quote_always
from bash.commands.files.dates import DateError, parse_date, parse_touch_stamp
from bash.commands.files.file import sniff
from bash.commands.base import CommandContext, CommandResult

Runner = Callable[[list[str], Iterator[bytes]], CommandResult]


def run(
    root: Path,
    argv: list[str],
    stdin: Iterable[bytes] = (),
    cwd: str = "/",
    run_command: Runner | None = None,
    extras: dict[str, object] | None = None,
) -> tuple[bytes, bytes, int]:
    """Run one command to completion; returns (stdout, stderr, status)."""
    err = io.BytesIO()
    ctx = CommandContext(
        stdin=iter(stdin), stderr=err, cwd=cwd, env={"HOME": "/"}, root=str(root),
        run_command=run_command, extras=extras if extras is not None else {},
    )
    gen = files.COMMANDS[argv[0]](ctx, argv)
    out = bytearray()
    while True:
        try:
            out += next(gen)
        except StopIteration as stop:
            return bytes(out), err.getvalue(), int(stop.value or 0)


def sh(root: Path, script: str) -> None:
    subprocess.run(["/bin/bash", "-c", script], cwd=root, check=True)


# --- shared helpers ----------------------------------------------------------------------


def test_quoting_matches_coreutils_shell_escape() -> None:
    assert quote_always("plain") == "'plain'"
    assert quote_always("a b") == "'a b'"
    assert quote_always("it's") == '"it\'s"'
    assert quote_always("a\nb") == "'a'$'\\n''b'"
    assert quote_always("\nx") == "''$'\\n''x'"
    assert quote_always("x\udcff") == "'x'$'\\377'"  # an undecodable byte, as octal


def test_messages_use_curly_quotes_in_a_utf8_locale(tmp_path: Path) -> None:
    err = io.BytesIO()
    ctx = CommandContext(stdin=iter(()), stderr=err, cwd="/", env={"LANG": "C.UTF-8"},
                         root=str(tmp_path))
    (tmp_path / "f").touch()
    assert b"".join(files.COMMANDS["mkdir"](ctx, ["mkdir", "f"])) == b""
    assert err.getvalue().decode() == "mkdir: cannot create directory \u2018f\u2019: File exists\n"


def test_human_sizes_round_up_like_gnu() -> None:
    assert [human(n) for n in (5, 1023, 1024, 1500, 10235, 1048575, 5_000_000)] == [
        "5", "1023", "1.0K", "1.5K", "10K", "1.0M", "4.8M"]


def test_touch_dates_are_utc() -> None:
    assert parse_date("2020-01-02 03:04:05") == 1577934245.0
    assert parse_date("@86400") == 86400.0
    assert parse_date("2 days ago", now=1_000_000.0) == 1_000_000.0 - 2 * 86400
    assert parse_touch_stamp("202001020304.05") == 1577934245.0
    assert parse_date("01/02/2020") == parse_date("2020-01-02")
    sunday = 1796515200.0  # 2026-12-06 00:00 UTC, a Sunday
    assert parse_date("next sunday", now=sunday - 3 * 86400 + 5) == sunday
    assert parse_date("last week", now=sunday) == sunday - 7 * 86400
    with pytest.raises(DateError):
        parse_date("not a date")


def test_help_and_version_answer_on_stdout_with_status_0(tmp_path: Path) -> None:
    out, err, status = run(tmp_path, ["cp", "-r", "--help"])
    assert (out.splitlines()[0], err, status) == (b"Usage: cp [OPTION]... SOURCE... DIRECTORY", b"", 0)
    assert run(tmp_path, ["find", "--version"])[0] == b"find (GNU findutils) 4.9.0\n"
    _, err, status = run(tmp_path, ["ls", "--", "--help"])
    assert status == 2 and err == b"ls: cannot access '--help': No such file or directory\n"


# --- ls ----------------------------------------------------------------------------------


def test_ls_lists_one_name_per_line_in_byte_order(tmp_path: Path) -> None:
    for name in ("b", "a", "C", ".hidden"):
        (tmp_path / name).touch()
    out, err, status = run(tmp_path, ["ls"])
    assert (out, err, status) == (b"C\na\nb\n", b"", 0)


def test_ls_missing_operand_is_status_2_but_lists_the_rest(tmp_path: Path) -> None:
    (tmp_path / "here").touch()
    out, err, status = run(tmp_path, ["ls", "here", "nosuch"])
    assert out == b"here\n"
    assert err == b"ls: cannot access 'nosuch': No such file or directory\n"
    assert status == 2


def test_ls_long_shows_sandbox_owner_and_fixed_width_columns(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"hello\n")
    (tmp_path / "d").mkdir()
    os.chmod(tmp_path / "f", 0o640)
    os.chmod(tmp_path / "d", 0o755)
    stamp = 1577934245  # 2020-01-02 03:04:05 UTC: older than six months, so the year shows
    for name in ("f", "d"):
        os.utime(tmp_path / name, (stamp, stamp))
    out, _, status = run(tmp_path, ["ls", "-l"])
    assert status == 0
    assert out == (
        b"total 8\n"
        b"drwxr-xr-x 2 user user 4096 Jan  2  2020 d\n"
        b"-rw-r----- 1 user user    6 Jan  2  2020 f\n"
    )


def test_ls_recursive_headers_and_blank_lines(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p a/b && touch a/f top")
    out, _, _ = run(tmp_path, ["ls", "-R"])
    assert out == b".:\na\ntop\n\n./a:\nb\nf\n\n./a/b:\n"


def test_ls_mode_overlay_is_used_where_the_platform_has_no_modes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_common, "WASI", True)
    (tmp_path / "f").touch()
    extras: dict[str, object] = {}
    assert run(tmp_path, ["chmod", "700", "f"], extras=extras)[2] == 0
    out, _, _ = run(tmp_path, ["stat", "-c", "%a %A", "f"], extras=extras)
    assert out == b"700 -rwx------\n"
    out, _, _ = run(tmp_path, ["ls", "-F"], extras=extras)
    assert out == b"f*\n"


def test_overlay_lives_on_the_interpreter_across_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_common, "WASI", True)
    (tmp_path / "f").touch()

    class Counters:
        pass

    class State:
        counters = Counters()

    class Interpreter:
        state = State()

    shell = Interpreter()
    # Each command gets a fresh extras dict, as the interpreter builds one per command.
    run(tmp_path, ["chmod", "600", "f"], extras={"shell": shell})
    out, _, _ = run(tmp_path, ["stat", "-c", "%a", "f"], extras={"shell": shell})
    assert out == b"600\n"


def test_overlay_modes_follow_a_renamed_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_common, "WASI", True)
    sh(tmp_path, "mkdir -p d/sub && touch d/sub/f")
    extras: dict[str, object] = {}
    run(tmp_path, ["chmod", "-R", "700", "d"], extras=extras)
    run(tmp_path, ["mv", "d", "e"], extras=extras)
    out, _, _ = run(tmp_path, ["find", "e", "-printf", "%m %p\\n"], extras=extras)
    assert out == b"700 e\n700 e/sub\n700 e/sub/f\n"


def test_listing_dot_dot_at_the_workspace_root_uses_the_root(tmp_path: Path) -> None:
    out, err, status = run(tmp_path, ["ls", "-a"])
    assert (out, err, status) == (b".\n..\n", b"", 0)


# --- tree-changing commands --------------------------------------------------------------


def test_rm_recursive_keeps_sibling_with_shared_prefix(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p app app-data && touch app/x app-data/y")
    assert run(tmp_path, ["rm", "-rf", "app"])[2] == 0
    assert sorted(os.listdir(tmp_path)) == ["app-data"]
    assert os.listdir(tmp_path / "app-data") == ["y"]


def test_rm_refuses_root_without_no_preserve_root(tmp_path: Path) -> None:
    (tmp_path / "precious").touch()
    _, err, status = run(tmp_path, ["rm", "-rf", "/"])
    assert status == 1
    assert err.startswith(b"rm: it is dangerous to operate recursively on '/'")
    assert (tmp_path / "precious").exists()


def test_cp_follows_absolute_symlink_inside_the_workspace_not_the_host(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text("workspace copy\n")
    os.symlink("/etc/passwd", tmp_path / "x")
    assert run(tmp_path, ["cp", "x", "y"])[2] == 0
    assert (tmp_path / "y").read_text() == "workspace copy\n"
    out, _, _ = run(tmp_path, ["readlink", "-f", "x"])
    assert out == b"/etc/passwd\n"


def test_absolute_symlink_falls_back_to_relative_where_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_symlink = os.symlink

    def wasi_symlink(target: str, link: str) -> None:
        if target.startswith("/"):
            raise PermissionError(1, "Operation not permitted")
        real_symlink(target, link)

    monkeypatch.setattr(os, "symlink", wasi_symlink)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "f").write_text("x\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert run(tmp_path, ["ln", "-s", "/data/f", "a/b/link"])[2] == 0
    assert os.readlink(tmp_path / "a/b/link") == "../../data/f"
    assert (tmp_path / "a/b/link").read_text() == "x\n"


def test_mv_into_own_subdirectory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d" / "s").mkdir(parents=True)
    _, err, status = run(tmp_path, ["mv", "d", "d/s"])
    assert status == 1
    assert err == b"mv: cannot move 'd' to a subdirectory of itself, 'd/s/d'\n"
    assert (tmp_path / "d" / "s").is_dir()


def test_relative_paths_resolve_against_the_script_cwd(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert run(tmp_path, ["mkdir", "-p", "x/y"], cwd="/sub")[2] == 0
    assert (tmp_path / "sub" / "x" / "y").is_dir()


def test_mktemp_creates_under_the_sandbox_tmp(tmp_path: Path) -> None:
    out, _, status = run(tmp_path, ["mktemp"])
    assert status == 0
    name = out.decode().strip()
    assert name.startswith("/tmp/tmp.") and len(name) == len("/tmp/tmp.") + 10
    assert (tmp_path / name.lstrip("/")).is_file()


def test_touch_stamp_sets_mtime(tmp_path: Path) -> None:
    assert run(tmp_path, ["touch", "-d", "2020-01-02 03:04:05", "f"])[2] == 0
    assert os.stat(tmp_path / "f").st_mtime == 1577934245


def test_chown_to_the_sandbox_user_succeeds_and_to_others_is_not_permitted(tmp_path: Path) -> None:
    (tmp_path / "f").touch()
    assert run(tmp_path, ["chown", "user:user", "f"]) == (b"", b"", 0)
    _, err, status = run(tmp_path, ["chown", "root", "f"])
    assert (err, status) == (b"chown: changing ownership of 'f': Operation not permitted\n", 1)
    _, err, status = run(tmp_path, ["chgrp", "wheel", "f"])
    assert (err, status) == (b"chgrp: invalid group: 'wheel'\n", 1)


# --- find --------------------------------------------------------------------------------


def _echo_runner(calls: list[list[str]]) -> Runner:
    def runner(argv: list[str], stdin: Iterator[bytes]) -> CommandResult:
        calls.append(argv)
        yield (" ".join(argv[1:]) + "\n").encode()
        return 0

    return runner


def test_find_visits_entries_in_name_order(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p d/b && touch d/c d/a d/b/z")
    out, _, _ = run(tmp_path, ["find", "d"])
    assert out == b"d\nd/a\nd/b\nd/b/z\nd/c\n"


def test_find_exec_batches_with_plus_and_runs_each_with_semicolon(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir d && touch d/a d/b")
    calls: list[list[str]] = []
    out, _, status = run(tmp_path, ["find", "d", "-type", "f", "-exec", "echo", "{}", "+"],
                         run_command=_echo_runner(calls))
    assert (out, status) == (b"d/a d/b\n", 0)
    assert calls == [["echo", "d/a", "d/b"]]
    calls.clear()
    run(tmp_path, ["find", "d", "-type", "f", "-exec", "echo", "x{}", ";"],
        run_command=_echo_runner(calls))
    assert calls == [["echo", "xd/a"], ["echo", "xd/b"]]


def test_find_exec_without_a_command_runner_reports_an_error(tmp_path: Path) -> None:
    (tmp_path / "f").touch()
    _, err, status = run(tmp_path, ["find", "f", "-exec", "echo", "{}", ";"])
    assert status == 1
    assert b"no command runner" in err


def test_find_prune_skips_the_subtree(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p keep skip/deep && touch keep/k skip/s skip/deep/d")
    out, _, _ = run(tmp_path, ["find", ".", "-name", "skip", "-prune", "-o", "-type", "f",
                               "-print"])
    assert out == b"./keep/k\n"


def test_find_delete_removes_depth_first(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p gone/a/b && touch gone/a/b/f")
    assert run(tmp_path, ["find", "gone", "-delete"])[2] == 0
    assert not (tmp_path / "gone").exists()


def test_find_quit_stops_after_first_match(tmp_path: Path) -> None:
    sh(tmp_path, "touch a b c")
    out, _, _ = run(tmp_path, ["find", ".", "-type", "f", "-print", "-quit"])
    assert out == b"./a\n"


def test_find_bad_expression_messages(tmp_path: Path) -> None:
    assert run(tmp_path, ["find", ".", "-bogus"])[1] == b"find: unknown predicate `-bogus'\n"
    assert run(tmp_path, ["find", ".", "-name"])[1] == b"find: missing argument to `-name'\n"
    assert run(tmp_path, ["find", ".", "(", "-name", "a"])[2] == 1
    assert run(tmp_path, ["find", "nosuch", "("])[1].startswith(b"find: invalid expression;")


# --- streaming ---------------------------------------------------------------------------


def test_tee_streams_without_reading_all_input(tmp_path: Path) -> None:
    err = io.BytesIO()
    ctx = CommandContext(stdin=itertools.repeat(b"y\n"), stderr=err, cwd="/", env={},
                         root=str(tmp_path))
    gen = files.COMMANDS["tee"](ctx, ["tee", "copy"])
    assert [next(gen) for _ in range(3)] == [b"y\n"] * 3
    gen.close()
    assert (tmp_path / "copy").read_bytes() == b"y\n" * 3


def test_split_reads_standard_input_in_chunks(tmp_path: Path) -> None:
    chunks = [b"1\n2", b"\n3\n", b"4\n5\n"]
    assert run(tmp_path, ["split", "-l", "2", "-", "p"], stdin=chunks)[2] == 0
    assert (tmp_path / "paa").read_bytes() == b"1\n2\n"
    assert (tmp_path / "pab").read_bytes() == b"3\n4\n"
    assert (tmp_path / "pac").read_bytes() == b"5\n"


# --- tree, du, file ----------------------------------------------------------------------


def test_tree_draws_ascii_in_the_c_locale_with_summary(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p d/e && touch d/a d/e/x top .hidden")
    out, _, status = run(tmp_path, ["tree"])
    assert status == 0
    assert out == (b".\n|-- d\n|   |-- a\n|   `-- e\n|       `-- x\n`-- top\n\n"
                   b"2 directories, 3 files\n")


def test_tree_level_and_dirs_only(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p d/e && touch d/a")
    out, _, _ = run(tmp_path, ["tree", "-d", "-L", "1"])
    assert out == b".\n`-- d\n\n1 directory\n"


def test_tree_ignore_pattern_and_unicode_lines_in_a_utf8_locale(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p src node_modules/x && touch src/a.py README.md")
    err = io.BytesIO()
    ctx = CommandContext(stdin=iter(()), stderr=err, cwd="/", env={"LANG": "C.UTF-8"},
                         root=str(tmp_path))
    gen = files.COMMANDS["tree"](ctx, ["tree", "-I", "node_modules|*.md"])
    out = b"".join(gen)
    assert out.decode() == ".\n\u2514\u2500\u2500 src\n    \u2514\u2500\u2500 a.py\n\n1 directory, 1 file\n"


def test_du_charges_four_kib_blocks(tmp_path: Path) -> None:
    sh(tmp_path, "mkdir -p d/e && printf x > d/a && printf '%5000s' x > d/e/b")
    out, _, _ = run(tmp_path, ["du", "d"])
    assert out == b"12\td/e\n20\td\n"


def test_file_names_common_formats() -> None:
    assert sniff(b"plain\n", False) == "ASCII text"
    assert sniff(b"caf\xc3\xa9\n", False) == "Unicode text, UTF-8 text"
    assert sniff(b"a\r\nb\r\n", False) == "ASCII text, with CRLF line terminators"
    assert sniff(b"#!/bin/bash\n", False) == "Bourne-Again shell script, ASCII text executable"
    assert sniff(b'{"a": 1}\n', False) == "JSON text data"
    assert sniff(b"\x00\x01", False) == "data"
    assert sniff(b"hi\n", True) == "text/plain; charset=us-ascii"


# --- differential against GNU on this machine --------------------------------------------

_STAMP = "2020-01-02 03:04:05"
# Every entry gets the one fixed time, the links their own (``-h``: plain ``touch`` follows
# ``la`` to ``d/a``): a time of "now" would make ``ls -l`` print HH:MM, and the GNU tree and
# ours, set up one after the other, could straddle a minute.
_SETUP = (
    "mkdir -p d/e/f && printf 'hello\\n' > d/a && printf '%3000s' x > d/e/big && "
    "touch d/e/f/x .hid && ln -s d/a la && ln -s nowhere dang && chmod 755 d/a && "
    f"touch -d '{_STAMP}' d/a d/e/big d/e/f/x d/e/f d/e d .hid && touch -h -d '{_STAMP}' la dang"
)


def _set_up_tree(root: Path) -> None:
    """Build the tree under ``root``; check that no entry kept the time it was made at."""
    sh(root, _SETUP)
    # ``date`` reads the stamp in the same time zone as ``touch`` did.
    stamp = int(subprocess.run(["date", "-d", _STAMP, "+%s"], capture_output=True, text=True,
                               check=True).stdout)
    mtimes = {p.relative_to(root).as_posix(): int(p.lstat().st_mtime) for p in root.rglob("*")}
    assert mtimes == dict.fromkeys(["d", "d/a", "d/e", "d/e/big", "d/e/f", "d/e/f/x", ".hid", "la",
                                    "dang"], stamp)


_GNU_CASES = [
    ["ls"], ["ls", "-a"], ["ls", "-F"], ["ls", "-p", "d"], ["ls", "-R", "d"],
    ["ls", "-l", "d"], ["ls", "-lh", "d/e"], ["ls", "-la", "d/e/f"], ["ls", "-S", "d"],
    ["ls", "-ld", "d", "la"], ["ls", "nosuch"], ["ls", "-j"],
    ["find", "d"], ["find", ".", "-name", "*.x"], ["find", "d", "-type", "f", "-size", "+1k"],
    ["find", ".", "-maxdepth", "1", "-type", "l"],
    ["find", "d", "-printf", "%p %d %y %s %m\\n"], ["find", "nosuch"],
    ["stat", "-c", "%n %s %F %a %A %h", "d", "d/a", "la", "dang"], ["stat", "nosuch"],
    ["readlink", "la"], ["readlink", "-e", "dang"], ["basename", "-a", "x/y", "/", "a/b/"],
    ["dirname", "a/b", "/", "x"], ["du", "-a", "d/e"], ["du", "-sh", "d"],
    ["du", "la"], ["du", "-L", "la"], ["du", "-H", "la"], ["du", "-D", "la"], ["du", "-L", "-P", "la"],
    ["du", "-L", "-s", "."], ["du", "-L", "dang"], ["du", "-L", "-c", "la", "d/a"], ["du", "dang/"],
    ["du", "-L", "dang/"], ["du", "-H", "dang"], ["du", "-L", "-s", "--exclude=dang", "."],
    ["realpath", "--relative-to=.", "la/.."], ["realpath", "-L", "--relative-to=.", "la/.."],
    ["realpath", "-L", "-P", "--relative-to=.", "la/.."], ["realpath", "-P", "-L", "--relative-to=.", "la/.."],
    ["realpath", "-L", "-e", "--relative-to=.", "nosuch/../d"], ["realpath", "-e", "nosuch/../d"],
    ["realpath", "-L", "-m", "--relative-to=.", "dang/../x"], ["realpath", "-s", "--relative-to=.", "la/.."],
    ["realpath", "-s", "-m", "--relative-to=.", "nosuch/../d"], ["realpath", "-s", "nosuch/../d"],
    ["realpath", "-s", "--relative-to=.", "dang"], ["realpath", "-s", "-e", "dang"], ["realpath", "d/a/.."],
    ["mkdir", "d"], ["mkdir", "-p", "d/a/x"], ["rmdir", "d"], ["rm", "d"], ["cp", "d", "z"],
    ["mv", "nosuch", "z"], ["ln", "-s", "a", "la"], ["chmod", "xyz", "d"],
    ["file", "d/a", "d", "la", "dang", "d/e/f/x"], ["touch", "-d", "junk", "q"],
]


@pytest.mark.parametrize("argv", _GNU_CASES, ids=[" ".join(a) for a in _GNU_CASES])
def test_matches_gnu(tmp_path: Path, argv: list[str]) -> None:
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed on this machine")
    gnu_root = tmp_path / "gnu"
    our_root = tmp_path / "ours"
    for root in (gnu_root, our_root):
        root.mkdir()
        _set_up_tree(root)
    env = {"LC_ALL": "C", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    real = subprocess.run(argv, cwd=gnu_root, capture_output=True, env=env)
    out, err, status = run(our_root, argv)
    # The host's owner is whoever runs the tests; the sandbox always shows user/user.
    owner = f" {pwd.getpwuid(os.getuid()).pw_name} {grp.getgrgid(os.getgid()).gr_name} "
    expected = real.stdout.replace(owner.encode(), b" user user ")
    if argv[0] in ("find", "du"):
        # GNU walks in readdir order, which is unspecified; we walk in name order.
        expected = b"".join(sorted(expected.splitlines(keepends=True)))
        out = b"".join(sorted(out.splitlines(keepends=True)))
    assert (out, err, status) == (expected, real.stderr, real.returncode)


def test_find_by_name_and_type_alone_sees_the_same_types_as_a_find_that_stats(tmp_path: Path) -> None:
    # -type and -name need no stat (the listing gives the type); -size forces one per entry.
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "f.txt").write_text("x")
    (tmp_path / "d" / "e" / "g.txt").write_text("")
    (tmp_path / "d" / "link").symlink_to("f.txt")
    (tmp_path / "d" / "dangling").symlink_to("missing")
    for kind in "fdl":
        listed = run(tmp_path, ["find", "/d", "-type", kind])
        stated = run(tmp_path, ["find", "/d", "-type", kind, "-size", "-1000k"])
        assert listed == stated and listed[0], kind
    names = run(tmp_path, ["find", "/d", "-name", "*.txt", "-type", "f"])[0]
    assert names == b"/d/e/g.txt\n/d/f.txt\n"


def test_find_keeps_an_error_after_the_names_printed_before_it(tmp_path: Path) -> None:
    import bash

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x").write_text("")
    result = bash.run_script("find /a /missing /a 2>&1", root=str(tmp_path))
    assert result.stdout == (b"/a\n/a/x\nfind: \xe2\x80\x98/missing\xe2\x80\x99: No such file or directory\n"
                             b"/a\n/a/x\n")

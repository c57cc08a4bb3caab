"""The in-memory filesystem answers every operation as the real directory does.

Each scenario runs the same operations on ``fs.RealFS`` over a fresh directory and on a
``MemoryFS``, and compares what came back: the value (listings sorted, stat reduced to type,
size, permission bits and link count) or the errno. The real directory is the reference,
so a divergence is a bug of the memory backend. Then the memory backend's own duties: the
diff it gives back and the limits it enforces while the script writes.
"""

from __future__ import annotations

import errno
import os
import stat as st
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bash import fs, run_script
from bash.errors import LimitExceeded
from bash.memfs import ENTRY_BYTES, MemoryFS

Op = tuple[str, tuple[Any, ...]]
"""A backend method's name and its arguments; path arguments start with ``/``."""


def _reduced(value: Any) -> Any:
    if isinstance(value, os.stat_result):
        kind = st.S_IFMT(value.st_mode)
        size = value.st_size if st.S_ISREG(value.st_mode) or st.S_ISLNK(value.st_mode) else None
        return ("stat", kind, size, st.S_IMODE(value.st_mode), value.st_nlink if st.S_ISREG(value.st_mode) else None)
    if isinstance(value, list):
        return sorted(value)
    return value


def _call(backend: Any, base: str, name: str, args: tuple[Any, ...]) -> Any:
    def real(arg: Any) -> Any:
        return base + arg if isinstance(arg, str) and arg.startswith("/") else arg

    try:
        if name == "write":
            with backend.open(real(args[0]), args[1]) as handle:
                handle.write(args[2])
            return None
        if name == "read":
            with backend.open(real(args[0]), "rb") as handle:
                return handle.read()
        if name == "scandir":
            with backend.scandir(real(args[0])) as it:
                return sorted((e.name, e.is_dir(), e.is_file(), e.is_symlink()) for e in it)
        if name == "realpath":
            found = backend.realpath(real(args[0]))
            return found[len(base):] or "/" if base else found
        if name == "readlink":
            return backend.readlink(real(args[0]))  # a link's target is never rebased
        if name == "symlink":
            return backend.symlink(args[0], real(args[1]))
        return _reduced(getattr(backend, name)(*(real(a) for a in args)))
    except OSError as exc:
        return ("error", errno.errorcode.get(exc.errno or 0, exc.errno))


SCENARIOS: dict[str, list[Op]] = {
    "files are created, read, appended and truncated": [
        ("write", ("/a", "wb", b"hello")), ("read", ("/a",)), ("write", ("/a", "ab", b" world")),
        ("read", ("/a",)), ("stat", ("/a",)), ("write", ("/a", "wb", b"")), ("stat", ("/a",)),
        ("write", ("/a", "xb", b"again")), ("read", ("/missing",)), ("stat", ("/missing",)),
    ],
    "directories are made, listed and removed": [
        ("mkdir", ("/d",)), ("mkdir", ("/d",)), ("mkdir", ("/x/y",)), ("write", ("/d/f", "wb", b"1")),
        ("listdir", ("/d",)), ("listdir", ("/d/f",)), ("scandir", ("/",)), ("rmdir", ("/d",)),
        ("unlink", ("/d",)), ("rmdir", ("/d/f",)), ("read", ("/d",)), ("write", ("/d", "wb", b"")),
        ("unlink", ("/d/f",)), ("rmdir", ("/d",)), ("stat", ("/d",)), ("mkdir", ("/d/f/g",)),
    ],
    "a path through a file is not a directory": [
        ("write", ("/f", "wb", b"x")), ("stat", ("/f/",)), ("stat", ("/f/g",)), ("mkdir", ("/f/g",)),
        ("write", ("/f/g", "wb", b"")), ("listdir", ("/f",)), ("unlink", ("/f/",)),
    ],
    "renames replace files, refuse what the kernel refuses": [
        ("write", ("/a", "wb", b"A")), ("write", ("/b", "wb", b"B")), ("replace", ("/a", "/b")),
        ("read", ("/b",)), ("stat", ("/a",)), ("mkdir", ("/d",)), ("mkdir", ("/e",)),
        ("write", ("/e/x", "wb", b"")), ("replace", ("/b", "/d")), ("replace", ("/d", "/b")),
        ("replace", ("/d", "/e")), ("replace", ("/d", "/d/sub")), ("replace", ("/e", "/d")),
        ("listdir", ("/d",)), ("replace", ("/nope", "/z")),
    ],
    "symlinks are followed, dangling ones made through, loops stopped": [
        ("mkdir", ("/d",)), ("write", ("/d/f", "wb", b"data")), ("symlink", ("d", "/l")),
        ("symlink", ("../d/f", "/d/up")), ("read", ("/l/f",)), ("read", ("/l/up",)), ("lstat", ("/l",)),
        ("stat", ("/l",)), ("readlink", ("/l",)), ("readlink", ("/d",)), ("symlink", ("x", "/l")),
        ("symlink", ("new", "/dangling")), ("stat", ("/dangling",)), ("write", ("/dangling", "wb", b"n")),
        ("read", ("/new",)), ("symlink", ("loop", "/loop")), ("stat", ("/loop",)),
        ("realpath", ("/l/f",)), ("realpath", ("/l/../l/missing/x",)), ("scandir", ("/",)),
        ("unlink", ("/l",)), ("stat", ("/d/f",)), ("mkdir", ("/dangling",)),
    ],
    "hard links share content and count their names": [
        ("write", ("/a", "wb", b"1")), ("link", ("/a", "/b")), ("stat", ("/a",)),
        ("write", ("/b", "ab", b"2")), ("read", ("/a",)), ("unlink", ("/a",)), ("stat", ("/b",)),
        ("mkdir", ("/d",)), ("link", ("/d", "/e")), ("link", ("/b", "/b")),
    ],
    "modes and access follow chmod": [
        ("write", ("/f", "wb", b"#!/bin/sh\n")), ("stat", ("/f",)), ("chmod", ("/f", 0o755)),
        ("stat", ("/f",)), ("access", ("/f", os.X_OK)), ("chmod", ("/f", 0o600)),
        ("access", ("/f", os.X_OK)), ("access", ("/f", os.R_OK)), ("access", ("/nope", os.F_OK)),
        ("mkdir", ("/d", 0o700)), ("stat", ("/d",)), ("chmod", ("/nope", 0o644)),
    ],
}


@pytest.mark.parametrize("ops", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_the_memory_tree_answers_as_the_real_directory(tmp_path: Path, ops: list[Op]) -> None:
    real, memory = fs.RealFS(), MemoryFS()
    for name, args in ops:
        expected = _call(real, str(tmp_path), name, args)
        assert _call(memory, "", name, args) == expected, (name, args)


def test_an_absolute_link_resolves_from_the_trees_own_root() -> None:
    result = run_script("mkdir d; echo hi > d/f; ln -s /d/f abs; ln -s /d dl; cat abs dl/f; realpath abs",
                        root="/", filesystem=MemoryFS())
    assert (result.stdout, result.exit_code) == (b"hi\nhi\n/d/f\n", 0)


def test_a_file_opened_for_reading_and_writing_keeps_its_content() -> None:
    memory = MemoryFS()
    with memory.open_rw("/f") as handle:
        handle.write(b"abcdef")
        handle.seek(2)
        assert handle.read(2) == b"cd"
        handle.write(b"XY")
    with memory.open("/f", "r") as text:
        assert text.read() == "abcdXY"
    assert memory.stat("/f").st_size == 6


def _loaded() -> MemoryFS:
    memory = MemoryFS()
    memory.load(["/src", "/src/old", "/tmp"], [("/src/a.txt", b"a\n", 0o644, 10**18), ("/keep", b"k", 0o644, 10**18),
                                       ("/src/gone", b"g", 0o644, 10**18)])
    return memory


def test_loading_makes_parents_of_listed_directories_reads_paths_as_the_kernel_does_and_charges_once() -> None:
    memory = MemoryFS(clock=lambda: 7)
    memory.load(["/d/e", "//a/./c/", "/a"], [("/a/f", b"x" * 5000, 0o600, 42), ("/d/e/g", b"", 0o644, 42)])
    assert sorted(memory.listdir("/a")) == ["c", "f"] and memory.listdir("/d/e") == ["g"]
    found = memory.stat("/a/f")
    assert (found.st_size, found.st_mtime_ns, found.st_mode & 0o777, found.st_nlink) == (5000, 42, 0o600, 1)
    assert memory.stat("/d").st_mtime_ns == 7 and memory.stat("/d/e").st_mtime_ns == 7
    # the root, a, a/c, d, d/e: an entry each; the files their bytes, or an entry if smaller
    assert memory.used == ENTRY_BYTES * 5 + 5000 + ENTRY_BYTES
    run_script("rm /a/f", root="/", filesystem=memory)
    assert memory.diff().deleted == ["/a/f"] and memory.diff().dirs_created == ["/d"]
    with pytest.raises(FileExistsError):
        MemoryFS().load([], [("/f", b"1", 0o644, 1), ("//f", b"2", 0o644, 1)])
    with pytest.raises(FileNotFoundError):
        MemoryFS().load([], [("/missing/f", b"1", 0o644, 1)])
    with pytest.raises(NotADirectoryError):
        MemoryFS().load([], [("/f", b"1", 0o644, 1), ("/f/g", b"2", 0o644, 1)])


def test_the_diff_names_what_the_script_changed_and_nothing_else() -> None:
    memory = _loaded()
    result = run_script("echo more >> src/a.txt; rm src/gone; rmdir src/old; mkdir -p new/deep; "
                        "echo n > new/deep/n; ln -s a.txt src/link; cat keep >/dev/null; echo t > /tmp/t",
                        root="/", filesystem=memory)
    assert result.exit_code == 0, result.stderr
    diff = memory.diff(skip=("/tmp",))
    assert diff.files == {"/src/a.txt": b"a\nmore\n", "/new/deep/n": b"n\n"}
    assert diff.deleted == ["/src/gone"]
    assert diff.dirs_created == ["/new", "/new/deep"]
    assert diff.dirs_deleted == ["/src/old"]
    assert diff.symlinks == ["/src/link"]


def test_a_file_rewritten_with_its_own_bytes_is_sent_back_and_an_untouched_one_is_not() -> None:
    memory = _loaded()
    run_script("cp keep k2; cat src/a.txt > /dev/null; printf 'a\\n' > src/a.txt", root="/", filesystem=memory)
    assert memory.diff().files == {"/k2": b"k", "/src/a.txt": b"a\n"}


def test_a_script_that_writes_past_the_byte_limit_is_stopped_and_the_limit_named() -> None:
    memory = MemoryFS(max_bytes=ENTRY_BYTES * 4 + 100_000)
    result = run_script("head -c 50000 /dev/zero > a; echo fits; head -c 80000 /dev/zero > b; echo never",
                        root="/", filesystem=memory)
    assert result.stdout == b"fits\n"
    assert b"tree_growth_bytes" in result.stderr and result.exit_code == 1
    assert memory.exceeded is not None and memory.exceeded[0] == "tree_growth_bytes"
    with pytest.raises(LimitExceeded):
        memory.mkdir("/later")  # tripped for good: nothing after counts


def test_many_empty_files_count_against_the_limit_too() -> None:
    memory = MemoryFS(max_bytes=ENTRY_BYTES * 50)
    result = run_script("for i in $(seq 100); do : > f$i; done; echo done", root="/", filesystem=memory)
    assert result.stdout == b"" and memory.exceeded is not None


def test_removing_files_gives_their_bytes_back() -> None:
    memory = MemoryFS(max_bytes=ENTRY_BYTES * 4 + 60_000)
    result = run_script("for i in 1 2 3 4 5; do head -c 50000 /dev/zero > f; rm f; done; echo ok",
                        root="/", filesystem=memory)
    assert result.stdout == b"ok\n" and memory.exceeded is None


def test_directories_deeper_than_the_limit_stop_the_script() -> None:
    memory = MemoryFS(max_depth=5)
    result = run_script("mkdir -p a/b/c/d/e && echo five; mkdir a/b/c/d/e/f; echo never",
                        root="/", filesystem=memory)
    assert result.stdout == b"five\n"
    assert b"deeper than 5 levels" in result.stderr
    assert memory.exceeded == ("max_dir_depth", 5, 6)


def test_moving_a_tree_under_another_counts_its_whole_height() -> None:
    memory = MemoryFS(max_depth=4)
    result = run_script("mkdir -p a/b/c x/y && mv a x/y/; echo never", root="/", filesystem=memory)
    assert result.stdout == b"" and memory.exceeded is not None and memory.exceeded[0] == "max_dir_depth"


@pytest.mark.parametrize("make", [lambda m: m.stat, lambda m: m.lstat, lambda m: m.listdir])
def test_a_path_with_a_nul_byte_is_refused_as_the_real_call_refuses_it(
        make: Callable[[MemoryFS], Callable[[str], object]], tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        make(MemoryFS())("/a\0b")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        os.stat(str(tmp_path) + "/a\0b")

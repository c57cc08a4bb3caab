"""Differential harness for the text commands: run one of ours in-process and the real GNU tool.

``run_ours`` drives a command generator with a ``CommandContext`` over a temporary directory;
``run_gnu`` runs the same argv with the system tool (LC_ALL=C, TZ=UTC) in an identical
directory. ``assert_same`` compares stdout, exit status, stderr emptiness and file contents.
"""

from __future__ import annotations

import io
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from bash.commands import COMMANDS
from bash.commands.base import CommandContext
from bash.commands.text.common import split_lines


@dataclass
class Outcome:
    stdout: bytes
    stderr: bytes
    status: int
    files: dict[str, bytes]


FILE_TIME = 1_700_000_000
"""Every file's mtime: the two runs (ours, GNU's) happen at different moments, and headers
such as ``diff -c``'s print the time, which must not depend on when each run wrote its files."""


def _populate(root: Path, files: dict[str, bytes | str]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        os.utime(path, (FILE_TIME, FILE_TIME))


def _snapshot(root: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


def _stdin_chunks(data: bytes, size: int = 7) -> Iterator[bytes]:
    # Small odd-sized chunks flush out code that assumes a chunk holds whole lines.
    for start in range(0, len(data), size):
        yield data[start : start + size]


def run_ours(argv: list[str], stdin: bytes = b"", files: dict[str, bytes | str] | None = None,
             limit: int | None = None, env: dict[str, str] | None = None) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _populate(root, files or {})
        err = io.BytesIO()
        ctx = CommandContext(stdin=_stdin_chunks(stdin), stderr=err, cwd="/", env=env or {},
                             root=str(root))
        gen = COMMANDS[argv[0]](ctx, argv)
        out = bytearray()
        status = 0
        try:
            while True:
                out += next(gen)
                if limit is not None and len(out) >= limit:
                    gen.close()
                    break
        except StopIteration as stop:
            status = stop.value
        return Outcome(bytes(out), err.getvalue(), status, _snapshot(root))


def run_gnu(argv: Sequence[str | bytes], stdin: bytes = b"",
            files: dict[str, bytes | str] | None = None) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _populate(root, files or {})
        env = {"LC_ALL": "C", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        proc = subprocess.run(argv, input=stdin, cwd=root, env=env, capture_output=True, timeout=10)
        return Outcome(proc.stdout, proc.stderr, proc.returncode, _snapshot(root))


def assert_same(argv: list[str], stdin: bytes | str = b"", files: dict[str, bytes | str] | None = None,
                stderr_text: bool = False) -> Outcome:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    ours = run_ours(argv, data, files)
    gnu = run_gnu(argv, data, files)
    assert ours.stdout == gnu.stdout, f"{argv}: stdout\nours={ours.stdout!r}\ngnu ={gnu.stdout!r}"
    assert ours.status == gnu.status, f"{argv}: status ours={ours.status} gnu={gnu.status} {ours.stderr!r}"
    assert bool(ours.stderr) == bool(gnu.stderr), f"{argv}: stderr ours={ours.stderr!r} gnu={gnu.stderr!r}"
    if stderr_text:
        assert ours.stderr == gnu.stderr
    assert ours.files == gnu.files
    return ours


def test_split_lines_keeps_terminators_across_chunk_boundaries() -> None:
    assert list(split_lines([b"a\nb", b"c\n", b"", b"d"])) == [b"a\n", b"bc\n", b"d"]
    assert list(split_lines([b"x\0y\0"], b"\0")) == [b"x\0", b"y\0"]

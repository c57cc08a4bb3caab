"""Shared plumbing for the text commands: input opening, ``/dev`` files, line splitting.

Options are parsed by the shell's one GNU-style parser, ``flagspec``.
"""

from __future__ import annotations

import os
import stat
from typing import Iterable, Iterator, cast

from ..base import CommandContext
from ... import fs

CHUNK = 65536


def describe_oserror(err: OSError) -> str:
    """GNU prints strerror text; Python's may differ slightly, so map by errno."""
    if err.errno is not None:
        return os.strerror(err.errno)
    return str(err)


class _FileChunks:
    """An open file read in chunks; closes itself at EOF, on ``close()`` or when dropped."""

    def __init__(self, path: str) -> None:
        self.handle = fs.open(path, "rb")

    def __iter__(self) -> "_FileChunks":
        return self

    def __next__(self) -> bytes:
        if self.handle.closed:
            raise StopIteration
        chunk = self.handle.read(CHUNK)
        if not chunk:
            self.handle.close()
            raise StopIteration
        return chunk

    def close(self) -> None:
        self.handle.close()

    def __del__(self) -> None:
        # fs.open() may have failed in __init__, leaving no handle to close.
        handle = getattr(self, "handle", None)
        if handle is not None:
            handle.close()


def _zeros() -> Iterator[bytes]:
    block = bytes(CHUNK)
    while True:
        yield block


def _random_bytes() -> Iterator[bytes]:
    while True:
        yield os.urandom(CHUNK)


def stdin_chunks(ctx: CommandContext) -> Iterator[bytes]:
    """Standard input, checking the interpreter's deadline now and then.

    A command that must read everything before writing (``sort``, ``tac``...) never yields
    while it reads, so without this an endless producer (``yes | sort``) could not be stopped
    by the script's timeout. ``extras["check_time"]`` raises when the deadline has passed.
    """
    check = ctx.extras.get("check_time")
    if not callable(check):
        yield from ctx.stdin
        return
    for count, chunk in enumerate(ctx.stdin):
        if count % 16 == 15:
            check()
        yield chunk


def special_device(ctx: CommandContext, name: str) -> Iterator[bytes] | None:
    """The sandbox's ``/dev`` files as inputs: null, zero, urandom, stdin and ``/dev/fd/N``.

    ``/dev/fd/N`` reads the interpreter's descriptor table (``extras["io"].fds``), which is
    also how process substitution hands a command its pipe; None when ``name`` is no device.
    """
    if not name.startswith("/dev/"):
        return None
    if name == "/dev/null":
        return iter(())
    if name == "/dev/zero":
        return _zeros()
    if name in ("/dev/urandom", "/dev/random"):
        return _random_bytes()
    if name in ("/dev/stdin", "/dev/fd/0"):
        return stdin_chunks(ctx)
    if name.startswith("/dev/fd/") and (name[8:].isascii() and name[8:].isdigit()):
        pipe = ctx.open_pipe(name, "r")
        if pipe is not None:
            return cast("Iterator[bytes]", pipe)  # a process substitution's chunks
        fds = getattr(ctx.extras.get("io"), "fds", None)
        stream = fds.get(int(name[8:])) if isinstance(fds, dict) else None
        chunks = getattr(stream, "chunks", None)
        if callable(chunks):
            source: Iterator[bytes] = iter(chunks())
            return source
    return None


def is_device(name: str) -> bool:
    return name.startswith("/dev/")


def open_input(ctx: CommandContext, name: str) -> Iterator[bytes]:
    """Open ``name`` (``-`` is stdin) for reading; errors surface here, before any output."""
    if name == "-":
        return stdin_chunks(ctx)
    device = special_device(ctx, ctx.resolve(name))
    if device is not None:
        return device
    path = ctx.host_path(name)
    if fs.isdir(path):
        raise IsADirectoryError(21, "Is a directory")
    return _FileChunks(path)


def files0_names(ctx: CommandContext, source: str) -> tuple[list[str], bool]:
    """The names ``--files0-from=source`` lists, each ended by a NUL (the last one may lack
    it), and whether the list is a regular file (GNU then sizes wc's columns from the files
    it names); ``-`` is stdin. An ``OSError`` when the list cannot be read."""
    if source == "-":
        regular = stdin_regular_file(ctx) is not None
        data = b"".join(stdin_chunks(ctx))
    else:
        data = b"".join(open_input(ctx, source))
        device = special_device(ctx, ctx.resolve(source)) is not None
        regular = not device and stat.S_ISREG(fs.stat(ctx.host_path(source)).st_mode)
    names = data.split(b"\0")
    if names[-1] == b"":
        names.pop()
    return [name.decode("utf-8", "surrogateescape") for name in names], regular


def _stdin_stream(ctx: CommandContext) -> object | None:
    io = ctx.extras.get("io")
    opener = getattr(io, "stdin", None)
    try:
        return opener() if callable(opener) else None
    except (TypeError, ValueError):
        return None


def stdin_regular_file(ctx: CommandContext) -> os.stat_result | None:
    """fstat of stdin when the interpreter redirected it from a regular file, else None.

    Relies on the interpreter's ``extras["io"].stdin().handle`` (the file opened for ``<``);
    any other shape of extras just means "not a regular file" (a pipe, a heredoc...).
    """
    handle = getattr(_stdin_stream(ctx), "handle", None)
    if handle is None:
        return None
    try:
        st = fs.fstat(handle)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def give_back_stdin(ctx: CommandContext, unread: bytes) -> None:
    """Return bytes read past the point a command stopped, when stdin is a regular file.

    GNU ``head`` (and ``grep -m``) lseek a seekable stdin back to just after what they used,
    so ``{ head -n1; sort; } < file`` sorts the rest. On a pipe the surplus is lost, as in GNU.
    """
    if not unread or stdin_regular_file(ctx) is None:
        return
    stream = _stdin_stream(ctx)
    push_back = getattr(stream, "push_back", None)
    if callable(push_back):
        push_back(unread)


def split_lines(chunks: Iterable[bytes], sep: bytes = b"\n") -> Iterator[bytes]:
    """Lines keeping their terminator; a final unterminated line is yielded as is."""
    pending = b""
    for chunk in chunks:
        if not chunk:
            continue
        pending = pending + chunk if pending else chunk
        start = 0
        while True:
            cut = pending.find(sep, start)
            if cut < 0:
                break
            yield pending[start : cut + 1]
            start = cut + 1
        pending = pending[start:]
    if pending:
        yield pending


def line_batches(chunks: Iterable[bytes], sep: bytes = b"\n") -> Iterator[list[bytes]]:
    """Lists of complete lines *without* their terminator, one list per input chunk.

    Every line in a batch was terminated by ``sep`` except possibly the very last line of
    the input, which comes alone in a final batch flagged by ``UNTERMINATED``.
    Whole-batch processing keeps per-line Python overhead low on large inputs.
    """
    pending = b""
    for chunk in chunks:
        if not chunk:
            continue
        data = pending + chunk if pending else chunk
        lines = data.split(sep)
        pending = lines.pop()
        if lines:
            yield lines
    if pending:
        yield [pending, UNTERMINATED]


UNTERMINATED = b"\x00<unterminated>"
"""Marker appended to the final batch when the input does not end with the separator."""


def arg_bytes(text: str) -> bytes:
    """Command-line text back to the bytes the user typed (argv is decoded with surrogateescape)."""
    return text.encode("utf-8", "surrogateescape")


def arg_latin(text: str) -> str:
    """A command-line string as the latin-1 text our byte-oriented matching uses."""
    return arg_bytes(text).decode("latin-1")


class Batcher:
    """Collects small output pieces and hands them out in chunks of a useful size."""

    def __init__(self, limit: int = 16384) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.limit = limit

    def add(self, data: bytes) -> bytes | None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.limit:
            return self.take()
        return None

    def take(self) -> bytes:
        out = b"".join(self.parts)
        self.parts = []
        self.size = 0
        return out

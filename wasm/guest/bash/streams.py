"""File descriptors of the interpreter: output sinks, the capped result buffers, and a
pull-based input stream that ``read`` can consume byte-exactly.

Output of a generator context (a pipeline stage, ``$(...)``, the whole script) goes to a
``Channel``: whatever is written there is yielded by the running generator at its next
chance, which is what lets ``2>&1 | grep`` and ``>&2`` interleave in order.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import IO as TextIO
from typing import BinaryIO, Iterator, Union
from . import fs


class Channel:
    """Bytes waiting to be yielded by the generator that owns this channel."""

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf: list[bytes] = []

    def write(self, data: bytes) -> int:
        if data:
            self.buf.append(data)
        return len(data)

    def take(self) -> bytes:
        data = b"".join(self.buf)
        self.buf.clear()
        return data


class CappedBuffer:
    """The script's final stdout or stderr: keeps the first ``limit`` bytes, counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.kept = 0
        self.total = 0

    def write(self, data: bytes) -> int:
        self.total += len(data)
        room = self.limit - self.kept
        if room > 0:
            piece = data[:room]
            self.parts.append(piece)
            self.kept += len(piece)
        return len(data)

    @property
    def truncated(self) -> bool:
        return self.total > self.limit

    def result(self) -> bytes:
        data = b"".join(self.parts)
        if self.truncated:
            data += f"\n... ({self.total} bytes truncated)".encode()  # the reference format: total size
        return data


class NullSink:
    def write(self, data: bytes) -> int:
        return len(data)


class FileSink:
    """An output redirection to a real file (opened by the redirection, closed after)."""

    def __init__(self, handle: BinaryIO, path: str) -> None:
        self.handle = handle
        self.path = path
        self.closed = False

    def write(self, data: bytes) -> int:
        if self.closed:
            return 0
        self.handle.write(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.handle.close()


class ClosedFd:
    """``>&-``: writes fail silently (bash reports EBADF; we drop the bytes)."""

    def write(self, data: bytes) -> int:
        return 0


class InputStream:
    """Standard input: chunks pulled lazily from a source, with push-back for ``read``.

    What is not consumed yet is ``pending[start:]``: ``read`` takes a line at a time, and
    cutting each line off the front of a large input (a here-string, ``stdin``) copied the
    rest of it every time."""

    __slots__ = ("source", "pending", "start", "done", "handle")

    def __init__(self, source: Iterator[bytes] | None = None, data: bytes = b"", handle: TextIO[bytes] | None = None) -> None:
        self.source = source
        self.pending = data
        self.start = 0
        self.done = source is None
        self.handle = handle

    @classmethod
    def empty(cls) -> "InputStream":
        return cls()

    def _pull(self) -> bool:
        if self.done or self.source is None:
            return False
        try:
            chunk = next(self.source)
        except StopIteration:
            self.done = True
            return False
        self.pending = self.pending[self.start:] + chunk
        self.start = 0
        return True

    def _take(self, end: int) -> bytes:
        """The unconsumed bytes up to ``end`` (an index into ``pending``), consumed."""
        data = self.pending[self.start:end]
        if end >= len(self.pending):
            self.pending, self.start = b"", 0
        else:
            self.start = end
        return data

    def push_back(self, data: bytes) -> None:
        """Make ``data`` the next bytes read (a command gives back what it read too far)."""
        self.pending = data + self.pending[self.start:]
        self.start = 0

    def chunks(self) -> Iterator[bytes]:
        """Everything not consumed yet, chunk by chunk (what a command's ``ctx.stdin`` is)."""
        while True:
            if self.start < len(self.pending):
                yield self._take(len(self.pending))
                continue
            if not self._pull():
                return

    def read_until(self, delim: bytes | None, limit: int | None = None) -> tuple[bytes, bool]:
        """Read up to and including ``delim`` (or ``limit`` bytes); (data, hit-end-of-input)."""
        while True:
            start = self.start
            if limit is not None and len(self.pending) - start >= limit and (
                    delim is None or self.pending.find(delim, start, start + limit) < 0):
                return self._take(start + limit), False
            if delim is not None:
                cut = self.pending.find(delim, start)
                if cut >= 0 and (limit is None or cut - start < limit):
                    return self._take(cut + len(delim)), False
            if not self._pull():
                return self._take(len(self.pending)), True

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None
        source = self.source
        if source is not None and hasattr(source, "close"):
            source.close()


def can_access(path: str, mode: int, modes: dict[str, int] | None = None) -> bool:
    """May the script's user read, write or execute ``path``?

    ``modes`` holds the permission bits ``chmod`` set during this run (WASI has no
    permission model, so ``chmod`` keeps them there); the script's user owns every file,
    so the owner bits decide. Without an entry: ``os.access`` where the platform has a
    permission model (the memory tree has one); under WASI's real directory the defaults a fresh file has here (0644, directories
    0755)."""
    owner_bit = {os.R_OK: 0o400, os.W_OK: 0o200, os.X_OK: 0o100}.get(mode, 0o700)
    try:
        st_mode = fs.stat(path).st_mode
    except OSError:
        return False
    if modes:
        bits = modes.get(os.path.normpath(path))
        if bits is not None:
            return bool(int(bits) & owner_bit)
    if sys.platform == "wasi" and isinstance(fs.current(), fs.RealFS):
        return bool((0o755 if stat.S_ISDIR(st_mode) else 0o644) & owner_bit)
    try:
        return fs.access(path, mode)
    except OSError:
        return False


def read_file_chunks(handle: BinaryIO, size: int = 65536) -> Iterator[bytes]:
    try:
        while True:
            chunk = handle.read(size)
            if not chunk:
                return
            yield chunk
    finally:
        handle.close()


Fd = Union[Channel, CappedBuffer, NullSink, FileSink, ClosedFd, InputStream]

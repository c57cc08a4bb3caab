"""The gzip file format: one member written as GNU gzip lays it out, any number read back.

Compression uses zlib with gzip's own parameters (raw deflate, window 15, memLevel 8), so
the bytes match GNU gzip's whenever the header fields (name, mtime) do.
"""

from __future__ import annotations

import struct
import zlib
from typing import Iterable, Iterator


class GzipFormatError(Exception):
    """Input is not gzip data; ``message`` is GNU's wording."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def gzip_compress(data: bytes, level: int = 6, name: str | None = None, mtime: int = 0) -> bytes:
    """A single-member gzip file laid out as GNU gzip writes it."""
    flags = 0x08 if name else 0
    xfl = 2 if level == 9 else (4 if level == 1 else 0)
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime & 0xFFFFFFFF)
    header += bytes([xfl, 3])
    if name:
        header += name.encode("latin-1", "replace") + b"\0"
    comp = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
    body = comp.compress(data) + comp.flush()
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return header + body + trailer


def gzip_decompress(data: bytes) -> bytes:
    """Decompress every member of a gzip stream (trailing zero padding is allowed)."""
    if len(data) < 2:
        raise GzipFormatError("unexpected end of file")
    if data[:2] != b"\x1f\x8b":
        raise GzipFormatError("not in gzip format")
    out: list[bytes] = []
    pos = 0
    while pos < len(data):
        if data[pos : pos + 2] != b"\x1f\x8b":
            if data[pos:].strip(b"\0") == b"":
                break
            raise GzipFormatError("decompression OK, trailing garbage ignored")
        pos = header_end(data, pos)
        engine = zlib.decompressobj(-15)
        try:
            chunk = engine.decompress(data[pos:])
        except zlib.error:
            raise GzipFormatError("invalid compressed data--format violated") from None
        if not engine.eof:
            raise GzipFormatError("unexpected end of file")
        rest = engine.unused_data
        if len(rest) < 8:
            raise GzipFormatError("unexpected end of file")
        crc, size = struct.unpack("<II", rest[:8])
        if crc != zlib.crc32(chunk) & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--crc error")
        if size != len(chunk) & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--length error")
        out.append(chunk)
        pos = len(data) - len(rest) + 8
    return b"".join(out)


def header_end(data: bytes, pos: int) -> int:
    if len(data) < pos + 10:
        raise GzipFormatError("unexpected end of file")
    if data[pos + 2] != 8:
        raise GzipFormatError(f"unknown method {data[pos + 2]} -- not supported")
    flags = data[pos + 3]
    cursor = pos + 10
    if flags & 0x04:
        if len(data) < cursor + 2:
            raise GzipFormatError("unexpected end of file")
        cursor += 2 + struct.unpack("<H", data[cursor : cursor + 2])[0]
    for bit in (0x08, 0x10):
        if flags & bit:
            end = data.find(b"\0", cursor)
            if end < 0:
                raise GzipFormatError("unexpected end of file")
            cursor = end + 1
    if flags & 0x02:
        cursor += 2
    return cursor


def member_info(data: bytes) -> tuple[int, int, int]:
    """(crc, uncompressed size, mtime) from a gzip file's header and trailer."""
    mtime = struct.unpack("<I", data[4:8])[0] if len(data) >= 8 else 0
    if len(data) < 18:
        return 0, 0, mtime
    crc, size = struct.unpack("<II", data[-8:])
    return crc, size, mtime


# --- streaming ---------------------------------------------------------------------------
# Pipelines must not wait for the end of their input (``yes | gzip | head -c 100``), so the
# commands compress and decompress chunk by chunk with these.


def compress_stream(
    chunks: Iterable[bytes], level: int = 6, name: str | None = None, mtime: int = 0
) -> Iterator[bytes]:
    """The gzip file ``gzip_compress`` would write, produced as the input arrives."""
    flags = 0x08 if name else 0
    xfl = 2 if level == 9 else (4 if level == 1 else 0)
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime & 0xFFFFFFFF)
    header += bytes([xfl, 3])
    if name:
        header += name.encode("latin-1", "replace") + b"\0"
    yield header
    comp = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
    crc = 0
    size = 0
    for chunk in chunks:
        crc = zlib.crc32(chunk, crc)
        size += len(chunk)
        out = comp.compress(chunk)
        if out:
            yield out
    yield comp.flush() + struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF)


class _Reader:
    """A byte buffer over an iterator of chunks, refilled on demand."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self.chunks = iter(chunks)
        self.buf = b""
        self.eof = False

    def fill(self, size: int) -> bool:
        """Ensure ``size`` bytes are buffered; False if the input ends first."""
        while len(self.buf) < size and not self.eof:
            chunk = next(self.chunks, None)
            if chunk is None:
                self.eof = True
            else:
                self.buf += chunk
        return len(self.buf) >= size

    def take(self) -> bytes:
        """Everything buffered, or else the next non-empty chunk (b"" at the end)."""
        data, self.buf = self.buf, b""
        while not data and not self.eof:
            chunk = next(self.chunks, None)
            if chunk is None:
                self.eof = True
            else:
                data = chunk
        return data


def decompress_stream(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Decompress gzip members as they arrive; raises GzipFormatError like gzip_decompress."""
    reader = _Reader(chunks)
    first = True
    while True:
        if not reader.fill(2):
            if first or reader.buf:
                raise GzipFormatError("unexpected end of file")
            return
        if reader.buf[:2] != b"\x1f\x8b":
            if first:
                raise GzipFormatError("not in gzip format")
            while reader.fill(len(reader.buf) + 1):
                pass
            if reader.buf.strip(b"\0") == b"":
                return
            raise GzipFormatError("decompression OK, trailing garbage ignored")
        while True:
            try:
                start = header_end(reader.buf, 0)
                break
            except GzipFormatError as err:
                if err.message != "unexpected end of file" or not reader.fill(len(reader.buf) + 1):
                    raise
        reader.buf = reader.buf[start:]
        engine = zlib.decompressobj(-15)
        crc = 0
        size = 0
        while not engine.eof:
            data = reader.take()
            if not data:
                raise GzipFormatError("unexpected end of file")
            try:
                out = engine.decompress(data)
            except zlib.error:
                raise GzipFormatError("invalid compressed data--format violated") from None
            if out:
                crc = zlib.crc32(out, crc)
                size += len(out)
                yield out
        reader.buf = engine.unused_data
        if not reader.fill(8):
            raise GzipFormatError("unexpected end of file")
        want_crc, want_size = struct.unpack("<II", reader.buf[:8])
        if want_crc != crc & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--crc error")
        if want_size != size & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--length error")
        reader.buf = reader.buf[8:]
        first = False

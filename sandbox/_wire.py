"""Frames on the pipe between the service and a worker: a 4-byte length, then JSON; a
message with ``"tail": N`` is followed by N raw parts, each a 4-byte length and its bytes.

Messages (``op`` names the kind):
    worker -> service   {"op": "ready", "pid"}
    service -> worker   {"op": "run", "export", "limits", "preopens", "tail": 1}
                        tail: the request's UTF-8 text
    worker -> service   {"op": "call", "name", "payload"}          a host call
    service -> worker   {"op": "reply", "ok": str} | {"op": "reply", "err": str}
                        | {"op": "abort", "trap": {"kind", "message"}}
                        any of them may add "uncharged_s": float > 0, seconds the call
                        spent waiting (not running): the worker moves its deadline later
    worker -> service   {"op": "done", "host_calls", "files": [path, ...], "tail": 1 + len(files)}
                        tail: the response's UTF-8 text, then each of ``files``' bytes
                        (see ``sandbox.file_contents``)
                        | {"op": "failed", "trap": {...}}

Why raw parts: a request or response is JSON text of its own, up to hundreds of megabytes
for a bash tree; carried inside the frame's JSON it was escaped and unescaped a second
time, on the service's event loop, which then answered nothing else (a 100 MB tree held it
for 1.6 s). A part is copied, never parsed, and a reader reads it as it arrives.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Sequence
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 256 * 1024 * 1024
"""Largest frame either side accepts, its raw parts included; a bigger one means a broken or
hostile peer."""
MAX_TAIL_PARTS = 1 << 20
"""Most raw parts one message may announce."""
_SMALL_TAIL = 64 * 1024
"""Below this, a frame's parts are joined and written at once (one system call)."""

Part = bytes | bytearray | memoryview
Tail = Sequence[Part | Sequence[Part]]
"""A message's raw parts; a part may be given as pieces, written one after another."""


_FRAME_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""Made once: ``json.dumps`` with options makes an encoder per frame (two frames a host call)."""


class WireError(Exception):
    """The pipe closed or carried something that is not a frame."""


def encode(message: dict[str, Any]) -> bytes:
    if "tail" in message:
        raise WireError("a message's tail is sent with encode_with_tail")
    return _framed(message)


def _framed(message: dict[str, Any]) -> bytes:
    body = _FRAME_ENCODER.encode(message).encode("utf-8", "surrogatepass")
    if len(body) > MAX_FRAME:
        raise WireError(f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def encode_with_tail(message: dict[str, Any], tail: Tail) -> list[Part]:
    """``message`` and its raw parts, as the buffers to write in order (one, when small)."""
    if "tail" in message:
        raise WireError("the message already has a tail")
    pieces: list[Part] = [_framed({**message, "tail": len(tail)})]
    total = 0
    for part in tail:
        chunks = [part] if isinstance(part, (bytes, bytearray, memoryview)) else list(part)
        size = sum(len(chunk) for chunk in chunks)
        total += size
        pieces.append(HEADER.pack(size))
        pieces.extend(chunks)
    if total > MAX_FRAME or len(tail) > MAX_TAIL_PARTS:
        raise WireError(f"a tail of {len(tail)} parts and {total} bytes exceeds the limit")
    if total < _SMALL_TAIL:
        return [b"".join(pieces)]
    return pieces


def tail_count(message: dict[str, Any]) -> int:
    """How many raw parts follow ``message``; a count out of bounds is the peer's error."""
    count = message.get("tail", 0)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_TAIL_PARTS:
        raise WireError("frame announces an impossible tail")
    return count


def tail_of(message: dict[str, Any]) -> list[bytes]:
    """The raw parts a reader put in ``message`` (none when it announced none)."""
    parts = message.get("tail")
    return parts if isinstance(parts, list) else []


def text_of(part: bytes, what: str) -> str:
    """A raw part that carries text (a run's request, its response), decoded."""
    try:
        return part.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError as exc:
        raise WireError(f"{what} is not UTF-8 text: {exc}") from None


def part_size(header: bytes, budget: int) -> int:
    """A raw part's size from its header; more than the frame's ``budget`` left is refused."""
    (size,) = HEADER.unpack(header)
    if size > budget:
        raise WireError(f"a frame's parts exceed {MAX_FRAME} bytes")
    return int(size)


def decode(body: bytes) -> dict[str, Any]:
    try:
        message = json.loads(body)
    except ValueError as exc:
        raise WireError(f"frame is not JSON: {exc}") from exc
    if not isinstance(message, dict) or "op" not in message:
        raise WireError("frame is not a message")
    return message


def read_exactly(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise WireError("pipe closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> dict[str, Any]:
    """Blocking read of one frame (the worker side); a tail's parts replace its count."""
    (size,) = HEADER.unpack(read_exactly(fd, HEADER.size))
    if size > MAX_FRAME:
        raise WireError(f"frame of {size} bytes exceeds {MAX_FRAME}")
    message = decode(read_exactly(fd, size))
    count = tail_count(message)
    if count:
        budget, parts = MAX_FRAME, []
        for _ in range(count):
            part = read_exactly(fd, part_size(read_exactly(fd, HEADER.size), budget))
            budget -= len(part)
            parts.append(part)
        message["tail"] = parts
    return message


def write_frame(fd: int, message: dict[str, Any], tail: Tail | None = None) -> None:
    if tail is None:
        write_encoded(fd, encode(message))
        return
    for piece in encode_with_tail(message, tail):
        write_encoded(fd, piece)


def write_encoded(fd: int, frame: Part) -> None:
    """Write a frame made by ``encode`` (so a caller can refuse a too-large one first)."""
    data = memoryview(frame)
    while data:
        written = os.write(fd, data)
        data = data[written:]

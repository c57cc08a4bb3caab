"""Frames on the pipe between the service and a worker: a 4-byte length, then JSON.

Messages (``op`` names the kind):
    worker -> service   {"op": "ready", "pid"}
    service -> worker   {"op": "run", "export", "request", "limits", "preopens"}
    worker -> service   {"op": "call", "name", "payload"}          a host call
    service -> worker   {"op": "reply", "ok": str} | {"op": "reply", "err": str}
                        | {"op": "abort", "trap": {"kind", "message"}}
                        any of them may add "uncharged_s": float > 0, seconds the call
                        spent waiting (not running): the worker moves its deadline later
    worker -> service   {"op": "done", "response": str} | {"op": "failed", "trap": {...}}
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 256 * 1024 * 1024
"""Largest frame either side accepts; a bigger one means a broken or hostile peer."""


class WireError(Exception):
    """The pipe closed or carried something that is not a frame."""


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":")).encode("utf-8", "surrogatepass")
    if len(body) > MAX_FRAME:
        raise WireError(f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


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
    """Blocking read of one frame (the worker side)."""
    (size,) = HEADER.unpack(read_exactly(fd, HEADER.size))
    if size > MAX_FRAME:
        raise WireError(f"frame of {size} bytes exceeds {MAX_FRAME}")
    return decode(read_exactly(fd, size))


def write_frame(fd: int, message: dict[str, Any]) -> None:
    write_encoded(fd, encode(message))


def write_encoded(fd: int, frame: bytes) -> None:
    """Write a frame made by ``encode`` (so a caller can refuse a too-large one first)."""
    data = memoryview(frame)
    while data:
        written = os.write(fd, data)
        data = data[written:]

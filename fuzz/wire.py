"""Target ``wire``: arbitrary bytes as what a worker or the service reads off the pipe
between them (``sandbox._wire``): the bytes as one frame body (``decode``), and as a stream
of length-prefixed frames through a real pipe (``read_frame``).

A finding: an exception other than ``WireError`` (a ``RecursionError`` from deep nesting
included: the pipe's peer may be a hostile guest's worker); a decoded message that is not a
dict with an ``op``; a decoded message that does not survive ``encode`` and ``decode``
unchanged (compared as encoded bytes); more frames read than the bytes could hold. A
message whose ``tail`` announces raw parts is read with them from the pipe (their count and
sizes bounded, or a ``WireError``); such a message is sent with ``encode_with_tail`` only,
so ``encode`` refusing it is no finding.
"""

from __future__ import annotations

import os

from sandbox._wire import HEADER, WireError, decode, encode, read_frame

from ._harness import Finding, allow

MAX_LEN = 8192


def _round_trip(message: dict[str, object]) -> None:
    if not isinstance(message, dict) or "op" not in message:
        raise Finding(f"decode returned {type(message).__name__} without an op")
    frame = allow(lambda: encode(message), (WireError,))
    if frame is None:
        return
    again = allow(lambda: decode(frame[HEADER.size:]), (WireError,))
    if again is None or encode(again) != frame:
        raise Finding("a decoded message does not survive encode and decode")


def _stream(data: bytes) -> None:
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, data)
        os.close(write_fd)
        write_fd = -1
        frames = 0
        while True:
            message = allow(lambda: read_frame(read_fd), (WireError,))
            if message is None:
                break
            frames += 1
            if frames * HEADER.size > len(data):
                raise Finding(f"{frames} frames read from {len(data)} bytes")
            _round_trip(message)
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)


def one_input(data: bytes) -> None:
    message = allow(lambda: decode(data), (WireError,))
    if message is not None:
        _round_trip(message)
    _stream(data[:60_000])  # a pipe holds 64 KiB; more would block the writer

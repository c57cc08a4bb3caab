"""What both implementations of ``Database.notify`` and ``Database.listen`` share: the
channel-name rule, the payload limit, and :class:`Inbox`, the bounded queue a listener reads.

A listener reads payload strings, and ``None`` where notifications may have been missed
(the listening connection was lost and made again, or the reader fell so far behind that the
inbox dropped some): the reader then catches up from the tables, which is why payloads are
ids of rows, never the data itself.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import deque

__all__ = ["MAX_PAYLOAD_BYTES", "Inbox", "check_channel", "check_payload"]

MAX_PAYLOAD_BYTES = 7999
"""PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; SQLite keeps the same limit so
code tested on one backend does not break on the other."""

_CHANNEL = re.compile(r"[a-z][a-z0-9_]{0,39}")


def check_channel(channel: str) -> str:
    """``channel`` if it is a name of ours (lower case, digits, ``_``; at most 40), else ValueError."""
    if not isinstance(channel, str) or not _CHANNEL.fullmatch(channel):
        raise ValueError(f"a channel is 1-40 of a-z, 0-9 and _, starting with a letter: {channel!r}")
    return channel


def check_payload(payload: str) -> str:
    if len(payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"a notification payload is at most {MAX_PAYLOAD_BYTES} bytes: send ids, "
                         "let the reader fetch the rows")
    return payload


class Inbox:
    """Notifications for one listener, oldest first, at most ``limit`` held.

    ``put`` may be called from any thread; the reader iterates on its event loop. When full,
    the oldest payloads are dropped and a ``None`` is queued in their place.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self._items: deque[str | None] = deque()
        self._limit = limit
        self._lock = threading.Lock()
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._waiter: asyncio.Future[None] | None = None
        self._closed = False

    def put(self, payload: str | None) -> None:
        with self._lock:
            if self._closed:
                return
            if len(self._items) >= self._limit:
                while len(self._items) >= self._limit - 1:
                    self._items.popleft()
                self._items.append(None)
            self._items.append(payload)
            waiter = self._waiter
        if waiter is not None:
            if threading.get_ident() == self._thread:
                _wake(waiter)
            else:
                try:
                    self._loop.call_soon_threadsafe(_wake, waiter)
                except RuntimeError:  # the reader's loop is gone: nobody to wake
                    pass

    def close(self) -> None:
        with self._lock:
            self._closed = True
            waiter = self._waiter
        if waiter is not None:
            _wake(waiter)

    def __aiter__(self) -> Inbox:
        return self

    async def __anext__(self) -> str | None:
        while True:
            with self._lock:
                if self._items:
                    return self._items.popleft()
                if self._closed:
                    raise StopAsyncIteration
                waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                with self._lock:
                    if self._waiter is waiter:
                        self._waiter = None


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)

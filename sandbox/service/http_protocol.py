"""The HTTP connection's protocol: uvicorn's httptools one, writing a response's head and
its body in one write.

Why: uvicorn writes a response's status line and headers to the socket as soon as the app
sends ``http.response.start``, and its body in a second write. A write to a socket whose
reader is asleep wakes that reader, which on this kind of machine (a virtual machine, where
waking a task on the other CPU is dear) costs the writer about 0.1 ms; a client that reads
the head and then waits for the body is woken twice. Measured with a profiler in the service,
a small bash call over a kept-alive connection: the two writes took 0.21 ms of the main
thread's 1.1 ms per request.

So the connection's transport holds a response head back until the next write (the body,
sent by the same task in the same turn of the event loop), and writes the two as one; a head
with nothing after it in that turn (a streamed response, an interim ``100 Continue``) is
written at the end of the turn, so nothing waits longer than the loop takes to come round.
Everything else the transport does is the transport's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["OneWriteResponses", "OneWriteTransport"]

_HEAD = b"HTTP/"


class OneWriteTransport:
    """A transport whose response heads wait for what follows them in the same loop turn."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._head: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._head is not None:
            head, self._head = self._head, None
            self._transport.write(head + bytes(data))
        elif bytes(data[:len(_HEAD)]) == _HEAD:
            self._head = bytes(data)
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def flush(self) -> None:
        """Write a head still held (the end of the loop turn it was written in)."""
        head, self._head = self._head, None
        if head is not None and not self._transport.is_closing():
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteResponses(HttpToolsProtocol):
    """uvicorn's httptools protocol over a ``OneWriteTransport`` (``uvicorn.run(http=...)``)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneWriteTransport(transport, self.loop))  # type: ignore[arg-type]

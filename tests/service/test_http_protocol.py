"""A response's head and body leave in one write; nothing is reordered, held or lost."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import uvicorn

from benchmarks.measuring import free_port
from sandbox.service import OneWriteResponses
from sandbox.service.http_protocol import OneWriteTransport


class Recorded:
    """The transport underneath: what reached it, write by write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False
        self.eof = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def write_eof(self) -> None:
        self.eof = True

    def get_extra_info(self, name: str) -> Any:
        return f"extra:{name}"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


async def test_a_head_and_the_body_after_it_in_the_same_turn_are_one_write() -> None:
    below = Recorded()
    transport = OneWriteTransport(below, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(HEAD)
    assert below.writes == []
    transport.write(b"ok")
    assert below.writes == [HEAD + b"ok"]
    await asyncio.sleep(0)  # the end-of-turn flush finds nothing left to write
    assert below.writes == [HEAD + b"ok"]


async def test_a_head_alone_is_written_when_the_loop_turn_ends() -> None:
    below = Recorded()
    transport = OneWriteTransport(below, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    await asyncio.sleep(0)
    assert below.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    transport.write(b"chunk")  # a streamed body's later chunks go as they come
    assert below.writes[-1] == b"chunk"


async def test_closing_writes_a_held_head_first_and_other_calls_reach_the_transport() -> None:
    below = Recorded()
    transport = OneWriteTransport(below, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(memoryview(HEAD))
    transport.close()
    assert below.writes == [HEAD] and below.closed
    assert transport.get_extra_info("peername") == "extra:peername"
    await asyncio.sleep(0)
    assert below.writes == [HEAD]  # not written twice, nor after the close


async def test_write_eof_writes_a_held_head_first() -> None:
    below = Recorded()
    transport = OneWriteTransport(below, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(HEAD)
    transport.write_eof()
    assert below.writes == [HEAD] and below.eof


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    body = b"x" * int(scope["path"].strip("/") or 0)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@pytest.mark.parametrize("size", [0, 10, 200_000])
async def test_a_real_server_answers_each_request_whole_with_the_protocol(size: int) -> None:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=OneWriteResponses,
                                           log_level="warning", lifespan="off"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(3):  # kept alive: each answer is whole and in order
            writer.write(f"GET /{size} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 OK\r\n") and f"content-length: {size}".encode() in head
            assert await reader.readexactly(size) == b"x" * size
        writer.close()
    finally:
        server.should_exit = True
        await serving

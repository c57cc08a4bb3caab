"""Run an ASGI app (the service, a test tool endpoint) on a free local port in a thread, and
the few ASGI helpers a hand-written test endpoint needs.

Shared by tests in every directory (``tests/`` is on ``sys.path`` through pytest's ``pythonpath``)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import uvicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerThread:
    """``with ServerThread(app) as live:`` serves ``app`` at ``live.url`` until the block ends."""

    def __init__(self, app: Any, port: int | None = None) -> None:
        self.port = port or free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="on",
                                                    # a client's open event stream (an MCP
                                                    # session's GET) would hold shut-down
                                                    # forever; uvicorn cancels it after this
                                                    timeout_graceful_shutdown=1,
                                                    # uvicorn closes a connection idle for
                                                    # 5 s by default, and a client may reuse
                                                    # it just then ("Server disconnected
                                                    # without sending a response"): on a
                                                    # loaded machine a test's pause can be
                                                    # that long
                                                    timeout_keep_alive=300))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


async def serve_lifespan(receive: Any, send: Any) -> None:
    """Answer an ASGI ``lifespan`` scope: start-up and shut-down always succeed."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        else:
            await send({"type": "lifespan.shutdown.complete"})
            return


async def read_body(receive: Any) -> bytes:
    """The whole body of an ASGI ``http`` request."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def send_json(send: Any, status: int, payload: Any) -> None:
    data = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": data})

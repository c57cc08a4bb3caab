"""``/mcp``: the route, and the MCP server behind it, started by the first request.

The server itself (its tools, their results, the SDK's session manager) is
:mod:`.mcp_server`. It is imported when ``/mcp`` is first asked, not when the service starts:
the SDK's protocol models cost about 1.5 s to import on this project's 2-core machine, which
every start of the service paid (and every restart after a crash, before recovery could
begin), while many deployments never serve MCP. The import runs in a thread, so requests
on other routes go on while it does; requests to ``/mcp`` arriving meanwhile wait for it.
The session manager then runs until the app's lifespan ends.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from .errors import error_response
from .settings import Settings

__all__ = ["MCP_PATH", "install_mcp", "serve_mcp_stdio"]

log = logging.getLogger("sandbox.service")

MCP_PATH = "/mcp"
SERVER_MODULE = "sandbox.service.mcp_server"


class _Server:
    """The SDK's session manager of one running app: started once, by the first request
    that needs it, inside a task of its own (the SDK's task group must be left by the task
    that entered it), and stopped by :meth:`close`."""

    def __init__(self, app: FastAPI, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self._started: asyncio.Future[Any] | None = None
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def manager(self) -> Any:
        """The running session manager; raises what stopped it from starting."""
        if self._started is None or (self._task is not None and self._task.done()):
            loop = asyncio.get_running_loop()
            self._started = loop.create_future()
            self._task = loop.create_task(self._run(self._started))
        return await asyncio.shield(self._started)

    async def _run(self, started: asyncio.Future[Any]) -> None:
        try:
            server = await asyncio.to_thread(importlib.import_module, SERVER_MODULE)
            manager = server.session_manager(self.app, self.settings)
            async with manager.run():
                started.set_result(manager)
                await self._stopping.wait()
        except Exception as exc:
            # Either way the next request starts it again (``manager`` sees this task done).
            if started.done():
                log.exception("the MCP server stopped")
                return
            log.exception("the MCP server could not start")
            started.set_exception(exc)
            started.exception()  # retrieved here too: no request may be waiting

    async def close(self) -> None:
        self._stopping.set()
        if self._task is not None:
            await asyncio.wait([self._task])


class _Endpoint:
    """``/mcp`` as plain ASGI: the running app's session manager, or 503."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = getattr(self.app.state, "mcp_server", None)
        if not isinstance(server, _Server):
            await error_response(503, "unavailable", "the MCP server is not running")(scope, receive, send)
            return
        try:
            manager = await server.manager()
        except Exception:
            await error_response(503, "unavailable", "the MCP server could not start; the "
                                 "service's log says why")(scope, receive, send)
            return
        await manager.handle_request(scope, receive, send)


def install_mcp(app: FastAPI, settings: Settings) -> None:
    """Serve MCP at ``/mcp`` (kept out of OpenAPI): the route, and the server it starts,
    stopped when the app's own lifespan ends."""
    inner: Callable[[Any], AbstractAsyncContextManager[Any]] = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(started: Any) -> AsyncIterator[Any]:
        async with inner(started) as value:
            server = app.state.mcp_server = _Server(app, settings)
            try:
                yield value
            finally:
                app.state.mcp_server = None
                await server.close()

    app.router.lifespan_context = lifespan
    app.router.routes.append(Route(MCP_PATH, _Endpoint(app), include_in_schema=False))


async def serve_mcp_stdio(app: FastAPI) -> None:
    """Serve ``app``'s MCP tools over stdin/stdout until stdin ends (``sandbox mcp``)."""
    from .mcp_server import serve_stdio

    await serve_stdio(app)

"""The HTTP service: builds the FastAPI app, owns start-up and shutdown, and the edges.

Start-up compiles (or loads) the guest, starts the worker pool and opens the database.
Every ``/v1`` request passes the bearer-token check when a token is configured. Errors
become JSON values here, once, so route functions need no try/except:
``{"error": {"code", "message", "details"?}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import httpx
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from codemode import (
    CodeModeError,
    CodeModeStore,
    DurableSizeError,
    ExecutionConflict,
    Executions,
    MissingConnector,
    ToolDefinitionError,
)
from codemode import EventBus
from codemode import ExecutionNotFound
from workspace import WorkspaceError, WorkspaceStore

from . import __version__
from .api import AsyncSandbox
from .errors import SandboxError
from .routes import router
from .settings import Settings
from .codemode_routes import codemode_router
from .durable_routes import durable_router
from .workspace_routes import STATUS_BY_CODE, workspace_router

log = logging.getLogger("sandbox.app")


def error_body(code: str, message: str, details: object = None) -> dict[str, object]:
    error: dict[str, object] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return {"error": error}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        sandbox = AsyncSandbox(limits=settings.limits, workers=settings.workers,
                               cache_dir=settings.cache_dir, guest=settings.guest)
        await sandbox.start()
        store = await WorkspaceStore.open(settings.database_path, settings.blob_dir)
        codemode_store = await CodeModeStore.open(settings.database_path)
        http = httpx.AsyncClient(follow_redirects=False)
        app.state.sandbox = sandbox
        app.state.workspaces = store
        app.state.codemode = codemode_store
        app.state.http = http
        app.state.inline_tool_secret = (settings.inline_tool_secret
                                        or _stored_secret(settings.data_dir / "inline_tool_secret"))
        bus = EventBus()
        executions = Executions(sandbox, codemode_store, store, http, settings=settings.durable,
                                inline_secret=app.state.inline_tool_secret, publish=bus.publish)
        app.state.events = bus
        app.state.executions = executions
        sweeper = asyncio.get_running_loop().create_task(_sweep_forever(executions, settings))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await executions.close()
            await http.aclose()
            await codemode_store.close()
            await store.close()
            await sandbox.close()

    app = FastAPI(title="wasm-sandbox", version=__version__, lifespan=lifespan,
                  summary="Sandboxed execution of model-written Python and bash in WebAssembly isolates.")
    app.state.settings = settings
    app.include_router(router)
    app.include_router(workspace_router())
    app.include_router(durable_router())
    app.include_router(codemode_router())
    _install_edges(app, settings)
    return app


def _stored_secret(path: Path) -> str:
    """The secret in ``path``, created (owner-only) on first use.

    Inline tools' calls are signed with it; keeping it in the data directory means a run
    resumed after a restart is signed as before, so agent hosts keep verifying it.
    """
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    secret = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(secret)
    return secret


async def _sweep_forever(executions: Executions, settings: Settings) -> None:
    """Expire and recover executions at start-up, then every ``sweep_interval_s``."""
    while True:
        try:
            await executions.sweep()
        except asyncio.CancelledError:
            raise
        except Exception:  # a failed sweep is retried next time; the service stays up
            log.exception("execution sweep failed")
        if settings.sweep_interval_s <= 0:
            return
        await asyncio.sleep(settings.sweep_interval_s)


class _Guard:
    """Bearer-token check and request-size cap for ``/v1``, as plain ASGI.

    (Starlette's ``@app.middleware("http")`` runs every request through an extra task and
    memory streams; measured, that was about 0.4 ms of each execute's latency.)
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/v1"):
            refusal = self._refusal(Headers(scope=scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: Headers) -> JSONResponse | None:
        token = self.settings.token
        if token is not None:
            supplied = headers.get("authorization", "")
            if not hmac.compare_digest(supplied.encode(), f"Bearer {token}".encode()):
                return JSONResponse(error_body("unauthorized", "missing or wrong bearer token"),
                                    status_code=401, headers={"WWW-Authenticate": "Bearer"})
        length = headers.get("content-length")
        limit = self.settings.max_request_bytes
        if length is not None and length.isdigit() and int(length) > limit:
            return JSONResponse(error_body("request_too_large", f"request body over {limit} bytes"),
                                status_code=413)
        return None


def _install_edges(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(_Guard, settings=settings)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                   for e in exc.errors()]
        summary = "; ".join(f"{'.'.join(str(p) for p in d['loc'])}: {d['msg']}" for d in details)
        return JSONResponse(error_body("invalid_request", summary or "invalid request", details),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(error_body(_http_code(exc.status_code), str(exc.detail)),
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(WorkspaceError)
    async def workspace_error(_: Request, exc: WorkspaceError) -> JSONResponse:
        status = STATUS_BY_CODE.get(getattr(exc, "code", ""), 400)
        return JSONResponse(error_body(getattr(exc, "code", "EINVAL"), str(exc)), status_code=status)

    @app.exception_handler(ToolDefinitionError)
    async def invalid_tools(_: Request, exc: ToolDefinitionError) -> JSONResponse:
        return JSONResponse(error_body("invalid_tools", str(exc), list(exc.problems)), status_code=422)

    @app.exception_handler(ExecutionConflict)
    async def conflict(_: Request, exc: ExecutionConflict) -> JSONResponse:
        return JSONResponse(error_body("conflict", str(exc)), status_code=409)

    @app.exception_handler(MissingConnector)
    async def missing_connector(_: Request, exc: MissingConnector) -> JSONResponse:
        return JSONResponse(error_body("missing_connector", str(exc)), status_code=409)

    @app.exception_handler(ExecutionNotFound)
    async def not_found(_: Request, exc: ExecutionNotFound) -> JSONResponse:
        return JSONResponse(error_body("not_found", str(exc)), status_code=404)

    @app.exception_handler(DurableSizeError)
    async def too_large(_: Request, exc: DurableSizeError) -> JSONResponse:
        return JSONResponse(error_body("too_large", str(exc)), status_code=413)

    @app.exception_handler(CodeModeError)
    async def codemode_error(_: Request, exc: CodeModeError) -> JSONResponse:
        return JSONResponse(error_body(type(exc).__name__, str(exc)), status_code=400)

    @app.exception_handler(SandboxError)
    async def sandbox_error(_: Request, exc: SandboxError) -> JSONResponse:
        log.error("sandbox error reached the edge: %s", exc)
        return JSONResponse(error_body(exc.kind, str(exc)), status_code=503)


def _http_code(status: int) -> str:
    return {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
            405: "method_not_allowed", 409: "conflict", 413: "request_too_large"}.get(status, f"http_{status}")

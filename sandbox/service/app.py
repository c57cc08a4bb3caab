"""The HTTP app: ``create_app(settings)``, start-up and shutdown, and the ``/v1`` guard.

Start-up removes workspace trees left by dead processes, compiles (or loads) the guest,
starts the worker pool, opens the database and the audit log (whose checkpoints it signs
by policy while it runs, and once more at shutdown if anything is new).
Every ``/v1`` and ``/mcp`` request (:mod:`.mcp`) passes the guard: the bearer token is
resolved to the principal the request acts as (:mod:`.identity`; refused with 401 when it is
missing, wrong, revoked or expired), and the request-size cap is held. The console's session
cookie (:mod:`.console.sessions`) stands in for the header, and then a request that changes
something must carry the session's CSRF token too; ``/console/api`` is guarded the same way. Errors are answered by
the one error map (:mod:`.errors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import httpx
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import storage
from audit import AuditLog, CheckpointPolicy
from codemode import CodeModeStore, Connectors, EventBus, EventRelay, Executions, HostAllowlist
from workspace import WorkspaceStore, sweep_materialised

from .. import AsyncSandbox, __version__
from .console.sessions import COOKIE, CSRF_HEADER, SAFE_METHODS, SessionStore, principal_of
from .errors import error_response, install_error_handlers
from .fast_routes import FastRoutes
from .identity import BOOTSTRAP, LOCAL, PRINCIPAL_KEY, TENANT_HEADER, Principal, same_secret
from .mcp import MCP_PATH, install_mcp
from .openapi import install_openapi
from .requests import (JSON_ALIASES, request_id_for, reset_request_id, reset_tenant, set_request_id,
                       set_tenant)
from .routes import ROUTERS
from .routes.console import install_console
from .settings import POSTGRESQL_STORES, Settings
from .tokens import IdentityStore
from .telemetry import METRICS_PATH, Telemetry

log = logging.getLogger("sandbox.service")


class _StartedHeap:
    """Everything alive once a service has started lives as long as it does: frozen out of
    the collector's sight, a full collection no longer walks it (one took 133 ms, and every
    request waited). The last service of the process to stop thaws it, so a process that
    starts services again and again (tests, embedding) gets its garbage collected."""

    def __init__(self) -> None:
        self.running = 0

    def started(self) -> None:
        self.running += 1
        gc.freeze()

    def stopped(self) -> None:
        self.running -= 1
        if self.running == 0:
            gc.unfreeze()


_HEAP = _StartedHeap()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    telemetry = Telemetry(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        await telemetry.start(app)
        # Bash calls' trees left in /dev/shm by a service that died mid-call (RAM, until removed).
        swept = await asyncio.to_thread(sweep_materialised)
        if swept:
            log.info("removed %d workspace trees left by stopped processes", len(swept))
        sandbox = AsyncSandbox(limits=settings.limits, workers=settings.workers,
                               cache_dir=settings.cache_dir, guest=settings.guest,
                               science=settings.science, science_workers=settings.science_workers,
                               poll_s=settings.durable.poll_ms / 1000)
        await sandbox.start()
        if settings.database_url:
            log.info("on %s: %s", settings.database_url.split("@")[-1],
                     ", ".join(POSTGRESQL_STORES))
        # On PostgreSQL one pool serves every store (each gets a borrowed view of it), so a
        # process holds at most database_pool_size connections, plus one to listen.
        shared = (await storage.open_database(settings.database_url,
                                              pool_size=settings.database_pool_size)
                  if settings.database_url else None)
        target = settings.database if shared is None else storage.borrowed(shared)
        if shared is not None:  # a session made through one process is good on all
            app.state.console_sessions = SessionStore(storage.borrowed(shared))
        store = await WorkspaceStore.open(target, settings.workspace_blob_dir,
                                          quotas=settings.quotas)
        codemode_store = await CodeModeStore.open(target)
        identity = await IdentityStore.open(target)
        app.state.identity = identity
        audit_log = await AuditLog.open(
            target, key_file=settings.audit_key_path,
            checkpoints_file=settings.audit_checkpoints_path,
            policy=CheckpointPolicy(every_entries=settings.audit_checkpoint_entries,
                                    every_s=settings.audit_checkpoint_interval_s))
        app.state.audit = audit_log
        http = httpx.AsyncClient(follow_redirects=False)
        app.state.sandbox = sandbox
        app.state.workspaces = store
        app.state.codemode = codemode_store
        app.state.http = http
        app.state.inline_tool_secret = (settings.inline_tool_secret
                                        or _stored_secret(settings.data_dir / "inline_tool_secret"))
        bus = EventBus()
        # With PostgreSQL, events reach watchers connected to any process on the database.
        relay = await EventRelay.open(storage.borrowed(shared), bus) if shared is not None else None
        connectors = Connectors(codemode_store, settings.key_dir, http,
                                HostAllowlist(settings.connector_hosts))
        app.state.connectors = connectors
        executions = Executions(sandbox, codemode_store, store, http, settings=settings.durable,
                                inline_secret=app.state.inline_tool_secret,
                                publish=relay.publish if relay is not None else bus.publish,
                                connectors=connectors,
                                # Watchers in other processes are unknown here: all of it.
                                log_events=bus.unwatched_tail if relay is None else None)
        app.state.events = bus
        app.state.executions = executions
        sweeper = asyncio.get_running_loop().create_task(_sweep_forever(executions, settings))
        signer = asyncio.get_running_loop().create_task(_checkpoint_forever(audit_log))
        _HEAP.started()
        try:
            yield
        finally:
            _HEAP.stopped()
            for task in (sweeper, signer):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await executions.close()
            if relay is not None:
                await relay.close()
            await connectors.close()
            await _final_checkpoint(audit_log)
            await audit_log.close()
            await http.aclose()
            await codemode_store.close()
            await identity.close()
            await app.state.console_sessions.close()
            await store.close()
            if shared is not None:
                await shared.close()
            await sandbox.close()
            await telemetry.close()

    app = FastAPI(title="wasm-sandbox", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # served offline by install_openapi
                  summary="Sandboxed execution of model-written Python and bash in WebAssembly isolates.")
    app.state.settings = settings
    app.state.console_sessions = SessionStore(settings.database_path)
    for router in ROUTERS:
        app.include_router(router)
    install_mcp(app, settings)
    install_console(app)
    app.add_middleware(FastRoutes)  # innermost: inside the request telemetry, like the routes
    telemetry.install(app)  # inside the guard: its spans see the route that was matched
    app.add_middleware(_Guard, settings=settings)
    install_error_handlers(app)
    install_openapi(app)
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


AUDIT_TICK_S = 5.0
"""How often the service asks the audit log whether a checkpoint is due."""


async def _checkpoint_forever(audit_log: AuditLog) -> None:
    """Sign audit checkpoints when the policy says so (every N entries, every M seconds)."""
    while True:
        await asyncio.sleep(AUDIT_TICK_S)
        try:
            await audit_log.tick()
        except asyncio.CancelledError:
            raise
        except Exception:  # retried at the next tick; the service stays up
            log.exception("signing an audit checkpoint failed")


async def _final_checkpoint(audit_log: AuditLog) -> None:
    try:
        await audit_log.tick(force=True)
    except Exception:
        log.exception("signing the shutdown audit checkpoint failed")


class _Guard:
    """Bearer-token check and request-size cap for ``/v1``, as plain ASGI.

    (Starlette's ``@app.middleware("http")`` runs every request through an extra task and
    memory streams; measured, that was about 0.4 ms of each execute's latency.)
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        request_id = request_id_for(headers.get("x-request-id"))
        token, tenant = set_request_id(request_id), set_tenant(None)
        try:
            send = _with_request_id(send, request_id)
            if sum(len(k) + len(v) for k, v in scope["headers"]) > MAX_HEADER_BYTES:
                refusal = error_response(431, "request_header_fields_too_large",
                                         f"request headers over {MAX_HEADER_BYTES} bytes")
                await refusal(scope, receive, send)
                return
            await self._serve(scope, headers, receive, send)
        finally:
            reset_tenant(tenant)
            reset_request_id(token)

    async def _serve(self, scope: Scope, headers: Headers, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if (path.startswith("/v1") or path == MCP_PATH or path.startswith(MCP_PATH + "/")
                or path == METRICS_PATH or path.startswith(CONSOLE_API)):
            if path.startswith("/v1"):
                scope = _json_body_as_json(scope, headers)
            who = await self._principal(scope, headers)
            if isinstance(who, Principal):
                scope = {**scope, PRINCIPAL_KEY: who}
                set_tenant(who.tenant)  # for log lines; reset with the request id
                refusal = self._refusal(headers)
            else:
                refusal = who
            if refusal is None and headers.get("content-length") is None:
                # A chunked body declares no length: read it here, up to the limit, so the
                # limit holds for it too.
                body = await _bounded_body(receive, self.settings.max_request_bytes)
                if body is None:
                    refusal = _too_large(self.settings.max_request_bytes)
                else:
                    receive = _replaying(body, receive)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _principal(self, scope: Scope, headers: Headers) -> Principal | JSONResponse:
        """Who the request acts as, or the refusal (401, or 403/404 for a tenant header)."""
        identity = getattr(scope["app"].state, "identity", None)
        supplied = headers.get("authorization")
        if supplied is None and COOKIE in _cookies(headers):
            return await self._session(scope, headers, identity)
        if supplied is None:
            if self.settings.token is None and (identity is None
                                                or not await identity.has_live_tokens()):
                return await self._in_tenant(LOCAL, identity, headers)
            return _unauthorized("missing bearer token")
        scheme, _, token = supplied.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return _unauthorized("the Authorization header must be 'Bearer <token>'")
        if self.settings.token is not None and same_secret(token, self.settings.token):
            return await self._in_tenant(BOOTSTRAP, identity, headers)
        found = "unknown" if identity is None else await identity.authenticate(token)
        if isinstance(found, str):
            return _unauthorized("wrong bearer token" if found == "unknown"
                                 else f"this bearer token is {found}")
        return await self._in_tenant(found, identity, headers)

    async def _session(self, scope: Scope, headers: Headers,
                       identity: IdentityStore | None) -> Principal | JSONResponse:
        """The console's session cookie in place of a bearer token (CSRF-checked)."""
        sessions: SessionStore | None = getattr(scope["app"].state, "console_sessions", None)
        session = None if sessions is None else await sessions.get(_cookies(headers)[COOKIE])
        if session is None:
            return _unauthorized("the console session has ended: sign in again")
        if scope["method"] not in SAFE_METHODS and not same_secret(
                headers.get(CSRF_HEADER, ""), session.csrf):
            return error_response(403, "forbidden", "missing or wrong CSRF token "
                                                    f"({CSRF_HEADER} header)")
        found = await principal_of(session, bootstrap_token=self.settings.token,
                                   identity=identity)
        if isinstance(found, str):
            return _unauthorized(found)
        return await self._in_tenant(found, identity, headers)

    async def _in_tenant(self, who: Principal, identity: IdentityStore | None,
                         headers: Headers) -> Principal | JSONResponse:
        tenant = headers.get(TENANT_HEADER)
        if tenant is None or tenant == who.tenant:
            return who
        if not who.operator:
            return error_response(403, "forbidden", f"this token acts only in tenant "
                                                    f"{who.tenant!r}; {TENANT_HEADER} names "
                                                    "another tenant, which takes an operator")
        if identity is None or not await identity.has_tenant(tenant):
            return error_response(404, "not_found", f"tenant {tenant!r} not found")
        return who.acting_in(tenant)

    def _refusal(self, headers: Headers) -> JSONResponse | None:
        length = headers.get("content-length")
        limit = self.settings.max_request_bytes
        if length is not None and length.isdigit() and int(length) > limit:
            return _too_large(limit)
        return None


CONSOLE_API = "/console/api/"
"""The console's own endpoints, guarded like ``/v1``."""


def _cookies(headers: Headers) -> dict[str, str]:
    return cookie_parser(headers.get("cookie", ""))


MAX_HEADER_BYTES = 64 * 1024
"""Most bytes of request headers (names and values) served; past it, 431. The body limit
does not cover headers, and the HTTP parser reads a header of any size."""


def _with_request_id(send: Send, request_id: str) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []),
                                              (b"x-request-id", request_id.encode())]}
        await send(message)

    return sending


RAW_FILE_PATH = re.compile(r"^/v1/workspaces/[^/]+/files(/|$)")
"""The one route whose body is the file's bytes, with their own type (not JSON)."""


def _json_body_as_json(scope: Scope, headers: Headers) -> Scope:
    """A request to a JSON route whose body came as a form or with no type (``curl -d``) is
    read as the JSON it is; the client's own type is kept for the 422 that may follow."""
    if scope["method"] not in ("POST", "PUT", "PATCH") or RAW_FILE_PATH.match(scope["path"]):
        return scope
    sent = headers.get("content-type", "").split(";")[0].strip().lower()
    if sent not in JSON_ALIASES:
        return scope
    kept = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
    return {**scope, "headers": [*kept, (b"content-type", b"application/json")],
            "sandbox.content_type": sent or None}


def _unauthorized(message: str) -> JSONResponse:
    return error_response(401, "unauthorized", message, headers={"WWW-Authenticate": "Bearer"})


def _too_large(limit: int) -> JSONResponse:
    return error_response(413, "request_too_large", f"request body over {limit} bytes")


async def _bounded_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away: let the app see an empty body
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app ``body`` once, then whatever the client sends next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay

"""The short way for a well-formed ``POST /v1/execute`` or ``POST /v1/bash``: past FastAPI's
routing, dependency solving and body handling, straight to the route's own work
(``start_execution``, ``run_bash_request``).

Why: on a trivial execute, FastAPI's layers between the guard and the endpoint were about a
third of the service process's CPU (matching every router, solving the scope dependency,
reading and validating the body through a type adapter), on two cores shared with the
workers that run the isolates. A small bash script over HTTP paid them too: it took 0.54 ms
more than in process, which left it 0.16 ms behind just-bash run in process (measured side
by side, ``benchmarks/peers.py``); the short way took 0.18 ms of that back.

Nothing about the answer changes, because only a request FastAPI would accept is taken:
JSON by its Content-Type, a body that parses to an object the route's model validates, and
a principal holding the route's scope. Anything else (a bad body, a missing scope, an
unknown type) is handed on untouched, body included, and FastAPI answers it as before. A
taken request is answered under the app's own exception handlers (the one error map), with
the matched route in the scope, so the request metrics and spans name the route.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ValidationError
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .identity import PRINCIPAL_KEY, Principal, requires
from .responses import SafeJSONResponse
from .routes import bash as bash_route
from .routes import execute as execute_route

__all__ = ["BASH_PATH", "EXECUTE_PATH", "FAST_ROUTES", "FastRoute", "FastRoutes"]

EXECUTE_PATH = "/v1/execute"
BASH_PATH = "/v1/bash"


@dataclass(frozen=True)
class FastRoute:
    """One route the short way serves: its body's model, the scopes it needs (any one of
    them), its own work, and the router FastAPI matches it in."""

    path: str
    model: type[BaseModel]
    scopes: tuple[str, ...]
    work: Callable[[Request, Any, Principal], Awaitable[dict[str, Any]]]
    router: APIRouter


FAST_ROUTES = {route.path: route for route in (
    FastRoute(EXECUTE_PATH, execute_route.ExecuteRequest, requires("execute").scopes,
              execute_route.start_execution, execute_route.router),
    FastRoute(BASH_PATH, bash_route.BashRequest, requires("bash").scopes,
              bash_route.run_bash_request, bash_route.router),
)}


class FastRoutes:
    """ASGI middleware, innermost of the app's own: serves the well-formed requests of
    :data:`FAST_ROUTES` itself and hands every other request on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._served: dict[str, tuple[ASGIApp, BaseRoute | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fast = FAST_ROUTES.get(scope["path"]) if scope["type"] == "http" else None
        if fast is None or scope["method"] != "POST" or not _json_typed(scope):
            await self.app(scope, receive, send)
            return
        body, rest = await _whole_body(receive)
        replay = _replaying(body, rest, receive)
        parsed = None if rest is not None else _accepted(scope, body, fast)
        if parsed is None:
            await self.app(scope, replay, send)
            return
        served = self._served.get(fast.path)
        if served is None:
            served = self._served[fast.path] = _built(scope, fast)
        serve, scope["route"] = served
        scope["sandbox.fast_request"] = parsed
        await serve(scope, replay, send)


def _built(scope: Scope, fast: FastRoute) -> tuple[ASGIApp, BaseRoute | None]:
    """The route's work under the app's exception handlers (as FastAPI's own stack has them:
    every one but the catch-all, which the outermost middleware applies to both ways), and
    the route FastAPI would have matched."""
    handlers = {key: handler for key, handler in scope["app"].exception_handlers.items()
                if key not in (500, Exception)}
    route = next((r for r in fast.router.routes if getattr(r, "path", None) == fast.path
                  and "POST" in (getattr(r, "methods", None) or ())), None)

    async def work(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        answer = await fast.work(request, scope["sandbox.fast_request"], scope[PRINCIPAL_KEY])
        await SafeJSONResponse(answer)(scope, receive, send)

    return ExceptionMiddleware(work, handlers=handlers), route


def _json_typed(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name.lower() == b"content-type":
            return bytes(value).split(b";", 1)[0].strip().lower() == b"application/json"
    return False


def _accepted(scope: Scope, body: bytes, fast: FastRoute) -> BaseModel | None:
    """The request as the route would receive it, or None when FastAPI must answer it (it
    would refuse it, or it is not one this way can tell apart)."""
    who = scope.get(PRINCIPAL_KEY)
    if not isinstance(who, Principal) or not any(who.allows(s) for s in fast.scopes):
        return None
    try:
        value: Any = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    try:
        return fast.model.model_validate(value)
    except (ValidationError, RecursionError):
        return None


async def _whole_body(receive: Receive) -> tuple[bytes, Message | None]:
    """The request body, and the message that ended it early (the client went away), if any.
    The guard has already held the size limit (a declared length, or the read it made of a
    chunked body)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), message
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), None


def _replaying(body: bytes, rest: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once (and what ended it, if the client left), then
    whatever comes next, as the app would have read it."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
    if rest is not None:
        pending = [{"type": "http.request", "body": body, "more_body": True}, rest]

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay

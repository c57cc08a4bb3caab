"""The short way for a well-formed ``POST /v1/execute``: past FastAPI's routing, dependency
solving and body handling, straight to the route's own work (``start_execution``).

Why: on a trivial execute, FastAPI's layers between the guard and the endpoint were about a
third of the service process's CPU (matching every router, solving the scope dependency,
reading and validating the body through a type adapter), on two cores shared with the
workers that run the isolates.

Nothing about the answer changes, because only a request FastAPI would accept is taken:
JSON by its Content-Type, a body that parses to an object ``ExecuteRequest`` validates, and
a principal holding the ``execute`` scope. Anything else (a bad body, a missing scope, an
unknown type) is handed on untouched, body included, and FastAPI answers it as before. A
taken request is answered under the app's own exception handlers (the one error map), with
the matched route in the scope, so the request metrics and spans name ``/v1/execute``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .identity import PRINCIPAL_KEY, Principal, requires
from .responses import SafeJSONResponse
from .routes.execute import ExecuteRequest, router, start_execution

__all__ = ["EXECUTE_PATH", "FastExecute"]

EXECUTE_PATH = "/v1/execute"
_REQUIRES = requires("execute")


class FastExecute:
    """ASGI middleware, innermost of the app's own: serves the well-formed execute requests
    itself and hands every other request on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._serve: ASGIApp | None = None
        self._route: BaseRoute | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != EXECUTE_PATH or scope["method"] != "POST" \
                or not _json_typed(scope):
            await self.app(scope, receive, send)
            return
        body, rest = await _whole_body(receive)
        replay = _replaying(body, rest, receive)
        parsed = None if rest is not None else _accepted(scope, body)
        if parsed is None:
            await self.app(scope, replay, send)
            return
        if self._serve is None:
            self._serve, self._route = self._built(scope)
        scope["route"], scope["sandbox.execute_request"] = self._route, parsed
        await self._serve(scope, replay, send)

    def _built(self, scope: Scope) -> tuple[ASGIApp, BaseRoute | None]:
        """The handler under the app's exception handlers (as FastAPI's own stack has them:
        every one but the catch-all, which the outermost middleware applies to both ways),
        and the route FastAPI would have matched."""
        handlers = {key: handler for key, handler in scope["app"].exception_handlers.items()
                    if key not in (500, Exception)}
        route = next((r for r in router.routes if getattr(r, "path", None) == EXECUTE_PATH
                      and "POST" in (getattr(r, "methods", None) or ())), None)
        return ExceptionMiddleware(_execute, handlers=handlers), route


async def _execute(scope: Scope, receive: Receive, send: Send) -> None:
    request = Request(scope, receive, send)
    body: ExecuteRequest = scope["sandbox.execute_request"]
    who: Principal = scope[PRINCIPAL_KEY]
    await SafeJSONResponse(await start_execution(request, body, who))(scope, receive, send)


def _json_typed(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name.lower() == b"content-type":
            return bytes(value).split(b";", 1)[0].strip().lower() == b"application/json"
    return False


def _accepted(scope: Scope, body: bytes) -> ExecuteRequest | None:
    """The request as the route would receive it, or None when FastAPI must answer it (it
    would refuse it, or it is not one this way can tell apart)."""
    who = scope.get(PRINCIPAL_KEY)
    if not isinstance(who, Principal) or not any(who.allows(s) for s in _REQUIRES.scopes):
        return None
    try:
        value: Any = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    try:
        return ExecuteRequest.model_validate(value)
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

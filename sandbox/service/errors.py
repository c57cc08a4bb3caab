"""The service's one error map, and the one shape of every error response.

Every error the HTTP API sends is ``{"error": {"code", "message", "details"?}}`` (documented
in OpenAPI as :class:`ErrorResponse`). Routes do not build error responses: they raise, and
:func:`install_error_handlers` registers one handler that looks the exception's type up in
:data:`ERROR_MAP` along its MRO (the most derived registered class wins) to choose the HTTP
status and the error code. An exception type found nowhere in the map is a bug: it is
logged with its traceback and answered ``500 internal_error`` without internals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from codemode import (
    CodeModeError,
    ConnectorHostRefused,
    ConnectorNotFound,
    ConnectorSecretError,
    ConnectorUnavailable,
    DurableSizeError,
    ExecutionConflict,
    ExecutionNotFound,
    MissingConnector,
    NotSerialisableError,
    PermissionWidening,
    SnippetDefinitionError,
    ToolDefinitionError,
)
from audit import AuditError, AuditQueryError
from storage import IntegrityError, StorageError, UnstorableValue
from workspace import WorkspaceError

from .. import SandboxError
from .requests import current_request_id
from .responses import SafeJSONResponse

__all__ = [
    "ERROR_MAP",
    "ErrorResponse",
    "HTTPError",
    "ServiceUnavailable",
    "error_body",
    "documented",
    "error_response",
    "install_error_handlers",
    "rule_for",
]

log = logging.getLogger("sandbox.service")


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable, machine-readable: `not_found`, `invalid_request`, "
                                  "an errno name such as `ENOENT`, ...")
    message: str = Field(description="For people; may change between versions.")
    details: Any = Field(None, description="Structured extras: the problems of an invalid "
                                           "request or definition, one per item.")
    request_id: str | None = Field(None, description="The request's id (also in the "
                                                     "X-Request-Id header and the service log).")


class ErrorResponse(BaseModel):
    """The body of every error response."""

    error: ErrorDetail


class HTTPError(Exception):
    """Raised by a route for an answer that is only an HTTP matter (a failed precondition,
    an unknown query value), so the status and code are chosen where the meaning is."""

    def __init__(self, status: int, code: str, message: str, details: Any = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.details = details
        self.headers = headers


class ServiceUnavailable(Exception):
    """The service cannot answer now (a store is closed: not started, or shutting down)."""


STATUS_DESCRIPTIONS: dict[int, str] = {
    400: "The request cannot be carried out as asked (a bad value, an unknown state).",
    401: "Missing or wrong bearer token.",
    403: "Not permitted.",
    404: "Not found.",
    409: "Conflicts with the current state (already decided, running, exists).",
    412: "The precondition (If-Match / If-None-Match) does not hold.",
    413: "Too large: the request body, a file, or a value to record.",
    422: "The request body or parameters are invalid; `details` lists every problem.",
    502: "A peer the request needs (a connector's MCP server or OpenAPI service) could not be "
         "used; nothing was stored or changed.",
    503: "The service cannot answer now (starting, shutting down, no isolate available).",
}

V1_ERRORS = (400, 401, 403, 413, 422, 503)
"""What any ``/v1`` route may answer: a body that cannot be parsed (400), the guard's 401
(no, a wrong, revoked or expired token) and 413, a scope the token lacks (403), validation,
unavailability."""


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses (and the ``/v1`` ones), all with the
    one error shape; for a router's or a route's ``responses=``."""
    return {status: {"model": ErrorResponse, "description": STATUS_DESCRIPTIONS[status]}
            for status in sorted(set(statuses) | set(V1_ERRORS))}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    request_id = current_request_id()
    if request_id is not None:
        error["request_id"] = request_id
    return {"error": error}


def error_response(status: int, code: str, message: str, details: Any = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return SafeJSONResponse(error_body(code, message, details), status_code=status,
                            headers=headers)


# --- what each exception becomes -------------------------------------------------------

WORKSPACE_STATUS: dict[str, int] = {
    "ENOENT": 404,
    "EEXIST": 409,
    "ENOTEMPTY": 409,
    "EISDIR": 409,
    "ENOTDIR": 409,
    "ECONFLICT": 409,
    "EPERM": 403,
    "EINVAL": 400,
    "ENAMETOOLONG": 400,
    "ELOOP": 400,
    "EFBIG": 413,
    "EBUSY": 503,
    "EDQUOT": 413,
}
"""A workspace error's status by its errno code; any other code is the caller's fault (400)."""

HTTP_CODES: dict[int, str] = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 412: "precondition_failed",
    413: "request_too_large", 415: "unsupported_media_type", 422: "invalid_request",
    431: "request_header_fields_too_large",
    503: "unavailable",
}


@dataclass(frozen=True)
class ErrorRule:
    """How one exception type is answered: ``status`` and ``code`` are fixed values or
    functions of the exception; ``details`` (optional) extracts the structured extras."""

    status: int | Callable[[Any], int]
    code: str | Callable[[Any], str]
    details: Callable[[Any], Any] | None = None

    def answer(self, exc: BaseException) -> tuple[int, str, Any]:
        status = self.status(exc) if callable(self.status) else self.status
        code = self.code(exc) if callable(self.code) else self.code
        return status, code, self.details(exc) if self.details else None


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    return [{"loc": list(e.get("loc", ())), "msg": _problem(exc, e), "type": e.get("type", "")}
            for e in exc.errors()]


def _problem(exc: RequestValidationError, error: dict[str, Any]) -> str:
    """A validation problem in words; for a body that is not JSON, where and what."""
    if error.get("type") != "json_invalid":
        return str(error.get("msg", ""))
    what = str((error.get("ctx") or {}).get("error", "not JSON"))
    loc = error.get("loc", ())
    doc = exc.body if isinstance(exc.body, str) else None
    if len(loc) > 1 and isinstance(loc[1], int) and doc is not None:
        position = loc[1]
        line = doc.count("\n", 0, position) + 1
        column = position - (doc.rfind("\n", 0, position) + 1) + 1
        return f"not valid JSON: {what} at line {line}, column {column} (character {position})"
    return f"not valid JSON: {what}"


def _content_type_hint(request: Request, exc: RequestValidationError) -> str:
    # The guard reads curl's form-typed bodies as JSON; what still fails to be a JSON object,
    # under a type other than JSON, is most likely sent the wrong way.
    sent = request.scope.get("sandbox.content_type") or request.headers.get("content-type", "")
    if not sent or "json" in sent:
        return ""
    body_problem = any(e.get("loc", ())[:1] == ("body",) and len(e.get("loc", ())) <= 2
                       and e.get("type") in ("json_invalid", "model_attributes_type", "dict_type")
                       for e in exc.errors())
    return (f" (send the body as JSON with Content-Type: application/json; this request "
            f"said {sent})") if body_problem else ""


ERROR_MAP: dict[type[Exception], ErrorRule] = {
    # the HTTP layer itself
    RequestValidationError: ErrorRule(422, "invalid_request", _validation_details),
    StarletteHTTPException: ErrorRule(lambda e: e.status_code,
                                      lambda e: HTTP_CODES.get(e.status_code, f"http_{e.status_code}")),
    HTTPError: ErrorRule(lambda e: e.status, lambda e: e.code, lambda e: e.details),
    ServiceUnavailable: ErrorRule(503, "unavailable"),
    # workspaces: the errno code is the error code
    WorkspaceError: ErrorRule(lambda e: WORKSPACE_STATUS.get(e.code, 400), lambda e: e.code),
    # Code Mode
    ToolDefinitionError: ErrorRule(422, "invalid_tools", lambda e: list(e.problems)),
    SnippetDefinitionError: ErrorRule(422, "invalid_snippet", lambda e: list(e.problems)),
    NotSerialisableError: ErrorRule(422, "invalid_request"),
    DurableSizeError: ErrorRule(413, "too_large"),
    ExecutionNotFound: ErrorRule(404, "not_found"),
    ExecutionConflict: ErrorRule(409, "conflict"),
    PermissionWidening: ErrorRule(403, "forbidden"),
    MissingConnector: ErrorRule(409, "missing_connector"),
    ConnectorNotFound: ErrorRule(404, "not_found"),
    ConnectorUnavailable: ErrorRule(502, "connector_unavailable"),
    ConnectorHostRefused: ErrorRule(403, "connector_host_refused", lambda e: list(e.problems)),
    ConnectorSecretError: ErrorRule(409, "connector_secret"),
    CodeModeError: ErrorRule(400, lambda e: type(e).__name__),
    # the isolate core: the service cannot run code right now
    SandboxError: ErrorRule(503, lambda e: e.kind),
    # the audit log: a bad filter is the caller's; anything else, the log's own trouble
    AuditQueryError: ErrorRule(422, "invalid_request"),
    AuditError: ErrorRule(503, "audit_unavailable"),
    # the database under a store (a PostgreSQL server down or restarting): retry later
    IntegrityError: ErrorRule(409, "conflict"),
    UnstorableValue: ErrorRule(422, "invalid_request"),
    StorageError: ErrorRule(503, "database_unavailable"),
}


def rule_for(exc_type: type[Exception]) -> ErrorRule | None:
    """The rule of the most derived class of ``exc_type`` that the map names."""
    for cls in exc_type.__mro__:
        rule = ERROR_MAP.get(cls)
        if rule is not None:
            return rule
    return None


def _where(detail: dict[str, Any]) -> str:
    loc = detail["loc"]
    if detail["type"] == "json_invalid":
        loc = loc[:1]  # the message says where in the text: no "body.14"
    return ".".join(str(part) for part in loc)


def _unparsable(cause: BaseException | None) -> str | None:
    """What FastAPI's "There was an error parsing the body" hides, when it is the client's."""
    if isinstance(cause, UnicodeDecodeError):
        return f"body: not valid UTF-8 at byte {cause.start} ({cause.reason})"
    if isinstance(cause, RecursionError):
        return "body: the JSON nests too deeply to read"
    return None


def _message(request: Request, exc: BaseException) -> str:
    if isinstance(exc, StarletteHTTPException):
        return _unparsable(exc.__cause__) or str(exc.detail)
    if isinstance(exc, RequestValidationError):
        details = _validation_details(exc)
        summary = "; ".join(f"{_where(d)}: {d['msg']}" for d in details)
        return (summary or "invalid request") + _content_type_hint(request, exc)
    return str(exc)


async def _handle(request: Request, exc: Exception) -> JSONResponse:
    rule = rule_for(type(exc))
    if rule is None:
        log.error("unexpected error reached the HTTP edge", exc_info=exc)
        return error_response(500, "internal_error", "internal error; the service log has the cause")
    status, code, details = rule.answer(exc)
    if isinstance(exc, SandboxError):
        log.error("sandbox error reached the edge: %s", exc)
    headers = getattr(exc, "headers", None)
    if status == 405:
        headers = {**(headers or {}), "Allow": _allowed_methods(request)}
    return error_response(status, code, _message(request, exc), details, headers=headers)


def _allowed_methods(request: Request) -> str:
    """Every method some route serves at this path (Starlette's own 405 names only the
    first route's, though a path may have a GET route and a DELETE route)."""
    methods: set[str] = set()
    for route in request.app.routes:
        match, _ = route.matches(request.scope)  # PARTIAL: the path matches, the method not
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


def install_error_handlers(app: FastAPI) -> None:
    """Register the one handler for every mapped type, and for anything else (500)."""
    for exc_type in ERROR_MAP:
        app.add_exception_handler(exc_type, _handle)
    app.add_exception_handler(Exception, _handle)

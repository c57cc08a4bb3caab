"""Per-request context: the request id, and the client's own Content-Type before the guard
read a JSON body sent as a form (``curl -d`` does that).

The id comes from an ``X-Request-Id`` header the client sent (if it is short and printable)
or is made here; it is returned in ``X-Request-Id``, put in every error body and on every log
line written while the request is served (:mod:`.logs`), as is the tenant the request acts in.
"""

from __future__ import annotations

import contextvars
import secrets

__all__ = ["JSON_ALIASES", "current_request_id", "current_tenant", "request_id_for", "reset_request_id",
           "reset_tenant", "set_request_id", "set_tenant"]

_REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_TENANT: contextvars.ContextVar[str | None] = contextvars.ContextVar("tenant", default=None)

JSON_ALIASES = frozenset({"", "application/x-www-form-urlencoded", "text/plain"})
"""Content types a JSON body is read under anyway: none given, what ``curl -d`` sends, and
plain text. Any other non-JSON type is a 422 that says to send ``application/json``."""


def request_id_for(supplied: str | None) -> str:
    """The client's id when it is a sane token (1-64 printable ASCII characters), else a new one."""
    if supplied and len(supplied) <= 64 and supplied.isascii() and supplied.isprintable() \
            and " " not in supplied:
        return supplied
    return "req_" + secrets.token_hex(8)


def set_request_id(request_id: str | None) -> contextvars.Token[str | None]:
    return _REQUEST_ID.set(request_id)


def reset_request_id(token: contextvars.Token[str | None]) -> None:
    _REQUEST_ID.reset(token)


def current_request_id() -> str | None:
    """The id of the request being served, None outside a request."""
    return _REQUEST_ID.get()


def set_tenant(tenant: str | None) -> contextvars.Token[str | None]:
    """The tenant the request acts in, once the guard knows it (for log lines)."""
    return _TENANT.set(tenant)


def reset_tenant(token: contextvars.Token[str | None]) -> None:
    _TENANT.reset(token)


def current_tenant() -> str | None:
    """The tenant of the request being served, None outside a request or before the guard
    resolved its token."""
    return _TENANT.get()

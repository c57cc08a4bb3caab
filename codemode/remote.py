"""Calling a tool that has a ``url``: a signed HTTP POST from the service to the agent host.

The isolate never makes this request; the service does, after the arguments have passed
the input schema.

Request::

    POST <tool.url>
    Content-Type: application/json
    X-Sandbox-Timestamp: <unix seconds>
    X-Sandbox-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>." + body)>
    <tool.headers...>

    {"tool": <name>, "input": {...}, "execution_id": <id>, "seq": <n>,
     "idempotency_key": <key>}

``secret`` is the toolset's secret, returned once when the toolset is created. The body is
compact JSON; the signature covers the exact bytes sent, so the agent host must verify the
raw body before parsing it. :func:`verify_signature` does that and refuses timestamps more
than ``max_skew_s`` (default 300 s) away from its clock, so a captured request cannot be
replayed later. Within the window, the agent host deduplicates by ``idempotency_key``,
which is the same for every retry and every replay of one journal step
(``<execution_id>:<seq>`` unless the caller supplies one).

On the agent host, verify before trusting anything in the request, e.g. in Starlette::

    body = await request.body()
    try:
        verify_signature(secret, request.headers.get("X-Sandbox-Timestamp", ""), body,
                         request.headers.get("X-Sandbox-Signature", ""))
    except SignatureError:
        return JSONResponse({"detail": "bad signature"}, status_code=401)
    call = json.loads(body)   # {"tool", "input", "execution_id", "seq", "idempotency_key"}

Response: 2xx with ``{"output": <value>}`` -> the value; ``{"error": {"name", "message"}}``
-> :class:`~codemode.errors.ToolError`. Everything else is a distinct
:class:`~codemode.errors.ToolCallError`: timeout, connection failure, non-2xx status,
non-JSON body, wrong shape, or a body over ``max_response_bytes``. Redirects are not
followed: a signed call goes to exactly the URL the tool was defined with.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from codemode.errors import (
    SignatureMismatch,
    StaleSignature,
    ToolCallError,
    ToolConnectionError,
    ToolError,
    ToolHTTPStatusError,
    ToolResponseNotJSON,
    ToolResponseShapeError,
    ToolResponseTooLarge,
    ToolTimeoutError,
)
from codemode.tooldefs import ToolDef, validate_arguments

__all__ = [
    "MAX_RESPONSE_BYTES",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "call_remote_tool",
    "default_idempotency_key",
    "request_body",
    "sign",
    "verify_signature",
]

SIGNATURE_HEADER = "X-Sandbox-Signature"
TIMESTAMP_HEADER = "X-Sandbox-Timestamp"
SIGNATURE_VERSION = "v1"
MAX_RESPONSE_BYTES = 10_000_000
DEFAULT_MAX_SKEW_S = 300
_PREVIEW_CHARS = 500


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Sandbox-Signature`` value for ``body`` sent at ``timestamp``."""
    message = str(int(timestamp)).encode("ascii") + b"." + body
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"


def verify_signature(
    secret: str,
    timestamp: str | int,
    body: bytes,
    signature: str,
    max_skew_s: float = DEFAULT_MAX_SKEW_S,
    *,
    now: float | None = None,
) -> None:
    """Check a tool request on the agent host; raise if it is forged or outside the window.

    ``timestamp`` and ``signature`` are the ``X-Sandbox-Timestamp`` and
    ``X-Sandbox-Signature`` header values and ``body`` the raw request bytes. Raises
    :class:`SignatureMismatch` for a missing, malformed or wrong signature and
    :class:`StaleSignature` when the timestamp is more than ``max_skew_s`` seconds from
    ``now`` (default: the current time). Several comma-separated ``v1=`` values are
    accepted, so a secret can be rotated while both are valid.
    """
    text = str(timestamp).strip()
    if not text.isdigit() or not text.isascii():
        raise SignatureMismatch("X-Sandbox-Timestamp is missing or not an integer")
    sent_at = int(text)
    expected = sign(secret, sent_at, body)
    candidates = [part.strip() for part in (signature or "").split(",")]
    if not any(hmac.compare_digest(expected, c) for c in candidates if c):
        raise SignatureMismatch("X-Sandbox-Signature does not match the body and timestamp")
    current = time.time() if now is None else now
    if abs(current - sent_at) > max_skew_s:
        raise StaleSignature(
            f"request timestamp {sent_at} is {abs(current - sent_at):.0f} s from now; "
            f"the window is {max_skew_s:g} s (replayed or badly skewed clock)"
        )


def default_idempotency_key(execution_id: str, seq: int) -> str:
    """The key the agent host deduplicates on: stable across retries and replays of a step."""
    return f"{execution_id}:{seq}"


def request_body(
    tool: ToolDef, args: Mapping[str, Any], execution_id: str, seq: int, idempotency_key: str
) -> bytes:
    """The exact bytes POSTed (and signed) for one call."""
    payload = {
        "tool": tool.name,
        "input": dict(args),
        "execution_id": execution_id,
        "seq": seq,
        "idempotency_key": idempotency_key,
    }
    return json.dumps(
        payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")


async def call_remote_tool(
    tool: ToolDef,
    args: Mapping[str, Any],
    *,
    secret: str,
    execution_id: str,
    seq: int,
    idempotency_key: str | None = None,
    client: httpx.AsyncClient | None = None,
    max_response_bytes: int = MAX_RESPONSE_BYTES,
    clock: Callable[[], float] = time.time,
    validate: bool = True,
) -> Any:
    """POST one call of ``tool`` to its ``url`` and return its output.

    Pass a long-lived ``client`` to reuse connections (the per-call overhead target assumes
    it); without one a client is created for this call. The arguments are checked against
    the input schema first and nothing is sent when they fail (``ToolArgumentsError``);
    a caller that has just validated them may pass ``validate=False``.
    """
    if tool.url is None:
        raise ToolCallError(tool.name, f'Tool "{tool.name}" has no url to call')
    if validate:
        validate_arguments(tool, args)
    key = idempotency_key or default_idempotency_key(execution_id, seq)
    body = request_body(tool, args, execution_id, seq, key)
    timestamp = int(clock())
    headers = dict(tool.headers or {})
    headers.update(
        {
            "Content-Type": "application/json",
            TIMESTAMP_HEADER: str(timestamp),
            SIGNATURE_HEADER: sign(secret, timestamp, body),
        }
    )
    timeout_s = tool.timeout_ms / 1000 if tool.timeout_ms > 0 else None
    owned = client is None
    http = client if client is not None else httpx.AsyncClient()
    try:
        # httpx timeouts bound each phase; asyncio.timeout bounds the whole call, so a
        # server trickling bytes cannot stretch it past timeout_ms.
        async with asyncio.timeout(timeout_s):
            status, data = await _post(
                http, tool.name, tool.url, body, headers, timeout_s, max_response_bytes
            )
    except (TimeoutError, httpx.TimeoutException) as exc:
        raise ToolTimeoutError(tool.name, tool.timeout_ms) from exc
    except httpx.TransportError as exc:
        reason = str(exc) or type(exc).__name__
        raise ToolConnectionError(tool.name, tool.url, reason) from exc
    finally:
        if owned:
            await http.aclose()
    return _interpret(tool, status, data)


async def _post(
    http: httpx.AsyncClient,
    tool_name: str,
    url: str,
    body: bytes,
    headers: dict[str, str],
    timeout_s: float | None,
    max_response_bytes: int,
) -> tuple[int, bytes]:
    async with http.stream(
        "POST",
        url,
        content=body,
        headers=headers,
        timeout=httpx.Timeout(timeout_s),
        follow_redirects=False,
    ) as response:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_response_bytes:
            raise ToolResponseTooLarge(tool_name, max_response_bytes)
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_response_bytes:
                raise ToolResponseTooLarge(tool_name, max_response_bytes)
            chunks.append(chunk)
        return response.status_code, b"".join(chunks)


def _preview(data: bytes) -> str:
    text = data[: _PREVIEW_CHARS * 4].decode("utf-8", errors="replace")
    return text[:_PREVIEW_CHARS]


def _interpret(tool: ToolDef, status: int, data: bytes) -> Any:
    if not 200 <= status < 300:
        raise ToolHTTPStatusError(tool.name, status, _preview(data))
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError) as exc:  # includes JSONDecodeError, UnicodeDecodeError
        raise ToolResponseNotJSON(tool.name, _preview(data)) from exc
    if not isinstance(payload, dict):
        raise ToolResponseShapeError(tool.name, f"a JSON {type(payload).__name__}, not an object")
    error = payload.get("error")
    if error is not None:
        if not isinstance(error, dict) or not isinstance(error.get("message"), str):
            raise ToolResponseShapeError(tool.name, '"error" must be {"name", "message"}')
        name = error.get("name", "Error")
        if not isinstance(name, str) or not name:
            raise ToolResponseShapeError(tool.name, '"error.name" must be a non-empty string')
        raise ToolError(name, error["message"])
    if "output" not in payload:
        keys = ", ".join(sorted(payload)) or "no keys"
        raise ToolResponseShapeError(tool.name, f"an object with {keys}")
    return payload["output"]

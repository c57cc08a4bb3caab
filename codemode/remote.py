"""Calling a tool that has a ``url`` (and undoing it at its ``revert_url``): signed HTTP POSTs
from the service to the agent host.

The isolate never makes these requests; the service does, after the arguments have passed
the input schema.

Call request::

    POST <tool.url>
    Content-Type: application/json
    X-Sandbox-Timestamp: <unix seconds>
    X-Sandbox-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>." + body)>
    <tool.headers...>

    {"tool": <name>, "input": {...}, "execution_id": <id>, "seq": <n>,
     "idempotency_key": <key>}

Revert request (rollback of an applied call, newest first, only for tools that declare a
``revert_url``), same headers and limits::

    POST <tool.revert_url>

    {"tool": <name>, "input": {...the recorded arguments...},
     "output": <the output the call returned>, "execution_id": <id>, "seq": <n>,
     "idempotency_key": <the call's key>, "action": "revert"}

The revert carries the *same* idempotency key as the call it undoes, so the agent host can
find the side effect by the key it stored; ``"action": "revert"`` is what tells the two
apart (a call body has no ``action``). A revert may be retried, so it should be idempotent
too: undoing something already undone should answer success.

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
    if call.get("action") == "revert":
        ...                   # undo what call["idempotency_key"] did

Call response: 2xx with ``{"output": <value>}`` -> the value, optionally with
``"attachments": [{"type": <non-empty str>, ...}, ...]`` beside it.
:func:`call_remote_tool_reply` returns both as a :class:`ToolReply`; attachments never change
the output the code sees. An attachment is kept when it is a JSON object with a non-empty
string ``type`` whose compact JSON is at most 64 KiB; at most 32 are kept per reply, in
order. Everything else (bad items, the surplus past 32, an ``attachments`` value that is
not a list) is dropped and counted in ``rejected_attachments``, never an error;
``"attachments": null`` means none. ``{"error": {"name", "message"}}`` ->
:class:`~codemode.errors.ToolError`, and any attachments beside it are discarded.

Revert response: 2xx with ``{"output": <value>}`` (the value is returned) or
``{"reverted": true}`` (``None`` is returned) means undone; ``{"reverted": false}`` or an
``error`` -> :class:`~codemode.errors.ToolError` (named ``RevertFailed`` for the former).

For both, everything else is a distinct :class:`~codemode.errors.ToolCallError`: timeout,
connection failure, non-2xx status, non-JSON body, wrong shape, or a body over
``max_response_bytes``. Redirects are not followed: a signed request goes to exactly the URL
the tool was defined with.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from sandbox import tracing

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
from codemode.peer_http import PeerHTTP
from codemode.tooldefs import ToolDef, validate_arguments

__all__ = [
    "MAX_ATTACHMENTS_PER_REPLY",
    "MAX_ATTACHMENT_BYTES",
    "MAX_RESPONSE_BYTES",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "ToolReply",
    "call_remote_revert",
    "call_remote_tool",
    "call_remote_tool_reply",
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
MAX_ATTACHMENTS_PER_REPLY = 32
MAX_ATTACHMENT_BYTES = 64 * 1024
_PREVIEW_CHARS = 500
_BODY_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
"""Made once: ``json.dumps`` with options builds an encoder per call."""


@dataclass(frozen=True)
class ToolReply:
    """A successful call's answer: the output the code sees, plus side-channel attachments.

    ``attachments`` are the kept items, in the order sent; ``rejected_attachments`` counts
    what was dropped (invalid items, the surplus past the per-reply cap, or 1 for an
    ``attachments`` value that is not a list).
    """

    output: Any
    attachments: list[dict[str, Any]]
    rejected_attachments: int = 0


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Sandbox-Signature`` value for ``body`` sent at ``timestamp``."""
    mac = _keyed(secret).copy()
    mac.update(str(int(timestamp)).encode("ascii") + b".")
    mac.update(body)
    return f"{SIGNATURE_VERSION}={mac.hexdigest()}"


@functools.lru_cache(maxsize=256)
def _keyed(secret: str) -> hmac.HMAC:
    """The HMAC keyed with ``secret``, never fed: each signature feeds a copy, so the key is
    set up once per toolset rather than once per call."""
    return hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)


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
    tool: ToolDef,
    args: Mapping[str, Any],
    execution_id: str,
    seq: int,
    idempotency_key: str,
    *,
    action: Literal["call", "revert"] = "call",
    output: Any = None,
) -> bytes:
    """The exact bytes POSTed (and signed) for one call, or for the revert of one.

    A call's body has no ``action`` field (so bodies stay what agent hosts already parse);
    a revert adds the call's ``output`` and ``"action": "revert"``.
    """
    payload: dict[str, Any] = {"tool": tool.name, "input": dict(args)}
    if action == "revert":
        payload["output"] = output
    payload.update(
        {"execution_id": execution_id, "seq": seq, "idempotency_key": idempotency_key}
    )
    if action == "revert":
        payload["action"] = "revert"
    return _BODY_ENCODER.encode(payload).encode("utf-8")


async def call_remote_tool(
    tool: ToolDef,
    args: Mapping[str, Any],
    *,
    secret: str,
    execution_id: str,
    seq: int,
    idempotency_key: str | None = None,
    client: httpx.AsyncClient | PeerHTTP | None = None,
    max_response_bytes: int = MAX_RESPONSE_BYTES,
    clock: Callable[[], float] = time.time,
    validate: bool = True,
) -> Any:
    """POST one call of ``tool`` to its ``url`` and return just its output.

    The same as :func:`call_remote_tool_reply` with the attachments discarded.
    """
    reply = await call_remote_tool_reply(
        tool,
        args,
        secret=secret,
        execution_id=execution_id,
        seq=seq,
        idempotency_key=idempotency_key,
        client=client,
        max_response_bytes=max_response_bytes,
        clock=clock,
        validate=validate,
    )
    return reply.output


async def call_remote_tool_reply(
    tool: ToolDef,
    args: Mapping[str, Any],
    *,
    secret: str,
    execution_id: str,
    seq: int,
    idempotency_key: str | None = None,
    client: httpx.AsyncClient | PeerHTTP | None = None,
    max_response_bytes: int = MAX_RESPONSE_BYTES,
    clock: Callable[[], float] = time.time,
    validate: bool = True,
) -> ToolReply:
    """POST one call of ``tool`` to its ``url``; return its output and attachments.

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
    status, data = await _signed_post(
        tool, tool.url, body, secret, client, max_response_bytes, clock
    )
    payload = _answer_object(tool, status, data)
    if "output" not in payload:
        keys = ", ".join(sorted(payload)) or "no keys"
        raise ToolResponseShapeError(tool.name, f"an object with {keys}")
    attachments, rejected = _screen_attachments(payload.get("attachments"))
    return ToolReply(payload["output"], attachments, rejected)


async def call_remote_revert(
    tool: ToolDef,
    args: Mapping[str, Any],
    result: Any,
    *,
    secret: str,
    execution_id: str,
    seq: int,
    idempotency_key: str | None = None,
    client: httpx.AsyncClient | PeerHTTP | None = None,
    max_response_bytes: int = MAX_RESPONSE_BYTES,
    clock: Callable[[], float] = time.time,
) -> Any:
    """Ask the agent host to undo the applied call ``seq``; return the revert's output.

    ``args`` and ``result`` are the call's recorded arguments and output, and
    ``idempotency_key`` the key the call was sent with (default ``<execution_id>:<seq>``,
    as for the call). The arguments are not re-validated: they are what was applied, even
    if the tool's schema has changed since. Returns the ``output`` of the reply, or None
    for ``{"reverted": true}``; raises :class:`ToolError` when the host reports it could not
    revert and a :class:`ToolCallError` for every transport or shape failure.
    """
    if tool.revert_url is None:
        raise ToolCallError(
            tool.name, f'Tool "{tool.name}" declares no revert_url, so its calls cannot be reverted'
        )
    key = idempotency_key or default_idempotency_key(execution_id, seq)
    body = request_body(tool, args, execution_id, seq, key, action="revert", output=result)
    status, data = await _signed_post(
        tool, tool.revert_url, body, secret, client, max_response_bytes, clock
    )
    payload = _answer_object(tool, status, data)
    reverted = payload.get("reverted")
    if "reverted" in payload and not isinstance(reverted, bool):
        raise ToolResponseShapeError(tool.name, '"reverted" must be true or false')
    if reverted is False:
        raise ToolError(
            "RevertFailed", f'Tool "{tool.name}" answered that call {seq} was not reverted'
        )
    if "output" in payload:
        return payload["output"]
    if reverted is True:
        return None
    keys = ", ".join(sorted(payload)) or "no keys"
    raise ToolResponseShapeError(
        tool.name, f'an object with {keys}; a revert may also answer {{"reverted": true}}'
    )


async def _signed_post(
    tool: ToolDef,
    url: str,
    body: bytes,
    secret: str,
    client: httpx.AsyncClient | PeerHTTP | None,
    max_response_bytes: int,
    clock: Callable[[], float],
) -> tuple[int, bytes]:
    """Sign ``body``, POST it to ``url`` within the tool's timeout; map transport failures."""
    timestamp = int(clock())
    headers = dict(tool.headers or {})
    headers.update(
        {
            "Content-Type": "application/json",
            TIMESTAMP_HEADER: str(timestamp),
            SIGNATURE_HEADER: sign(secret, timestamp, body),
        }
    )
    span = tracing.span("codemode.webhook", {"codemode.tool": tool.name}, kind="client")
    timeout_s = tool.timeout_ms / 1000 if tool.timeout_ms > 0 else None
    owned = client is None
    http = client if client is not None else httpx.AsyncClient()
    try:
        # httpx timeouts bound each phase; asyncio.timeout bounds the whole request, so a
        # server trickling bytes cannot stretch it past timeout_ms.
        with span:
            # The agent host's own spans for this call nest under ours.
            headers.update(tracing.outgoing_headers())
            if isinstance(http, PeerHTTP):  # it bounds the whole request itself, more cheaply
                answer = await http.request("POST", url, headers=headers, body=body,
                                            max_bytes=max_response_bytes, timeout_s=timeout_s)
                status, data = answer.status, answer.body
            else:
                async with asyncio.timeout(timeout_s):
                    status, data = await _post(
                        http, tool.name, url, body, headers, timeout_s, max_response_bytes
                    )
            span.set("http.response.status_code", status)
            return status, data
    except (TimeoutError, httpx.TimeoutException) as exc:
        raise ToolTimeoutError(tool.name, tool.timeout_ms) from exc
    except httpx.TransportError as exc:
        reason = str(exc) or type(exc).__name__
        raise ToolConnectionError(tool.name, url, reason) from exc
    except ToolResponseTooLarge:  # the peers' client's, named after no tool
        raise ToolResponseTooLarge(tool.name, max_response_bytes) from None
    except ConnectionError as exc:
        raise ToolConnectionError(tool.name, url, str(exc)) from exc
    finally:
        if owned:
            await http.aclose()


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


def _answer_object(tool: ToolDef, status: int, data: bytes) -> dict[str, Any]:
    """The reply as a JSON object with no ``error``; raise the typed error otherwise."""
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
    return payload


def _screen_attachments(raw: Any) -> tuple[list[dict[str, Any]], int]:
    """Keep the usable attachments (at most the per-reply cap); count what is dropped."""
    if raw is None:
        return [], 0
    if not isinstance(raw, list):
        return [], 1
    kept: list[dict[str, Any]] = []
    rejected = 0
    for item in raw:
        if len(kept) >= MAX_ATTACHMENTS_PER_REPLY or not _usable_attachment(item):
            rejected += 1
        else:
            kept.append(item)
    return kept, rejected


def _usable_attachment(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    kind = item.get("type")
    if not isinstance(kind, str) or not kind:
        return False
    try:
        # Strict JSON (no NaN/Infinity, which json.loads lets through): attachments are
        # recorded with the execution, so they must survive a strict round trip.
        encoded = json.dumps(item, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, RecursionError):
        return False
    return len(encoded.encode("utf-8")) <= MAX_ATTACHMENT_BYTES

"""MCP connectors: an MCP server's tools as one namespace, called through the official SDK.

:func:`list_mcp_tools` asks a server for its tools (every page) over a short-lived session,
when a connector is stored or refreshed. :class:`McpSessions` keeps one initialised client
session per connector (server URL and headers) open across executions, so a call costs one
``tools/call`` round trip and not a handshake; a session that fails is dropped and the next
call opens a fresh one. Each session lives in a task of its own, because the SDK's transport
is an anyio task group that must be left by the task that entered it. The sessions' HTTP
goes over :class:`~codemode.peer_http.PeerHTTP`'s kept connections when one is given (the
SDK's own httpcore2 was half of a call's CPU here); the SDK still speaks the protocol.

A call sends the idempotency key in the request's ``_meta`` (``idempotency_key``, beside the
trace context: ``traceparent``, ``tracestate``) and
unwraps the result as the reference does: ``structuredContent``, else text content parsed as
JSON when every part is text, else the raw text; ``isError`` raises :class:`ToolError`
(``ToolError``) with the text; a result that does not match the tool's declared output schema
is :class:`ToolResponseSchemaError`. Transport failures are :class:`ToolConnectionError` and
:class:`ToolTimeoutError`, named after the connector's method.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Mapping
from typing import Any, cast

import httpx2
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT, RequestParamsMeta

from .peer_http import PeerHTTP
from .errors import (
    ConnectorUnavailable,
    ToolConnectionError,
    ToolError,
    ToolResponseSchemaError,
    ToolTimeoutError,
)

__all__ = ["IDEMPOTENCY_META_KEY", "McpSessions", "list_mcp_tools", "unwrap_result"]

IDEMPOTENCY_META_KEY = "idempotency_key"
MAX_TOOL_PAGES = 100
"""A server that pages past this many tools/list pages is refused (a loop, not a catalogue)."""
CONNECT_TIMEOUT_S = 10.0


def _client(headers: Mapping[str, str], timeout_s: float,
            peers: PeerHTTP | None = None) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(headers=dict(headers), timeout=httpx2.Timeout(timeout_s),
                              follow_redirects=False,
                              transport=None if peers is None else _PeerTransport(peers))


class _PeerBody(httpx2.AsyncByteStream):
    """An answer's body as the SDK reads it; closing it closes the exchange."""

    def __init__(self, chunks: AsyncIterator[bytes], exchange: contextlib.AsyncExitStack) -> None:
        self._chunks = chunks
        self._exchange = exchange

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._chunks:
                yield chunk
        except ConnectionError as exc:
            raise httpx2.ReadError(str(exc)) from None

    async def aclose(self) -> None:
        await self._exchange.aclose()


class _PeerTransport(httpx2.AsyncBaseTransport):
    """The SDK's HTTP under its session: :class:`PeerHTTP`'s kept connections, not
    httpcore2's (most of a ``tools/call``'s CPU in this process was the HTTP client's).
    The SDK still speaks the protocol; this only carries its requests."""

    def __init__(self, peers: PeerHTTP) -> None:
        self._peers = peers

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        # Asked for as it is: the answer's encoding is undone below it, and httpx2 must
        # not undo it again.
        headers = {k: v for k, v in request.headers.items() if k.lower() != "accept-encoding"}
        timeouts = request.extensions.get("timeout") or {}
        waited = [t for t in (timeouts.get("connect"), timeouts.get("read")) if t is not None]
        exchange = contextlib.AsyncExitStack()
        try:
            # Bounded up to the answer's headers; its body (an event stream that may stay
            # open) is the SDK's to time.
            async with asyncio.timeout(sum(waited) if waited else None):
                answer, chunks = await exchange.enter_async_context(self._peers.stream(
                    request.method, str(request.url), headers=headers,
                    body=body if body or request.method in ("POST", "PUT", "PATCH") else None,
                    max_bytes=sys.maxsize))
        except TimeoutError:
            await exchange.aclose()
            raise httpx2.ReadTimeout("no answer in time", request=request) from None
        except ConnectionError as exc:
            await exchange.aclose()
            raise httpx2.ConnectError(str(exc), request=request) from None
        except BaseException:
            await exchange.aclose()
            raise
        shown = [(k, v) for k, v in answer.headers.items()
                 if k != "content-encoding" and not (k == "content-length"
                                                     and "content-encoding" in answer.headers)]
        return httpx2.Response(answer.status, headers=shown, stream=_PeerBody(chunks, exchange),
                               request=request)


def _reason(exc: BaseException) -> str:
    """The innermost useful text of a transport failure (the SDK raises exception groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:500]


async def list_mcp_tools(connector: str, url: str, headers: Mapping[str, str],
                         timeout_s: float = CONNECT_TIMEOUT_S) -> list[dict[str, Any]]:
    """Every tool the server at ``url`` offers, as ``{name, description, input_schema,
    output_schema?}``; :class:`ConnectorUnavailable` when it cannot be asked."""
    try:
        async with asyncio.timeout(timeout_s * 3):
            async with _client(headers, timeout_s) as client:
                async with streamable_http_client(url, http_client=client) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return await _all_tools(connector, session)
    except ConnectorUnavailable:
        raise
    except TimeoutError:
        raise ConnectorUnavailable(connector, f"the MCP server at {url} did not answer "
                                              f"within {timeout_s * 3:.0f} s") from None
    except Exception as exc:
        raise ConnectorUnavailable(connector, f"could not list the tools of the MCP server "
                                              f"at {url}: {_reason(exc)}") from None


async def _all_tools(connector: str, session: ClientSession) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        for tool in page.tools:
            entry: dict[str, Any] = {"name": tool.name, "description": tool.description or "",
                                     "input_schema": dict(tool.input_schema)}
            if tool.output_schema:
                entry["output_schema"] = dict(tool.output_schema)
            if tool.annotations is not None and tool.annotations.read_only_hint is True:
                entry["read_only"] = True
            tools.append(entry)
        cursor = page.next_cursor
        if not cursor:
            return tools
    raise ConnectorUnavailable(connector, f"the server kept paging past {MAX_TOOL_PAGES} pages of tools")


def unwrap_result(result: types.CallToolResult, method: str) -> Any:
    """What the code gets from a tool result (see the module docstring)."""
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    all_text = len(texts) == len(result.content)
    if result.is_error:
        message = "\n".join(texts) if texts else f"{method} failed (the server sent no text)"
        raise ToolError("ToolError", message)
    if result.structured_content is not None:
        return result.structured_content
    if all_text and texts:
        joined = "\n".join(texts)
        try:
            return json.loads(joined)
        except ValueError:
            return joined
    return [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in result.content]


class _Session:
    """One initialised client session, held open by a task of its own until closed."""

    def __init__(self, url: str, headers: Mapping[str, str], peers: PeerHTTP | None) -> None:
        self.url = url
        self.headers = dict(headers)
        self.peers = peers
        self.session: ClientSession | None = None
        self.failed = False
        self._ready: asyncio.Future[ClientSession] = asyncio.get_running_loop().create_future()
        self._closing = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._hold())

    async def _hold(self) -> None:
        try:
            async with _client(self.headers, CONNECT_TIMEOUT_S, self.peers) as client:
                async with streamable_http_client(self.url, http_client=client) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        self.session = session
                        self._ready.set_result(session)
                        await self._closing.wait()
        except BaseException as exc:  # the transport's group fails as a whole
            self.failed = True
            if not self._ready.done():
                self._ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self.failed = True

    async def ready(self, timeout_s: float) -> ClientSession:
        async with asyncio.timeout(timeout_s):
            return await asyncio.shield(self._ready)

    async def close(self) -> None:
        self._closing.set()
        try:
            async with asyncio.timeout(5):
                await asyncio.shield(self._task)
        except BaseException:  # a session that will not end cleanly is cut off
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


class McpSessions:
    """Open client sessions by (connector key, url, headers); safe to share between tasks."""

    def __init__(self, peers: PeerHTTP | None = None) -> None:
        self._sessions: dict[tuple[str, str, str], _Session] = {}
        self._lock = asyncio.Lock()
        self._peers = peers
        """What the sessions' HTTP goes over when given (kept connections); else httpcore2."""

    async def _session(self, key: tuple[str, str, str], url: str,
                       headers: Mapping[str, str]) -> _Session:
        async with self._lock:
            held = self._sessions.get(key)
            if held is None or held.failed:
                if held is not None:
                    await held.close()
                held = _Session(url, headers, self._peers)
                self._sessions[key] = held
            return held

    async def _drop(self, key: tuple[str, str, str], held: _Session) -> None:
        async with self._lock:
            if self._sessions.get(key) is held:
                del self._sessions[key]
        await held.close()

    async def call(self, owner: str, url: str, headers: Mapping[str, str], tool: str,
                   method: str, args: Mapping[str, Any], *, idempotency_key: str,
                   timeout_s: float, meta: Mapping[str, str] | None = None) -> Any:
        """Call ``tool`` with ``args``; the unwrapped result, or a typed error. ``meta``
        joins the request's ``_meta`` (the trace context)."""
        key = (owner, url, json.dumps(dict(headers), sort_keys=True))
        for attempt in (1, 2):
            held = await self._session(key, url, headers)
            reused = held.session is not None
            try:
                session = await held.ready(min(timeout_s, CONNECT_TIMEOUT_S) if timeout_s > 0
                                           else CONNECT_TIMEOUT_S)
            except TimeoutError:
                await self._drop(key, held)
                raise ToolTimeoutError(method, int(CONNECT_TIMEOUT_S * 1000)) from None
            except Exception as exc:
                await self._drop(key, held)
                raise ToolConnectionError(method, url, _reason(exc)) from None
            try:
                result = await self._call(session, tool, args,
                                          {**(meta or {}), IDEMPOTENCY_META_KEY: idempotency_key},
                                          timeout_s)
            except MCPError as exc:
                if exc.code == REQUEST_TIMEOUT:
                    await self._drop(key, held)
                    raise ToolTimeoutError(method, int(timeout_s * 1000)) from None
                if held.failed or exc.code == CONNECTION_CLOSED:
                    await self._drop(key, held)
                    if reused and attempt == 1:
                        # A kept session the server forgot (it restarted): the request did
                        # not run there, so a fresh session sends it, with the same key.
                        continue
                    raise ToolConnectionError(method, url, _reason(exc)) from None
                raise ToolError("MCPError", f"{method}: {exc.error.message}") from None
            except (httpx2.HTTPError, OSError) as exc:
                await self._drop(key, held)
                raise ToolConnectionError(method, url, _reason(exc)) from None
            except RuntimeError as exc:
                # The SDK checks a result against the tool's output schema and says so in a
                # RuntimeError; any other is an answer this client cannot use either.
                if "schema" in str(exc) or "structured content" in str(exc):
                    raise ToolResponseSchemaError(method, str(exc)[:1_000]) from None
                raise ToolError("MCPError", f"{method}: {str(exc)[:1_000]}") from None
            except TimeoutError:
                await self._drop(key, held)
                raise ToolTimeoutError(method, int(timeout_s * 1000)) from None
            return unwrap_result(result, method)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _call(self, session: ClientSession, tool: str, args: Mapping[str, Any],
                    sent_meta: Mapping[str, str], timeout_s: float) -> types.CallToolResult:
        meta = cast(RequestParamsMeta, dict(sent_meta))
        if timeout_s <= 0:
            return await session.call_tool(tool, dict(args), meta=meta)
        # The SDK's own read timeout answers the request; the outer one covers a transport
        # that died without answering anything.
        async with asyncio.timeout(timeout_s + 1):
            return await session.call_tool(tool, dict(args), read_timeout_seconds=timeout_s,
                                           meta=meta)

    async def forget(self, owner: str) -> None:
        """Close the sessions of one connector (it was replaced, refreshed or deleted)."""
        async with self._lock:
            dropped = [(k, s) for k, s in self._sessions.items() if k[0] == owner]
            for k, _ in dropped:
                del self._sessions[k]
        for _, held in dropped:
            await held.close()

    async def close(self) -> None:
        async with self._lock:
            held = list(self._sessions.values())
            self._sessions.clear()
        for session in held:
            await session.close()

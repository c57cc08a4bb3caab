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

The SDK is imported on first use, not with this module: its protocol models cost about
1.5 s to import on this project's 2-core machine, which every start of the service and of
the command line paid, while most never reach an MCP server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, cast

import httpx
import httpx2

from .peer_http import PeerHTTP
from .errors import (
    ConnectorUnavailable,
    ToolConnectionError,
    ToolError,
    ToolResponseSchemaError,
    ToolTimeoutError,
)

if TYPE_CHECKING:
    from mcp import ClientSession, types
    from mcp_types import RequestParamsMeta

__all__ = ["IDEMPOTENCY_META_KEY", "McpSessions", "list_mcp_tools", "unwrap_result"]

IDEMPOTENCY_META_KEY = "idempotency_key"
MAX_TOOL_PAGES = 100
"""A server that pages past this many tools/list pages is refused (a loop, not a catalogue)."""
CONNECT_TIMEOUT_S = 10.0


FINISH_ANSWER_S = 1.0
"""How long the rest of an answer the SDK stopped reading is waited for (an event stream's
last chunk follows the response event the SDK wanted), so its connection is kept."""


def _client(headers: Mapping[str, str], timeout_s: float,
            peers: PeerHTTP | None = None) -> httpx2.AsyncClient:
    if peers is None:
        return httpx2.AsyncClient(headers=dict(headers), timeout=httpx2.Timeout(timeout_s),
                                  follow_redirects=False)
    return _PeerClient(headers, timeout_s, peers)


class _PeerClient(httpx2.AsyncClient):
    """The client the SDK's transport is given: httpx2's, sending the SDK's requests as
    they are, without the per-request machinery this use never needs (a client-level auth
    flow, event hooks, redirects followed by the client, a URL merged with a base URL).
    A request built or sent any other way goes through httpx2's own path unchanged; a
    redirect is still handed back with its ``next_request`` for the SDK to judge, and
    cookies are still kept once a peer sets one (a load balancer's sticky session)."""

    def __init__(self, headers: Mapping[str, str], timeout_s: float, peers: PeerHTTP) -> None:
        super().__init__(headers=dict(headers), timeout=httpx2.Timeout(timeout_s),
                         follow_redirects=False, transport=_PeerTransport(peers))
        self._extensions: dict[str, Any] = {"timeout": self.timeout.as_dict()}
        self._urls: dict[str, httpx2.URL] = {}
        # Names lower-cased, so a request's own header replaces the client's of that name
        # whatever its case (as httpx2's merge does).
        self._headers_lower = {k.lower(): v for k, v in self.headers.items()}

    def build_request(
            self, method: str, url: httpx2.URL | str, *, content: Any = None, data: Any = None,
            files: Any = None, json: Any = None, params: Any = None, headers: Any = None,
            cookies: Any = None, timeout: Any = httpx2.USE_CLIENT_DEFAULT,
            extensions: Any = None) -> httpx2.Request:
        if not isinstance(url, str) or data is not None or files is not None or params \
                or cookies or extensions or timeout is not httpx2.USE_CLIENT_DEFAULT \
                or self.cookies:
            return super().build_request(method, url, content=content, data=data, files=files,
                                         json=json, params=params, headers=headers,
                                         cookies=cookies, timeout=timeout, extensions=extensions)
        target = self._urls.get(url)
        if target is None:
            target = self._merge_url(url)
            if len(self._urls) < 8:  # one endpoint per session; a bound all the same
                self._urls[url] = target
        merged = dict(self._headers_lower)
        if headers:
            for name, value in (headers.items() if hasattr(headers, "items") else headers):
                merged[name.lower()] = value
        return httpx2.Request(method, target, content=content, json=json, headers=merged,
                              extensions=dict(self._extensions))

    async def send(
            self, request: httpx2.Request, *, stream: bool = False,
            auth: Any = httpx2.USE_CLIENT_DEFAULT,
            follow_redirects: Any = httpx2.USE_CLIENT_DEFAULT) -> httpx2.Response:
        if auth is not httpx2.USE_CLIENT_DEFAULT or follow_redirects is True or self.auth \
                or self.event_hooks["request"] or self.event_hooks["response"] or self.is_closed:
            return await super().send(request, stream=stream, auth=auth,
                                      follow_redirects=follow_redirects)
        if "timeout" not in request.extensions:
            request.extensions = {**request.extensions, **self._extensions}
        response = await self._transport.handle_async_request(request)
        response.request = request
        try:
            if "set-cookie" in response.headers:
                self.cookies.extract_cookies(response)
            if response.has_redirect_location:
                with contextlib.suppress(httpx2.RemoteProtocolError):
                    response.next_request = self._build_redirect_request(request, response)
            if not stream:
                await response.aread()
        except BaseException:
            await response.aclose()
            raise
        return response


class _PeerBody(httpx2.AsyncByteStream):
    """An answer's body as the SDK reads it; closing it closes the exchange."""

    def __init__(self, chunks: AsyncIterator[bytes], exchange: contextlib.AsyncExitStack) -> None:
        self._chunks = chunks
        self._exchange = exchange

    # An iterator object, not an async generator: the SDK stops reading once it has its
    # event, and a generator left suspended is finalised by the event loop with a
    # thread-safe wake-up and a task of its own, per answer.
    def __aiter__(self) -> "_PeerBody":
        return self

    async def __anext__(self) -> bytes:
        try:
            return await anext(self._chunks)
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
        self._urls: dict[str, httpx.URL] = {}
        """Each endpoint's URL as PeerHTTP takes it, parsed once rather than per request."""

    def _target(self, url: httpx2.URL) -> httpx.URL | str:
        text = str(url)
        target = self._urls.get(text)
        if target is None:
            try:
                target = httpx.URL(text)
            except (httpx.InvalidURL, ValueError, TypeError):
                return text  # PeerHTTP says why
            if len(self._urls) < 8:
                self._urls[text] = target
        return target

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
                    request.method, self._target(request.url), headers=headers,
                    body=body if body or request.method in ("POST", "PUT", "PATCH") else None,
                    max_bytes=sys.maxsize, finish_s=FINISH_ANSWER_S))
        except TimeoutError:
            await exchange.aclose()
            raise httpx2.ReadTimeout("no answer in time", request=request) from None
        except ConnectionError as exc:
            await exchange.aclose()
            raise httpx2.ConnectError(str(exc), request=request) from None
        except BaseException:
            await exchange.aclose()
            raise
        # As PeerHTTP read them (latin-1), so a byte past ASCII is a character, not an error.
        shown = httpx2.Headers([(k.encode("latin-1"), v.encode("latin-1"))
                                for k, v in answer.headers.items()
                                if k != "content-encoding" and not (
                                    k == "content-length" and "content-encoding" in answer.headers)],
                               encoding="latin-1")
        response = httpx2.Response(answer.status, stream=_PeerBody(chunks, exchange),
                                   request=request)
        response.headers = shown
        return response


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
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

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
    from mcp import types

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
    from mcp import types

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
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

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
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

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
        meta = cast("RequestParamsMeta", dict(sent_meta))
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

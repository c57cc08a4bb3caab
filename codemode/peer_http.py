"""HTTP/1.1 to the peers a call reaches (webhook tools, OpenAPI and MCP connectors), on
asyncio streams with httptools' parser, over connections kept alive per origin.

Why not httpx for these: measured on the 2-core machine this service is built on, one httpx
request to a local server costs 0.6-0.7 ms of CPU (1.2-1.4 ms inside the service, with its
stream API and timeouts), most of a tool call's own overhead; the same exchange here costs
0.03-0.05 ms. The URL is still httpx's (``httpx.URL``: the same normalisation and
percent-encoding as before), and so is the trust of TLS (``httpx.create_ssl_context``: the
same certificates, ``SSL_CERT_FILE`` honoured). A request this module does not make itself
goes through an ``httpx.AsyncClient`` as before: every request while the environment names a
proxy (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``, any case), and a URL with user info.

:meth:`PeerHTTP.request` sends one request and reads the whole answer, at most
``max_bytes`` of body (:class:`~codemode.errors.ToolResponseTooLarge` past it, which the
caller names again after its tool); :meth:`PeerHTTP.stream`
yields the body as it comes (the MCP transport: an answer may be a server-sent event
stream). Failures to connect, send or read are the builtin :class:`ConnectionError`. A
request's ``timeout_s`` bounds the whole of it (:class:`TimeoutError`); a stream's time is
the caller's to bound (``asyncio.timeout``). A request cut off by either, or by any other
error, closes its connection rather than returning it half read. A kept connection the
peer closed while idle is noticed before reuse; one it closed just as the request went
out (nothing of an answer came back) is retried once on a fresh connection. Redirects are
never followed. Answers with ``Content-Encoding`` gzip or deflate are decoded (bounded by
``max_bytes`` too); none is asked for.

A kept connection is closed once it has been idle for ``KEEPALIVE_S`` (one timer for all of
them, set for the one idle longest: a timer per release, set and cancelled on every
request, cost more than the rest of the pool's bookkeeping), so a peer no call reaches any
more does not hold the service's sockets, nor the service its. A caller that stops reading
an answer before its end may ask :meth:`PeerHTTP.stream` to ``finish`` it: the rest (a
server-sent event stream whose last chunk follows the event the caller wanted) is read and
dropped for at most that long, so the connection is kept rather than closed and opened
again by the next request.

While a whole answer (:meth:`PeerHTTP.request`) is awaited, the event loop may poll for it
instead of sleeping, for at most ``poll_s`` (0, the default: never), through the process's
:class:`sandbox.polling.Poller` (which polls only while one wait is open). An origin whose
last answer took longer than the window is not polled for until one comes within it again,
so a slow peer costs no CPU this way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import ssl
import time
import zlib
from collections.abc import AsyncIterator, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import httptools
import httpx

from sandbox import POLLER, Poller

from .errors import ToolResponseTooLarge

__all__ = ["PeerHTTP", "PeerResponse"]

KEEPALIVE_S = 5.0
"""How long an idle connection is kept (httpx's default expiry too)."""
MAX_IDLE_PER_ORIGIN = 16
MAX_FINISH_BYTES = 65536
"""What finishing an answer the caller left may read and drop; past it the connection closes."""
READ_SIZE = 65536
MAX_HEAD_BYTES = 65536
"""What an answer may send before its headers end (interim 1xx answers included), as
httpx's h11 allows: past it the answer is refused, so a peer streaming header lines
forever cannot fill the service's memory while the call's deadline runs."""
_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")
_USER_AGENT = "wasm-sandbox"


@dataclass
class PeerResponse:
    """A whole answer: status, headers (lower-case names, repeats joined by ``", "``), body."""

    status: int
    headers: dict[str, str]
    body: bytes = b""


def _proxied(environ: Mapping[str, str]) -> bool:
    return any(environ.get(name) or environ.get(name.upper()) for name in _PROXY_VARIABLES)


def _clean(text: str, what: str) -> bytes:
    """A header name or value as sent; one that could split the request is refused."""
    if text.isascii() and text.isprintable():  # the usual header: no control character at all
        return text.encode("ascii")
    if "\r" in text or "\n" in text or "\x00" in text:  # three scans in C, no generator
        raise ConnectionError(f"the {what} {text[:80]!r} contains a line break")
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        raise ConnectionError(f"the {what} {text[:80]!r} is not latin-1 text") from None


@dataclass
class _Place:
    """Where one URL's requests go, worked out once per URL: the parsed URL, the origin its
    connections are kept under, and the opening of a request's head for each method."""

    url: httpx.URL
    origin: tuple[str, bytes, int]
    openings: dict[tuple[str, bool, bool, bool], bytes] = field(default_factory=dict)

    def opening(self, method: str, names: Collection[str]) -> bytes:
        """The request line and the default headers (Host, Accept, User-Agent) the caller's
        header ``names`` (lower case) leave out."""
        key = (method, "host" in names, "accept" in names, "user-agent" in names)
        made = self.openings.get(key)
        if made is None:
            made = _opening(self.url, *key)
            if len(self.openings) < _MAX_OPENINGS:
                self.openings[key] = made
        return made


_MAX_OPENINGS = 32


def _place(url: str | httpx.URL) -> _Place:
    """``url``'s place (parsed once per URL text); refused unless it is an absolute http(s) URL."""
    return _place_of(url if isinstance(url, str) else str(url))


@functools.lru_cache(maxsize=512)
def _place_of(url: str) -> _Place:
    try:
        target = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise ConnectionError(f"the URL is not usable: {exc}") from None
    if target.scheme not in ("http", "https") or not target.raw_host:
        raise ConnectionError(f"the URL {str(target)[:200]!r} is not an absolute http(s) URL")
    return _Place(target, (target.scheme, target.raw_host,
                           target.port or (443 if target.scheme == "https" else 80)))


def _opening(url: httpx.URL, method: str, has_host: bool, has_accept: bool,
             has_agent: bool) -> bytes:
    lines = [b"%s %s HTTP/1.1" % (_clean(method, "method"), url.raw_path)]
    if not has_host:
        default = (url.scheme == "http" and url.port in (None, 80)) or \
                  (url.scheme == "https" and url.port in (None, 443))
        host = b"[%s]" % url.raw_host if b":" in url.raw_host else url.raw_host
        lines.append(b"Host: " + (host if default else b"%s:%d" % (host, url.port or 0)))
    if not has_accept:
        lines.append(b"Accept: */*")
    if not has_agent:
        lines.append(b"User-Agent: " + _USER_AGENT.encode())
    return b"\r\n".join(lines)


_NAMES: dict[str, bytes] = {}
"""Header names as sent, by name (checked once each; bounded)."""
_MAX_NAMES = 1024
_FRAMING = frozenset({"content-length", "transfer-encoding", "connection"})


def _name_bytes(name: str) -> bytes:
    sent = _NAMES.get(name)
    if sent is None:
        if not name or " " in name or ":" in name or "\t" in name:
            raise ConnectionError(f"the header name {name[:80]!r} is not a token")
        sent = _clean(name, "header name")
        if len(_NAMES) < _MAX_NAMES:
            _NAMES[name] = sent
    return sent


def _head(method: str, place: _Place, headers: Mapping[str, str], body: bytes | None) -> bytes:
    names = {name.lower() for name in headers}
    lines = [place.opening(method, names)]
    for name, value in headers.items():
        if name.lower() in _FRAMING:
            continue  # framing is this module's: a caller's value could desynchronise it
        lines.append(_name_bytes(name) + b": " + _clean(value, "header value"))
    if body is not None or method in ("POST", "PUT", "PATCH"):
        lines.append(b"Content-Length: %d" % len(body or b""))
    return b"\r\n".join(lines) + b"\r\n\r\n"


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = time.monotonic()
        self.used = False

    def usable(self, keepalive_s: float) -> bool:
        return not (self.reader.at_eof() or self.writer.is_closing()
                    or time.monotonic() - self.idle_since > keepalive_s)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


@dataclass
class _Answer:
    """The parser's callbacks: one answer as it arrives (an interim 1xx is skipped)."""

    head_only: bool
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[bytes] = field(default_factory=list)
    headers_done: bool = False
    complete: bool = False
    received: bool = False
    keep_alive: bool = False
    """Whether the connection may carry another request (asked while the parser knows)."""
    parser: Any = None

    def on_message_begin(self) -> None:
        self.received = True
        self.headers, self.chunks, self.headers_done = {}, [], False

    def on_header(self, name: bytes, value: bytes) -> None:
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        self.headers[key] = f"{self.headers[key]}, {text}" if key in self.headers else text

    def on_headers_complete(self) -> None:
        self.status = int(self.parser.get_status_code())
        if self.status >= 200:
            self.headers_done = True
            if self.head_only or self.status in (204, 304):
                self.complete = True
                self.keep_alive = bool(self.parser.should_keep_alive())

    def on_body(self, body: bytes) -> None:
        if self.status >= 200:
            self.chunks.append(bytes(body))

    def on_message_complete(self) -> None:
        if self.status >= 200:
            self.complete = True
            self.keep_alive = bool(self.parser.should_keep_alive())


class _Decoder:
    """Content-Encoding gzip / deflate undone, bounded; identity passed through."""

    def __init__(self, encoding: str, max_bytes: int) -> None:
        encoding = encoding.strip().lower()
        self.max_bytes = max_bytes
        self.size = 0
        self._zlib = None
        if encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._zlib = zlib.decompressobj()
        elif encoding not in ("", "identity"):
            raise ConnectionError(f"the answer's Content-Encoding {encoding[:40]!r} is not one "
                                      "this client reads")

    def feed(self, data: bytes) -> bytes:
        if self._zlib is not None:
            try:
                data = self._zlib.decompress(data, self.max_bytes - self.size + 1)
            except zlib.error as exc:
                raise ConnectionError(f"the answer's compressed body is broken: {exc}") from None
        self.size += len(data)
        if self.size > self.max_bytes:
            raise ToolResponseTooLarge("the answer", self.max_bytes)
        return data


class _Body:
    """An answer's body, chunk by chunk as it is read. An iterator object, not an async
    generator: a caller that stops early (the MCP SDK, once it has its event) leaves no
    generator for the event loop to finalise, which costs a thread-safe wake-up and a task
    of its own each time."""

    def __init__(self, peers: "PeerHTTP", conn: _Connection, answer: _Answer,
                 decoder: _Decoder) -> None:
        self._peers = peers
        self._conn = conn
        self._answer = answer
        self._decoder = decoder
        self._pending: list[bytes] = []

    def __aiter__(self) -> "_Body":
        return self

    async def __anext__(self) -> bytes:
        answer = self._answer
        while True:
            while self._pending:
                data = self._decoder.feed(self._pending.pop(0))
                if data:
                    return data
            if answer.chunks:
                self._pending, answer.chunks = answer.chunks, []
                continue
            if answer.complete:
                raise StopAsyncIteration
            await self._peers._read(self._conn, answer)


class _Deadline:
    """When one request's time runs out (loop time), and the connection it is using."""

    __slots__ = ("when", "expired", "conn")

    def __init__(self, when: float) -> None:
        self.when = when
        self.expired = False
        self.conn: _Connection | None = None


class _Deadlines:
    """The time limits of the requests in flight, kept by one timer set for the earliest:
    an ``asyncio.timeout`` per request (a timer set and cancelled, and a task's
    cancellation to undo) cost more than the rest of a webhook call's exchange here. A
    request whose time runs out has its connection closed, which ends whatever it was
    waiting for; it then raises :class:`TimeoutError`."""

    EARLY_S = 0.001
    """A deadline this close is due: a loop's timer may fire that much before its time."""

    def __init__(self) -> None:
        self._watched: dict[_Deadline, None] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._timer_loop: asyncio.AbstractEventLoop | None = None

    def watch(self, timeout_s: float) -> _Deadline:
        loop = asyncio.get_running_loop()
        deadline = _Deadline(loop.time() + timeout_s)
        self._watched[deadline] = None
        # A timer set for an earlier deadline fires first and is then set for this one.
        if self._timer is None or self._timer_loop is not loop or deadline.when < self._timer_at:
            self._arm(loop, deadline.when)
        return deadline

    def forget(self, deadline: _Deadline) -> None:
        # The timer stays, even with nothing left to watch: when it fires it finds nothing
        # due and is set for the next. One request after another then sets it once per
        # timeout, not once per request.
        self._watched.pop(deadline, None)

    def close(self) -> None:
        """Cancel the timer (the client is closing; nothing it watched is in flight)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        self.close()
        self._timer_at = when
        self._timer_loop = loop
        self._timer = loop.call_at(when, self._expire, loop)

    def _expire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        due = loop.time() + self.EARLY_S
        following: float | None = None
        for deadline in list(self._watched):
            if deadline.when <= due:
                del self._watched[deadline]
                deadline.expired = True
                if deadline.conn is not None:
                    deadline.conn.close()
            elif following is None or deadline.when < following:
                following = deadline.when
        if following is not None:
            self._arm(loop, following)


class PeerHTTP:
    """Kept-alive HTTP/1.1 connections by origin; one per process, shared by every call."""

    def __init__(self, environ: Mapping[str, str] | None = None, *,
                 keepalive_s: float = KEEPALIVE_S, poll_s: float = 0.0,
                 poller: Poller = POLLER) -> None:
        self.keepalive_s = keepalive_s
        """How long an idle connection is kept before it is closed."""
        self.poll_s = poll_s
        """How long the loop polls for an answer instead of sleeping (see the module docstring)."""
        self.poller = poller
        """What polls (``sandbox.polling``: the process's one, so two waits never poll at once)."""
        self._slow: set[tuple[str, bytes, int]] = set()
        """Origins whose last answer came after the polling window: not polled for."""
        self._idle: dict[tuple[str, bytes, int], list[_Connection]] = {}
        self._tls: ssl.SSLContext | None = None
        self._proxied = _proxied(os.environ if environ is None else environ)
        self._fallback: httpx.AsyncClient | None = None
        self._deadlines = _Deadlines()
        self._sweep: asyncio.TimerHandle | None = None
        """Closes the idle connections whose keep-alive has passed (set while any is idle)."""

    async def request(self, method: str, url: str | httpx.URL, *, headers: Mapping[str, str],
                      body: bytes | None = None, max_bytes: int,
                      timeout_s: float | None = None) -> PeerResponse:
        """Send one request; its whole answer (see the module docstring). ``timeout_s``
        bounds all of it, connecting and reading included: :class:`TimeoutError` past it."""
        place = _place(url)
        if self._proxied or place.url.userinfo:
            chunks: list[bytes] = []
            async with asyncio.timeout(timeout_s):
                async with self.stream(method, place.url, headers=headers, body=body,
                                       max_bytes=max_bytes) as (response, body_chunks):
                    async for chunk in body_chunks:
                        chunks.append(chunk)
            response.body = b"".join(chunks)
            return response
        # The same exchange as ``stream``'s, without its generator: this is every webhook call.
        origin = place.origin
        deadline = None if timeout_s is None else self._deadlines.watch(timeout_s)
        sent = self._awaiting_answer(origin)
        done = False
        try:
            conn, answer = await self._exchange(method, place, headers, body, deadline)
            try:
                data = await self._whole_body(conn, answer, max_bytes)
                done = answer.complete
            finally:
                self._settle(origin, conn, answer, done)
        except (ConnectionError, ToolResponseTooLarge):
            if deadline is not None and deadline.expired:
                raise TimeoutError(f"no whole answer within {timeout_s} s") from None
            raise
        finally:
            self._answered(origin, sent, done)
            if deadline is not None:
                self._deadlines.forget(deadline)
        if deadline is not None and deadline.expired:  # cut off by it: what came is not all
            raise TimeoutError(f"no whole answer within {timeout_s} s")
        return PeerResponse(answer.status, answer.headers, data)

    @contextlib.asynccontextmanager
    async def stream(self, method: str, url: str | httpx.URL, *, headers: Mapping[str, str],
                     body: bytes | None = None, max_bytes: int, finish_s: float = 0.0
                     ) -> AsyncIterator[tuple[PeerResponse, AsyncIterator[bytes]]]:
        """Send one request; ``(the answer without its body, the body's chunks)``. Left
        before the body's end, the rest is read and dropped for up to ``finish_s`` (see the
        module docstring); an error or cancellation closes the connection at once."""
        place = _place(url)
        if self._proxied or place.url.userinfo:
            async with self._through_httpx(method, place.url, headers, body, max_bytes) as through:
                yield through
            return
        conn, answer = await self._exchange(method, place, headers, body, None)
        done = False
        try:
            decoder = _Decoder(answer.headers.get("content-encoding", ""), max_bytes)
            yield (PeerResponse(answer.status, answer.headers),
                   _Body(self, conn, answer, decoder))
            done = answer.complete or (finish_s > 0 and await self._finish(conn, answer, finish_s))
        finally:
            self._settle(place.origin, conn, answer, done)

    async def _exchange(self, method: str, place: _Place, headers: Mapping[str, str],
                        body: bytes | None, deadline: _Deadline | None
                        ) -> tuple[_Connection, _Answer]:
        """The request sent and its answer read up to its headers, on the origin's kept
        connection or a new one."""
        method = method.upper()
        head = _head(method, place, headers, body)
        return await self._send(place.origin, head + (body or b""), method == "HEAD", deadline)

    def _settle(self, origin: tuple[str, bytes, int], conn: _Connection, answer: _Answer,
                done: bool) -> None:
        """Keep a connection whose answer was read to its end and may carry another; close
        any other (what is still coming could not be told from the next answer)."""
        if done and answer.keep_alive and not answer.head_only:
            self._release(origin, conn)
        else:
            conn.close()

    async def _send(self, origin: tuple[str, bytes, int], data: bytes, head_only: bool,
                    deadline: _Deadline | None) -> tuple[_Connection, _Answer]:
        """The request on a kept or new connection, read up to the answer's headers; the
        connection is ``deadline``'s to close once it passes."""
        while True:
            conn = self._kept(origin)
            if conn is None:
                async with asyncio.timeout_at(None if deadline is None else deadline.when):
                    conn = await self._connect(origin)
            if deadline is not None:
                deadline.conn = conn
                if deadline.expired:
                    conn.close()
                    raise ConnectionError("the request's time ran out")
            answer = _Answer(head_only)
            answer.parser = httptools.HttpResponseParser(answer)
            try:
                try:
                    conn.writer.write(data)
                    await conn.writer.drain()
                except OSError as exc:
                    raise ConnectionError(f"the connection broke: {exc or type(exc).__name__}") from None
                head_bytes = 0
                while not answer.headers_done:
                    head_bytes += await self._read(conn, answer)
                    if not answer.headers_done and head_bytes > MAX_HEAD_BYTES:
                        raise ConnectionError(f"the answer's headers are over {MAX_HEAD_BYTES} bytes")
                return conn, answer
            except ConnectionError:
                conn.close()
                if conn.used and not answer.received and not (deadline and deadline.expired):
                    continue  # the peer closed a kept connection just now: a fresh one
                raise
            except BaseException:
                conn.close()
                raise
            finally:
                conn.used = True

    def _awaiting_answer(self, origin: tuple[str, bytes, int]) -> float | None:
        """Open a wait for an answer from ``origin`` on the poller, polled for unless its
        origin answers slowly; when it began (None: not counted)."""
        if self.poll_s <= 0:
            return None
        self.poller.open(0.0 if origin in self._slow else self.poll_s)
        return asyncio.get_running_loop().time()

    def _answered(self, origin: tuple[str, bytes, int], sent: float | None, came: bool) -> None:
        """The wait :meth:`_awaiting_answer` opened is over (the answer came, or did not):
        learn whether ``origin`` answers within the polling window."""
        if sent is None:
            return
        self.poller.close()
        if not came:
            return
        if asyncio.get_running_loop().time() - sent > self.poll_s:
            self._slow.add(origin)
        else:
            self._slow.discard(origin)

    async def _read(self, conn: _Connection, answer: _Answer) -> int:
        """Read what has come and feed it to the parser; how many bytes that was."""
        try:
            data = await conn.reader.read(READ_SIZE)
        except OSError as exc:
            raise ConnectionError(f"the connection broke: {exc or type(exc).__name__}") from None
        if not data:
            if answer.headers_done and "content-length" not in answer.headers \
                    and "chunked" not in answer.headers.get("transfer-encoding", ""):
                answer.complete = True  # a body that ends when the connection does
                return 0
            raise ConnectionError("the peer closed the connection before a whole answer")
        try:
            answer.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            raise ConnectionError("the peer switched protocols") from None
        except httptools.HttpParserError as exc:
            raise ConnectionError(f"the answer is not HTTP/1.1: {exc}") from None
        return len(data)

    async def _whole_body(self, conn: _Connection, answer: _Answer, max_bytes: int) -> bytes:
        """The rest of the answer's body, decoded and bounded (a loop, not :class:`_Body`'s
        iteration: the body has usually come whole with the head)."""
        decoder = _Decoder(answer.headers.get("content-encoding", ""), max_bytes)
        parts: list[bytes] = []
        while True:
            if answer.chunks:
                chunks, answer.chunks = answer.chunks, []
                parts.extend([decoder.feed(chunk) for chunk in chunks])
            if answer.complete:
                return b"".join(parts)
            await self._read(conn, answer)

    async def _finish(self, conn: _Connection, answer: _Answer, finish_s: float) -> bool:
        """Read the rest of an answer the caller left and drop it; whether it ended in time
        (else the connection is closed: what is still coming cannot be told from the next
        answer)."""
        dropped = 0
        try:
            async with asyncio.timeout(finish_s):
                while not answer.complete and dropped <= MAX_FINISH_BYTES:
                    answer.chunks = []
                    dropped += await self._read(conn, answer)
        except (TimeoutError, ConnectionError):
            return False
        return answer.complete

    def _kept(self, origin: tuple[str, bytes, int]) -> _Connection | None:
        idle = self._idle.get(origin)
        while idle:
            conn = idle.pop()
            if conn.usable(self.keepalive_s):
                return conn
            conn.close()
        return None

    async def _connect(self, origin: tuple[str, bytes, int]) -> _Connection:
        scheme, host, port = origin
        name = host.decode("ascii", errors="replace")
        tls = self._tls_context() if scheme == "https" else None
        try:
            reader, writer = await asyncio.open_connection(
                name, port, ssl=tls, server_hostname=name if tls is not None else None,
                limit=READ_SIZE)
        except OSError as exc:
            raise ConnectionError(f"could not connect to {name}:{port}: "
                                      f"{exc or type(exc).__name__}") from None
        return _Connection(reader, writer)

    def _tls_context(self) -> ssl.SSLContext:
        if self._tls is None:
            self._tls = httpx.create_ssl_context()
        return self._tls

    def _release(self, origin: tuple[str, bytes, int], conn: _Connection) -> None:
        idle = self._idle.setdefault(origin, [])
        if len(idle) >= MAX_IDLE_PER_ORIGIN:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        idle.append(conn)
        if self._sweep is None:
            self._sweep = asyncio.get_running_loop().call_later(self.keepalive_s, self._expire)

    def _expire(self) -> None:
        """Close every idle connection whose keep-alive has passed; come back for the next."""
        self._sweep = None
        now = time.monotonic()
        oldest: float | None = None
        for origin, idle in list(self._idle.items()):
            kept = [conn for conn in idle if now - conn.idle_since < self.keepalive_s]
            for conn in idle:
                if now - conn.idle_since >= self.keepalive_s:
                    conn.close()
            if kept:
                self._idle[origin] = kept
                first = min(conn.idle_since for conn in kept)
                oldest = first if oldest is None else min(oldest, first)
            else:
                del self._idle[origin]
        if oldest is not None:
            self._sweep = asyncio.get_running_loop().call_later(
                oldest + self.keepalive_s - now, self._expire)

    @contextlib.asynccontextmanager
    async def _through_httpx(self, method: str, url: httpx.URL, headers: Mapping[str, str],
                             body: bytes | None, max_bytes: int
                             ) -> AsyncIterator[tuple[PeerResponse, AsyncIterator[bytes]]]:
        if self._fallback is None:
            self._fallback = httpx.AsyncClient(follow_redirects=False, timeout=None)
        try:
            async with self._fallback.stream(method, url, headers=dict(headers),
                                             content=body) as response:
                async def chunks() -> AsyncIterator[bytes]:
                    size = 0
                    try:
                        async for chunk in response.aiter_bytes():
                            size += len(chunk)
                            if size > max_bytes:
                                raise ToolResponseTooLarge("the answer", max_bytes)
                            yield chunk
                    except httpx.TransportError as exc:
                        raise ConnectionError(f"{type(exc).__name__}: {exc}") from None
                yield (PeerResponse(response.status_code,
                                    {k.lower(): v for k, v in response.headers.items()}), chunks())
        except httpx.TransportError as exc:
            raise ConnectionError(f"{type(exc).__name__}: {exc}") from None

    async def aclose(self) -> None:
        self._deadlines.close()
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
        if self._fallback is not None:
            await self._fallback.aclose()
            self._fallback = None

"""The peers' HTTP client: kept-alive connections per origin, answers read whole or bounded,
and nothing half-read ever reused (a failure to reach or read a peer is the builtin
ConnectionError, which the callers name after their tool). Each test talks to a real local server that answers
exactly the bytes the test gives it."""

from __future__ import annotations

import asyncio
import gzip
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import httpx
import pytest

from codemode import ToolResponseTooLarge
from codemode.peer_http import PeerHTTP, _head, _place
from sandbox.polling import Poller

Answer = Callable[[bytes], bytes | None]
"""What the server sends for one request's bytes (None: close the connection instead)."""


class Server:
    def __init__(self, answer: Answer, *, one_per_connection: bool = False,
                 stall_on: bytes | None = None, hold_on: bytes | None = None) -> None:
        self.answer = answer
        self.one_per_connection = one_per_connection
        self.stall_on = stall_on
        """A request holding this is answered in part, then never finished."""
        self.hold_on = hold_on
        """A request holding this is answered once ``release`` is set."""
        self.release = asyncio.Event()
        self.connections = 0
        self.handlers: set[asyncio.Task[None]] = set()
        self.requests: list[bytes] = []
        self.url = ""

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                reply = self.answer(request)
                if reply is None:
                    break
                if self.hold_on is not None and self.hold_on in head:
                    await self.release.wait()
                if self.stall_on is not None and self.stall_on in head:
                    writer.write(reply[:len(reply) - 3])
                    await writer.drain()
                    await self.release.wait()
                    break
                writer.write(reply)
                await writer.drain()
                if self.one_per_connection or b"\r\nConnection: close\r\n" in reply:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def serving(answer: Answer, **options: bytes | bool | None) -> AsyncIterator[Server]:
    server = Server(answer, **options)  # type: ignore[arg-type]
    listening = await asyncio.start_server(server._serve, "127.0.0.1", 0)
    server.url = f"http://127.0.0.1:{listening.sockets[0].getsockname()[1]}"
    async with listening:
        yield server
        server.release.set()
        # The client closed its connections: each handler sees the end and returns.
        if server.handlers:
            await asyncio.wait(server.handlers, timeout=5)


def ok(body: bytes, *headers: bytes) -> bytes:
    return b"\r\n".join([b"HTTP/1.1 200 OK", b"Content-Length: %d" % len(body), *headers,
                         b"", body])


async def test_requests_to_one_origin_share_one_kept_connection() -> None:
    async with serving(lambda _: ok(b'{"n": 1}', b"Content-Type: application/json")) as server:
        peers = PeerHTTP(environ={})
        for _ in range(3):
            answer = await peers.request("POST", server.url + "/call", headers={"X-A": "1"},
                                         body=b"{}", max_bytes=100)
            assert (answer.status, answer.body) == (200, b'{"n": 1}')
            assert answer.headers["content-type"] == "application/json"
        await peers.aclose()
    assert server.connections == 1
    first = server.requests[0]
    assert first.startswith(b"POST /call HTTP/1.1\r\n")
    assert b"\r\nHost: 127.0.0.1:" in first and b"\r\nX-A: 1\r\n" in first
    assert b"\r\nContent-Length: 2\r\n" in first


async def test_a_kept_connection_the_peer_closed_is_replaced_and_the_request_still_answered() -> None:
    # The server answers once per connection, then closes it: every request after the
    # first finds its kept connection gone and goes out on a fresh one.
    async with serving(lambda _: ok(b"x", b"Connection: keep-alive"), one_per_connection=True) as server:
        peers = PeerHTTP(environ={})
        for _ in range(3):
            assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
            await asyncio.sleep(0.05)  # the close reaches this side while the connection is idle
        await peers.aclose()
    assert server.connections == 3 and len(server.requests) == 3


async def test_a_peer_that_closes_a_kept_connection_as_the_request_goes_out_gets_it_again() -> None:
    # No pause this time: the close may arrive only once the next request is sent, which
    # then goes out once more on a fresh connection (nothing of an answer had come back).
    async with serving(lambda _: ok(b"x"), one_per_connection=True) as server:
        peers = PeerHTTP(environ={})
        for _ in range(3):
            assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
        await peers.aclose()
    assert server.connections == len(server.requests) == 3


async def test_an_answer_over_the_limit_is_refused_and_its_connection_not_reused() -> None:
    async with serving(lambda r: ok(b"y" * 50) if b"big" in r else ok(b"small")) as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(ToolResponseTooLarge):
            await peers.request("GET", server.url + "/big", headers={}, max_bytes=10)
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"small"
        await peers.aclose()
    assert server.connections == 2


async def test_chunked_gzip_and_until_close_bodies_are_read_whole() -> None:
    packed = gzip.compress(b'{"packed": true}')
    replies = {
        b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        b"/gzip": ok(packed, b"Content-Encoding: gzip"),
        b"/close": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end",
        b"/interim": b"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + ok(b"final"),
    }

    def answer(request: bytes) -> bytes:
        return replies[request.split(b" ")[1]]

    async with serving(answer) as server:
        peers = PeerHTTP(environ={})
        got = {path: (await peers.request("GET", server.url + path.decode(), headers={},
                                          max_bytes=1000)).body for path in replies}
        await peers.aclose()
    assert got == {b"/chunked": b"abcde", b"/gzip": b'{"packed": true}',
                   b"/close": b"until the end", b"/interim": b"final"}


async def test_a_compressed_answer_is_bounded_by_what_it_unpacks_to() -> None:
    bomb = gzip.compress(b"0" * 100_000)
    async with serving(lambda _: ok(bomb, b"Content-Encoding: gzip")) as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(ToolResponseTooLarge):
            await peers.request("GET", server.url, headers={}, max_bytes=1000)
        await peers.aclose()


async def test_a_header_that_would_split_the_request_is_refused_before_anything_is_sent() -> None:
    async with serving(lambda _: ok(b"")) as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(ConnectionError, match="line break"):
            await peers.request("GET", server.url, headers={"X-Evil": "a\r\nX-Injected: 1"},
                                max_bytes=10)
        await peers.aclose()
    assert server.requests == []


@pytest.mark.parametrize("name, value, sent", [
    ("X-Plain", "v1=abc 123", b"X-Plain: v1=abc 123"),
    ("X-Tab", "a\tb", b"X-Tab: a\tb"),              # a control character, but not a break
    ("X-Latin", "caf\u00e9", b"X-Latin: caf\xe9"),   # not ASCII: sent as latin-1
])
def test_header_values_are_sent_as_latin_1(name: str, value: str, sent: bytes) -> None:
    head = _head("GET", _place("http://peer.invalid/x"), {name: value}, None)
    assert sent + b"\r\n" in head


@pytest.mark.parametrize("name, value, refusal", [
    ("X-A", "a\nb", "line break"), ("X-A", "a\rb", "line break"), ("X-A", "a\x00b", "line break"),
    ("X-A", "\u20ac", "not latin-1"), ("X A", "v", "not a token"), ("X:A", "v", "not a token"),
    ("", "v", "not a token"),
])
def test_header_names_and_values_that_could_break_the_request_are_refused(
        name: str, value: str, refusal: str) -> None:
    with pytest.raises(ConnectionError, match=refusal):
        _head("GET", _place("http://peer.invalid/x"), {name: value}, None)


async def test_an_answer_whose_headers_never_end_is_refused_past_64_kib() -> None:
    endless = b"\r\n".join([b"HTTP/1.1 200 OK", *(b"X-Filler-%d: %s" % (i, b"y" * 40) for i in range(20_000))])
    with_fewer = ok(b"fine", *(b"X-Filler-%d: y" % i for i in range(1_000)))  # ~16 KiB: taken
    async with serving(lambda request: endless if b"/endless" in request else with_fewer) as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(ConnectionError, match="headers are over 65536 bytes"):
            async with asyncio.timeout(30):  # unbounded, the read would wait for the rest for ever
                await peers.request("GET", server.url + "/endless", headers={}, max_bytes=100)
        answer = await peers.request("GET", server.url, headers={}, max_bytes=100)
        assert answer.body == b"fine" and answer.headers["x-filler-999"] == "y"
        await peers.aclose()


async def test_a_request_cut_off_by_its_deadline_leaves_no_half_read_connection() -> None:
    async with serving(lambda _: ok(b"fine"), stall_on=b"/slow") as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await peers.request("GET", server.url + "/slow", headers={}, max_bytes=100)
        assert (await peers.request("GET", server.url, headers={}, max_bytes=100)).body == b"fine"
        server.release.set()
        await peers.aclose()
    assert server.connections == 2


async def test_an_unreachable_peer_is_a_connection_error() -> None:
    listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    listening.close()
    await listening.wait_closed()
    peers = PeerHTTP(environ={})
    with pytest.raises(ConnectionError, match="could not connect"):
        await peers.request("GET", f"http://127.0.0.1:{port}/", headers={}, max_bytes=10)
    await peers.aclose()


async def test_with_a_proxy_in_the_environment_requests_go_through_it() -> None:
    # The server stands in for the proxy: a proxied request names the whole URL.
    async with serving(lambda _: ok(b"via proxy")) as proxy:
        peers = PeerHTTP(environ={"HTTP_PROXY": proxy.url})
        os.environ["HTTP_PROXY"] = proxy.url  # httpx reads the environment itself
        try:
            answer = await peers.request("GET", "http://peer.invalid/thing", headers={},
                                         max_bytes=100)
        finally:
            del os.environ["HTTP_PROXY"]
            await peers.aclose()
    assert answer.body == b"via proxy"
    assert proxy.requests[0].startswith(b"GET http://peer.invalid/thing HTTP/1.1")


async def test_an_idle_kept_connection_is_closed_once_its_keep_alive_has_passed() -> None:
    async with serving(lambda _: ok(b"x")) as server:
        peers = PeerHTTP(environ={}, keepalive_s=0.05)
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
        # Nothing else is sent: the server's handler ends only when this side closes the
        # idle connection (the bound is there so a failure is a failure, not a hang).
        done, _ = await asyncio.wait(server.handlers, timeout=30)
        assert done == server.handlers
        await peers.aclose()


async def test_one_sweep_closes_only_the_connections_past_their_keep_alive() -> None:
    async with serving(lambda _: ok(b"a")) as first, serving(lambda _: ok(b"b")) as second:
        peers = PeerHTTP(environ={}, keepalive_s=3600)
        for server in (first, second):
            assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).status == 200
        assert peers._sweep is not None  # one timer for both, set by the first release
        (old,) = next(idle for origin, idle in peers._idle.items() if first.url.endswith(f":{origin[2]}"))
        old.idle_since -= 3600  # idle for its whole keep-alive now
        peers._expire()
        done, _ = await asyncio.wait(first.handlers, timeout=30)
        assert done == first.handlers  # closed: the server saw the end
        assert not any(h.done() for h in second.handlers)
        assert peers._sweep is not None  # set again, for the one still idle
        assert (await peers.request("GET", second.url, headers={}, max_bytes=10)).body == b"b"
        assert second.connections == 1
        await peers.aclose()
        assert peers._sweep is None


async def test_a_connection_in_use_again_before_its_keep_alive_passed_stays_open() -> None:
    async with serving(lambda _: ok(b"x")) as server:
        peers = PeerHTTP(environ={}, keepalive_s=3600)
        for _ in range(3):
            assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
        assert server.connections == 1 and not any(h.done() for h in server.handlers)
        await peers.aclose()


@asynccontextmanager
async def streaming(rest: asyncio.Event | None) -> AsyncIterator[Server]:
    """A server whose every answer is a chunked event stream sent in two parts: an event,
    then (after a moment, or once ``rest`` is set) the chunk that ends it."""
    server = Server(lambda _: None)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.connections += 1
        try:
            while True:
                server.requests.append(await reader.readuntil(b"\r\n\r\n"))
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n"
                             b"10\r\ndata: answer\r\n\r\n\r\n")
                await writer.drain()
                if rest is None:
                    await asyncio.sleep(0.05)
                else:
                    await rest.wait()
                writer.write(b"0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    listening = await asyncio.start_server(serve, "127.0.0.1", 0)
    server.url = f"http://127.0.0.1:{listening.sockets[0].getsockname()[1]}"
    async with listening:
        yield server
        if rest is not None:
            rest.set()


async def first_event(peers: PeerHTTP, url: str, finish_s: float) -> bytes:
    """The first chunk of an answer, leaving the rest of it unread (as the MCP SDK does)."""
    async with peers.stream("POST", url, headers={}, body=b"{}", max_bytes=1000,
                            finish_s=finish_s) as (_, chunks):
        async for chunk in chunks:
            return chunk
    raise AssertionError("no event")


async def test_an_answer_left_before_its_end_is_finished_and_its_connection_kept() -> None:
    async with streaming(None) as server:
        peers = PeerHTTP(environ={})
        for _ in range(3):
            assert await first_event(peers, server.url, finish_s=30) == b"data: answer\r\n\r\n"
        await peers.aclose()
    assert server.connections == 1 and len(server.requests) == 3


async def test_an_answer_left_that_does_not_end_in_time_closes_its_connection() -> None:
    async with streaming(asyncio.Event()) as server:
        peers = PeerHTTP(environ={})
        for _ in range(2):
            assert await first_event(peers, server.url, finish_s=0.05) == b"data: answer\r\n\r\n"
        await peers.aclose()
    assert server.connections == 2


async def test_an_answer_left_without_asking_to_finish_it_closes_its_connection() -> None:
    async with streaming(None) as server:
        peers = PeerHTTP(environ={})
        for _ in range(2):
            assert await first_event(peers, server.url, finish_s=0) == b"data: answer\r\n\r\n"
        await peers.aclose()
    assert server.connections == 2


async def _turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_the_loop_polls_for_a_lone_answer_and_stops_once_a_second_is_awaited() -> None:
    async with serving(lambda _: ok(b"x"), hold_on=b"/held") as server:
        peers = PeerHTTP(environ={}, poll_s=60.0, poller=Poller())
        first = asyncio.create_task(peers.request("GET", server.url + "/held", headers={},
                                                  max_bytes=10))
        while not server.requests:
            await asyncio.sleep(0.001)
        await _turns(5)
        assert peers.poller.polls > 0
        second = asyncio.create_task(peers.request("GET", server.url + "/held", headers={},
                                                   max_bytes=10))
        while len(server.requests) < 2:
            await asyncio.sleep(0.001)
        polls = peers.poller.polls
        await _turns(20)
        assert peers.poller.polls == polls  # two answers awaited: the loop sleeps as it would
        server.release.set()
        assert [(await first).body, (await second).body] == [b"x", b"x"]
        polls = peers.poller.polls
        await _turns(20)
        assert peers.poller.polls == polls  # none awaited: no polling left behind
        await peers.aclose()


async def test_an_origin_slower_than_the_window_is_not_polled_for_until_it_answers_within_it() -> None:
    async with serving(lambda _: ok(b"x")) as server:
        peers = PeerHTTP(environ={}, poll_s=1e-9, poller=Poller())  # nothing comes that soon
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
        peers.poll_s = 60.0
        polls = peers.poller.polls
        await peers.request("GET", server.url, headers={}, max_bytes=10)
        assert peers.poller.polls == polls  # its last answer was slow: not polled for
        await peers.request("GET", server.url, headers={}, max_bytes=10)
        assert peers.poller.polls > polls  # the one before came within the window: polled again
        await peers.aclose()


async def test_a_client_without_a_window_never_polls() -> None:
    async with serving(lambda _: ok(b"x")) as server:
        peers = PeerHTTP(environ={}, poller=Poller())
        for _ in range(3):
            await peers.request("GET", server.url, headers={}, max_bytes=10)
        assert peers.poller.polls == 0
        await peers.aclose()


async def test_a_request_held_past_its_time_raises_timeout_and_its_connection_is_not_reused() -> None:
    async with serving(lambda _: ok(b"x"), hold_on=b"/held") as server:
        peers = PeerHTTP(environ={})
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10)).body == b"x"
        with pytest.raises(TimeoutError):
            await peers.request("GET", server.url + "/held", headers={}, max_bytes=10,
                                timeout_s=0.1)
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10,
                                    timeout_s=5)).body == b"x"
        await peers.aclose()
    assert server.connections == 2  # the one cut off was closed, not kept


async def test_an_answer_cut_off_by_its_time_is_a_timeout_not_a_short_body() -> None:
    # No length: the body would end with the connection, which the deadline closes.
    async with serving(lambda _: b"HTTP/1.1 200 OK\r\n\r\npartial body",
                       stall_on=b"/trickle") as server:
        peers = PeerHTTP(environ={})
        with pytest.raises(TimeoutError):
            await peers.request("GET", server.url + "/trickle", headers={}, max_bytes=100,
                                timeout_s=0.2)
        await peers.aclose()


async def test_requests_in_flight_each_time_out_at_their_own_deadline() -> None:
    async with serving(lambda _: ok(b"x"), hold_on=b"/held") as server:
        peers = PeerHTTP(environ={})
        loop = asyncio.get_running_loop()

        async def held(timeout_s: float) -> float:
            started = loop.time()
            with pytest.raises(TimeoutError):
                await peers.request("GET", server.url + "/held", headers={}, max_bytes=10,
                                    timeout_s=timeout_s)
            return loop.time() - started

        late, early = await asyncio.gather(held(0.6), held(0.15))
        assert 0.14 <= early < late and late >= 0.59  # a timer may fire a millisecond early
        # A request with time to spare meanwhile is answered as usual.
        assert (await peers.request("GET", server.url, headers={}, max_bytes=10,
                                    timeout_s=5)).body == b"x"
        await peers.aclose()


def test_a_client_used_on_a_second_loop_still_times_out_there() -> None:
    peers = PeerHTTP(environ={})

    async def held(held_s: float) -> None:
        async with serving(lambda _: ok(b"x", b"Connection: close"), hold_on=b"/held") as server:
            with pytest.raises(TimeoutError):
                await peers.request("GET", server.url + "/held", headers={}, max_bytes=10,
                                    timeout_s=held_s)
            # An answered request leaves the timer set for its deadline on this loop (and no
            # kept connection: the answer closed it).
            await peers.request("GET", server.url, headers={}, max_bytes=10, timeout_s=0.5)

    asyncio.run(held(0.1))
    # Later than the first loop's timer, which will never fire: this loop sets its own.
    asyncio.run(asyncio.wait_for(held(1.0), 10))

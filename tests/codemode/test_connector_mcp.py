"""MCP connector calls through held SDK sessions, against a real MCP server built with the
SDK: the session's HTTP rides on the peers' kept connections (an answer's event stream is
read to its end, so the connection is kept, not opened again per call), a redirect within
the server's origin is still followed by the SDK, and a cookie the server sets (a load
balancer's sticky session) is sent back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from codemode.connector_mcp import McpSessions
from codemode.peer_http import PeerHTTP
from connector_peers import McpPeer
from live_server import ServerThread


class WatchedPeers(PeerHTTP):
    """PeerHTTP that notes which connection each POST went out on."""

    def __init__(self) -> None:
        super().__init__(environ={})
        self.posted_on: list[Any] = []

    async def _send(self, origin: Any, data: bytes, head_only: bool, deadline: Any) -> Any:
        conn, answer = await super()._send(origin, data, head_only, deadline)
        if data.startswith(b"POST "):
            self.posted_on.append(conn)
        return conn, answer


def with_cookie(app: Any) -> Any:
    """``app`` behind something that sets a sticky-session cookie on every answer."""
    async def sticky(scope: dict[str, Any], receive: Any, send: Any) -> None:
        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", b"lb=node-7; Path=/")]}
            await send(message)
        await app(scope, receive, sending)
    return sticky


@pytest.fixture(scope="module")
def tracker() -> Iterator[tuple[McpPeer, str]]:
    peer = McpPeer()
    with ServerThread(with_cookie(peer.app())) as live:
        yield peer, f"{live.url}/mcp"


async def create(sessions: McpSessions, url: str, title: str) -> Any:
    return await sessions.call("t/tracker", url, {"X-Api-Key": "k"}, "create_issue",
                               "tracker.create_issue", {"title": title},
                               idempotency_key=f"key-{title}", timeout_s=30)


async def test_calls_through_a_held_session_reuse_its_kept_connections(
        tracker: tuple[McpPeer, str]) -> None:
    peer, url = tracker
    peers = WatchedPeers()
    sessions = McpSessions(peers)
    try:
        await create(sessions, url, "first")  # the handshake, and the standing GET stream
        del peers.posted_on[:]
        for n in range(20):
            result = await create(sessions, url, f"issue {n}")
            assert result["title"] == f"issue {n}"
        # One call after another, on kept connections: at most two, as the next call may
        # go out while the last chunk of the answer before it is still on its way.
        assert len(peers.posted_on) == 20 and len(set(map(id, peers.posted_on))) <= 2
    finally:
        await sessions.close()
        await peers.aclose()
    assert peer.calls[-1][2]["idempotency_key"] == "key-issue 19"


async def test_a_redirect_within_the_servers_origin_is_followed(
        tracker: tuple[McpPeer, str]) -> None:
    peer, url = tracker
    peers = PeerHTTP(environ={})
    sessions = McpSessions(peers)
    try:
        # The server's route is /mcp: /mcp/ is answered with a 307 to it.
        assert (await create(sessions, url + "/", "redirected"))["title"] == "redirected"
    finally:
        await sessions.close()
        await peers.aclose()
    assert peer.calls[-1][1]["title"] == "redirected"


async def test_a_cookie_the_server_sets_is_sent_back(tracker: tuple[McpPeer, str]) -> None:
    peer, url = tracker
    peers = PeerHTTP(environ={})
    sessions = McpSessions(peers)
    try:
        await create(sessions, url, "before")
        await create(sessions, url, "after")
    finally:
        await sessions.close()
        await peers.aclose()
    assert "lb=node-7" in peer.headers[-1].get("cookie", "")
    assert peer.headers[-1]["x-api-key"] == "k"

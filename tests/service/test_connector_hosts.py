"""The operator's connector host allowlist, against a running service and real peers: a
connector naming another host is refused when stored, before the peer is asked; one stored
before the list changed has its calls refused in the code, with nothing sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from connector_peers import McpPeer, openapi_peer
from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import ConfigError, Settings, create_app


@pytest.fixture(scope="module")
def peers() -> Iterator[tuple[McpPeer, str, list[dict[str, Any]], str]]:
    mcp = McpPeer()
    app, seen = openapi_peer()
    with ServerThread(mcp.app()) as mcp_live, ServerThread(app) as api_live:
        yield mcp, f"{mcp_live.url}/mcp", seen, api_live.url


def _serve(data_dir: Path, guest: CompiledGuest, hosts: tuple[str, ...] | None) -> ServerThread:
    return ServerThread(create_app(Settings(data_dir=data_dir, workers=1, guest=guest,
                                            connector_hosts=hosts)))


def test_a_connector_outside_the_allowlist_is_refused_when_stored(
        compiled_guest: CompiledGuest, tmp_path: Path,
        peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> None:
    _, mcp_url, _, api_url = peers
    with _serve(tmp_path, compiled_guest, ("tools.example.com", "localhost")) as live, \
            httpx.Client(base_url=live.url, timeout=60) as http:
        for name, body in (("tracker", {"type": "mcp", "url": mcp_url}),
                           ("hosting", {"type": "openapi", "spec_url": f"{api_url}/openapi.json"})):
            refused = http.put(f"/v1/connectors/{name}", json=body)
            assert refused.status_code == 403, refused.text
            error = refused.json()["error"]
            assert error["code"] == "connector_host_refused"
            port = api_url.rsplit(":", 1)[1] if name == "hosting" else mcp_url.split(":")[2].split("/")[0]
            label = "url" if name == "tracker" else "spec_url"
            assert error["details"] == [
                f"{label} host 127.0.0.1:{port} is not one the service's connectors may reach "
                "(SANDBOX_CONNECTOR_HOSTS: tools.example.com, localhost)"]
            assert http.get(f"/v1/connectors/{name}").status_code == 404


def test_an_openapi_documents_own_server_must_be_allowed_too(
        compiled_guest: CompiledGuest, tmp_path: Path,
        peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> None:
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "servers": [{"url": "https://elsewhere.test/api"}], "paths": {}}
    with _serve(tmp_path, compiled_guest, ("127.0.0.1",)) as live, \
            httpx.Client(base_url=live.url, timeout=60) as http:
        refused = http.put("/v1/connectors/inline", json={"type": "openapi", "spec": spec})
        assert refused.status_code == 403 and "base_url host elsewhere.test" in refused.text
        given = http.put("/v1/connectors/inline", json={"type": "openapi", "spec": spec,
                                                       "base_url": peers[3]})
        assert given.status_code == 201, given.text


def test_calls_of_a_connector_stored_before_the_list_changed_are_refused(
        compiled_guest: CompiledGuest, tmp_path: Path,
        peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> None:
    peer, mcp_url, seen, api_url = peers
    with _serve(tmp_path, compiled_guest, ("127.0.0.1",)) as live, \
            httpx.Client(base_url=live.url, timeout=60) as http:
        http.put("/v1/connectors/tracker", json={"type": "mcp", "url": mcp_url}).raise_for_status()
        http.put("/v1/connectors/hosting", json={
            "type": "openapi", "spec_url": f"{api_url}/openapi.json"}).raise_for_status()
        assert http.post("/v1/execute", json={"code": "tracker.greeting(name='x')",
                                              "connectors": ["tracker"]}).json()["result"] == "hello, x"
    calls, requests = len(peer.calls), len(seen)
    code = """
out = []
for call in (lambda: tracker.greeting(name='y'), lambda: hosting.getRepo(owner='o', repo='r')):
    try:
        call()
    except ToolError as e:
        out.append((type(e).__name__, str(e)))
out
"""
    with _serve(tmp_path, compiled_guest, ("tools.example.com",)) as live, \
            httpx.Client(base_url=live.url, timeout=60) as http:
        outcome = http.post("/v1/execute", json={"code": code,
                                                 "connectors": ["tracker", "hosting"]}).json()
        assert outcome["status"] == "completed", outcome
        (mcp_name, mcp_message), (api_name, api_message) = outcome["result"]
        assert mcp_name == api_name == "ConnectorHostRefused"
        assert mcp_message.startswith('connector "tracker": url host 127.0.0.1:')
        assert api_message.startswith('connector "hosting": base_url host 127.0.0.1:')
        assert [c["state"] for c in outcome["calls"]] == ["error", "error"]
        refreshed = http.post("/v1/connectors/tracker/refresh")
        assert refreshed.status_code == 403
    assert (len(peer.calls), len(seen)) == (calls, requests)  # nothing reached either peer


def test_a_malformed_allowlist_stops_the_service_from_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_CONNECTOR_HOSTS", "api.github.com, https://tools.example.com")
    with pytest.raises(ConfigError, match="SANDBOX_CONNECTOR_HOSTS.*https://tools.example.com"):
        Settings.from_env()
    monkeypatch.setenv("SANDBOX_CONNECTOR_HOSTS", " api.github.com , *.example.com ")
    assert Settings.from_env().connector_hosts == ("api.github.com", "*.example.com")

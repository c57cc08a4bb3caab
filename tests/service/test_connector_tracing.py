"""A connector call in a traced service is a client span under its host call, and the peer
receives that span as its parent: an MCP server in the request's ``_meta``, an OpenAPI
service in the ``traceparent`` header, so the peer's own spans nest under ours."""

from __future__ import annotations

from typing import Any, Iterator

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from connector_peers import McpPeer, openapi_peer
from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app

CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c"
CALLER = {"traceparent": f"00-{CALLER_TRACE}-b7ad6b7169203331-01"}


@pytest.fixture(scope="module")
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture(scope="module")
def peers() -> Iterator[tuple[McpPeer, str, list[dict[str, Any]], str]]:
    mcp = McpPeer()
    app, seen = openapi_peer()
    with ServerThread(mcp.app()) as mcp_live, ServerThread(app) as api_live:
        yield mcp, f"{mcp_live.url}/mcp", seen, api_live.url


@pytest.fixture(scope="module")
def http(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory,
         exporter: InMemorySpanExporter,
         peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("traced"), workers=1,
                        guest=compiled_guest, span_exporter=exporter)
    _, mcp_url, _, api_url = peers
    with ServerThread(create_app(settings)) as live, \
            httpx.Client(base_url=live.url, timeout=60) as client:
        client.put("/v1/connectors/tracker", json={"type": "mcp", "url": mcp_url}).raise_for_status()
        client.put("/v1/connectors/hosting", json={
            "type": "openapi", "spec_url": f"{api_url}/openapi.json"}).raise_for_status()
        yield client


def _connector_spans(spans: list[ReadableSpan], connector: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name == "codemode.connector"
            and (s.attributes or {}).get("codemode.connector") == connector]


def _parent_of(spans: list[ReadableSpan], span: ReadableSpan) -> ReadableSpan:
    assert span.parent is not None
    return next(s for s in spans if s.context is not None
                and s.context.span_id == span.parent.span_id)


def _as_traceparent(span: ReadableSpan) -> str:
    assert span.context is not None
    return f"00-{span.context.trace_id:032x}-{span.context.span_id:016x}-01"


def test_an_mcp_peer_gets_the_connector_calls_span_as_its_parent_in_meta(
        http: httpx.Client, exporter: InMemorySpanExporter,
        peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> None:
    peer = peers[0]
    exporter.clear()
    outcome = http.post("/v1/execute", headers=CALLER, json={
        "code": "tracker.greeting(name='a')\ntracker.greeting(name='b')",
        "connectors": ["tracker"]}).json()
    assert outcome["status"] == "completed", outcome
    spans = list(exporter.get_finished_spans())
    calls = sorted(_connector_spans(spans, "tracker"), key=lambda s: s.start_time or 0)
    assert len(calls) == 2
    assert all(_parent_of(spans, c).name == "codemode.host_call" for c in calls)
    assert all((c.attributes or {})["codemode.connector.type"] == "mcp" for c in calls)
    sent = [meta.get("traceparent") for _, _, meta in peer.calls[-2:]]
    assert sent == [_as_traceparent(c) for c in calls]
    assert all(CALLER_TRACE in str(t) for t in sent)


def test_an_openapi_peer_gets_the_connector_calls_span_as_its_traceparent_header(
        http: httpx.Client, exporter: InMemorySpanExporter,
        peers: tuple[McpPeer, str, list[dict[str, Any]], str]) -> None:
    seen = peers[2]
    exporter.clear()
    outcome = http.post("/v1/execute", headers=CALLER, json={
        "code": "hosting.getRepo(owner='o', repo='r')", "connectors": ["hosting"]}).json()
    assert outcome["status"] == "completed", outcome
    (call,) = _connector_spans(list(exporter.get_finished_spans()), "hosting")
    assert seen[-1]["op"] == "getRepo" and seen[-1]["traceparent"] == _as_traceparent(call)
    assert seen[-1]["traceparent"].split("-")[1] == CALLER_TRACE

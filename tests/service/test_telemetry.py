"""Traces and metrics, observed from outside: a traced service (spans to the SDK's in-memory
exporter), a real tool server that records the headers it is sent, and ``/metrics`` parsed
as Prometheus text.

One execute with two tool calls and a durable approval must give one trace under the
caller's ``traceparent``: the request, the execution, the worker wait, the guest run with its
host calls (namespace, method, seq, state, replayed) and their webhooks, whose
``traceparent`` reaches the tool server; approving it resumes the execution in a span that
links to the one that parked it. No span attribute carries an argument or a secret.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from audit import AuditLog, Checkpoint
from sandbox import tracing
from sandbox.engine import CompiledGuest
from sandbox.service import ConfigError, Settings, create_app
from sandbox.service.recent_spans import MAX_TRACES_PER_EXECUTION, KeepingExporter, RecentSpans

from live_server import ServerThread, free_port, read_body, send_json, serve_lifespan

TOKEN = "tok_" + secrets.token_hex(8)
TITLE = "the-title-" + secrets.token_hex(4)
"""An argument value: it must never appear on a span or in the metrics."""
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_TRACEPARENT = f"00-{CALLER_TRACE}-00f067aa0ba902b7-01"


class RecordingToolServer:
    """A tool endpoint that answers every call and keeps the headers each call came with."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        call = json.loads(await read_body(receive))
        self.headers.append({k.decode().lower(): v.decode() for k, v in scope["headers"]})
        await send_json(send, 200, {"output": {"tool": call["tool"], "ok": True}})


@pytest.fixture(scope="module")
def tool_server() -> Iterator[tuple[RecordingToolServer, str]]:
    server = RecordingToolServer()
    with ServerThread(server) as live:
        yield server, live.url


@pytest.fixture(scope="module")
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture(scope="module")
def service(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory,
            exporter: InMemorySpanExporter,
            tool_server: tuple[RecordingToolServer, str]) -> Iterator[tuple[httpx.Client, str]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("telemetry"), workers=2,
                        guest=compiled_guest, token=TOKEN, span_exporter=exporter, metrics=True)
    _, url = tool_server
    obj = {"type": "object"}
    tools = [
        {"name": "get_item", "description": "Fetch an item.", "url": url,
         "input_schema": {**obj, "properties": {"id": {"type": "integer"}}}},
        {"name": "create_issue", "description": "Open an issue.", "url": url,
         "approval": {"mode": "durable"},
         "input_schema": {**obj, "properties": {"title": {"type": "string"}}}},
    ]
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        created = http.put("/v1/toolsets/github", json={"tools": tools})
        assert created.status_code == 201, created.text
        yield http, created.json()["secret"]


def _children(spans: list[ReadableSpan], parent: ReadableSpan, name: str) -> list[ReadableSpan]:
    assert parent.context is not None
    return [s for s in spans if s.name == name and s.parent is not None
            and s.parent.span_id == parent.context.span_id]


def _one(spans: list[ReadableSpan], name: str, **attributes: Any) -> ReadableSpan:
    found = [s for s in spans if s.name == name
             and all((s.attributes or {}).get(k) == v for k, v in attributes.items())]
    assert len(found) == 1, (name, attributes, [(s.name, dict(s.attributes or {})) for s in spans])
    return found[0]


CODE = f"""
first = github.get_item(id=1)
second = github.get_item(id=2)
github.create_issue(title={TITLE!r})
"""


def test_an_execute_with_two_tool_calls_and_an_approval_is_one_trace_under_the_caller(
        service: tuple[httpx.Client, str], exporter: InMemorySpanExporter,
        tool_server: tuple[RecordingToolServer, str]) -> None:
    http, secret = service
    server, _ = tool_server
    exporter.clear()
    server.headers.clear()
    parked = http.post("/v1/execute", json={"code": CODE, "toolsets": ["github"]},
                       headers={"traceparent": CALLER_TRACEPARENT})
    assert parked.status_code == 200 and parked.json()["status"] == "paused", parked.text
    spans = list(exporter.get_finished_spans())

    request = _one(spans, "POST /v1/execute")
    assert request.parent is not None and request.parent.span_id == 0x00f067aa0ba902b7
    assert all(format(s.context.trace_id, "032x") == CALLER_TRACE for s in spans if s.context)
    execution = _children(spans, request, "codemode.execution")[0]
    assert execution.attributes is not None
    assert execution.attributes["codemode.status"] == "paused"
    assert execution.attributes["codemode.resumed"] is False
    assert len(_children(spans, execution, "sandbox.worker.wait")) == 1
    (run,) = _children(spans, execution, "sandbox.guest.run")
    assert len(_children(spans, run, "sandbox.isolate.instantiate")) == 1
    calls = sorted(_children(spans, run, "codemode.host_call"),
                   key=lambda s: int((s.attributes or {})["codemode.seq"]))
    assert [(dict(c.attributes or {})["codemode.method"], dict(c.attributes or {})["codemode.state"],
             dict(c.attributes or {})["codemode.outcome"]) for c in calls] == [
        ("get_item", "applied", "applied"), ("get_item", "applied", "applied"),
        ("create_issue", "pending", "paused")]
    assert all((c.attributes or {})["codemode.namespace"] == "github" for c in calls)
    webhooks = [w for c in calls for w in _children(spans, c, "codemode.webhook")]
    assert len(webhooks) == 2

    # The tool server got each call with the webhook span as its parent.
    sent = [h["traceparent"] for h in server.headers]
    assert sent == [f"00-{CALLER_TRACE}-{w.context.span_id:016x}-01"
                    for w in webhooks if w.context is not None]

    exporter.clear()
    approval_id = parked.json()["pending"][0]["approval_id"]
    resumed = http.post(f"/v1/approvals/{approval_id}/approve", json={"by": "alice"})
    assert resumed.status_code == 200 and resumed.json()["status"] == "completed", resumed.text
    spans = list(exporter.get_finished_spans())
    approve = _one(spans, "POST /v1/approvals/{approval_id}/approve")
    assert len(_children(spans, approve, "codemode.approval.decided")) == 1
    (again,) = _children(spans, approve, "codemode.execution")
    assert again.attributes is not None and again.attributes["codemode.resumed"] is True
    assert again.attributes["codemode.status"] == "completed"
    assert [link.context.span_id for link in again.links] == [execution.context.span_id]
    (run,) = _children(spans, again, "sandbox.guest.run")
    replays = sorted((int(dict(c.attributes or {})["codemode.seq"]),
                      dict(c.attributes or {})["codemode.replayed"])
                     for c in _children(spans, run, "codemode.host_call"))
    assert replays == [(0, True), (1, True), (2, False)]
    assert len(server.headers) == 3  # only the approved call was sent, once

    everything = json.dumps([dict(s.attributes or {}) for s in spans + list(exporter.get_finished_spans())])
    for hidden in (TITLE, secret, TOKEN):
        assert hidden not in everything


def test_the_trace_view_serves_the_spans_tracing_exported_for_both_traces(
        service: tuple[httpx.Client, str], exporter: InMemorySpanExporter) -> None:
    http, _ = service
    exporter.clear()
    parked = http.post("/v1/execute", json={"code": CODE, "toolsets": ["github"]}).json()
    approval_id = parked["pending"][0]["approval_id"]
    assert http.post(f"/v1/approvals/{approval_id}/approve", json={}).json()["status"] == "completed"
    exported = {format(s.context.span_id, "016x"): s for s in exporter.get_finished_spans()
                if s.context is not None}

    view = http.get(f"/v1/executions/{parked['execution_id']}/trace").json()
    assert view["source"] == "spans"
    shown = {s["span_id"]: s for s in view["spans"]}
    assert set(shown) == set(exported)  # both requests' traces, every span of them
    for span_id, span in shown.items():
        assert span["name"] == exported[span_id].name
        assert span["start"] == exported[span_id].start_time / 1e9  # type: ignore[operator]
    names = [s["name"] for s in view["spans"]]
    for expected in ("codemode.execution", "sandbox.worker.wait", "sandbox.isolate.instantiate",
                     "sandbox.guest.run", "codemode.approval.decided"):
        assert expected in names, names
    fresh = [s for s in view["spans"] if s["name"] == "codemode.host_call"
             and not s["attributes"].get("codemode.replayed")]
    assert [s["attributes"]["codemode.method"] for s in fresh] == ["get_item", "get_item",
                                                                   "create_issue", "create_issue"]
    assert [s["start"] for s in view["spans"]] == sorted(s["start"] for s in view["spans"])


def test_spans_carry_no_argument_values_or_secrets(service: tuple[httpx.Client, str],
                                                   exporter: InMemorySpanExporter) -> None:
    http, secret = service
    exporter.clear()
    body = http.post("/v1/execute", json={
        "code": f"state.write_file('/notes.txt', {TITLE!r})\nstate.read_file('/notes.txt')"})
    assert body.json()["result"] == TITLE
    bash = http.post("/v1/bash", json={"script": f"echo {TITLE} > /b.txt; cat /b.txt"})
    assert bash.json()["stdout"] == TITLE + "\n"
    spans = list(exporter.get_finished_spans())
    assert {"codemode.host_call", "sandbox.bash", "workspace.snapshot",
            "workspace.write_back"} <= {s.name for s in spans}
    text = json.dumps([[s.name, dict(s.attributes or {}), [dict(e.attributes or {}) for e in s.events]]
                       for s in spans])
    for hidden in (TITLE, secret, TOKEN):
        assert hidden not in text


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def _value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
           **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_take_an_operators_token(service: tuple[httpx.Client, str]) -> None:
    http, _ = service
    assert httpx.get(http.base_url.join("/metrics")).status_code == 401
    made = http.post("/v1/admin/tokens", json={"name": "runner", "scopes": ["execute", "admin"]})
    assert made.status_code == 201, made.text
    refused = httpx.get(http.base_url.join("/metrics"),
                        headers={"Authorization": f"Bearer {made.json()['token']}"})
    assert refused.status_code == 403 and refused.json()["error"]["details"]["required"] == ["operator"]
    assert http.get("/metrics").status_code == 200  # the bootstrap operator's


def test_metrics_parse_and_their_counters_move_with_requests(service: tuple[httpx.Client, str]) -> None:
    http, _ = service
    before = _samples(http.get("/metrics").text)
    assert http.post("/v1/execute", json={"code": "1 + 1"}).json()["result"] == 2
    assert http.post("/v1/execute", json={"code": "while True: pass", "timeout_ms": 200}
                     ).json()["trap"]["kind"] == "deadline"
    assert http.post("/v1/execute", json={"code": "state.write_file('/m.txt', 'x')"}
                     ).json()["status"] == "completed"
    assert http.post("/v1/bash", json={"script": "exit 3"}).json()["exit_code"] == 3
    http.request("PROPFIND", "/v1/coffee-" + TITLE)  # neither its method nor its path is a label
    response = http.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    after = _samples(response.text)

    def moved(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert moved("sandbox_executions_total", kind="execute", outcome="completed", trap="none") == 2
    assert moved("sandbox_executions_total", kind="execute", outcome="error", trap="deadline") == 1
    assert moved("sandbox_executions_total", kind="bash", outcome="failed", trap="none") == 1
    assert moved("sandbox_execution_duration_seconds_count", kind="execute") == 3
    assert moved("sandbox_queue_wait_seconds_count", export="execute") == 3
    assert moved("sandbox_guest_run_seconds_count", export="bash") == 1
    assert moved("sandbox_host_calls_total", namespace="state", outcome="applied") == 1
    assert moved("sandbox_http_requests_total", method="POST", route="/v1/execute",
                 status="200") == 3
    assert moved("sandbox_http_requests_total", method="other", route="unmatched",
                 status="404") == 1
    assert TITLE not in response.text
    assert ("sandbox_worker_restarts_total", ()) in after
    assert _value(after, "sandbox_workers") == 2
    assert _value(after, "sandbox_workspace_files", workspace="default") >= 1


def test_the_audit_logs_length_and_last_checkpoint_are_gauges(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=TOKEN,
                        metrics=True, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        for code in ("1", "2"):
            assert http.post("/v1/execute", json={"code": code}).json()["status"] == "completed"
        unsigned = _samples(http.get("/metrics").text)
        assert _value(unsigned, "sandbox_audit_entries") == 4  # started and finished, twice
        assert _value(unsigned, "sandbox_audit_checkpoint_seq") == 0
        assert ("sandbox_audit_checkpoint_age_seconds", ()) not in unsigned
        assert _value(unsigned, "sandbox_audit_unanchored_entries") == 4

        checkpoint = asyncio.run(_sign_checkpoint(settings))  # as `sandbox audit checkpoint` does
        assert http.post("/v1/execute", json={"code": "3"}).json()["status"] == "completed"
        signed = _samples(http.get("/metrics").text)
        assert (_value(signed, "sandbox_audit_entries"), checkpoint.seq) == (6, 4)
        assert _value(signed, "sandbox_audit_checkpoint_seq") == 4
        assert _value(signed, "sandbox_audit_unanchored_entries") == 2
        age = _value(signed, "sandbox_audit_checkpoint_age_seconds")
        assert 0 <= age <= time.time() - checkpoint.time  # taken at the scrape, before now


async def _sign_checkpoint(settings: Settings) -> Checkpoint:
    log = await AuditLog.open(settings.database_path, key_file=settings.audit_key_path,
                              checkpoints_file=settings.audit_checkpoints_path)
    try:
        return await log.checkpoint()
    finally:
        await log.close()


def test_pending_approvals_and_decision_latency_are_metrics(service: tuple[httpx.Client, str]) -> None:
    http, _ = service
    parked = http.post("/v1/execute", json={
        "code": f"github.create_issue(title={TITLE!r})", "toolsets": ["github"]}).json()
    during = _samples(http.get("/metrics").text)
    assert _value(during, "sandbox_approvals_pending") >= 1
    rejected = http.post(f"/v1/approvals/{parked['pending'][0]['approval_id']}/reject")
    assert rejected.status_code == 200
    after = _samples(http.get("/metrics").text)
    assert _value(after, "sandbox_approvals_pending") == _value(during, "sandbox_approvals_pending") - 1
    assert _value(after, "sandbox_approval_decision_seconds_count", decision="rejected") \
        == _value(during, "sandbox_approval_decision_seconds_count", decision="rejected") + 1
    assert TITLE not in http.get("/metrics").text


def test_tracing_is_off_unless_asked_for() -> None:
    assert Settings().tracing is False and Settings().metrics is False
    quiet = type(tracing)()
    assert quiet.span("x") is quiet.span("y")  # the one do-nothing span
    assert quiet.outgoing_headers() == {} and quiet.traceparent() is None


def _mcp_execute(http: httpx.Client, headers: dict[str, str],
                 meta: dict[str, str] | None = None) -> None:
    params: dict[str, Any] = {"name": "execute", "arguments": {"code": "6 * 7"}}
    if meta is not None:
        params["_meta"] = meta
    response = http.post("/mcp", headers={"accept": "application/json, text/event-stream",
                                          **headers},
                         json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    assert response.json()["result"]["structuredContent"]["result"] == 42, response.text


def test_an_mcp_call_continues_the_callers_trace_from_its_header_or_its_meta(
        service: tuple[httpx.Client, str], exporter: InMemorySpanExporter) -> None:
    http, _ = service
    other_trace = "0af7651916cd43dd8448eb211c80319c"
    for headers, meta, trace_id in (
            ({"traceparent": CALLER_TRACEPARENT}, None, CALLER_TRACE),
            ({}, {"traceparent": f"00-{other_trace}-b7ad6b7169203331-01"}, other_trace)):
        exporter.clear()
        _mcp_execute(http, headers, meta)
        spans = list(exporter.get_finished_spans())
        tool = _one(spans, "mcp tools/call execute")
        (execution,) = _children(spans, tool, "codemode.execution")
        assert execution.context is not None
        assert format(execution.context.trace_id, "032x") == trace_id


def _tree(spans: list[ReadableSpan], root: ReadableSpan, depth: int = 0) -> list[tuple[int, str]]:
    lines = [(depth, root.name)]
    assert root.context is not None
    below = sorted((s for s in spans if s.parent is not None
                    and s.parent.span_id == root.context.span_id), key=lambda s: s.start_time or 0)
    for child in below:
        lines += _tree(spans, child, depth + 1)
    return lines


def _readme_tree() -> list[list[tuple[int, str]]]:
    """The trees the README shows (each line: its depth by the box drawing, the span name)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme.split("```text\nPOST /v1/execute", 1)[1].split("```", 1)[0]
    trees: list[list[tuple[int, str]]] = []
    for line in ("POST /v1/execute" + block).splitlines():
        if not line.strip():
            continue
        name_at = len(line) - len(line.lstrip(" │├└─"))
        name = line[name_at:].split("  ")[0].strip()
        if name_at == 0:
            trees.append([])
        trees[-1].append((name_at // 3, name))
    return trees


def test_the_readme_shows_the_span_tree_an_execute_really_makes(
        service: tuple[httpx.Client, str], exporter: InMemorySpanExporter) -> None:
    http, _ = service
    exporter.clear()
    parked = http.post("/v1/execute", json={"code": CODE, "toolsets": ["github"]}).json()
    first = list(exporter.get_finished_spans())
    exporter.clear()
    http.post(f"/v1/approvals/{parked['pending'][0]['approval_id']}/approve", json={})
    second = list(exporter.get_finished_spans())
    rendered = [_tree(spans, next(s for s in spans if s.parent is None)) for spans in (first, second)]
    for tree in rendered:
        print("\n".join("   " * depth + name for depth, name in tree))
    assert _readme_tree() == rendered


class Collector:
    """An OTLP/HTTP trace receiver: keeps the span names of every export it is sent."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.services: set[str] = set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        export = ExportTraceServiceRequest.FromString(await read_body(receive))
        for resource_spans in export.resource_spans:
            self.services.update(a.value.string_value for a in resource_spans.resource.attributes
                                 if a.key == "service.name")
            self.names += [s.name for scoped in resource_spans.scope_spans for s in scoped.spans]
        await send({"type": "http.response.start", "status": 200 if scope["path"] == "/v1/traces" else 404,
                    "headers": [(b"content-type", b"application/x-protobuf")]})
        await send({"type": "http.response.body", "body": b""})


def test_the_otel_variables_send_traces_to_a_collector(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    collector = Collector()
    with ServerThread(collector) as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
        monkeypatch.setenv("OTEL_SERVICE_NAME", "sandbox-under-test")
        settings = Settings.from_env(data_dir=tmp_path, workers=1, guest=compiled_guest)
        assert settings.tracing is True
        with ServerThread(create_app(settings)) as live:
            assert httpx.post(f"{live.url}/v1/execute", json={"code": "1 + 1"}).json()["result"] == 2
        # Shutting down flushed the batch.
    assert {"POST /v1/execute", "codemode.execution", "sandbox.guest.run"} <= set(collector.names)
    assert collector.services == {"sandbox-under-test"}


@pytest.mark.parametrize(("variables", "on"), [
    ({}, False),
    ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True),
    ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, True),
    ({"OTEL_TRACES_EXPORTER": "console"}, True),
    ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, False),
    ({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, False),
])
def test_tracing_is_on_only_when_the_standard_variables_ask(
        variables: dict[str, str], on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                 "OTEL_TRACES_EXPORTER", "OTEL_SDK_DISABLED"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert Settings.from_env().tracing is on


def test_a_wrong_metrics_address_is_refused_naming_the_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_METRICS_ADDR", "9464")
    with pytest.raises(ConfigError, match="SANDBOX_METRICS_ADDR"):
        Settings.from_env()


def test_metrics_on_their_own_address_need_no_token_and_leave_the_api_without_them(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=TOKEN,
                        metrics_address=address)
    with ServerThread(create_app(settings)) as live:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.post(f"{live.url}/v1/execute", json={"code": "2"}, headers=auth).status_code == 200
        assert httpx.get(f"{live.url}/metrics", headers=auth).status_code == 404
        scraped = httpx.get(f"http://{address}/metrics")
        assert scraped.status_code == 200
        samples = _samples(scraped.text)
        assert _value(samples, "sandbox_executions_total", kind="execute", outcome="completed",
                      trap="none") == 1
        assert httpx.get(f"http://{address}/other").status_code == 404
        assert TOKEN not in scraped.text


def test_a_json_log_line_names_its_request_tenant_trace_and_execution() -> None:
    from opentelemetry.sdk.trace import TracerProvider

    from sandbox.service.logs import JsonFormatter, RequestIdFilter
    from sandbox.service.requests import reset_request_id, reset_tenant, set_request_id, set_tenant

    tracer, before = TracerProvider().get_tracer("test"), tracing.tracer
    request, execution = set_request_id("req_7"), tracing.execution_id.set("exec_7")
    tenant = set_tenant("acme")
    tracing.enable(tracer)
    try:
        with tracer.start_as_current_span("work") as span:
            record = logging.LogRecord("sandbox.test", logging.INFO, __file__, 1, "hello", (), None)
            RequestIdFilter().filter(record)
            line = json.loads(JsonFormatter().format(record))
    finally:
        tracing.enable(before)
        reset_tenant(tenant)
        tracing.execution_id.reset(execution)
        reset_request_id(request)
    assert line["request_id"] == "req_7" and line["execution_id"] == "exec_7"
    assert line["tenant"] == "acme"
    assert line["trace_id"] == format(span.get_span_context().trace_id, "032x")


def _traced_into(keeper: RecentSpans) -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(
        KeepingExporter(InMemorySpanExporter(), keeper)))  # type: ignore[arg-type]
    return provider.get_tracer("test")


def test_the_span_keeper_holds_the_newest_traces_and_a_bounded_number_of_spans_each() -> None:
    keeper = RecentSpans(max_traces=2, max_spans=3)
    tracer = _traced_into(keeper)
    for execution in ("exec_a", "exec_b", "exec_c"):
        with tracer.start_as_current_span("request"):
            for seq in range(4):
                with tracer.start_as_current_span("call", attributes={
                        "sandbox.execution_id": execution, "codemode.seq": seq}):
                    pass
    assert keeper.of_execution("exec_a") == []  # the oldest trace went first
    kept = keeper.of_execution("exec_c")
    assert [s["attributes"]["codemode.seq"] for s in kept] == [0, 1, 2]  # 3 spans a trace
    assert {s["trace_id"] for s in kept} == {kept[0]["trace_id"]}
    assert keeper.of_execution("exec_unknown") == []


def test_an_execution_keeps_its_last_traces_only() -> None:
    keeper = RecentSpans()
    tracer = _traced_into(keeper)
    for _ in range(MAX_TRACES_PER_EXECUTION + 5):
        with tracer.start_as_current_span("resume", attributes={"sandbox.execution_id": "exec_x"}):
            pass
    assert len(keeper.of_execution("exec_x")) == MAX_TRACES_PER_EXECUTION


def test_trace_keep_zero_keeps_no_spans_and_the_view_comes_from_the_journal(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=TOKEN,
                        span_exporter=InMemorySpanExporter(), trace_keep=0, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        ran = http.post("/v1/execute", json={"code": "state.write_file('/k.txt', 'x')"}).json()
        view = http.get(f"/v1/executions/{ran['execution_id']}/trace").json()
    assert (view["source"], view["kept"]) == ("journal", False)
    assert [s["name"] for s in view["spans"]] == ["codemode.execution", "codemode.host_call"]

"""The service's observability: OpenTelemetry traces, Prometheus metrics, the request span.

One :class:`Telemetry` per app (``create_app`` makes it from the settings) owns all of it:

- **traces** (``Settings.tracing``, from the standard ``OTEL_*`` variables; off by default):
  an SDK tracer provider exporting OTLP over HTTP (or to the console, or to an exporter the
  settings hand in), installed into the seam (``sandbox.tracing``) so the core and Code Mode
  spans become OpenTelemetry spans; every HTTP request gets a server span whose parent is
  the request's ``traceparent``, so an agent host's trace continues through the sandbox;
- **metrics** (``Settings.metrics`` or ``metrics_address``; off by default): a Prometheus
  registry fed by the seam's spans as they end, plus gauges read at each scrape (the worker
  pool, pending approvals, workspace use), served at ``/metrics`` behind the service's token
  or on a separate listener of its own.

Nothing here sees argument values: spans carry names, counts, states and outcomes (unless
``Settings.trace_arguments`` says otherwise), and metric labels are bounded sets (a route's
template, a namespace the execution was given, an outcome), never the guest's own strings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any, Iterator, Mapping

from fastapi import FastAPI, Request, Response
from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
)
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workspace import TOOL_NAMES

from .. import AsyncSandbox, SandboxError, __version__, tracing
from .requests import current_request_id
from .settings import ConfigError, Settings

__all__ = ["METRICS_PATH", "Metrics", "Telemetry", "mcp_tool_span"]

log = logging.getLogger("sandbox.service.telemetry")

METRICS_PATH = "/metrics"

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
           60.0, 300.0)
"""Latency buckets: an execute takes a few milliseconds, a busy one up to its deadline."""
DECISION_SECONDS = (1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0, 4 * 3600.0, 24 * 3600.0)
"""How long a human takes to decide: seconds to the 24 h a parked execution is kept."""
MAX_WORKSPACE_SERIES = 200
"""Most workspaces reported one by one at a scrape (the largest); the rest are summed."""


class Telemetry:
    """Traces and metrics of one app; ``install`` before start-up, ``start`` and ``close``
    in its lifespan."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.provider: TracerProvider | None = None
        self.tracer: trace.Tracer | None = None
        self.metrics = Metrics() if settings.metrics or settings.metrics_address else None
        self._stops: list[Any] = []
        self._listener: asyncio.Server | None = None
        self._previous: trace.Tracer | None = None

    def install(self, app: FastAPI) -> None:
        """The request span and metrics middleware, and ``/metrics`` when asked for."""
        if self.settings.tracing or self.settings.span_exporter is not None or self.metrics:
            app.add_middleware(_RequestTelemetry, telemetry=self)
        if self.metrics is not None and self.settings.metrics:
            metrics = self.metrics

            async def scrape(request: Request) -> Response:
                await metrics.refresh(request.app)
                return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

            app.add_api_route(METRICS_PATH, scrape, methods=["GET"], include_in_schema=False)

    async def start(self, app: FastAPI) -> None:
        self.provider = _tracer_provider(self.settings)
        if self.provider is not None:
            self.tracer = self.provider.get_tracer("sandbox", __version__)
            # The seam is one per process: another app's tracer (tests, embedding) comes back
            # when this one closes.
            self._previous = tracing.tracer
            tracing.enable(self.tracer)
            tracing.arguments = self.settings.trace_arguments
        if self.metrics is not None:
            self._stops.append(tracing.listen(self.metrics.on_span))
            if self.settings.metrics_address:
                self._listener = await _serve_metrics(self.metrics, app,
                                                      self.settings.metrics_address)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
            with contextlib.suppress(Exception):
                await self._listener.wait_closed()
        for stop in self._stops:
            stop()
        if self.tracer is not None and tracing.tracer is self.tracer:
            tracing.enable(self._previous)
            tracing.arguments = False
        if self.provider is not None:
            await asyncio.to_thread(self.provider.shutdown)


def _tracer_provider(settings: Settings) -> TracerProvider | None:
    """The SDK provider the settings ask for (None: tracing off)."""
    exporter = settings.span_exporter
    if exporter is None and not settings.tracing:
        return None
    attributes: dict[str, str] = {"service.version": __version__}
    if not os.environ.get("OTEL_SERVICE_NAME") and \
            "service.name=" not in os.environ.get("OTEL_RESOURCE_ATTRIBUTES", ""):
        attributes["service.name"] = "wasm-sandbox"
    provider = TracerProvider(resource=Resource.create(attributes))
    if exporter is not None:
        if not isinstance(exporter, SpanExporter):
            raise ConfigError("span_exporter must be an OpenTelemetry SpanExporter")
        # Handed in (a test's in-memory exporter): every span is there as soon as it ends.
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        return provider
    provider.add_span_processor(BatchSpanProcessor(_exporter_from_env()))
    return provider


def _exporter_from_env() -> SpanExporter:
    """``OTEL_TRACES_EXPORTER`` (``otlp``, the default, or ``console``); OTLP over HTTP."""
    kind = os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() or "otlp"
    if kind == "console":
        return ConsoleSpanExporter()
    if kind != "otlp":
        raise ConfigError(f"OTEL_TRACES_EXPORTER={kind!r}: the service exports otlp or console")
    protocol = (os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
                or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "http/protobuf").strip()
    if protocol != "http/protobuf":
        raise ConfigError(f"OTLP protocol {protocol!r}: the service exports http/protobuf "
                          "(point it at the collector's HTTP port, 4318)")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    # Endpoint, headers, timeout, compression and certificates: from OTEL_EXPORTER_OTLP_*.
    return OTLPSpanExporter()


class _RequestTelemetry:
    """A server span per HTTP request (parent: its ``traceparent``) and the request metrics,
    as plain ASGI. It sits inside the guard, so it sees the route FastAPI matched."""

    def __init__(self, app: ASGIApp, telemetry: Telemetry) -> None:
        self.app = app
        self.telemetry = telemetry

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tracer, metrics = self.telemetry.tracer, self.telemetry.metrics
        method = str(scope.get("method", "GET"))
        status = 500
        started = time.perf_counter()
        span: trace.Span | None = None
        token: object = None
        if tracer is not None:
            parent = propagate.extract(Headers(scope=scope))
            span = tracer.start_span(method, context=parent, kind=trace.SpanKind.SERVER,
                                     attributes={"http.request.method": method,
                                                 "sandbox.request_id": current_request_id() or ""})
            token = otel_context.attach(trace.set_span_in_context(span, parent))

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = _route_of(scope)
            if span is not None:
                span.update_name(f"{method} {route}")
                span.set_attribute("http.route", route)
                span.set_attribute("http.response.status_code", status)
                if status >= 500:
                    span.set_status(trace.Status(trace.StatusCode.ERROR))
                span.end()
                otel_context.detach(token)  # type: ignore[arg-type]
            if metrics is not None:
                metrics.http(method, route, status, time.perf_counter() - started)


MCP_TOOLS = frozenset({"execute", "bash", *TOOL_NAMES})
"""The MCP tools a span is named after; any other name (the client's choice) is ``unknown``."""


@contextlib.contextmanager
def mcp_tool_span(tool: str, meta: Mapping[str, Any] | None) -> Iterator[None]:
    """A span for one MCP tool call. Its parent is the call's ``_meta.traceparent`` when it
    has one (stdio has no headers to carry it), else the HTTP request's span."""
    tracer = tracing.tracer
    if tracer is None:
        yield
        return
    carrier = {key: value for key, value in (meta or {}).items()
               if key in ("traceparent", "tracestate") and isinstance(value, str)}
    parent = propagate.extract(carrier) if "traceparent" in carrier else None
    name = tool if tool in MCP_TOOLS else "unknown"
    with tracer.start_as_current_span(f"mcp tools/call {name}", context=parent,
                                      kind=trace.SpanKind.SERVER,
                                      attributes={"mcp.tool": name}):
        yield


def _route_of(scope: Scope) -> str:
    """The matched route's template (``/v1/executions/{execution_id}``): never the raw path,
    whose ids and file names would make a label per request."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else "unmatched"


class Metrics:
    """The Prometheus registry of one app: counters and histograms fed by the seam's spans,
    gauges read at each scrape (:meth:`refresh`)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.executions = Counter(
            "sandbox_executions", "Executions (kind execute) and bash calls, by outcome and trap kind.",
            ["kind", "outcome", "trap"], registry=r)
        self.duration = Histogram(
            "sandbox_execution_duration_seconds", "One run of an execution or a bash call, end to end.",
            ["kind"], buckets=SECONDS, registry=r)
        self.queue_wait = Histogram(
            "sandbox_queue_wait_seconds", "Waiting for an idle worker process.",
            ["export"], buckets=SECONDS, registry=r)
        self.guest_run = Histogram(
            "sandbox_guest_run_seconds", "The isolate's run on its worker, host calls included.",
            ["export"], buckets=SECONDS, registry=r)
        self.host_calls = Counter(
            "sandbox_host_calls", "Host calls by namespace and outcome.",
            ["namespace", "outcome"], registry=r)
        self.decisions = Histogram(
            "sandbox_approval_decision_seconds", "From an approval's request to its decision.",
            ["decision"], buckets=DECISION_SECONDS, registry=r)
        self.requests = Counter(
            "sandbox_http_requests", "HTTP requests by method, route template and status.",
            ["method", "route", "status"], registry=r)
        self.request_seconds = Histogram(
            "sandbox_http_request_duration_seconds", "HTTP requests, first byte in to last byte out.",
            ["method", "route"], buckets=SECONDS, registry=r)
        self.scraped = _Scraped()
        r.register(self.scraped)

    def on_span(self, name: str, attributes: Mapping[str, Any], duration: float,
                error: BaseException | None) -> None:
        """The seam's listener: one ended span, counted where it means something."""
        if name == "codemode.execution":
            self.executions.labels("execute", str(attributes.get("codemode.status", "error")),
                                   str(attributes.get("sandbox.trap", "none"))).inc()
            self.duration.labels("execute").observe(duration)
        elif name == "sandbox.bash":
            self.executions.labels("bash", _bash_outcome(attributes),
                                   _bash_trap(attributes)).inc()
            self.duration.labels("bash").observe(duration)
        elif name == "sandbox.worker.wait":
            self.queue_wait.labels(str(attributes.get("sandbox.export", ""))).observe(duration)
        elif name == "sandbox.guest.run":
            self.guest_run.labels(str(attributes.get("sandbox.export", ""))).observe(duration)
        elif name == "codemode.host_call":
            namespace = attributes.get("codemode.namespace") or attributes.get("codemode.call")
            self.host_calls.labels(str(namespace), str(attributes.get("codemode.outcome", "ok"))).inc()
        elif name == "codemode.approval.decided":
            self.decisions.labels(str(attributes.get("codemode.decision", ""))).observe(duration)

    def http(self, method: str, route: str, status: int, duration: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.request_seconds.labels(method, route).observe(duration)

    async def refresh(self, app: FastAPI) -> None:
        """Read what only a scrape needs: the worker pool, pending approvals, workspaces."""
        held = app.state
        sandbox = getattr(held, "sandbox", None)
        if isinstance(sandbox, AsyncSandbox):
            with contextlib.suppress(SandboxError):  # not started, or shutting down
                self.scraped.pool = dict(sandbox.pool.stats())
        store = getattr(held, "codemode", None)
        if store is not None:
            async with store.reading() as conn:
                async with conn.execute("SELECT count(*) FROM codemode_approvals"
                                        " WHERE status = 'pending'") as cur:
                    row = await cur.fetchone()
            self.scraped.pending_approvals = int(row[0]) if row else 0
        workspaces = getattr(held, "workspaces", None)
        if workspaces is not None:
            usage = {}
            for listed in await workspaces.list_workspaces():
                info = await workspaces.workspace(listed["name"]).info()
                usage[listed["name"]] = (info["total_bytes"], info["file_count"])
            self.scraped.workspaces = usage
            self.scraped.quotas = (workspaces.quotas.workspace_bytes,
                                   workspaces.quotas.workspace_files)

    def exposition(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)


def _bash_outcome(attributes: Mapping[str, Any]) -> str:
    if "error.type" in attributes:
        return "error"
    return "completed" if attributes.get("sandbox.exit_code") == 0 else "failed"


def _bash_trap(attributes: Mapping[str, Any]) -> str:
    if attributes.get("sandbox.timed_out"):
        return "deadline"
    return "quota" if attributes.get("sandbox.quota") else "none"


class _Scraped(Collector):
    """Gauges whose values :meth:`Metrics.refresh` read just before the scrape."""

    def __init__(self) -> None:
        self.pool: dict[str, int] = {}
        self.pending_approvals = 0
        self.workspaces: dict[str, tuple[int, int]] = {}
        self.quotas: tuple[int, int] = (0, 0)

    def collect(self) -> Any:
        pool = self.pool
        yield GaugeMetricFamily("sandbox_workers", "Worker processes the pool keeps.",
                                value=pool.get("size", 0))
        yield GaugeMetricFamily("sandbox_workers_alive", "Worker processes running now.",
                                value=pool.get("alive", 0))
        yield GaugeMetricFamily("sandbox_workers_busy", "Worker processes running an isolate now.",
                                value=max(0, pool.get("alive", 0) - pool.get("idle", 0)))
        yield CounterMetricFamily("sandbox_worker_restarts", "Workers killed and replaced "
                                  "(deadline, crash, tree quota).", value=pool.get("restarts", 0))
        yield GaugeMetricFamily("sandbox_approvals_pending", "Approvals waiting for a decision.",
                                value=self.pending_approvals)
        used = GaugeMetricFamily("sandbox_workspace_bytes", "Bytes of files in a workspace.",
                                 labels=["workspace"])
        files = GaugeMetricFamily("sandbox_workspace_files", "Files in a workspace.",
                                  labels=["workspace"])
        largest = sorted(self.workspaces.items(), key=lambda item: -item[1][0])
        for name, (size, count) in largest[:MAX_WORKSPACE_SERIES]:
            used.add_metric([name], size)
            files.add_metric([name], count)
        rest = largest[MAX_WORKSPACE_SERIES:]
        if rest:
            used.add_metric(["(others)"], sum(size for _, (size, _) in rest))
            files.add_metric(["(others)"], sum(count for _, (_, count) in rest))
        yield used
        yield files
        yield GaugeMetricFamily("sandbox_workspace_quota_bytes", "Bytes a workspace may hold.",
                                value=self.quotas[0])
        yield GaugeMetricFamily("sandbox_workspace_quota_files", "Files a workspace may hold.",
                                value=self.quotas[1])


async def _serve_metrics(metrics: Metrics, app: FastAPI, address: str) -> asyncio.Server:
    """A listener of its own at ``address`` that answers ``GET /metrics`` (and 404 else)."""
    host, _, port = address.rpartition(":")

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(10):
                head = await reader.readuntil(b"\r\n\r\n")
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            if len(request_line) >= 2 and request_line[0] == "GET" and \
                    request_line[1].split("?", 1)[0] == METRICS_PATH:
                await metrics.refresh(app)
                status, kind, body = "200 OK", CONTENT_TYPE_LATEST, metrics.exposition()
            else:
                status, kind, body = "404 Not Found", "text/plain", b"only GET /metrics here\n"
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: "
                         f"{len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            await writer.drain()
        except (asyncio.LimitOverrunError, asyncio.IncompleteReadError, TimeoutError,
                ConnectionError):
            pass
        except Exception:  # a scrape's failure must not take the listener down
            log.exception("serving %s failed", METRICS_PATH)
        finally:
            writer.close()

    return await asyncio.start_server(answer, host.strip("[]"), int(port), limit=16 * 1024)

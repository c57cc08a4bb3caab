"""The service's observability: OpenTelemetry traces, the request span, and the switch for
Prometheus metrics (:mod:`.metrics`).

One :class:`Telemetry` per app (``create_app`` makes it from the settings) owns all of it:

- **traces** (``Settings.tracing``, from the standard ``OTEL_*`` variables; off by default):
  an SDK tracer provider exporting OTLP over HTTP (or to the console, or to an exporter the
  settings hand in), installed into the seam (``sandbox.tracing``) so the core and Code Mode
  spans become OpenTelemetry spans; every HTTP request gets a server span whose parent is
  the request's ``traceparent``, so an agent host's trace continues through the sandbox;
- **the console's trace view**: while tracing is on, the spans of the last traces are also
  kept in memory as they are exported (:mod:`.recent_spans`) for
  ``GET /v1/executions/{id}/trace``;
- **metrics** (``Settings.metrics`` or ``metrics_address``; off by default): see
  :mod:`.metrics`, served at ``/metrics`` behind the service's token or on a separate
  listener of its own.

Nothing here sees argument values: spans carry names, counts, states and outcomes (unless
``Settings.trace_arguments`` says otherwise). The OpenTelemetry SDK and ``prometheus_client``
are imported only when they are turned on (together ~150 ms a process would pay for nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from fastapi import Depends, FastAPI, Request, Response
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workspace import TOOL_NAMES

from .. import __version__, tracing
from .identity import requires
from .recent_spans import KeepingExporter, RecentSpans
from .requests import current_request_id, current_tenant
from .settings import ConfigError, Settings

if TYPE_CHECKING:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

    from .metrics import Metrics

__all__ = ["METRICS_PATH", "Telemetry", "mcp_tool_span"]

METRICS_PATH = "/metrics"


class Telemetry:
    """Traces and metrics of one app; ``install`` before start-up, ``start`` and ``close``
    in its lifespan."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.provider: TracerProvider | None = None
        self.tracer: trace.Tracer | None = None
        self.metrics: Metrics | None = None
        if settings.metrics or settings.metrics_address:
            from .metrics import Metrics

            self.metrics = Metrics()
        self._stops: list[Any] = []
        self._listener: asyncio.Server | None = None
        self._previous: trace.Tracer | None = None
        self.recent: RecentSpans | None = None

    def install(self, app: FastAPI) -> None:
        """The request span and metrics middleware, and ``/metrics`` when asked for."""
        if self.settings.tracing or self.settings.span_exporter is not None or self.metrics:
            app.add_middleware(_RequestTelemetry, telemetry=self)
        if self.metrics is not None and self.settings.metrics:
            metrics = self.metrics

            async def scrape(request: Request) -> Response:
                await metrics.refresh(request.app)
                return Response(metrics.exposition(), media_type=metrics.content_type)

            # Every tenant's numbers: an operator's, like the other service-wide routes.
            app.add_api_route(METRICS_PATH, scrape, methods=["GET"], include_in_schema=False,
                              dependencies=[Depends(requires("operator"))])

    async def start(self, app: FastAPI) -> None:
        # The console's trace view reads the last traces from here (kept as they are
        # exported, bounded; see recent_spans).
        keep = self.settings.trace_keep
        self.recent = RecentSpans(max_traces=keep) if keep > 0 else None
        self.provider = _tracer_provider(self.settings, self.recent)
        if self.provider is not None:
            app.state.recent_spans = self.recent
            self.tracer = self.provider.get_tracer("sandbox", __version__)
            # The seam is one per process: another app's tracer (tests, embedding) comes back
            # when this one closes.
            self._previous = tracing.tracer
            tracing.enable(self.tracer)
            tracing.arguments = self.settings.trace_arguments
        if self.metrics is not None:
            self._stops.append(tracing.listen(self.metrics.on_span))
            if self.settings.metrics_address:
                from .metrics import serve_metrics

                self._listener = await serve_metrics(self.metrics, app,
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


def _tracer_provider(settings: Settings, keep: RecentSpans | None) -> TracerProvider | None:
    """The SDK provider the settings ask for (None: tracing off); ``keep`` gets every span
    as it is exported."""
    exporter = settings.span_exporter
    if exporter is None and not settings.tracing:
        return None
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter

    attributes: dict[str, str] = {"service.version": __version__}
    if not os.environ.get("OTEL_SERVICE_NAME") and \
            "service.name=" not in os.environ.get("OTEL_RESOURCE_ATTRIBUTES", ""):
        attributes["service.name"] = "wasm-sandbox"
    provider = TracerProvider(resource=Resource.create(attributes))
    if exporter is not None:
        if not isinstance(exporter, SpanExporter):
            raise ConfigError("span_exporter must be an OpenTelemetry SpanExporter")
        # Handed in (a test's in-memory exporter): every span is there as soon as it ends.
        provider.add_span_processor(SimpleSpanProcessor(_kept(exporter, keep)))
        return provider
    provider.add_span_processor(BatchSpanProcessor(_kept(_exporter_from_env(), keep)))
    return provider


def _kept(exporter: SpanExporter, keep: RecentSpans | None) -> SpanExporter:
    if keep is None:
        return exporter
    return KeepingExporter(exporter, keep)  # type: ignore[return-value]


def _exporter_from_env() -> SpanExporter:
    """``OTEL_TRACES_EXPORTER`` (``otlp``, the default, or ``console``); OTLP over HTTP."""
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter

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
        traced, metrics = self.telemetry.tracer is not None, self.telemetry.metrics
        method = str(scope.get("method", "GET"))
        if method not in METHODS:
            method = "other"  # any token is a method to the HTTP parser: keep the labels bounded
        status = 500
        started = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            if not traced:
                await self.app(scope, receive, sending)
                return
            # The caller's traceparent (if any) is the parent: the agent host's trace goes on.
            with tracing.span(method, {"http.request.method": method,
                                       "sandbox.request_id": current_request_id() or "",
                                       "sandbox.tenant": current_tenant() or ""},
                              kind="server", remote=Headers(scope=scope)) as span:
                try:
                    await self.app(scope, receive, sending)
                finally:
                    route = _route_of(scope)
                    span.rename(f"{method} {route}")
                    span.update({"http.route": route, "http.response.status_code": status})
                    if status >= 500:
                        span.fail()
        finally:
            if metrics is not None:
                metrics.http(method, _route_of(scope), status, time.perf_counter() - started)


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

MCP_TOOLS = frozenset({"execute", "bash", *TOOL_NAMES})
"""The MCP tools a span is named after; any other name (the client's choice) is ``unknown``."""


@contextlib.contextmanager
def mcp_tool_span(tool: str, meta: Mapping[str, Any] | None) -> Iterator[None]:
    """A span for one MCP tool call. Its parent is the call's ``_meta.traceparent`` when it
    has one (stdio has no headers to carry it), else the HTTP request's span."""
    if tracing.tracer is None:
        yield
        return
    carrier = {key: value for key, value in (meta or {}).items()
               if key in ("traceparent", "tracestate") and isinstance(value, str)}
    name = tool if tool in MCP_TOOLS else "unknown"
    with tracing.span(f"mcp tools/call {name}", {"mcp.tool": name}, kind="server",
                      remote=carrier if "traceparent" in carrier else None):
        yield


def _route_of(scope: Scope) -> str:
    """The matched route's template (``/v1/executions/{execution_id}``): never the raw path,
    whose ids and file names would make a label per request."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else "unmatched"

"""The tracing seam (``sandbox.tracing``): spans in the core and Code Mode that cost nothing
while nobody listens.

Instrumented code writes ``with tracing.span("sandbox.worker.wait") as span: ...`` and may
``span.set(key, value)`` or, deeper down, ``tracing.annotate({...})`` the innermost open span.
Two kinds of consumer may listen, both installed by the service's telemetry
(``sandbox.service.telemetry``), never by the instrumented code:

- an OpenTelemetry tracer (``tracing.enable(tracer)``): every span becomes an OpenTelemetry
  span, child of whatever span is current (the HTTP request's, say), so a trace shows one
  request down to each host call;
- listeners (``tracing.listen(fn)``): told each span's name, attributes, duration and error
  when it ends (the Prometheus metrics are one).

With neither (the default, and what the Python API gets), ``tracing.span`` hands back one
shared object whose methods do nothing: no clock read, no context switch, no allocation.
Attribute values are the instrumented code's own (names, counts, states); argument values
and secrets are never put on a span here.

Besides spans the seam carries the id of the execution being run (``tracing.execution_id``)
so log lines can say which execution they were written for.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token
from types import TracebackType
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from opentelemetry import trace

__all__ = ["Listener", "SpanHandle", "Tracing", "tracing"]

AttributeValue = str | bool | int | float
Listener = Callable[[str, Mapping[str, AttributeValue], float, "BaseException | None"], None]
"""``listener(name, attributes, duration_s, error)``, called as each span ends."""

# OpenTelemetry is imported only once a tracer is installed: importing it costs ~70 ms, paid
# by every worker process and every command otherwise, none of which traces.


class SpanHandle:
    """What ``with tracing.span(...) as s`` gives: ``s.set(key, value)``. This base does
    nothing (the span nobody listens to)."""

    __slots__ = ()

    def set(self, key: str, value: AttributeValue | None) -> None:
        """Put ``key`` on the span (None: leave it off)."""

    def update(self, attributes: Mapping[str, AttributeValue | None]) -> None:
        """Put every one of ``attributes`` on the span."""

    def __enter__(self) -> "SpanHandle":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        return None


_NOTHING = SpanHandle()


class Tracing:
    """The seam's one instance is :data:`tracing`; see the module docstring."""

    def __init__(self) -> None:
        self.tracer: "trace.Tracer | None" = None
        self.listeners: tuple[Listener, ...] = ()
        self.current: ContextVar[_Recording | None] = ContextVar("sandbox_span", default=None)
        self.execution_id: ContextVar[str | None] = ContextVar("sandbox_execution_id",
                                                               default=None)
        """The execution the current task runs (set by Code Mode's driver), for log lines."""
        self.arguments = False
        """Whether host-call spans may carry the call's arguments (an operator's setting)."""

    def enable(self, tracer: "trace.Tracer | None") -> None:
        """Make every span an OpenTelemetry span of ``tracer`` (None: stop)."""
        self.tracer = tracer

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` about every span that ends; returns the call that stops it."""
        self.listeners = (*self.listeners, listener)

        def stop() -> None:
            self.listeners = tuple(kept for kept in self.listeners if kept is not listener)

        return stop

    @property
    def active(self) -> bool:
        """Whether anyone listens (spans are recorded)."""
        return self.tracer is not None or bool(self.listeners)

    def span(self, name: str, attributes: Mapping[str, AttributeValue | None] | None = None, *,
             kind: str = "internal", links: Sequence[str] = ()) -> SpanHandle:
        """A span named ``name`` around a ``with`` block (nothing at all while nobody listens).

        ``kind`` is ``internal``, ``client`` (a call out: :meth:`outgoing_headers` inside it
        name it as the parent) or ``server``; ``links`` are ``traceparent`` values of related
        traces (a resumed execution links to the one that parked it).
        """
        if self.tracer is None and not self.listeners:
            return _NOTHING
        return _Recording(self, name, attributes, kind, links)

    def annotate(self, attributes: Mapping[str, AttributeValue | None]) -> None:
        """Put ``attributes`` on the innermost open span (nothing when there is none)."""
        current = self.current.get()
        if current is not None:
            current.update(attributes)

    def record(self, name: str, start_ns: int, end_ns: int,
               attributes: Mapping[str, AttributeValue | None] | None = None) -> None:
        """A span that already happened (times from ``time.time_ns()``), child of the current
        one: for what another process timed, like instantiating an isolate in a worker."""
        if self.tracer is None and not self.listeners:
            return
        kept = {k: v for k, v in (attributes or {}).items() if v is not None}
        if self.tracer is not None:
            self.tracer.start_span(name, attributes=kept, start_time=start_ns).end(end_time=end_ns)
        for listener in self.listeners:
            listener(name, kept, max(0, end_ns - start_ns) / 1e9, None)

    def outgoing_headers(self) -> dict[str, str]:
        """Headers that make the current span the parent of whatever a request starts (W3C
        ``traceparent`` and ``tracestate``, or what ``OTEL_PROPAGATORS`` names); none while
        not tracing."""
        if self.tracer is None:
            return {}
        from opentelemetry import propagate

        headers: dict[str, str] = {}
        propagate.inject(headers)
        return headers

    def traceparent(self) -> str | None:
        """The W3C ``traceparent`` of the current span, while tracing (kept with a parked
        execution, so its resumption can link to it)."""
        if self.tracer is None:
            return None
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        headers: dict[str, str] = {}
        TraceContextTextMapPropagator().inject(headers)
        return headers.get("traceparent")

    def current_trace_id(self) -> str | None:
        """The current trace's id (32 hex digits), for log lines; None outside a trace
        (and while not tracing)."""
        if self.tracer is None:
            return None
        from opentelemetry import trace

        found = trace.get_current_span().get_span_context()
        return format(found.trace_id, "032x") if found.is_valid else None


def _span_context_of(value: str) -> "trace.SpanContext | None":
    from opentelemetry import trace
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    context = TraceContextTextMapPropagator().extract({"traceparent": value})
    found = trace.get_current_span(context).get_span_context()
    return found if found.is_valid else None


class _Recording(SpanHandle):
    __slots__ = ("seam", "name", "attributes", "kind", "links", "started", "otel", "token",
                 "outer")

    def __init__(self, seam: Tracing, name: str,
                 attributes: Mapping[str, AttributeValue | None] | None, kind: str,
                 links: Sequence[str]) -> None:
        self.seam = seam
        self.name = name
        self.attributes: dict[str, AttributeValue] = {}
        self.otel: "trace.Span | None" = None
        if attributes:
            self.update(attributes)
        self.kind = kind
        self.links = links
        self.started = 0
        self.token: object = None
        self.outer: Token[_Recording | None] | None = None

    def set(self, key: str, value: AttributeValue | None) -> None:
        if value is None:
            return
        self.attributes[key] = value
        if self.otel is not None:
            self.otel.set_attribute(key, value)

    def update(self, attributes: Mapping[str, AttributeValue | None]) -> None:
        for key, value in attributes.items():
            self.set(key, value)

    def __enter__(self) -> "_Recording":
        tracer = self.seam.tracer
        if tracer is not None:
            from opentelemetry import context, trace

            links = [trace.Link(found) for found in map(_span_context_of, self.links)
                     if found is not None]
            kind = {"client": trace.SpanKind.CLIENT, "server": trace.SpanKind.SERVER}.get(
                self.kind, trace.SpanKind.INTERNAL)
            self.otel = tracer.start_span(self.name, attributes=self.attributes, links=links,
                                          kind=kind)
            self.token = context.attach(trace.set_span_in_context(self.otel))
        self.outer = self.seam.current.set(self)
        self.started = time.perf_counter_ns()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        duration = (time.perf_counter_ns() - self.started) / 1e9
        if self.outer is not None:
            self.seam.current.reset(self.outer)
        if isinstance(error, Exception):
            # Only the type: an exception's text may hold the arguments it failed on.
            self.set("error.type", type(error).__name__)
        if self.otel is not None:
            from opentelemetry import context, trace

            if isinstance(error, Exception):
                self.otel.set_status(trace.Status(trace.StatusCode.ERROR, type(error).__name__))
            self.otel.end()
            context.detach(self.token)  # type: ignore[arg-type]
        for listener in self.seam.listeners:
            listener(self.name, self.attributes, duration, error)


tracing = Tracing()
"""The seam every instrumented module uses (``from sandbox import tracing``)."""

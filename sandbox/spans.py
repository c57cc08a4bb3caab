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

Under the OpenTelemetry SDK's tracer the seam makes the spans itself, deciding and
exporting them as the SDK would (:mod:`sandbox.span_sink`: the SDK's own span object costs
several times more); under any other tracer they go through its ``start_span``. Spans the
seam made are not attached to OpenTelemetry's current context, except a ``client`` span
while it is open (a library making the call may inject the current context itself);
:meth:`Tracing.outgoing_headers` and :meth:`Tracing.traceparent` read the seam's own.

Besides spans the seam carries the id of the execution being run (``tracing.execution_id``)
so log lines can say which execution they were written for.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .span_sink import AttributeValue, Sink, api

if TYPE_CHECKING:
    from opentelemetry import trace

__all__ = ["Listener", "SpanHandle", "Tracing", "tracing"]

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

    def rename(self, name: str) -> None:
        """Name the span ``name`` instead (a request's route is known only once matched)."""

    def fail(self, reason: str | None = None) -> None:
        """End the span as an error though nothing was raised (an HTTP 5xx answer)."""

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
        self.sink: Sink | None = None

    def enable(self, tracer: "trace.Tracer | None") -> None:
        """Make every span an OpenTelemetry span of ``tracer`` (None: stop)."""
        self.tracer = tracer
        self.sink = None if tracer is None else Sink.of(tracer)

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
             kind: str = "internal", links: Sequence[str] = (),
             remote: Mapping[str, str] | None = None) -> SpanHandle:
        """A span named ``name`` around a ``with`` block (nothing at all while nobody listens).

        ``kind`` is ``internal``, ``client`` (a call out: :meth:`outgoing_headers` inside it
        name it as the parent) or ``server``; ``links`` are ``traceparent`` values of related
        traces (a resumed execution links to the one that parked it). ``remote``: the
        carrier (request headers, MCP ``_meta``) whose trace context is the parent, instead
        of the span open around this one; without a valid one the span starts a trace.
        """
        if self.tracer is None and not self.listeners:
            return _NOTHING
        return _Recording(self, name, attributes, kind, links, remote)

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
        if self.sink is not None:
            parent = self._parent()
            context, recording = self.sink.start(parent, name, "internal", kept, ())
            if recording:
                self.sink.end(name, context, parent, kept, "internal", (), None, start_ns, end_ns)
        elif self.tracer is not None:
            self.tracer.start_span(name, attributes=kept, start_time=start_ns).end(end_time=end_ns)
        for listener in self.listeners:
            listener(name, kept, max(0, end_ns - start_ns) / 1e9, None)

    def outgoing_headers(self) -> dict[str, str]:
        """Headers that make the current span the parent of whatever a request starts (W3C
        ``traceparent`` and ``tracestate``, or what ``OTEL_PROPAGATORS`` names); none while
        not tracing."""
        if self.tracer is None:
            return {}
        headers: dict[str, str] = {}
        api().propagate.inject(headers, context=self._otel_context())
        return headers

    def traceparent(self) -> str | None:
        """The W3C ``traceparent`` of the current span, while tracing (kept with a parked
        execution, so its resumption can link to it)."""
        if self.tracer is None:
            return None
        found = self._parent()
        if found is None:
            return None
        return f"00-{found.trace_id:032x}-{found.span_id:016x}-{int(found.trace_flags) & 0xff:02x}"

    def current_trace_id(self) -> str | None:
        """The current trace's id (32 hex digits), for log lines; None outside a trace
        (and while not tracing)."""
        if self.tracer is None:
            return None
        found = self._parent()
        return format(found.trace_id, "032x") if found is not None else None

    def _parent(self) -> "trace.SpanContext | None":
        """The innermost open span's context (the seam's own, else OpenTelemetry's current),
        None when there is none."""
        current = self.current.get()
        if current is not None and current.context is not None:
            return current.context
        return api().valid(None)

    def _otel_context(self) -> Any:
        """OpenTelemetry's current context, with the innermost seam span as its current span
        when the seam made that span (so it is not attached)."""
        current = self.current.get()
        if current is None or current.context is None or current.otel is not None:
            return None  # the propagator reads the current context itself
        return api().as_current(current.context)


class _Recording(SpanHandle):
    __slots__ = ("seam", "name", "attributes", "kind", "links", "remote", "started", "otel",
                 "token", "outer", "context", "parent", "start_ns", "recording", "failure")

    def __init__(self, seam: Tracing, name: str,
                 attributes: Mapping[str, AttributeValue | None] | None, kind: str,
                 links: Sequence[str], remote: Mapping[str, str] | None) -> None:
        self.seam = seam
        self.name = name
        self.attributes: dict[str, AttributeValue] = {} if not attributes else {
            key: value for key, value in attributes.items() if value is not None}
        self.otel: "trace.Span | None" = None
        """The tracer's own span, when the seam does not make it (see the module docstring)."""
        self.context: "trace.SpanContext | None" = None
        """This span's ids while tracing (recorded or not: a call out still names them)."""
        self.parent: "trace.SpanContext | None" = None
        self.recording = False
        self.failure: str | None = None
        self.kind = kind
        self.links = links
        self.remote = remote
        self.started = 0
        self.start_ns = 0
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

    def rename(self, name: str) -> None:
        self.name = name
        if self.otel is not None:
            self.otel.update_name(name)

    def fail(self, reason: str | None = None) -> None:
        self.failure = reason or ""

    def __enter__(self) -> "_Recording":
        if self.seam.tracer is not None:
            self._open()
        self.outer = self.seam.current.set(self)
        self.started = time.perf_counter_ns()
        return self

    def _open(self) -> None:
        seam, sink, names = self.seam, self.seam.sink, api()
        remote = None if self.remote is None else names.propagate.extract(self.remote)
        parent = seam._parent() if remote is None else names.valid(remote)
        if sink is not None:
            self.parent = parent
            self.context, self.recording = sink.start(parent, self.name, self.kind,
                                                      self.attributes, self.links)
            self.start_ns = time.time_ns()
            if self.kind == "client":
                # A call out may go through a library that injects OpenTelemetry's current
                # context itself (the MCP SDK puts it in _meta): it must name this span.
                self.token = names.context.attach(names.as_current(self.context))
            return
        tracer = seam.tracer
        assert tracer is not None
        self.otel = tracer.start_span(self.name, context=remote, attributes=self.attributes,
                                      links=names.links(self.links), kind=names.kind(self.kind))
        found = self.otel.get_span_context()
        self.context = found if found.is_valid else None
        self.token = names.context.attach(names.trace.set_span_in_context(self.otel))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        duration = (time.perf_counter_ns() - self.started) / 1e9
        if self.outer is not None:
            self.seam.current.reset(self.outer)
        failed = type(error).__name__ if isinstance(error, Exception) else None
        if failed is not None:
            # Only the type: an exception's text may hold the arguments it failed on.
            self.set("error.type", failed)
        else:
            failed = self.failure
        if self.token is not None:
            api().context.detach(self.token)
        if self.otel is not None:
            if failed is not None:
                trace = api().trace
                self.otel.set_status(trace.Status(trace.StatusCode.ERROR, failed or None))
            self.otel.end()
        elif self.recording and self.context is not None and self.seam.sink is not None:
            self.seam.sink.end(self.name, self.context, self.parent, self.attributes, self.kind,
                               self.links, failed, self.start_ns, time.time_ns())
        for listener in self.seam.listeners:
            listener(self.name, self.attributes, duration, error)


tracing = Tracing()
"""The seam every instrumented module uses (``from sandbox import tracing``)."""

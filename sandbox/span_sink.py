"""How the tracing seam (:mod:`sandbox.spans`) makes OpenTelemetry spans itself: the SDK's
sampling decision and ids, and finished spans handed straight to the tracer's processors.

Measured in the service (thread CPU time, per span): the SDK's ``start_span`` with its live
span object (a lock, bounded attribute and event stores, a context attach and detach, its own
metrics) and its ``end`` cost about 40 us once an execute's other work has pushed them out of
the caches; an execute opens five. What a processor receives is a ``ReadableSpan``, which the
:class:`Sink` builds once, as the span ends, from what the seam already holds.

What must stay the SDK's: the sampler decides every root and, unless it is the SDK's default
parent-based one (whose children simply follow their parent's flag), every child too; the
ids come from the tracer's id generator. Processors see ``on_end`` only (the SDK's batch and
simple processors do nothing on start). OpenTelemetry is imported only here and only once a
tracer is enabled (the import costs ~70 ms every worker process would pay for nothing).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry import trace

__all__ = ["Api", "Sink", "api", "span_context_of"]

AttributeValue = str | bool | int | float


class Api:
    """The OpenTelemetry names the seam uses, resolved once (a function-level import costs
    a microsecond or more each time it runs)."""

    def __init__(self) -> None:
        from opentelemetry import context, propagate, trace
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        self.context = context
        self.propagate = propagate
        self.trace = trace
        self.SpanContext = trace.SpanContext
        self.TraceFlags = trace.TraceFlags
        self.w3c = TraceContextTextMapPropagator()
        self.kinds = {"internal": trace.SpanKind.INTERNAL, "client": trace.SpanKind.CLIENT,
                      "server": trace.SpanKind.SERVER}

    def kind(self, name: str) -> "trace.SpanKind":
        """The span kind of the seam's ``kind`` name (internal for any other)."""
        return self.kinds.get(name, self.trace.SpanKind.INTERNAL)

    def links(self, traceparents: Sequence[str]) -> "list[trace.Link]":
        return [self.trace.Link(found) for found in map(span_context_of, traceparents)
                if found is not None]

    def as_current(self, span_context: "trace.SpanContext") -> Any:
        """A context whose current span is ``span_context`` (for a propagator to inject)."""
        return self.trace.set_span_in_context(self.trace.NonRecordingSpan(span_context))

    def valid(self, found: Any) -> "trace.SpanContext | None":
        """The span context current in ``found`` (None: OpenTelemetry's current one), if valid."""
        span_context = self.trace.get_current_span(found).get_span_context()
        return span_context if span_context.is_valid else None


@functools.cache
def api() -> Api:
    return Api()


def span_context_of(traceparent: str) -> "trace.SpanContext | None":
    """The span a W3C ``traceparent`` names, or None when it names none."""
    names = api()
    return names.valid(names.w3c.extract({"traceparent": traceparent}))


class Sink:
    """An SDK tracer's sampler, id generator and span processors (see the module docstring)."""

    __slots__ = ("processor", "resource", "scope", "ids", "sampler", "follows_parent",
                 "samples_roots", "readable", "unset", "error", "api")

    def __init__(self, tracer: Any) -> None:
        from opentelemetry.sdk.trace import ReadableSpan
        from opentelemetry.trace import Status, StatusCode

        self.processor = tracer.span_processor
        self.resource = tracer.resource
        self.scope = tracer._instrumentation_scope
        self.ids = tracer.id_generator
        self.sampler = tracer.sampler
        self.follows_parent = _follows_parent(self.sampler)
        self.samples_roots = self.follows_parent and \
            getattr(self.sampler, "_root", None) is _always_on()
        self.readable = ReadableSpan
        self.unset = Status(StatusCode.UNSET)
        self.error = functools.partial(Status, StatusCode.ERROR)
        self.api = api()

    @classmethod
    def of(cls, tracer: "trace.Tracer") -> "Sink | None":
        """The sink of an enabled SDK tracer; None for any other (the API's no-op tracer,
        another implementation), whose spans go through its own ``start_span``."""
        try:
            from opentelemetry.sdk.trace import Tracer as SdkTracer
        except ImportError:  # only the API installed
            return None
        if type(tracer) is not SdkTracer or not tracer._is_enabled():
            return None
        needed = ("span_processor", "resource", "_instrumentation_scope", "id_generator",
                  "sampler")
        if not all(hasattr(tracer, name) for name in needed):
            return None  # an SDK this seam does not know: the slow way still works
        return cls(tracer)

    def start(self, parent: "trace.SpanContext | None", name: str, kind: str,
              attributes: dict[str, AttributeValue],
              links: Sequence[str]) -> "tuple[trace.SpanContext, bool]":
        """A new span's context and whether it is recorded, decided as the SDK decides
        (attributes the sampler adds join ``attributes``)."""
        flags_of = self.api.TraceFlags
        if parent is not None and self.follows_parent:
            flags = parent.trace_flags
            if not flags & ~(flags_of.SAMPLED | flags_of.RANDOM_TRACE_ID):
                # The flags the SDK would give the child are the parent's own (the common case).
                return self.api.SpanContext(parent.trace_id, self.ids.generate_span_id(), False,
                                            flags, parent.trace_state), flags.sampled
            trace_id, state = parent.trace_id, parent.trace_state
            sampled = recording = flags.sampled
        elif parent is None and self.samples_roots:
            # The SDK's default: every root is sampled, with no trace state.
            trace_id, state = self.ids.generate_trace_id(), None
            sampled = recording = True
        else:
            trace_id = parent.trace_id if parent is not None else self.ids.generate_trace_id()
            found = self.api.context.Context() if parent is None else self.api.as_current(parent)
            result = self.sampler.should_sample(found, trace_id, name, self.api.kind(kind),
                                                dict(attributes), self.api.links(links))
            for key, value in (result.attributes or {}).items():
                attributes.setdefault(key, value)
            state = result.trace_state
            sampled, recording = result.decision.is_sampled(), result.decision.is_recording()
        random = parent.trace_flags.random_trace_id if parent is not None \
            else self.ids.is_trace_id_random()
        flags = flags_of((flags_of.SAMPLED if sampled else 0)
                         | (flags_of.RANDOM_TRACE_ID if random else 0))
        return self.api.SpanContext(trace_id, self.ids.generate_span_id(), False, flags,
                                    state), recording

    def end(self, name: str, context: "trace.SpanContext", parent: "trace.SpanContext | None",
            attributes: Mapping[str, AttributeValue], kind: str, links: Sequence[str],
            failed: str | None, start_ns: int, end_ns: int) -> None:
        """Hand the finished span to the processors. ``attributes`` is the span's own: the
        seam never changes it after the span ends, so it is not copied."""
        self.processor.on_end(self.readable(
            name, context=context, parent=parent, resource=self.resource,
            attributes=attributes, links=self.api.links(links) if links else (),
            kind=self.api.kind(kind),
            status=self.unset if failed is None else self.error(failed or None),
            start_time=start_ns, end_time=end_ns, instrumentation_scope=self.scope))


def _always_on() -> Any:
    from opentelemetry.sdk.trace.sampling import ALWAYS_ON

    return ALWAYS_ON


def _follows_parent(sampler: Any) -> bool:
    """Whether ``sampler`` is the SDK's default (parent-based, its children's four cases the
    always-on and always-off samplers), so a child's decision is its parent's flag."""
    from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ALWAYS_ON, ParentBased

    cases = ("_remote_parent_sampled", "_remote_parent_not_sampled", "_local_parent_sampled",
             "_local_parent_not_sampled")
    expected = (ALWAYS_ON, ALWAYS_OFF, ALWAYS_ON, ALWAYS_OFF)
    return isinstance(sampler, ParentBased) and all(
        getattr(sampler, case, None) is want for case, want in zip(cases, expected))

"""The tracing seam under the OpenTelemetry SDK: the spans it makes itself (children of a
recorded span) must be what the SDK would have made: the same names, parents, kinds,
attributes, statuses, links and times, sampled as the SDK's parent-based default samples
them, and named as the parent of whatever a call out starts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry import context, propagate, trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ParentBased, Sampler

from sandbox import tracing

REMOTE_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    before = tracing.tracer
    tracing.enable(provider.get_tracer("test"))
    try:
        yield exporter
    finally:
        tracing.enable(before)


def _by_name(exporter: InMemorySpanExporter) -> dict[str, ReadableSpan]:
    return {span.name: span for span in exporter.get_finished_spans()}


def _traceparent_of(span: ReadableSpan) -> str:
    """Its W3C ``traceparent`` (the flags as the SDK sets them: sampled, random trace id)."""
    assert span.context is not None
    return f"00-{span.context.trace_id:032x}-{span.context.span_id:016x}-" \
           f"{int(span.context.trace_flags):02x}"


def test_children_of_a_root_share_its_trace_and_name_their_parents(
        exporter: InMemorySpanExporter) -> None:
    assert tracing.sink is not None, "an SDK tracer: the seam makes the children itself"
    with tracing.span("root", {"a": 1}):
        with tracing.span("child", {"b": "x"}) as child:
            child.set("c", True)
            tracing.annotate({"d": 2.5, "skipped": None})
            with tracing.span("grandchild"):
                pass
    spans = _by_name(exporter)
    root, child_span, grandchild = spans["root"], spans["child"], spans["grandchild"]
    assert root.parent is None and root.context is not None
    assert child_span.context is not None and grandchild.context is not None
    assert {s.context.trace_id for s in (child_span, grandchild)} == {root.context.trace_id}
    assert child_span.parent is not None and child_span.parent.span_id == root.context.span_id
    assert grandchild.parent is not None
    assert grandchild.parent.span_id == child_span.context.span_id
    assert dict(child_span.attributes or {}) == {"b": "x", "c": True, "d": 2.5}
    assert child_span.kind is trace.SpanKind.INTERNAL
    assert child_span.resource == root.resource
    assert child_span.instrumentation_scope == root.instrumentation_scope
    assert root.start_time is not None and child_span.start_time is not None
    assert grandchild.start_time is not None and grandchild.end_time is not None
    assert child_span.end_time is not None and root.end_time is not None
    assert root.start_time <= child_span.start_time <= grandchild.start_time
    assert grandchild.end_time <= child_span.end_time <= root.end_time


def test_a_failing_child_is_an_error_naming_only_the_exceptions_type(
        exporter: InMemorySpanExporter) -> None:
    with tracing.span("root"):
        with pytest.raises(KeyError):
            with tracing.span("child"):
                raise KeyError("secret-argument")
    child = _by_name(exporter)["child"]
    assert child.status.status_code is trace.StatusCode.ERROR
    assert child.status.description == "KeyError"
    assert dict(child.attributes or {}) == {"error.type": "KeyError"}


def test_kinds_and_links_reach_the_exported_span(exporter: InMemorySpanExporter) -> None:
    earlier = f"00-{REMOTE_TRACE}-00f067aa0ba902b7-01"
    with tracing.span("root"):
        with tracing.span("out", kind="client", links=[earlier, "not-a-traceparent"]):
            pass
        with tracing.span("in", kind="server"):
            pass
    spans = _by_name(exporter)
    assert spans["out"].kind is trace.SpanKind.CLIENT
    assert spans["in"].kind is trace.SpanKind.SERVER
    [link] = spans["out"].links
    assert f"{link.context.trace_id:032x}" == REMOTE_TRACE
    assert link.context.span_id == 0x00f067aa0ba902b7


def test_a_call_out_names_the_innermost_span_as_its_parent(
        exporter: InMemorySpanExporter) -> None:
    with tracing.span("root"):
        with tracing.span("codemode.host_call"):
            with tracing.span("webhook", kind="client"):
                headers = tracing.outgoing_headers()
                seen_by_a_library: dict[str, str] = {}
                propagate.inject(seen_by_a_library)  # what the MCP SDK does itself
                traceparent = tracing.traceparent()
                trace_id = tracing.current_trace_id()
    webhook = _by_name(exporter)["webhook"]
    assert headers["traceparent"] == _traceparent_of(webhook)
    assert seen_by_a_library["traceparent"] == _traceparent_of(webhook)
    assert traceparent == _traceparent_of(webhook)
    assert webhook.context is not None and trace_id == f"{webhook.context.trace_id:032x}"
    assert trace.get_current_span().get_span_context().is_valid is False, \
        "the client span's context is detached again as it ends"


def test_a_remote_parent_is_continued_and_an_unsampled_one_records_nothing(
        exporter: InMemorySpanExporter) -> None:
    for flags, recorded in (("01", True), ("00", False)):
        exporter.clear()
        parent = propagate.extract({"traceparent": f"00-{REMOTE_TRACE}-00f067aa0ba902b7-{flags}"})
        token = context.attach(parent)
        try:
            with tracing.span("codemode.execution"):
                with tracing.span("sandbox.guest.run"):
                    tracing.record("sandbox.isolate.instantiate", 1_000, 2_000)
        finally:
            context.detach(token)
        spans = _by_name(exporter)
        if not recorded:
            assert spans == {}
            continue
        assert set(spans) == {"codemode.execution", "sandbox.guest.run",
                              "sandbox.isolate.instantiate"}
        assert {f"{s.context.trace_id:032x}" for s in spans.values() if s.context} == {REMOTE_TRACE}
        execution = spans["codemode.execution"]
        assert execution.parent is not None and execution.parent.span_id == 0x00f067aa0ba902b7
        instantiate = spans["sandbox.isolate.instantiate"]
        assert (instantiate.start_time, instantiate.end_time) == (1_000, 2_000)
        run = spans["sandbox.guest.run"]
        assert instantiate.parent is not None and run.context is not None
        assert instantiate.parent.span_id == run.context.span_id


@pytest.mark.parametrize("sampler", [ALWAYS_OFF, ParentBased(ALWAYS_OFF)],
                         ids=["always-off", "parent-based-off"])
def test_a_root_is_the_samplers_to_decide(sampler: Sampler) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=sampler)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    before = tracing.tracer
    tracing.enable(provider.get_tracer("test"))
    try:
        with tracing.span("root"):
            with tracing.span("child"):
                flags = int(tracing.outgoing_headers()["traceparent"].rsplit("-", 1)[1], 16)
                assert flags & trace.TraceFlags.SAMPLED == 0
    finally:
        tracing.enable(before)
    assert exporter.get_finished_spans() == ()


def test_a_tracer_that_is_not_the_sdks_gets_every_span_through_start_span() -> None:
    before = tracing.tracer
    tracing.enable(trace.NoOpTracer())
    try:
        assert tracing.sink is None
        with tracing.span("root"):
            with tracing.span("child", kind="client") as child:
                child.set("k", "v")
                assert tracing.outgoing_headers() == {}  # nothing recorded, nothing to name
    finally:
        tracing.enable(before)

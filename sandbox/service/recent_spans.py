"""The spans of recent executions, kept in the service's memory for the console's trace view.

While tracing is on, the spans are kept where they leave: :class:`KeepingExporter` wraps the
service's span exporter and hands each batch to :class:`RecentSpans` before passing it on.
With the OTLP exporter that happens on the batch processor's own thread, after the requests
are answered, so keeping them adds nothing to a request's path (a span processor of its own
would run inside every span's end: measured, that made each traced span about a fifth
slower). The spans therefore appear once exported (``OTEL_BSP_SCHEDULE_DELAY``, 5 s by
default). Each span is kept as a tuple of its strings and numbers, under its trace; a span
naming an execution (``sandbox.execution_id``) ties that trace to it. An execution may have
several traces: the request that ran it until it parked, the one that decided its approval
and resumed it. Bounded three times: the newest ``max_traces`` traces, ``max_spans`` spans in
each, an execution's last ``MAX_TRACES_PER_EXECUTION`` traces.

While tracing is off (or ``SANDBOX_TRACE_KEEP=0``) nothing is kept and nothing is added to
any request: the trace view is built from the execution's own journal instead
(:func:`journal_timeline`), which has the times of every host call and approval but not the
worker wait, the instantiation or the guest run.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    from codemode import Approval, ExecutionRecord

__all__ = ["KeepingExporter", "RecentSpans", "journal_timeline"]

EXECUTION_ATTRIBUTE = "sandbox.execution_id"
MAX_TRACES_PER_EXECUTION = 20
"""An execution parked and resumed many times keeps its last 20 traces."""


class KeepingExporter:
    """A span exporter that keeps each batch in ``kept`` and passes it on to ``inner``
    (duck-typed: the SDK's processors call exactly these; importing the SDK here would cost
    every process that never traces)."""

    def __init__(self, inner: SpanExporter, kept: RecentSpans) -> None:
        self.inner = inner
        self.kept = kept

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.kept.add(spans)
        return self.inner.export(spans)

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))


class RecentSpans:
    """The last traces' spans (see the module docstring)."""

    def __init__(self, *, max_traces: int = 1000, max_spans: int = 500) -> None:
        self.max_traces = max_traces
        self.max_spans = max_spans
        self._traces: OrderedDict[int, list[Kept]] = OrderedDict()
        self._of_execution: OrderedDict[str, dict[int, None]] = OrderedDict()
        """Each execution's trace ids, in the order they came (a dict: ordered, O(1) in)."""
        self._lock = threading.Lock()

    def add(self, spans: Iterable[ReadableSpan]) -> None:
        compact = [_compact(span) for span in spans if span.context is not None]
        with self._lock:
            for kept in compact:
                self._keep(kept)

    def _keep(self, kept: Kept) -> None:
        trace_id = kept[1]
        spans = self._traces.get(trace_id)
        if spans is None:
            spans = self._traces[trace_id] = []
            while len(self._traces) > self.max_traces:
                self._traces.popitem(last=False)
        if len(spans) < self.max_spans:
            spans.append(kept)
        execution = next((value for key, value in kept[7] if key == EXECUTION_ATTRIBUTE), None)
        if isinstance(execution, str):
            traces = self._of_execution.get(execution)
            if traces is None:
                traces = self._of_execution[execution] = {}
                while len(self._of_execution) > self.max_traces:
                    self._of_execution.popitem(last=False)
            if trace_id not in traces:
                traces[trace_id] = None
                if len(traces) > MAX_TRACES_PER_EXECUTION:  # the oldest go first
                    del traces[next(iter(traces))]

    def of_execution(self, execution_id: str) -> list[dict[str, Any]]:
        """The kept spans of every trace that touched the execution, oldest first."""
        with self._lock:
            spans = [span for trace_id in self._of_execution.get(execution_id, ())
                     for span in self._traces.get(trace_id, ())]
        return sorted((_view(span) for span in spans), key=lambda s: (s["start"], s["end"]))


Kept = tuple[str, int, int, int | None, int, int, bool, tuple[tuple[str, Any], ...]]
"""``(name, trace_id, span_id, parent span_id, start_ns, end_ns, error, attributes)``: only
strings and numbers, which the garbage collector stops tracking. Holding the SDK's span
objects themselves (each with its attributes, lock, events, links, resource) made every
later span slower as the collector walked them."""


def _compact(span: ReadableSpan) -> Kept:
    context, parent = span.context, span.parent
    start = span.start_time or 0
    return (span.name, context.trace_id if context else 0, context.span_id if context else 0,
            parent.span_id if parent is not None else None, start, span.end_time or start,
            span.status.status_code.name == "ERROR",
            tuple((key, value) for key, value in (span.attributes or {}).items()))


def _view(kept: Kept) -> dict[str, Any]:
    name, trace_id, span_id, parent_id, start, end, error, attributes = kept
    return {"name": name, "trace_id": format(trace_id, "032x"), "span_id": format(span_id, "016x"),
            "parent_id": None if parent_id is None else format(parent_id, "016x"),
            "start": start / 1e9, "end": end / 1e9, "error": error,
            "attributes": {key: list(value) if isinstance(value, tuple) else value
                           for key, value in attributes}}


def journal_timeline(record: ExecutionRecord,
                     approvals: Iterable[Approval]) -> list[dict[str, Any]]:
    """The execution as spans made from its own records (no tracing needed): the execution,
    each journaled host call, and each approval's wait for a human."""
    root = f"journal:{record.id}"
    spans: list[dict[str, Any]] = [{
        "name": "codemode.execution", "span_id": root, "parent_id": None, "trace_id": None,
        "start": record.created_at, "end": max(record.updated_at, record.created_at),
        "error": record.status in ("error", "dead_letter"),
        "attributes": {"sandbox.execution_id": record.id, "codemode.workspace": record.workspace,
                       "codemode.status": record.status}}]
    for entry in record.journal:
        spans.append({
            "name": "codemode.host_call", "span_id": f"{root}:call:{entry.seq}",
            "parent_id": root, "trace_id": None, "start": entry.created_at,
            "end": max(entry.updated_at, entry.created_at), "error": entry.error is not None,
            "attributes": {"codemode.namespace": entry.namespace, "codemode.method": entry.method,
                           "codemode.seq": entry.seq, "codemode.state": entry.state}})
    for approval in approvals:
        decided = approval.decided_at if approval.decided_at is not None else record.updated_at
        spans.append({
            "name": "codemode.approval.wait", "span_id": f"{root}:approval:{approval.id}",
            "parent_id": root, "trace_id": None, "start": approval.created_at,
            "end": max(decided, approval.created_at), "error": False,
            "attributes": {"codemode.approval_id": approval.id, "codemode.seq": approval.seq,
                           "codemode.namespace": approval.namespace,
                           "codemode.method": approval.method,
                           "codemode.decision": approval.status}})
    return sorted(spans, key=lambda s: (s["start"], s["end"]))

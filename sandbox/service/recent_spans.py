"""The spans of recent executions, kept in the service's memory for the console's trace view.

While tracing is on, :class:`RecentSpans` sits on the tracer provider beside the exporter as
one more span processor: each span that ends is appended to its trace's list as a tuple of
its strings and numbers (no serialising, no lock held past an append), and a span naming an execution
(``sandbox.execution_id``) ties that trace to it. An execution may have several traces: the
request that ran it until it parked, the one that decided its approval and resumed it.
Bounded twice: the newest ``max_traces`` traces, and ``max_spans`` spans in each.

While tracing is off nothing is kept and nothing is added to any request: the trace view is
built from the execution's own journal instead (:func:`journal_timeline`), which has the
times of every host call and approval but not the worker wait, the instantiation or the
guest run.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace import ReadableSpan, Span

    from codemode import Approval, ExecutionRecord

__all__ = ["RecentSpans", "journal_timeline"]

EXECUTION_ATTRIBUTE = "sandbox.execution_id"
MAX_TRACES_PER_EXECUTION = 20
"""An execution parked and resumed many times keeps its last 20 traces."""


class RecentSpans:
    """An OpenTelemetry span processor that keeps the last traces (see the module docstring).

    Only ``on_end`` does anything; the SDK calls it on the thread that ended the span."""

    def __init__(self, *, max_traces: int = 1000, max_spans: int = 500) -> None:
        self.max_traces = max_traces
        self.max_spans = max_spans
        self._traces: OrderedDict[int, list[Kept]] = OrderedDict()
        self._of_execution: OrderedDict[str, dict[int, None]] = OrderedDict()
        """Each execution's trace ids, in the order they came (a dict: ordered, O(1) in)."""
        self._lock = threading.Lock()

    # --- the SpanProcessor interface (duck-typed: importing the SDK here would cost every
    # process that never traces; the SDK's multi-processor calls exactly these) ------------

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        return None

    def _on_ending(self, span: Span) -> None:
        return None

    def on_end(self, span: ReadableSpan) -> None:
        context = span.context
        if context is None:
            return
        trace_id = context.trace_id
        execution = (span.attributes or {}).get(EXECUTION_ATTRIBUTE)
        with self._lock:
            kept = self._traces.get(trace_id)
            if kept is None:
                kept = self._traces[trace_id] = []
                while len(self._traces) > self.max_traces:
                    self._traces.popitem(last=False)
            if len(kept) < self.max_spans:
                kept.append(_compact(span))
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

    def shutdown(self) -> None:
        with self._lock:
            self._traces.clear()
            self._of_execution.clear()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True

    # --- reading ------------------------------------------------------------------------

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

"""The service's Prometheus metrics (imported only when metrics are on).

:class:`Metrics` is one app's registry: counters and histograms fed by the tracing seam's
spans as they end (``sandbox.tracing.listen``), gauges read just before each scrape (the
worker pool, pending approvals, workspace use, the audit log's length and last checkpoint),
the text exposition, and the listener of its
own that ``SANDBOX_METRICS_ADDR`` asks for. Labels are bounded sets (a route's template, a
namespace the execution was given, an outcome), never the guest's own strings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Mapping

from fastapi import FastAPI
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from audit import AuditLog

from .. import AsyncSandbox, SandboxError
from .telemetry import METRICS_PATH

__all__ = ["Metrics", "serve_metrics"]

log = logging.getLogger("sandbox.service.metrics")

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
           60.0, 300.0)
"""Latency buckets: an execute takes a few milliseconds, a busy one up to its deadline."""
DECISION_SECONDS = (1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0, 4 * 3600.0, 24 * 3600.0)
"""How long a human takes to decide: seconds to the 24 h a parked execution is kept."""
MAX_WORKSPACE_SERIES = 200
"""Most workspaces reported one by one at a scrape (the largest); the rest are summed."""


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
                row = await conn.fetchone("SELECT count(*) FROM codemode_approvals"
                                        " WHERE status = 'pending'")
            self.scraped.pending_approvals = int(row[0]) if row else 0
        audit_log = getattr(held, "audit", None)
        if isinstance(audit_log, AuditLog):
            # Both from an index (the last seq, the last checkpoint row): no chain walk.
            self.scraped.audit_length = await audit_log.length()
            self.scraped.audit_checkpoint = await audit_log.stored_checkpoint()
            self.scraped.scraped_at = time.time()
        workspaces = getattr(held, "workspaces", None)
        if workspaces is not None:
            usage = {}
            for listed in await workspaces.list_workspaces():
                info = await workspaces.workspace(listed["name"]).info()
                usage[listed["name"]] = (info["total_bytes"], info["file_count"])
            self.scraped.workspaces = usage
            self.scraped.quotas = (workspaces.quotas.workspace_bytes,
                                   workspaces.quotas.workspace_files)

    content_type = CONTENT_TYPE_LATEST

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
        self.audit_length = 0
        self.audit_checkpoint: tuple[int, float] | None = None
        self.scraped_at = 0.0

    def collect(self) -> Any:
        yield from self._audit()
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


    def _audit(self) -> Any:
        yield GaugeMetricFamily("sandbox_audit_entries", "Entries in the audit log (its last seq).",
                                value=self.audit_length)
        checkpoint = self.audit_checkpoint
        yield GaugeMetricFamily("sandbox_audit_checkpoint_seq", "The seq the newest signed "
                                "checkpoint covers (0: none yet).",
                                value=0 if checkpoint is None else checkpoint[0])
        if checkpoint is not None:
            yield GaugeMetricFamily("sandbox_audit_checkpoint_age_seconds", "Seconds since the "
                                    "newest signed checkpoint (absent until there is one).",
                                    value=max(0.0, self.scraped_at - checkpoint[1]))
        yield GaugeMetricFamily("sandbox_audit_unanchored_entries", "Entries after the newest "
                                "checkpoint: not yet covered by a signature.",
                                value=max(0, self.audit_length - (checkpoint or (0, 0.0))[0]))


async def serve_metrics(metrics: Metrics, app: FastAPI, address: str) -> asyncio.Server:
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

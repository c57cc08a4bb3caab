"""Telemetry benchmark: what tracing and metrics cost an execute.

    .venv/bin/python benchmarks/telemetry.py [--runs 300]

Two measures:

1. **The seam while nobody listens** (tracing and metrics off, the default): the cost of one
   ``tracing.span(...)`` with attributes, a ``set`` and an ``annotate``, times the spans one
   execute opens. This is everything the instrumentation adds to an untraced execute.
2. **An execute over HTTP, three services side by side** in one event loop (the app through
   ``httpx.ASGITransport``, its own worker pool each), interleaved round by round so the
   machine's noise falls on all of them alike: telemetry off; traced (every span made by the
   OpenTelemetry SDK and handed to an exporter that drops it, so the figure is the
   instrumentation's cost, not a collector's; ``SANDBOX_TRACE_KEEP=0``); traced and kept
   (the default: the console's span keeper too; ``kept-traced`` is its paired difference
   from traced); metrics on. Two programs: ``1 + 1``, and two
   journaled ``state.*`` calls. Prints each one's median and p10-p90, and each median's
   difference from "off" with the spread of the paired differences (round by round).

3. **Exporting as deployed**: tracing turned on by the ``OTEL_*`` variables, spans batched
   and sent over OTLP/HTTP to a receiver in another process (a stand-in collector that
   answers 200). The batch processor encodes and sends on a thread of its own, off the
   request's path, so its cost is CPU, not latency: the service process's CPU over blocks
   of executes (flushed at the end of each block), against the same blocks untraced.

Target: off adds nothing measurable; traced adds <= 0.2 ms per execute.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here cannot hide the package of its name (codemode.py); what the scripts share imports
# as ``benchmarks.measuring``, from the project's root.
_HERE = str(Path(__file__).resolve().parent)
# The project's root goes first: its packages are found by an editable install's finder,
# which Python asks only after every sys.path entry, this directory's included.
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from sandbox import ensure_compiled, tracing
from sandbox.service import Settings, create_app

from benchmarks.measuring import pct

PROGRAMS = {
    "1 + 1": "1 + 1",
    "2 state calls": "state.write_file('/b.txt', 'x')\nstate.read_file('/b.txt')",
}
SPANS_PER_EXECUTE = {"1 + 1": 4, "2 state calls": 6}
"""Seam spans an execute opens: the execution, worker wait, guest run, instantiate (+ one
per host call); the HTTP request span is the service's own and exists only when on."""


class Dropped(SpanExporter):
    """An exporter that keeps nothing: the SDK does all its work, nothing is sent."""

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


def seam_off_ns(rounds: int = 200_000) -> float:
    """ns per span of the seam while nobody listens (open, set, annotate, close)."""
    assert not tracing.active, "something listens already"
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter_ns()
        for _ in range(rounds):
            with tracing.span("codemode.host_call", {"sandbox.execution_id": "exec_1"}) as span:
                span.set("codemode.outcome", "ok")
                tracing.annotate({"codemode.seq": 1})
        best = min(best, (time.perf_counter_ns() - started) / rounds)
    return best


def seam_on_ns(rounds: int = 20_000, *, keep: bool = False) -> float:
    """ns per span while traced: the same span made by the SDK and dropped by the exporter
    (``keep``: with the console's span keeper beside it, as the service runs it)."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    from sandbox.service.recent_spans import KeepingExporter, RecentSpans

    provider = TracerProvider()
    # Synchronous export here, so the keeper's share is in the figure (the service's batch
    # processor runs it on its own thread, off the request's path).
    provider.add_span_processor(SimpleSpanProcessor(
        KeepingExporter(Dropped(), RecentSpans()) if keep else Dropped()))  # type: ignore[arg-type]
    before = tracing.tracer
    tracing.enable(provider.get_tracer("bench"))
    best = float("inf")
    try:
        for _ in range(5):
            started = time.perf_counter_ns()
            for _ in range(rounds):
                with tracing.span("codemode.host_call", {"sandbox.execution_id": "exec_1"}) as span:
                    span.set("codemode.outcome", "ok")
                    tracing.annotate({"codemode.seq": 1})
            best = min(best, (time.perf_counter_ns() - started) / rounds)
    finally:
        tracing.enable(before)
    return best


@contextlib.asynccontextmanager
async def service(name: str, data: Path, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(data_dir=data / name, workers=1, guest=ensure_compiled(),
                              **settings))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            yield client


async def one(client: httpx.AsyncClient, code: str) -> float:
    started = time.perf_counter()
    response = await client.post("/v1/execute", json={"code": code})
    took = (time.perf_counter() - started) * 1000
    assert response.status_code == 200 and response.json()["status"] == "completed", response.text
    return took


async def http_rounds(runs: int) -> dict[str, dict[str, list[float]]]:
    times: dict[str, dict[str, list[float]]] = {p: {} for p in PROGRAMS}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        async with contextlib.AsyncExitStack() as stack:
            # Tracing is one seam per process: each traced service turns it on with its own
            # tracer, so every request runs with its service's (or none, or the listeners).
            clients: dict[str, httpx.AsyncClient] = {}
            tracers: dict[str, Any] = {}
            for kind, extra in (("off", {}),
                                ("traced", {"span_exporter": Dropped(), "trace_keep": 0}),
                                ("kept", {"span_exporter": Dropped()}),
                                ("metrics", {"metrics": True})):
                before = tracing.tracer
                clients[kind] = await stack.enter_async_context(service(kind, data, **extra))
                tracers[kind] = tracing.tracer if tracing.tracer is not before else None
            last_tracer = tracing.tracer
            listeners = tracing.listeners
            for label, code in PROGRAMS.items():
                for kind in clients:
                    times[label][kind] = []
                for _ in range(5):  # warm each up
                    for kind, client in clients.items():
                        tracing.enable(tracers[kind])
                        await one(client, code)
                kinds = list(clients)
                for run in range(runs):
                    # Each round starts one place further on: a fixed order put each
                    # service always behind the same one (whose worker is still dropping
                    # its isolate and making the spare), a bias of its own.
                    shift = run % len(kinds)
                    for kind in kinds[shift:] + kinds[:shift]:
                        client = clients[kind]
                        tracing.enable(tracers[kind])
                        tracing.listeners = listeners if kind == "metrics" else ()
                        times[label][kind].append(await one(client, code))
            tracing.enable(last_tracer)
            tracing.listeners = listeners
    return times


RECEIVER = """
import http.server, sys
class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_address[1], flush=True)
server.serve_forever()
"""
"""A stand-in collector: takes every OTLP/HTTP export and answers 200, in its own process."""


@contextlib.contextmanager
def otlp_receiver() -> Any:
    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE,
                                text=True)
    try:
        assert receiver.stdout is not None
        port = int(receiver.stdout.readline())
        yield f"http://127.0.0.1:{port}/v1/traces"
    finally:
        receiver.kill()
        receiver.wait()


async def export_cpu(blocks: int, per_block: int) -> tuple[list[float], list[float]]:
    """CPU ms per execute of this process (every thread), untraced and traced-and-exported,
    block by block alternately; each traced block ends with the batch flushed."""
    code = PROGRAMS["1 + 1"]
    off_cpu: list[float] = []
    exported_cpu: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, otlp_receiver() as endpoint:
        os.environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = endpoint
        data = Path(tmp)
        try:
            async with contextlib.AsyncExitStack() as stack:
                off = await stack.enter_async_context(service("off", data))
                before = tracing.tracer
                exported = await stack.enter_async_context(
                    service("exported", data, tracing=True, trace_keep=0))
                tracer = tracing.tracer
                assert tracer is not before and tracer is not None
                flush = getattr(tracer, "span_processor").force_flush
                for client, kind in ((off, None), (exported, tracer)):
                    tracing.enable(kind)
                    for _ in range(10):
                        await one(client, code)
                for block in range(blocks * 2):
                    traced = block % 2 == 1
                    tracing.enable(tracer if traced else None)
                    started = time.process_time()
                    for _ in range(per_block):
                        await one(exported if traced else off, code)
                    if traced:
                        await asyncio.to_thread(flush)
                    took = (time.process_time() - started) * 1000 / per_block
                    (exported_cpu if traced else off_cpu).append(took)
                tracing.enable(before)
        finally:
            del os.environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
    return off_cpu, exported_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    per_span = seam_off_ns()
    print(f"seam off: {per_span:.0f} ns per span; per execute: "
          + ", ".join(f"{label} {per_span * n / 1e6:.4f} ms ({n} spans)"
                      for label, n in SPANS_PER_EXECUTE.items()))
    for keep in (False, True):
        traced = seam_on_ns(keep=keep)
        print(f"seam traced{' + span keeper' if keep else ''}: {traced:.0f} ns per span; per "
              "execute: " + ", ".join(f"{label} {traced * (n + 1) / 1e6:.3f} ms ({n} spans + "
                                      "the request's)" for label, n in SPANS_PER_EXECUTE.items()))
    times = asyncio.run(http_rounds(args.runs))
    print(f"\nexecute over HTTP (in process, n={args.runs} each, interleaved)")
    print(f"{'program':<16}{'service':<10}{'p50 ms':>9}{'p10-p90 ms':>16}{'p50 - off':>12}"
          f"{'paired diff p25..p75':>24}")
    for label, kinds in times.items():
        base = kinds["off"]
        for kind, values in [*kinds.items(), ("kept-traced", kinds["kept"])]:
            if kind == "kept-traced":  # what keeping spans for the console adds to tracing
                base = kinds["traced"]
            diffs = [a - b for a, b in zip(values, base)]
            delta = statistics.median(values) - statistics.median(base)
            print(f"{label:<16}{kind:<10}{statistics.median(values):>9.3f}"
                  f"{pct(values, 10):>8.2f}-{pct(values, 90):<7.2f}"
                  f"{delta:>+12.3f}{pct(diffs, 25):>+13.3f}..{pct(diffs, 75):<+9.3f}")
    blocks, per_block = 8, max(50, args.runs // 4)
    off_cpu, exported_cpu = asyncio.run(export_cpu(blocks, per_block))
    diffs = [a - b for a, b in zip(exported_cpu, off_cpu)]
    print(f"\nCPU per execute of the service process, 1 + 1, {blocks} blocks of {per_block} "
          "each way, alternating")
    print(f"  off: median {statistics.median(off_cpu):.3f} ms ({min(off_cpu):.3f}-"
          f"{max(off_cpu):.3f}); traced and exported over OTLP: median "
          f"{statistics.median(exported_cpu):.3f} ms ({min(exported_cpu):.3f}-"
          f"{max(exported_cpu):.3f}); paired difference median {statistics.median(diffs):+.3f} "
          f"ms ({min(diffs):+.3f}..{max(diffs):+.3f})")


if __name__ == "__main__":
    main()

"""Isolate benchmark: compile, load, fresh execute, host-call round trip, throughput.

    .venv/bin/python benchmarks/isolate.py [--runs 200] [--calls 10000] [--skip-compile]
                                           [--http-only]

Prints medians and percentiles; these machines are noisy, so compare ratios across runs
rather than single figures. Targets (2-core machine, worker hop included): p50 fresh
execute <= 5 ms through the Python API and <= 3 ms over HTTP; host-call round trip
<= 0.2 ms; >= 300 trivial executes per second over HTTP. The HTTP rows come twice: from
httpx (what most clients use) and from a raw keep-alive socket (a load generator that costs
the two shared cores almost nothing, so the service's own figure shows).
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
import base64
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable

import httpx

from sandbox import AsyncSandbox, Limits
from sandbox.build import ensure_component
from sandbox.engine import ensure_compiled, load_compiled, make_engine

from benchmarks.measuring import free_port, host_call_round_trip_ms, interleaved, pct


def row(name: str, value: str, target: str = "") -> None:
    print(f"| {name:<60} | {value:>22} | {target:<12} |")


def measure_compile() -> None:
    built = ensure_component()
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy2(built.path, Path(tmp) / built.path.name)
        shutil.copy2(built.path.with_suffix(".json"), Path(tmp) / built.path.with_suffix(".json").name)
        started = time.perf_counter()
        ensure_compiled(Path(tmp), progress=lambda _m: None)
        row("first compile of the guest (Cranelift)", f"{time.perf_counter() - started:.1f} s")


def measure_load() -> None:
    guest = ensure_compiled(progress=lambda _m: None)
    times = []
    for _ in range(10):
        engine = make_engine()
        started = time.perf_counter()
        load_compiled(engine, guest, verify=False)
        times.append((time.perf_counter() - started) * 1000)
    row("load of the cached compiled guest (median)", f"{statistics.median(times):.1f} ms")


def measure_phases(runs: int) -> None:
    """Where a fresh execute's time goes inside one process, by this thread's CPU: the store
    with its WASI context, instantiate (a worker does both ahead, for its spare), the first
    and only call, and the drop (after the answer: it puts the memory back), with the call's
    page faults. ``print(1 + 1)`` and a small bash script over the in-memory tree a request
    carries (the service's way: ``sandbox.service.bash_tool``)."""
    import resource

    from sandbox.isolate import GuestRuntime

    runtime = GuestRuntime(ensure_compiled(progress=lambda _m: None))
    notes = base64.b64encode(b"hello world\nsecond line\n").decode("ascii")
    tree = {"directories": [], "files": [["/notes.txt", notes]], "scratch": ["/tmp"],
            "max_growth_bytes": 1 << 20, "max_depth": 64}
    cases = {
        "print(1 + 1)": ("execute", json.dumps({"code": "print(1 + 1)", "namespaces": {}})),
        "bash `wc -l notes.txt`": ("bash", json.dumps({"script": "wc -l notes.txt", "cwd": "/", "env": {},
                                                       "limits": {"timeout_ms": 10_000}, "fs": tree})),
    }
    for name, (export, request) in cases.items():
        phases: dict[str, list[float]] = {"instantiate": [], "call": [], "drop": [], "faults": []}
        for n in range(runs + 10):
            started = time.thread_time()
            isolate = runtime.isolate(Limits.default)
            made = time.thread_time()
            faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
            isolate.call(export, request, lambda _name, _payload: "null")
            faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - faults
            called = time.thread_time()
            isolate.close()
            if n >= 10:
                phases["instantiate"].append((made - started) * 1000)
                phases["call"].append((called - made) * 1000)
                phases["drop"].append((time.thread_time() - called) * 1000)
                phases["faults"].append(faults)
        row(f"{name} in process, CPU (n={runs}): instantiate / call / drop",
            " / ".join(f"{statistics.median(phases[k]):.2f}" for k in ("instantiate", "call", "drop"))
            + " ms")
        row(f"{name}: page faults in the call (median)", f"{statistics.median(phases['faults']):.0f}")


async def measure_api(runs: int, calls: int) -> None:
    async with AsyncSandbox(tools={"add": lambda a, b: a + b}, workers=2) as box:
        for _ in range(20):
            await box.execute("1 + 1")
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            outcome = await box.execute("1 + 1")
            times.append((time.perf_counter() - started) * 1000)
            assert outcome.result == 2
        row(f"fresh execute of 1+1, Python API (n={runs})",
            f"p50 {pct(times, 50):.2f} / p99 {pct(times, 99):.2f} ms", "p50 <= 5 ms")
        per_call = await host_call_round_trip_ms(box, calls)
        row(f"host-call round trip (n={calls})", f"{per_call:.3f} ms", "<= 0.2 ms")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of ``pid`` so far (from /proc; Linux only)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the service process and of its worker processes."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return cpu_seconds(pid), sum(cpu_seconds(int(c)) for c in children)


class RawClient:
    """A keep-alive HTTP/1.1 client on one socket that does nothing but send the request and
    read the answer by its Content-Length: about a tenth of httpx's CPU per request, so on
    two shared cores the load generator leaves the service the CPU httpx would eat."""

    IDLE_S = 2.0
    """A connection left idle longer is not reused: uvicorn closes a kept-alive connection
    after 5 idle seconds, and a request sent as it does so is lost (peers.py leaves this
    client idle while the peers run their share of a round)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._used = 0.0

    async def post(self, path: str, payload: dict[str, object]) -> tuple[int, dict[str, object]]:
        if self._writer is not None and time.monotonic() - self._used > self.IDLE_S:
            await self.close()
        if self._reader is None or self._writer is None:
            self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = json.dumps(payload).encode()
        self._writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                           f"application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        head = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        length = next(int(line.split(":", 1)[1]) for line in head
                      if line.lower().startswith("content-length:"))
        answer = json.loads(await self._reader.readexactly(length))
        self._used = time.monotonic()
        return int(head[0].split()[1]), answer

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError):  # the server may have closed it first
                await self._writer.wait_closed()
        self._reader = self._writer = None


Post = Callable[[], Awaitable[None]]


async def measure_http(runs: int) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir", data,
             "--log-level", "warning"], env={**os.environ, "SANDBOX_TOKEN": ""})
        try:
            url = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=url, timeout=60) as client:
                for _ in range(600):
                    try:
                        if (await client.get("/healthz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.1)
                await _http_rows(client, port, server.pid, runs)
        finally:
            server.terminate()
            server.wait(timeout=30)


async def _http_rows(client: httpx.AsyncClient, port: int, pid: int, runs: int) -> None:
    """Latency and CPU per execute with each client (httpx, the raw socket), one request of
    each in turn; then throughput with 2 and 8 callers of each kind, the kinds alternating."""
    raw = RawClient(port)

    async def by_httpx() -> None:
        response = await client.post("/v1/execute", json={"code": "1 + 1"})
        assert response.json()["result"] == 2

    async def by_socket() -> None:
        status, answer = await raw.post("/v1/execute", {"code": "1 + 1"})
        assert status == 200 and answer["result"] == 2, answer

    ways: dict[str, Post] = {"httpx": by_httpx, "raw socket": by_socket}
    times = await interleaved(ways, runs)
    for name, taken in times.items():
        row(f"fresh execute of 1+1 over HTTP, {name} client (n={runs})",
            f"p50 {pct(taken, 50):.2f} / p99 {pct(taken, 99):.2f} ms", "p50 <= 3 ms")
    for name, way in ways.items():
        cpu_before, client_before = service_cpu(pid), time.process_time()
        for _ in range(runs):
            await way()
        cpu_after, client_after = service_cpu(pid), time.process_time()
        per = [(a - b) / runs * 1000 for a, b in zip(cpu_after, cpu_before)]
        row(f"CPU per execute, {name}: service / workers / client",
            f"{per[0]:.2f} / {per[1]:.2f} / {(client_after - client_before) / runs * 1000:.2f} ms")
    for callers in (2, 8):
        for name in ways:
            rate = await _throughput(client, port, name, callers, total=400)
            row(f"executes per second over HTTP, {callers} callers, {name}", f"{rate:.0f} /s",
                ">= 300 /s")
    await raw.close()


async def _throughput(client: httpx.AsyncClient, port: int, kind: str, callers: int,
                      total: int) -> float:
    queue = list(range(total))
    sockets = [RawClient(port) for _ in range(callers)]

    async def caller(index: int) -> None:
        while queue:
            queue.pop()
            if kind == "httpx":
                answer = (await client.post("/v1/execute", json={"code": "1 + 1"})).json()
            else:
                _status, answer = await sockets[index].post("/v1/execute", {"code": "1 + 1"})
            assert answer["result"] == 2, answer

    started = time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(callers)))
    rate = total / (time.perf_counter() - started)
    for raw in sockets:
        await raw.close()
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--skip-compile", action="store_true")
    parser.add_argument("--http-only", action="store_true", help="only the rows over HTTP")
    args = parser.parse_args()
    print(f"| {'measure':<60} | {'figure':>22} | {'target':<12} |")
    print(f"|{'-' * 62}|{'-' * 24}|{'-' * 14}|")
    if not args.http_only:
        if not args.skip_compile:
            measure_compile()
        measure_load()
        measure_phases(args.runs)
        asyncio.run(measure_api(args.runs, args.calls))
    asyncio.run(measure_http(args.runs))


if __name__ == "__main__":
    main()

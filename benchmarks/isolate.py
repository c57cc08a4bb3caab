"""Isolate benchmark: compile, load, fresh execute, host-call round trip, throughput.

    .venv/bin/python benchmarks/isolate.py [--runs 200] [--calls 10000] [--skip-compile]

Prints medians and percentiles; these machines are noisy, so compare ratios across runs
rather than single figures. Targets (2-core machine, worker hop included): p50 fresh
execute <= 5 ms through the Python API and <= 3 ms over HTTP; host-call round trip
<= 0.2 ms; >= 300 trivial executes per second over HTTP.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here cannot hide the package of its name (codemode.py) and ``measuring`` still imports.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import httpx

from sandbox import AsyncSandbox, Limits
from sandbox.build import ensure_component
from sandbox.engine import ensure_compiled, load_compiled, make_engine

from measuring import free_port, pct


def row(name: str, value: str, target: str = "") -> None:
    print(f"| {name:<46} | {value:>22} | {target:<12} |")


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
    page faults. ``print(1 + 1)`` and a small bash script over a directory."""
    import json
    import resource

    from sandbox.isolate import GuestRuntime, Preopen

    runtime = GuestRuntime(ensure_compiled(progress=lambda _m: None))
    with tempfile.TemporaryDirectory() as root:
        Path(root, "notes.txt").write_text("hello world\nsecond line\n")
        cases = {
            "print(1 + 1)": ("execute", json.dumps({"code": "print(1 + 1)", "namespaces": {}}), ()),
            "bash `wc -l notes.txt`": ("bash", json.dumps({"script": "wc -l notes.txt", "cwd": "/", "env": {},
                                                           "limits": {"timeout_ms": 10_000}}),
                                       (Preopen(root, "/"),)),
        }
        for name, (export, request, preopens) in cases.items():
            phases: dict[str, list[float]] = {"instantiate": [], "call": [], "drop": [], "faults": []}
            for n in range(runs + 10):
                started = time.thread_time()
                isolate = runtime.isolate(Limits.default, preopens)
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
        code = f"for i in range({calls}):\n    tools.add(i, 1)"
        baseline = await box.execute(f"for i in range({calls}):\n    (lambda a, b: a + b)(i, 1)",
                                     limits=Limits(max_host_calls=calls))
        outcome = await box.execute(code, limits=Limits(max_host_calls=calls, deadline_s=120))
        assert outcome.status == "completed", outcome
        per_call = (outcome.duration_ms - baseline.duration_ms) / calls
        row(f"host-call round trip (n={calls})", f"{per_call:.3f} ms", "<= 0.2 ms")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of ``pid`` so far (from /proc; Linux only)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the service process and of its worker processes."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return cpu_seconds(pid), sum(cpu_seconds(int(c)) for c in children)


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
                for _ in range(20):
                    await client.post("/v1/execute", json={"code": "1 + 1"})
                times = []
                cpu_before, client_before = service_cpu(server.pid), time.process_time()
                for _ in range(runs):
                    started = time.perf_counter()
                    response = await client.post("/v1/execute", json={"code": "1 + 1"})
                    times.append((time.perf_counter() - started) * 1000)
                    assert response.json()["result"] == 2
                cpu_after, client_after = service_cpu(server.pid), time.process_time()
                row(f"fresh execute of 1+1 over HTTP (n={runs})",
                    f"p50 {pct(times, 50):.2f} / p99 {pct(times, 99):.2f} ms", "p50 <= 3 ms")
                per = [(a - b) / runs * 1000 for a, b in zip(cpu_after, cpu_before)]
                row("CPU per execute: service / workers / client",
                    f"{per[0]:.2f} / {per[1]:.2f} / {(client_after - client_before) / runs * 1000:.2f} ms")
                for callers in (2, 8):
                    total = 400
                    queue = list(range(total))

                    async def caller() -> None:
                        while queue:
                            queue.pop()
                            response = await client.post("/v1/execute", json={"code": "1 + 1"})
                            assert response.json()["result"] == 2

                    started = time.perf_counter()
                    await asyncio.gather(*(caller() for _ in range(callers)))
                    rate = total / (time.perf_counter() - started)
                    row(f"executes per second over HTTP, {callers} callers", f"{rate:.0f} /s", ">= 300 /s")
        finally:
            server.terminate()
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--skip-compile", action="store_true")
    args = parser.parse_args()
    print(f"| {'measure':<46} | {'figure':>22} | {'target':<12} |")
    print(f"|{'-' * 48}|{'-' * 24}|{'-' * 14}|")
    if not args.skip_compile:
        measure_compile()
    measure_load()
    measure_phases(args.runs)
    asyncio.run(measure_api(args.runs, args.calls))
    asyncio.run(measure_http(args.runs))


if __name__ == "__main__":
    main()

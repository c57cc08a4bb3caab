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
- ``execute``: ``POST /v1/execute`` of ``x = 1`` (the Code Mode store is still each
  process's own SQLite file: this measures the isolate and the HTTP path, not PostgreSQL).

Each round runs ``--ops`` operations; printed per operation kind and process count: the
median rate over rounds (p25-p75), and CPU per operation of the service processes (their
workers included) and of the PostgreSQL server, read from ``/proc`` (the load generator's
own CPU is not counted, though it runs on the same cores).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import httpx  # noqa: E402

from service_processes import ServiceProcess, services  # noqa: E402

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
    args = parser.parse_args()
    from sandbox.engine import ensure_compiled

    ensure_compiled()  # into the shared cache, so no process compiles at start-up
    for url, directory in _cluster(args.database_url):
        for count in (1, 2):
            with tempfile.TemporaryDirectory(prefix="sandbox-scaleout-") as root:
                with services(count, url, Path(root)) as running:
                    os.environ["SANDBOX_TOKEN"] = running[0].env["SANDBOX_TOKEN"]
                    with running[0].client() as operator:
                        operator.put("/v1/workspaces/bench/files/seed.txt", content=b"seed")
                    asyncio.run(_measure(running, _postmaster_pid(directory), args))


if __name__ == "__main__":
    main()

"""Storage benchmarks: the cost of one statement and one workspace call on each backend.

    .venv/bin/python benchmarks/storage.py [--database-url postgresql://...] [--rounds N]

Without a URL a throwaway PostgreSQL cluster is started (``tests/pg_cluster.py``, the
machine's PostgreSQL) and removed after. Each scenario runs ``--rounds`` rounds of a fixed
number of calls; printed per call: the median over rounds (p25-p75 across rounds) of wall
time, and the process's CPU time (user + system, every thread, aiosqlite's included). The
PostgreSQL server's own CPU is not in it: it is another process (on this machine, the same
two cores). Scenarios: a point read by key, a one-row write transaction, a workspace file
write and a file read, and a Code Mode tool call's journal writes (the ``executing`` row,
then the ``applied`` row with its audit entry: the two transactions a fresh call with a side
effect costs, as ``codemode.calls`` writes them).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
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

import storage  # noqa: E402
from audit import appending  # noqa: E402
from codemode import journal  # noqa: E402
from codemode.auditing import ExecutionSubject  # noqa: E402
from codemode.records import ExecutionRecord, new_execution_id, now  # noqa: E402
from codemode.store import CodeModeStore  # noqa: E402
from workspace import WorkspaceStore  # noqa: E402

CALLS = 500
SCHEMA = [storage.Migration(
    1, ["CREATE TABLE bench (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"],
    ["CREATE TABLE bench (id BIGINT PRIMARY KEY, body TEXT NOT NULL)"])]


async def measure(name: str, rounds: int, once: Callable[[int], Awaitable[None]]) -> None:
    walls, cpus = [], []
    for r in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(CALLS):
            await once(r * CALLS + i)
        walls.append((time.perf_counter() - start) / CALLS * 1e6)
        cpus.append((time.process_time() - cpu) / CALLS * 1e6)
    q = statistics.quantiles(walls, n=4) if len(walls) > 1 else [walls[0]] * 3
    print(f"{name:<44} median {statistics.median(walls):8.0f} us wall (p25-p75 {q[0]:.0f}-{q[2]:.0f})"
          f"  {statistics.median(cpus):6.0f} us cpu  per call", flush=True)


async def bench(label: str, target: str, blob_dir: Path | None, rounds: int) -> None:
    db = await storage.open_database(target)
    try:
        await storage.apply_migrations(db, "bench", SCHEMA)
        async with db.transaction(write=True) as conn:
            await conn.executemany("INSERT INTO bench (id, body) VALUES (?, ?)",
                                   [(i, f"row {i}") for i in range(1000)])

        async def point_read(i: int) -> None:
            async with db.session() as conn:
                await conn.fetchone("SELECT body FROM bench WHERE id = ?", (i % 1000,))

        async def write_txn(i: int) -> None:
            async with db.transaction(write=True) as conn:
                await conn.execute("INSERT INTO bench (id, body) VALUES (?, ?)", (10_000 + i, "x"))

        await measure(f"{label}: point read (one statement)", rounds, point_read)
        await measure(f"{label}: write transaction (one insert)", rounds, write_txn)
    finally:
        await db.close()
    async with await WorkspaceStore.open(target, blob_dir) as store:
        ws = store.workspace("bench")

        async def write_file(i: int) -> None:
            await ws.write_file(f"/d{i % 50}/f{i}.txt", f"content {i}\n")

        async def read_file(i: int) -> None:
            await ws.read_file(f"/d{i % 50}/f{i}.txt")

        await measure(f"{label}: workspace write_file", rounds, write_file)
        await measure(f"{label}: workspace read_file", rounds, read_file)
    await journal_bench(label, target, rounds)


async def journal_bench(label: str, target: str, rounds: int) -> None:
    """One tool call's journal: the executing row, then applied with its audit entry."""
    async with await CodeModeStore.open(target) as store:
        record = ExecutionRecord(id=new_execution_id(), workspace="bench", code="tools.x()")
        await store.create_execution(record)
        subject = ExecutionSubject.of(record)

        async def call(seq: int) -> None:
            entry = journal.make_entry(record.id, seq, "tools", "create_item", {"title": f"t{seq}"})
            await store.run(journal.appending, entry, True)

            def applied() -> storage.Body[None]:
                yield from appending([subject.call(seq, "tools", "create_item", entry.args,
                                                   idempotency_key=f"{record.id}:{seq}",
                                                   outcome="applied")], now())
                yield from journal.settling(record.id, seq, state="applied",
                                            result={"id": seq}, path=entry.path)

            await store.run(applied)

        await measure(f"{label}: journal per tool call (2 txns)", rounds, call)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: a throwaway cluster)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    cluster = None
    url = args.database_url
    if url is None:
        from pg_cluster import start_cluster

        cluster = start_cluster()
        url = cluster.url
    try:
        with tempfile.TemporaryDirectory() as tmp:
            await bench("sqlite", str(Path(tmp) / "bench.db"), Path(tmp) / "blobs", args.rounds)
            await bench("postgresql", url, None, args.rounds)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    asyncio.run(main())

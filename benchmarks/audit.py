"""Audit log benchmark: what the audit append adds to an execution, and verify throughput.

    .venv/bin/python benchmarks/audit.py [--pairs 300] [--entries 1000000]

1. **Added cost per execution.** Real executions (``Executions.start`` over real isolates
   and the real store, in process) alternate between the audit trail on and off, in pairs,
   in the same run; the cost is the median of the per-pair differences, with the spread
   of those differences. "Off" is Code Mode without its appends (``StoreTransaction.audit``
   a no-op and the start's INSERT on its own again); the end of a run stays one
   transaction either way. The same comparison on the store operations alone (create,
   finish and retention of an execution, no isolate) is printed too: it has far less noise.
2. **Verify throughput.** A log of ``--entries`` entries is written straight into a fresh
   SQLite file (rows hashed as ``audit.append`` hashes them), then ``verify_database`` reads
   it three times; the median rate is printed.

Targets on this 2-core machine: <= 0.2 ms per execution, verify >= 200,000 entries/s.
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
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from audit import GENESIS, AuditEvent, canonical_json, entry_hash, migrate, verify_database
from codemode import CodeModeStore, ExecuteOptions, ExecutionPlan, ExecutionRecord, Executions
from codemode import ExecutionSubject, RunEnd, StoreTransaction, new_execution_id
from codemode import calls as codemode_calls
from codemode import store as codemode_store
from sandbox import AsyncSandbox
import storage
from storage import Body
from workspace import WorkspaceStore

from benchmarks.measuring import pct


def row(name: str, value: str, target: str = "") -> None:
    print(f"| {name:<52} | {value:>30} | {target:<18} |")


@contextmanager
def audit_off() -> Iterator[None]:
    """Code Mode as it would be without the audit trail (for the comparison only): every
    append, on the event loop or on the database's thread, does nothing (the execution's
    events in the store and the call records' events in the handler alike)."""
    original_audit = StoreTransaction.audit
    appenders = (codemode_store, codemode_calls)
    originals = [getattr(module, "appending") for module in appenders]

    async def no_audit(self: StoreTransaction, *events: AuditEvent) -> None:
        return None

    def no_append(events: Any, at: float) -> Body[list[int]]:
        return []
        yield  # a body that issues no statement

    StoreTransaction.audit = no_audit  # type: ignore[method-assign]
    for module in appenders:
        setattr(module, "appending", no_append)
    try:
        yield
    finally:
        StoreTransaction.audit = original_audit  # type: ignore[method-assign]
        for module, original in zip(appenders, originals):
            setattr(module, "appending", original)


async def paired(pairs: int, once: Callable[[], Awaitable[None]]) -> tuple[list[float], list[float]]:
    """Time ``once`` with the audit on and off, alternating which goes first in each pair."""
    on: list[float] = []
    off: list[float] = []
    for i in range(pairs):
        for audited in ((True, False) if i % 2 == 0 else (False, True)):
            started = time.perf_counter()
            if audited:
                await once()
            else:
                with audit_off():
                    await once()
            (on if audited else off).append((time.perf_counter() - started) * 1000)
    return on, off


def report(name: str, on: list[float], off: list[float]) -> float:
    diffs = [a - b for a, b in zip(on, off)]
    added = statistics.median(diffs)
    row(f"{name}: with audit, median (p10-p90)", f"{statistics.median(on):.3f} ms "
        f"({pct(on, 10):.3f}-{pct(on, 90):.3f})")
    row(f"{name}: without, median (p10-p90)", f"{statistics.median(off):.3f} ms "
        f"({pct(off, 10):.3f}-{pct(off, 90):.3f})")
    row(f"{name}: added per execution, median (p25-p75)",
        f"{added:.3f} ms ({pct(diffs, 25):.3f}-{pct(diffs, 75):.3f})", "<= 0.2 ms")
    return added


async def execution_cost(data: Path, pairs: int) -> None:
    sandbox = AsyncSandbox(workers=2)
    await sandbox.start()
    store = await CodeModeStore.open(data / "sandbox.db")
    workspaces = await WorkspaceStore.open(data / "sandbox.db", data / "blobs")
    http = httpx.AsyncClient()
    executions = Executions(sandbox, store, workspaces, http)
    plan = ExecutionPlan.build([], [])
    try:
        async def execute() -> None:
            outcome = await executions.start(ExecuteOptions(code="1 + 1"), plan)
            assert outcome["status"] == "completed", outcome

        for _ in range(20):  # warm the workers and the connection
            await execute()
        on, off = await paired(pairs, execute)
        report("execute '1 + 1' end to end", on, off)

        async def store_only() -> None:  # what Executions.start does around the isolate
            record = ExecutionRecord(id=new_execution_id(), workspace="bench", code="1 + 1")
            subject = ExecutionSubject.of(record)
            await store.create_execution(record, audit=[subject.started(record)], keep=50)
            await store.end_run(RunEnd(
                execution_id=record.id, status="completed", result=2, error=None, logs=[],
                audit=subject.finished("completed", None, 0)))

        on, off = await paired(pairs * 3, store_only)
        report("the store alone (create, finish, retention)", on, off)
    finally:
        await http.aclose()
        await workspaces.close()
        await store.close()
        await sandbox.close()


def write_log(path: Path, entries: int) -> float:
    """Fill a fresh audit log with ``entries`` hashed rows; seconds it took."""
    started = time.perf_counter()

    async def tables() -> None:
        db = await storage.open_database(path)
        try:
            await migrate(db)
        finally:
            await db.close()

    asyncio.run(tables())
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    prev = GENESIS
    batch: list[tuple[Any, ...]] = []
    conn.execute("BEGIN")
    for seq in range(1, entries + 1):
        subject = canonical_json({"execution_id": f"exec_{seq // 4:012d}", "workspace": "default"})
        body = canonical_json({"status": "completed", "error": None, "calls": seq % 7})
        at = 1_700_000_000.0 + seq / 1000
        row_hash = entry_hash(prev, seq, at, "default", "agent-1", "execution.finished",
                              subject, body)
        batch.append((seq, at, "default", "agent-1", "execution.finished", subject, body,
                      prev, row_hash))
        prev = row_hash
        if len(batch) == 50_000:
            conn.executemany("INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
            batch.clear()
    conn.executemany("INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return time.perf_counter() - started


def verify_rate(data: Path, entries: int) -> None:
    path = data / "verify.db"
    seconds = write_log(path, entries)
    row("writing the log (hash and insert)", f"{entries / seconds:,.0f} entries/s")
    rates, cpu_rates = [], []
    for _ in range(3):
        started, cpu = time.perf_counter(), time.process_time()
        result = verify_database(path)
        elapsed, cpu_used = time.perf_counter() - started, time.process_time() - cpu
        assert result.ok and result.count == entries, result
        rates.append(entries / elapsed)
        cpu_rates.append(entries / cpu_used)
    row(f"verify {entries:,} entries, median of 3 (min-max)",
        f"{statistics.median(rates):,.0f}/s ({min(rates):,.0f}-{max(rates):,.0f})",
        ">= 200,000/s")
    # On a shared machine the wall rate is what the CPU left us; per CPU second is the code's.
    row("verify, entries per CPU second, median of 3", f"{statistics.median(cpu_rates):,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=300, help="alternating pairs of executions")
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries in the verified log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        row("measure", "value", "target")
        asyncio.run(execution_cost(data, args.pairs))
        verify_rate(data, args.entries)


if __name__ == "__main__":
    main()

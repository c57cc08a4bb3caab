"""Concurrent writers keep the chain gap-free: many connections in one process, and two
processes on one database, on each backend."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import storage
from audit import AuditEvent, AuditLog, append, migrate

ROOT = Path(__file__).resolve().parents[2]


async def test_many_executions_appending_on_their_own_connections_stay_gap_free(
        database: str, log: AuditLog) -> None:
    # Code Mode appends inside transactions under its own lock names, the service under the
    # audit's: the append's own lock keeps them from forking the chain.
    async def writer(n: int) -> None:
        db = await storage.open_database(database)
        try:
            for i in range(20):
                async with db.transaction(write=True, lock=f"codemode:{n}") as conn:
                    await append(conn, [AuditEvent("acme", f"w{n}", "execution.started",
                                                   {"execution_id": f"e{n}-{i}"})], at=float(i))
                await asyncio.sleep(0)
        finally:
            await db.close()

    await asyncio.gather(*(writer(n) for n in range(8)), log.record(
        [AuditEvent("acme", "service", "toolset.put")] * 10))
    report = await log.verify()
    assert report.ok and report.count == 170


_CHILD = """
import asyncio, sys
from audit import AuditEvent, AuditLog
async def main():
    log = await AuditLog.open(sys.argv[1])
    for i in range(150):
        await log.record([AuditEvent("acme", sys.argv[2], "execution.started", {"n": str(i)})])
    await log.close()
asyncio.run(main())
"""


async def test_two_processes_on_one_database_stay_gap_free(database: str, log: AuditLog) -> None:
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, database, name],
                                 cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
                for name in ("p1", "p2")]
    await asyncio.gather(*(asyncio.to_thread(child.wait) for child in children))
    assert [child.returncode for child in children] == [0, 0]
    report = await log.verify()
    assert report.ok and report.count == 300
    principals = {e.principal for e in await log.query(limit=1000)}
    assert principals == {"p1", "p2"}


async def test_migrating_twice_is_harmless(database: str) -> None:
    db = await storage.open_database(database)
    try:
        assert await migrate(db) == 1
        assert await migrate(db) == 1
    finally:
        await db.close()

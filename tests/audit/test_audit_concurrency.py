"""Concurrent writers keep the chain gap-free: many connections in one process, and two
processes on one file."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import aiosqlite

from audit import AuditEvent, AuditLog, append, migrate
from workspace import configure_connection

ROOT = Path(__file__).resolve().parents[2]


async def test_many_executions_appending_on_their_own_connections_stay_gap_free(
        log: AuditLog) -> None:
    async def writer(n: int) -> None:
        async with aiosqlite.connect(log.path, isolation_level=None) as conn:
            await configure_connection(conn)
            for i in range(20):
                await conn.execute("BEGIN IMMEDIATE")
                await append(conn, [AuditEvent("acme", f"w{n}", "execution.started",
                                               {"execution_id": f"e{n}-{i}"})], at=float(i))
                await conn.commit()
                await asyncio.sleep(0)

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


async def test_two_processes_on_one_file_stay_gap_free(log: AuditLog) -> None:
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(log.path), name],
                                 cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
                for name in ("p1", "p2")]
    await asyncio.gather(*(asyncio.to_thread(child.wait) for child in children))
    assert [child.returncode for child in children] == [0, 0]
    report = await log.verify()
    assert report.ok and report.count == 300
    principals = {e.principal for e in await log.query(limit=1000)}
    assert principals == {"p1", "p2"}


async def test_migrating_twice_is_harmless(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "s.db", isolation_level=None) as conn:
        assert await migrate(conn) == 1
        assert await migrate(conn) == 1

"""Sweeps that take over parked or abandoned executions, with several processes on one
database: each execution is resumed by exactly one of them.

On PostgreSQL the sweep picks its rows with ``FOR UPDATE SKIP LOCKED`` (a row another
sweeper holds is passed over, not waited for); on SQLite its one writer makes the same
pick a compare-and-set. Two real ``sandbox serve`` processes sweeping at once over twenty
parked executions whose decisions are recorded split them without overlap.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

from agent_host import AgentHost, ServerThread
from codemode.records import ExecutionRecord, new_execution_id
from codemode.store import CodeModeStore
from sandbox.engine import CompiledGuest
from service_processes import services, shared_environment

STALE = "status = 'running' AND (lease_until IS NULL OR lease_until < ?)"


def _abandoned(n: int) -> list[ExecutionRecord]:
    return [ExecutionRecord(id=new_execution_id(), workspace=f"w{i}", code="1", status="running",
                            owner="elsewhere:1:gone", lease_until=1.0) for i in range(n)]


async def test_a_claim_takes_each_stale_execution_once_and_leaves_live_leases(database: str) -> None:
    store = await CodeModeStore.open(database)
    try:
        stale = _abandoned(3)
        live = ExecutionRecord(id=new_execution_id(), workspace="w", code="1", status="running",
                               owner="elsewhere:1:busy", lease_until=time.time() + 3600)
        for record in [*stale, live]:
            await store.create_execution(record)
        first = await store.claim_due(STALE, [time.time()], owner="me", lease_of=lambda r: 5e9)
        again = await store.claim_due(STALE, [time.time()], owner="you", lease_of=lambda r: 5e9)
        assert first == [r.id for r in stale] and again == []
        taken = await store.get_execution(stale[0].id, with_journal=False)
        assert taken is not None and (taken.owner, taken.lease_until, taken.attempts) == ("me", 5e9, 1)
        kept = await store.get_execution(live.id, with_journal=False)
        assert kept is not None and kept.owner == "elsewhere:1:busy"
    finally:
        await store.close()


@pytest.mark.postgres
async def test_on_postgresql_a_claim_passes_over_rows_another_sweeper_holds(postgres_url: str) -> None:
    store = await CodeModeStore.open(postgres_url)
    holder = await asyncpg.connect(postgres_url)
    try:
        records = _abandoned(3)
        for record in records:
            await store.create_execution(record)
        async with holder.transaction():
            # Another process is mid-way through taking the oldest one over.
            await holder.execute("SELECT id FROM codemode_executions WHERE id = $1 FOR UPDATE",
                                 records[0].id)
            taken = await asyncio.wait_for(
                store.claim_due(STALE, [time.time()], owner="me", lease_of=lambda r: 5e9), 10)
        assert taken == [r.id for r in records[1:]]
        assert await store.claim_due(STALE, [time.time()], owner="me",
                                     lease_of=lambda r: 5e9) == [records[0].id]
    finally:
        await holder.close()
        await store.close()


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_sweeping_at_once_resume_each_decided_execution_exactly_once(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest  # compiled into the shared cache before the processes start
    secret = shared_environment(postgres_url, tmp_path)["SANDBOX_INLINE_TOOL_SECRET"]
    host = AgentHost([secret])
    count = 20
    with ServerThread(host) as endpoint, services(
            2, postgres_url, tmp_path, env={**shared_environment(postgres_url, tmp_path / "blobs"),
                                            "SANDBOX_SWEEP_INTERVAL_S": "0"}) as (a, b):
        tools = host.tools(endpoint.url, create_item={"approval": {"mode": "durable"}})
        with a.client() as on_a, b.client() as on_b:
            parked = [on_a.post("/v1/execute", json={
                "code": f"tools.create_item(title='swept-{n}')['title']", "tools": tools,
                "workspace": f"swept-{n}"}).json() for n in range(count)]
            assert all(p["status"] == "paused" for p in parked), parked
            # The decisions are on record but nobody resumed the runs (a process died
            # between the two, under an older version): the sweeps find them.
            asyncio.run(_record_approvals(postgres_url, [p["pending"][0]["approval_id"] for p in parked]))
            with ThreadPoolExecutor(4) as pool:
                swept = list(pool.map(lambda c: c.post("/v1/executions/sweep").json()["recovered"],
                                      [on_a, on_b, on_a, on_b]))
            taken = [execution for recovered in swept for execution in recovered]
            assert sorted(taken) == sorted(p["execution_id"] for p in parked), swept
            deadline = time.monotonic() + 60
            for p in parked:
                while (status := on_b.get(f"/v1/executions/{p['execution_id']}").json()["status"]) \
                        not in ("completed", "error") and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert status == "completed", p
    assert host.effect_count() == count and len(host.calls) == count


async def _record_approvals(url: str, approval_ids: list[str]) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE codemode_approvals SET status = 'approved', decided_by = 'test'"
                           " WHERE id = ANY($1::text[])", approval_ids)
    finally:
        await conn.close()

"""One service process on PostgreSQL holds one pool for all its stores: under load it never
has more connections than ``SANDBOX_DATABASE_POOL_SIZE``, plus the one that listens for
events (counted in the server's own ``pg_stat_activity``)."""

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

from pg_cluster import Cluster
from sandbox.engine import CompiledGuest
from service_processes import ServiceProcess, shared_environment

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

POOL_SIZE = 3


async def _connections(cluster: Cluster, name: str) -> tuple[int, int]:
    """The pool's connections (by their application name) and listening ones."""
    conn = await asyncpg.connect(cluster.url)
    try:
        pooled = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", name)
        listening = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'sandbox-listen'")
    finally:
        await conn.close()
    return int(pooled), int(listening)


def test_every_store_of_a_process_shares_one_pool_of_the_configured_size(
    postgres_url: str, postgres_cluster: Cluster, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest  # compiled into the shared cache before the process starts
    name = f"pool-{uuid.uuid4().hex[:12]}"
    env = {**shared_environment(f"{postgres_url}&application_name={name}", tmp_path / "blobs"),
           "SANDBOX_DATABASE_POOL_SIZE": str(POOL_SIZE)}
    service = ServiceProcess("pooled", tmp_path / "data", env)
    service.launch()
    try:
        service.wait_ready()
        # Workspaces, tokens, Code Mode, the audit log and the event relay are all open:
        # with a pool each (each opening one at start), five connections would be held now.
        pooled, listening = asyncio.run(_connections(postgres_cluster, name))
        assert 1 <= pooled <= POOL_SIZE and listening == 1, (pooled, listening)

        def work(n: int) -> int:
            with service.client() as client:
                for i in range(5):
                    assert client.put(f"/v1/workspaces/w{n}/files/f{i}.txt",
                                      content=b"x" * 100).status_code in (200, 201)
                    assert client.post("/v1/execute", json={
                        "code": "1 + 1", "workspace": f"w{n}"}).status_code == 200
                return n

        with ThreadPoolExecutor(8) as pool:
            assert sorted(pool.map(work, range(8))) == list(range(8))
        pooled, listening = asyncio.run(_connections(postgres_cluster, name))
        assert 1 <= pooled <= POOL_SIZE and listening == 1, (pooled, listening)
    finally:
        service.stop()

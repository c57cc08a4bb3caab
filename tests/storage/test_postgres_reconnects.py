"""Lost PostgreSQL connections (``storage.postgres``): a backend killed in the middle of a
transaction, every connection dropped at once, and the server restarted under load. Each
is a ``StorageError`` (503 in the service) for the operation it hit, the next operation gets
a fresh connection, and closing never waits on a dead one.

Every test here runs under a hard deadline (``asyncio.timeout``): the bug these guard
against was a hang, and a hang must fail the test rather than the suite.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import asyncpg
import httpx
import pytest

import storage
from pg_cluster import Cluster, start_cluster
from route_helpers import error_of, route_client
from storage_helpers import migrated
from sandbox.service.routes import workspaces
from workspace import WorkspaceStore

pytestmark = pytest.mark.postgres

DEADLINE_S = 60
SCHEMA = [storage.Migration(
    1,
    ["CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"],
    ["CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL)"],
)]


@pytest.fixture
async def db(postgres_url: str) -> AsyncIterator[storage.Database]:
    async with migrated(postgres_url, SCHEMA, close_within_s=DEADLINE_S) as d:
        yield d


async def _terminate_others(url: str) -> int:
    """End every session on the test's database but this one, as a server restart would."""
    admin = await asyncpg.connect(url)
    try:
        return len(await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE pid <> pg_backend_pid() AND datname = current_database()"))
    finally:
        await admin.close()


async def test_a_backend_killed_mid_transaction_is_a_storage_error_and_the_next_operation_succeeds(
    db: storage.Database,
) -> None:
    # Several rounds: whether asyncpg reads the server's goodbye before or during the next
    # statement is a race, and each way once left the pool waiting forever on close.
    async with asyncio.timeout(DEADLINE_S):
        for round_ in range(6):
            with pytest.raises(storage.StorageError, match="connection"):
                async with db.transaction(write=True) as conn:
                    await conn.execute("INSERT INTO things (id, name) VALUES (?, 'lost')", (round_,))
                    found = await conn.fetchone("SELECT pg_backend_pid()")
                    assert found is not None
                    async with db.session() as other:
                        await other.execute("SELECT pg_terminate_backend(?)", (found[0],))
                        if round_ % 2:  # the goodbye sent before the next statement
                            while await other.fetchone("SELECT 1 FROM pg_stat_activity WHERE pid = ?",
                                                       (found[0],)):
                                await asyncio.sleep(0.01)
                    await conn.execute("INSERT INTO things (id, name) VALUES (?, 'lost')", (100 + round_,))
            async with db.transaction(write=True) as conn:
                await conn.execute("INSERT INTO things (id, name) VALUES (?, 'kept')", (1000 + round_,))
        async with db.transaction(write=False) as conn:
            rows = await conn.fetchall("SELECT id, name FROM things ORDER BY id")
        assert [tuple(r) for r in rows] == [(1000 + i, "kept") for i in range(6)]


async def test_after_every_connection_is_dropped_each_failure_is_a_storage_error_and_the_pool_recovers(
    db: storage.Database, postgres_url: str,
) -> None:
    async with asyncio.timeout(DEADLINE_S):
        # Fill the pool with several idle connections, then drop them all at once.
        async def hold() -> None:
            async with db.transaction(write=False) as conn:
                await conn.fetchone("SELECT pg_sleep(0.05)")
        await asyncio.gather(*(hold() for _ in range(4)))
        assert await _terminate_others(postgres_url) >= 4
        failures = 0
        for attempt in range(10):
            try:
                async with db.transaction(write=True) as conn:
                    await conn.execute("INSERT INTO things (id, name) VALUES (?, 'after')", (attempt,))
                break
            except storage.StorageError as exc:
                assert "connection" in str(exc)
                failures += 1
        # Each dead connection fails at most the one operation that found it.
        assert failures <= 4
        async with db.transaction(write=False) as conn:
            assert await conn.fetchone("SELECT count(*) FROM things") == (1,)


async def test_after_the_database_drops_its_connections_no_request_is_a_500_and_data_comes_back(
    postgres_url: str,
) -> None:
    async with asyncio.timeout(DEADLINE_S):
        async with await WorkspaceStore.open(postgres_url, None) as store:
            async with route_client(workspaces.router, workspaces=store) as client:
                put = await client.put("/v1/workspaces/w/files/a.txt", content=b"kept")
                assert put.status_code == 201
                assert await _terminate_others(postgres_url) >= 1
                # A connection the pool has already seen close is replaced; one it has not
                # yet seen fails its statement: a 503 the client may retry, never a 500.
                first = await client.get("/v1/workspaces/w/files/a.txt")
                if first.status_code != 200:
                    assert first.status_code == 503 and error_of(first)["code"] == "database_unavailable"
                again = await client.get("/v1/workspaces/w/files/a.txt")
                assert (again.status_code, again.content) == (200, b"kept")


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of the test's own, so restarting it disturbs no other test."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


async def _server_started(url: str) -> float:
    conn = await asyncpg.connect(url)
    try:
        return float(await conn.fetchval("SELECT extract(epoch from pg_postmaster_start_time())"))
    finally:
        await conn.close()


async def _write_until_acknowledged(client: httpx.AsyncClient, path: str, body: bytes) -> int:
    """PUT until the service acknowledges it, as a client behind a load balancer retries a
    503; the number of 503s seen. Any other answer fails the test."""
    unavailable = 0
    while True:
        response = await client.put(f"/v1/workspaces/w/files/{path}", content=body)
        if response.status_code in (200, 201):
            return unavailable
        assert response.status_code == 503, response.text
        assert error_of(response)["code"] == "database_unavailable"
        unavailable += 1
        await asyncio.sleep(0.05)


async def test_the_database_restarted_under_load_loses_no_acknowledged_write(own_cluster: Cluster) -> None:
    async with asyncio.timeout(DEADLINE_S * 2):
        async with await WorkspaceStore.open(own_cluster.url, None) as store:
            async with route_client(workspaces.router, workspaces=store) as client:
                acknowledged: list[str] = []
                restarted = asyncio.Event()

                async def writer(n: int) -> None:
                    # Keeps writing until the restart is over and a few more writes made it.
                    i = 0
                    while not restarted.is_set() or i < 5:
                        path = f"w{n}/{i}.txt"
                        await _write_until_acknowledged(client, path, f"{n}:{i}".encode())
                        acknowledged.append(path)
                        i += 1

                started = await _server_started(own_cluster.url)
                writers = [asyncio.create_task(writer(n)) for n in range(4)]
                while len(acknowledged) < 20:  # under load before the restart
                    await asyncio.sleep(0.01)
                await asyncio.to_thread(own_cluster.restart)
                restarted.set()
                await asyncio.gather(*writers)
                assert await _server_started(own_cluster.url) > started  # it did restart
                for path in acknowledged:
                    got = await client.get(f"/v1/workspaces/w/files/{path}")
                    n, i = path.removeprefix("w").removesuffix(".txt").split("/")
                    assert (got.status_code, got.content) == (200, f"{n}:{i}".encode()), path

"""The storage seam (``storage``): the same statements, transactions, errors and write locks
on SQLite and on PostgreSQL, each test run against both real backends."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

import storage
from storage.postgres import lock_key, positional
from storage_helpers import migrated

SCHEMA = [storage.Migration(
    1,
    ["CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER NOT NULL DEFAULT 0, data BLOB)"],
    ["CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, n BIGINT NOT NULL DEFAULT 0, data BYTEA)"],
)]


@pytest.fixture
async def db(database: str) -> AsyncIterator[storage.Database]:
    async with migrated(database, SCHEMA) as d:
        yield d


def test_placeholders_outside_quotes_become_numbered_ones() -> None:
    assert positional("SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?)") == \
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3)"


def test_lock_names_map_to_stable_distinct_64_bit_keys() -> None:
    keys = {lock_key(f"workspace:{i}") for i in range(1000)}
    assert len(keys) == 1000 and all(-(2**63) <= k < 2**63 for k in keys)
    assert lock_key("workspace:a") == lock_key("workspace:a")


async def test_statements_return_rows_and_counts(db: storage.Database) -> None:
    async with db.transaction(write=True) as conn:
        await conn.executemany("INSERT INTO things (id, name, data) VALUES (?, ?, ?)",
                               [(1, "a", b"\x00\xff"), (2, "b", None), (3, "c", b"")])
        assert await conn.execute("UPDATE things SET n = n + 1 WHERE id >= ?", (2,)) == 2
        assert await conn.execute("UPDATE things SET n = 5 WHERE id = ?", (99,)) == 0
        inserted = await conn.fetchone(
            "INSERT INTO things (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id", (4, "d"))
        assert inserted is not None and inserted[0] == 4
        assert await conn.fetchone(
            "INSERT INTO things (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id", (4, "d")) is None
    async with db.transaction(write=False) as conn:
        rows = await conn.fetchall("SELECT id, name, n, data FROM things ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, "a", 0, b"\x00\xff"), (2, "b", 1, None), (3, "c", 1, b""), (4, "d", 0, None)]
        assert await conn.fetchone("SELECT id FROM things WHERE name = ?", ("zz",)) is None


async def test_a_constraint_violation_is_an_integrity_error_and_nothing_of_it_stays(db: storage.Database) -> None:
    with pytest.raises(storage.IntegrityError):
        async with db.transaction(write=True) as conn:
            await conn.execute("INSERT INTO things (id, name) VALUES (?, ?)", (1, "a"))
            await conn.execute("INSERT INTO things (id, name) VALUES (?, ?)", (2, "a"))
    async with db.transaction(write=False, consistent=False) as conn:
        assert await conn.fetchall("SELECT id FROM things") == []


async def test_a_body_that_raises_rolls_its_transaction_back(db: storage.Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction(write=True) as conn:
            await conn.execute("INSERT INTO things (id, name) VALUES (?, ?)", (1, "a"))
            raise RuntimeError("abandon")
    async with db.transaction(write=False) as conn:
        assert await conn.fetchall("SELECT id FROM things") == []
    async with db.session() as session:
        assert await session.rollback() is False  # no transaction was left open


async def test_a_consistent_read_sees_one_snapshot_while_another_connection_commits(
    database: str, db: storage.Database
) -> None:
    async with db.transaction(write=True) as conn:
        await conn.execute("INSERT INTO things (id, name) VALUES (?, ?)", (1, "a"))
    other = await storage.open_database(database)
    try:
        async with db.transaction(write=False) as reader:
            assert len(await reader.fetchall("SELECT id FROM things")) == 1
            async with other.transaction(write=True) as writer:
                await writer.execute("INSERT INTO things (id, name) VALUES (?, ?)", (2, "b"))
            assert len(await reader.fetchall("SELECT id FROM things")) == 1
        async with db.transaction(write=False, consistent=False) as fresh:
            assert len(await fresh.fetchall("SELECT id FROM things")) == 2
    finally:
        await other.close()


async def test_writers_of_one_lock_on_two_connections_lose_no_update(database: str, db: storage.Database) -> None:
    async with db.transaction(write=True) as conn:
        await conn.execute("INSERT INTO things (id, name, n) VALUES (1, 'counter', 0)")
    other = await storage.open_database(database)

    async def increment(on: storage.Database) -> None:
        async with on.transaction(write=True, lock="counter") as conn:
            found = await conn.fetchone("SELECT n FROM things WHERE id = 1")
            assert found is not None
            await asyncio.sleep(0)  # let the other writer run, were it not locked out
            await conn.execute("UPDATE things SET n = ? WHERE id = 1", (int(found[0]) + 1,))

    try:
        await asyncio.gather(*(increment(db if i % 2 else other) for i in range(20)))
    finally:
        await other.close()
    async with db.transaction(write=False) as conn:
        assert await conn.fetchone("SELECT n FROM things WHERE id = 1") == (20,)


async def test_postgresql_write_locks_are_per_name(postgres_url: str) -> None:
    one = await storage.open_database(postgres_url)
    two = await storage.open_database(postgres_url)
    try:
        await storage.apply_migrations(one, "test", SCHEMA)
        async with one.transaction(write=True, lock="workspace:a"):
            # Another name is free while "workspace:a" is held...
            async with two.transaction(write=True, lock="workspace:b") as conn:
                await conn.execute("INSERT INTO things (id, name) VALUES (1, 'b')")
            # ...and the same name waits for it: the waiter shows in pg_locks, not granted.
            waiter = asyncio.create_task(_write_under(two, "workspace:a"))
            async with one.session() as probe:
                while not await probe.fetchone(
                        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"):
                    assert not waiter.done()
                    await asyncio.sleep(0.01)
            assert not waiter.done()
        await waiter
    finally:
        await one.close()
        await two.close()


async def _write_under(db: storage.Database, lock: str) -> None:
    async with db.transaction(write=True, lock=lock) as conn:
        await conn.execute("INSERT INTO things (id, name) VALUES (2, 'a')")


async def test_a_closed_database_refuses_sessions(db: storage.Database) -> None:
    await db.close()
    with pytest.raises(storage.StorageError, match="closed"):
        async with db.session():
            pass


async def test_the_url_never_shows_a_password(postgres_url: str) -> None:
    with_password = postgres_url.replace("postgres@", "postgres:secret@")
    db = await storage.open_database(with_password)  # trust auth: the password is unused
    try:
        assert "secret" not in db.url and "postgres:***@" in db.url
    finally:
        await db.close()


async def test_an_unreachable_server_is_a_storage_error() -> None:
    with pytest.raises(storage.StorageError, match="could not connect"):
        await storage.open_database("postgresql://nobody@127.0.0.1:1/none")


async def test_on_thread_runs_a_whole_transaction_in_one_hop_on_the_connections_thread(
        tmp_path: Path) -> None:
    # on_thread leans on aiosqlite's private _execute and _conn; an upgrade that moves
    # them must fail here, not in production.
    conn = await aiosqlite.connect(tmp_path / "t.db", isolation_level=None)
    try:
        await conn.execute("CREATE TABLE t (v INTEGER)")

        def two_rows(db: sqlite3.Connection, first: int) -> int:
            db.execute("INSERT INTO t VALUES (?)", (first,))
            db.execute("INSERT INTO t VALUES (?)", (first + 1,))
            return int(db.execute("SELECT count(*) FROM t").fetchone()[0])

        assert await storage.on_thread(conn, storage.immediately, two_rows, 1) == 2
        assert not conn.in_transaction

        def half_then_fail(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO t VALUES (9)")
            raise RuntimeError("second statement failed")

        with pytest.raises(RuntimeError):
            await storage.on_thread(conn, storage.immediately, half_then_fail)
        async with conn.execute("SELECT v FROM t ORDER BY v") as cur:
            assert [r[0] for r in await cur.fetchall()] == [1, 2]  # nothing of the failed one
    finally:
        await conn.close()


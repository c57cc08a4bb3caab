"""Schema and migrations: versioned per component, the same versions on both backends, and a
failing version leaves no trace; the legacy SQLite-only runner still serves its stores."""

from pathlib import Path

import aiosqlite
import pytest

import storage
from workspace import WorkspaceStore, apply_migrations
from workspace.schema import WORKSPACE_MIGRATIONS


async def _recorded(database: str) -> list[tuple[str, int]]:
    db = await storage.open_database(database)
    try:
        async with db.transaction(write=False) as conn:
            rows = await conn.fetchall(
                "SELECT component, version FROM schema_migrations ORDER BY component, version")
    finally:
        await db.close()
    return [(r[0], int(r[1])) for r in rows]


async def test_open_records_each_workspace_migration_once(database: str, tmp_path: Path) -> None:
    for _ in range(2):  # reopening applies nothing twice
        async with await WorkspaceStore.open(database, tmp_path / "blobs"):
            pass
    assert await _recorded(database) == [("workspace", m.version) for m in WORKSPACE_MIGRATIONS]


async def test_a_sqlite_database_is_created_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "nested" / "sandbox.db"
    async with await WorkspaceStore.open(db, tmp_path / "blobs"):
        pass
    async with aiosqlite.connect(db) as conn:
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert await cur.fetchone() == ("wal",)


async def test_another_component_adds_its_own_versioned_tables(database: str) -> None:
    async with await WorkspaceStore.open(database, None):
        pass
    migrations = [
        storage.Migration(1, ["CREATE TABLE other_things (id INTEGER PRIMARY KEY)"],
                          ["CREATE TABLE other_things (id BIGINT PRIMARY KEY)"]),
        storage.Migration(2, ["ALTER TABLE other_things ADD note TEXT"],
                          ["ALTER TABLE other_things ADD note TEXT"]),
    ]
    db = await storage.open_database(database)
    try:
        assert await storage.apply_migrations(db, "other", migrations) == 2
        assert await storage.apply_migrations(db, "other", migrations) == 2
    finally:
        await db.close()
    assert [r for r in await _recorded(database) if r[0] == "other"] == [("other", 1), ("other", 2)]


async def test_a_failing_migration_leaves_no_trace(database: str) -> None:
    broken = [storage.Migration(1, ["CREATE TABLE half (id INTEGER)", "THIS IS NOT SQL"],
                                ["CREATE TABLE half (id INTEGER)", "THIS IS NOT SQL"])]
    db = await storage.open_database(database)
    try:
        with pytest.raises(Exception, match="syntax error"):
            await storage.apply_migrations(db, "broken", broken)
        async with db.transaction(write=False) as conn:
            # The table "half" would be found by a SELECT had its CREATE survived.
            with pytest.raises(Exception, match="half"):
                await conn.fetchall("SELECT * FROM half")
    finally:
        await db.close()
    assert [r for r in await _recorded(database) if r[0] == "broken"] == []


async def test_the_legacy_runner_on_a_bare_connection_is_versioned_too(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    async with await WorkspaceStore.open(db, None):
        pass
    migrations = [(1, ["CREATE TABLE other_things (id INTEGER PRIMARY KEY)"]), (2, ["ALTER TABLE other_things ADD note TEXT"])]
    async with aiosqlite.connect(db) as conn:
        assert await apply_migrations(conn, "other", migrations) == 2
        assert await apply_migrations(conn, "other", migrations) == 2
    assert [r for r in await _recorded(str(db)) if r[0] == "other"] == [("other", 1), ("other", 2)]


async def test_a_failing_legacy_migration_leaves_no_trace(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    broken = [(1, ["CREATE TABLE half (id INTEGER)", "THIS IS NOT SQL"])]
    async with aiosqlite.connect(db) as conn:
        with pytest.raises(aiosqlite.OperationalError):
            await apply_migrations(conn, "broken", broken)
        async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'half'") as cur:
            assert await cur.fetchall() == []
        async with conn.execute("SELECT count(*) FROM schema_migrations WHERE component = 'broken'") as cur:
            assert await cur.fetchone() == (0,)


async def test_stores_opening_at_once_on_a_fresh_postgresql_database_migrate_it_once(postgres_url: str) -> None:
    # PostgreSQL only: on a brand-new SQLite file, switching to WAL can refuse a second
    # connection outright ("database is locked") whatever the busy timeout.
    import asyncio

    database = postgres_url
    stores = await asyncio.gather(*(WorkspaceStore.open(database, None) for _ in range(4)))
    try:
        await stores[0].workspace().write_file("/a.txt", "one")
        assert await stores[3].workspace().read_file("/a.txt") == "one"
    finally:
        for store in stores:
            await store.close()
    assert await _recorded(database) == [("workspace", m.version) for m in WORKSPACE_MIGRATIONS]

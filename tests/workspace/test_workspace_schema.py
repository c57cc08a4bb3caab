"""Schema and migrations of workspace.schema: WAL, versioned, shared by components."""

from pathlib import Path

import aiosqlite

from workspace import WorkspaceStore, apply_migrations
from workspace.schema import WORKSPACE_MIGRATIONS


async def test_open_creates_wal_database_with_recorded_migrations(tmp_path: Path) -> None:
    db = tmp_path / "nested" / "sandbox.db"
    async with await WorkspaceStore.open(db, tmp_path / "blobs"):
        pass
    async with await WorkspaceStore.open(db, tmp_path / "blobs"):
        pass  # reopening applies nothing twice
    async with aiosqlite.connect(db) as conn:
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert await cur.fetchone() == ("wal",)
        async with conn.execute("SELECT component, version FROM schema_migrations ORDER BY version") as cur:
            rows = await cur.fetchall()
    assert [tuple(r) for r in rows] == [("workspace", v) for v, _ in WORKSPACE_MIGRATIONS]


async def test_another_component_adds_its_own_versioned_tables(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    async with await WorkspaceStore.open(db, None):
        pass
    migrations = [(1, ["CREATE TABLE other_things (id INTEGER PRIMARY KEY)"]), (2, ["ALTER TABLE other_things ADD note TEXT"])]
    async with aiosqlite.connect(db) as conn:
        assert await apply_migrations(conn, "other", migrations) == 2
        assert await apply_migrations(conn, "other", migrations) == 2
        async with conn.execute("SELECT component, version FROM schema_migrations ORDER BY component, version") as cur:
            rows = await cur.fetchall()
    assert [r for r in rows if r[0] == "other"] == [("other", 1), ("other", 2)]


async def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    broken = [(1, ["CREATE TABLE half (id INTEGER)", "THIS IS NOT SQL"])]
    async with aiosqlite.connect(db) as conn:
        try:
            await apply_migrations(conn, "broken", broken)
        except aiosqlite.OperationalError:
            pass
        else:
            raise AssertionError("the broken migration should have failed")
        async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'half'") as cur:
            assert await cur.fetchall() == []
        async with conn.execute("SELECT count(*) FROM schema_migrations WHERE component = 'broken'") as cur:
            assert await cur.fetchone() == (0,)

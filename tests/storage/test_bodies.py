"""Transaction bodies (``storage.body``): one generator of statements, driven alike by SQLite
(in one hop to its thread) and PostgreSQL (one await per statement), on both real backends."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from storage import Body, Execute, ExecuteMany, FetchAll, FetchOne
from storage_helpers import hops_of, migrated

SCHEMA = [storage.Migration(
    1,
    ["CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER NOT NULL DEFAULT 0)"],
    ["CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, n BIGINT NOT NULL DEFAULT 0)"],
)]


class NameTaken(Exception):
    pass


@pytest.fixture
async def db(database: str) -> AsyncIterator[storage.Database]:
    async with migrated(database, SCHEMA) as d:
        yield d


def fill(names: list[str]) -> Body[tuple[int, list[str]]]:
    yield ExecuteMany("INSERT INTO things (id, name) VALUES (?, ?)", list(enumerate(names, 1)))
    bumped = yield Execute("UPDATE things SET n = n + 1 WHERE id > ?", (1,))
    rows = yield FetchAll("SELECT name FROM things ORDER BY id")
    return bumped, [str(r[0]) for r in rows]


def add(thing_id: int, name: str) -> Body[int]:
    try:
        yield Execute("INSERT INTO things (id, name) VALUES (?, ?)", (thing_id, name))
    except storage.IntegrityError as exc:
        raise NameTaken(name) from exc
    return thing_id


def names() -> Body[list[str]]:
    return [str(r[0]) for r in (yield FetchAll("SELECT name FROM things ORDER BY id"))]


@pytest.fixture(params=[False, True], ids=["thread", "quick"])
def quick(request: pytest.FixtureRequest) -> bool:
    """Each body test both ways: the ordinary run, and ``quick`` (SQLite: on the loop)."""
    return bool(request.param)


async def test_a_body_runs_its_statements_in_order_and_returns_its_value(
        db: storage.Database, quick: bool) -> None:
    assert await db.run(fill, ["a", "b", "c"], quick=quick) == (2, ["a", "b", "c"])
    assert await db.run(names, write=False, quick=quick) == ["a", "b", "c"]


async def test_a_failed_statement_reaches_the_body_as_the_seams_error_and_nothing_stays(
        db: storage.Database, quick: bool) -> None:
    def add_two() -> Body[None]:
        yield from add(1, "a")
        yield from add(2, "a")

    with pytest.raises(NameTaken) as raised:
        await db.run(add_two, quick=quick)
    assert isinstance(raised.value.__cause__, storage.IntegrityError)
    assert await db.run(names, write=False) == []


async def test_a_body_that_raises_rolls_its_transaction_back(db: storage.Database,
                                                             quick: bool) -> None:
    def add_then_fail() -> Body[None]:
        yield Execute("INSERT INTO things (id, name) VALUES (1, 'a')")
        raise RuntimeError("abandon")

    with pytest.raises(RuntimeError, match="abandon"):
        await db.run(add_then_fail, quick=quick)
    assert await db.run(names, write=False) == []


async def test_a_body_joins_the_callers_transaction_and_commits_or_rolls_back_with_it(
        db: storage.Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction(write=True) as conn:
            assert await conn.run(add, 1, "a") == 1
            raise RuntimeError("the caller gives up")
    assert await db.run(names, write=False) == []
    async with db.transaction(write=True) as conn:
        await conn.run(add, 1, "a")
        assert await conn.fetchone("SELECT count(*) FROM things") == (1,)
    assert await db.run(names, write=False) == ["a"]


async def test_writers_of_one_lock_on_two_connections_lose_no_update(
        database: str, db: storage.Database, quick: bool) -> None:
    await db.run(add, 1, "counter")
    other = await storage.open_database(database)

    def increment() -> Body[None]:
        row = yield FetchOne("SELECT n FROM things WHERE id = 1")
        yield Execute("UPDATE things SET n = ? WHERE id = 1", (int(row[0]) + 1,))

    try:
        await asyncio.gather(*(
            (db if i % 2 else other).run(increment, lock="counter", quick=quick)
            for i in range(20)))
    finally:
        await other.close()
    assert await db.run(lambda: (yield FetchOne("SELECT n FROM things WHERE id = 1")),
                        write=False) == (20,)


async def test_on_sqlite_a_whole_transaction_is_one_hop_to_the_connections_thread(
        tmp_path: Path) -> None:
    db = await storage.SQLiteDatabase.open(tmp_path / "t.db")
    try:
        await storage.apply_migrations(db, "test", SCHEMA)
        hops = hops_of(db)
        assert await db.run(fill, ["a", "b", "c", "d"]) == (3, ["a", "b", "c", "d"])
        assert len(hops) == 1
        async with db.transaction(write=True) as conn:
            hops.clear()
            await conn.run(add, 9, "z")
            assert len(hops) == 1
    finally:
        await db.close()


def test_run_now_drives_a_body_on_a_plain_sqlite3_connection(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    try:
        raw.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                    " n INTEGER NOT NULL DEFAULT 0)")
        assert storage.run_now(raw, fill, ["a", "b"]) == (1, ["a", "b"])
        with pytest.raises(NameTaken):
            storage.run_now(raw, add, 3, "a")
    finally:
        raw.close()


async def test_a_value_the_backend_cannot_hold_is_refused_as_the_callers(db: storage.Database) -> None:
    # SQLite keeps a NUL in text; PostgreSQL's text cannot hold one, nor an integer past
    # 64 bits: the seam says so (the service answers 422), never "database unavailable".
    if db.dialect.name == "postgresql":
        with pytest.raises(storage.UnstorableValue):
            await db.run(add, 1, "a\x00b")
        with pytest.raises(storage.UnstorableValue):
            await db.run(add, 2**70, "big")
        assert await db.run(names, write=False) == []
    else:
        await db.run(add, 1, "a\x00b")
        assert await db.run(names, write=False) == ["a\x00b"]

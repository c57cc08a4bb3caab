"""Quick bodies on SQLite (``run(..., quick=True)``): run on the event loop when the file is
free, never waiting there for a lock held elsewhere, and leaving checkpoints to the thread."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from storage import Body, Execute, FetchOne
from storage.sqlite import CHECKPOINT_EVERY
from storage_helpers import hops_of

SCHEMA = [storage.Migration(
    1,
    ["CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB)"],
    ["CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL, data BYTEA)"],
)]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[storage.SQLiteDatabase]:
    opened = await storage.SQLiteDatabase.open(tmp_path / "quick.db")
    try:
        await storage.apply_migrations(opened, "test", SCHEMA)
        yield opened
    finally:
        await opened.close()


def add(thing_id: int, name: str, data: bytes | None = None) -> Body[int]:
    yield Execute("INSERT INTO things (id, name, data) VALUES (?, ?, ?)", (thing_id, name, data))
    return thing_id


def count() -> Body[int]:
    row = yield FetchOne("SELECT count(*) FROM things")
    return int(row[0])


async def test_a_quick_body_on_a_free_file_commits_without_a_hop_and_every_connection_sees_it(
        db: storage.SQLiteDatabase) -> None:
    hops = hops_of(db)
    assert await db.run(add, 1, "a", quick=True) == 1
    assert hops == []
    assert await db.run(count, write=False) == 1  # the thread's own connection
    with sqlite3.connect(db.path) as other:
        assert other.execute("SELECT name FROM things").fetchall() == [("a",)]


async def test_a_quick_body_waits_off_the_loop_while_another_connection_holds_the_write_lock(
        db: storage.SQLiteDatabase) -> None:
    # The loop's connection never sleeps on a lock (a timed test would be flaky: this is
    # what keeps the loop from waiting there).
    assert getattr(db, "_inline").execute("PRAGMA busy_timeout").fetchone() == (0,)
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO things (id, name) VALUES (1, 'first')")
    hops = hops_of(db)
    try:
        writing = asyncio.create_task(db.run(add, 2, "second", quick=True))
        ticks = 0
        while ticks < 20:  # the loop keeps answering: other work runs meanwhile
            await asyncio.sleep(0.005)
            ticks += 1
        assert not writing.done()  # it waits for the lock, on the thread
        holder.execute("COMMIT")
        assert await writing == 2
        assert len(hops) == 1  # given up on the loop at once, run whole on the thread
    finally:
        holder.close()
    assert await db.run(count, write=False, quick=True) == 2


async def test_a_quick_body_that_fails_leaves_the_loops_connection_ready_for_the_next(
        db: storage.SQLiteDatabase) -> None:
    await db.run(add, 1, "a", quick=True)
    with pytest.raises(storage.IntegrityError):
        await db.run(add, 1, "again", quick=True)
    assert await db.run(add, 2, "b", quick=True) == 2
    assert await db.run(count, write=False, quick=True) == 2


async def test_the_wal_written_by_quick_bodies_is_checkpointed_on_the_thread(
        db: storage.SQLiteDatabase) -> None:
    commits = 3 * CHECKPOINT_EVERY
    for n in range(commits):
        await db.run(add, n, "row", b"x" * 1000, quick=True)
        await asyncio.sleep(0)  # a service's loop turns between requests; the checkpoint runs then
    await asyncio.sleep(0.05)
    with sqlite3.connect(db.path) as other:
        # (busy, frames in the WAL, frames checkpointed): without checkpoints on the way,
        # every commit's frames would still be in the log.
        _busy, frames, _done = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert frames < commits
    assert await db.run(count, write=False) == commits



# --- quick sessions (``session(quick=True)``): a transaction's statements on the loop ------

async def test_a_quick_session_runs_a_transaction_without_a_hop_and_commits_for_everyone(
        db: storage.SQLiteDatabase) -> None:
    hops = hops_of(db)
    async with db.session(quick=True) as session:
        await session.begin(write=True)
        await session.execute("INSERT INTO things (id, name) VALUES (1, 'a')")
        assert await session.fetchone("SELECT name FROM things WHERE id = 1") == ("a",)
        await session.commit()
    assert hops == []
    assert await db.run(count, write=False) == 1
    with sqlite3.connect(db.path) as other:
        assert other.execute("SELECT name FROM things").fetchall() == [("a",)]


async def test_a_quick_session_rolls_back_and_says_whether_there_was_anything_to_undo(
        db: storage.SQLiteDatabase) -> None:
    async with db.session(quick=True) as session:
        await session.begin(write=True)
        await session.execute("INSERT INTO things (id, name) VALUES (1, 'a')")
        assert await session.rollback() is True
        assert await session.rollback() is False  # nothing open: a COMMIT's aftermath
        await session.begin(write=True)
        await session.execute("INSERT INTO things (id, name) VALUES (2, 'b')")
    # Left open, it is rolled back as the session ends: the next one starts clean.
    async with db.session(quick=True) as session:
        await session.begin(write=False)
        assert await session.fetchall("SELECT id FROM things") == []
        await session.commit()


async def test_a_quick_sessions_begin_gives_up_at_once_while_another_connection_writes(
        db: storage.SQLiteDatabase) -> None:
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        async with db.session(quick=True) as session:
            with pytest.raises(storage.BusyError):
                await session.begin(write=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()

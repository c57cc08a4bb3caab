"""The SQLite implementation of the seam, over one ``aiosqlite`` connection per database.

aiosqlite runs every call in its own thread, one queued call at a time; each call costs a
hop there and back. ``fetchone``/``fetchall``/``execute`` here cost one hop each (a cursor's
execute, fetch and close run together in the thread), where the plain aiosqlite cursor API
costs three. One ``asyncio.Lock`` gives a session exclusive use of the connection in this
process; ``BEGIN IMMEDIATE`` keeps two processes' writes from interleaving.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from . import _notify, _transaction
from .body import BodyFn, run_now, sqlite_error
from .interface import SQLITE, Connection, Dialect, Record, StorageError

__all__ = ["SQLiteDatabase", "SQLiteSession", "immediately", "on_thread"]

_T = TypeVar("_T")


def _fetchone(raw: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Any:
    cursor = raw.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()


def _fetchall(raw: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Any:
    cursor = raw.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _execute(raw: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    cursor = raw.execute(sql, params)
    try:
        return max(cursor.rowcount, 0)
    finally:
        cursor.close()


def _executemany(raw: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    raw.executemany(sql, rows).close()


def on_thread(conn: aiosqlite.Connection, fn: Callable[..., _T], *args: Any) -> Awaitable[_T]:
    """Run ``fn(raw_connection, *args)`` on ``conn``'s own thread: many statements, one hop.

    For the stores still on a bare aiosqlite connection (Code Mode's, the audit log's). In a
    busy service each hop costs 0.1-0.2 ms of thread switching, and an execute's start and
    end were ten of them. ``fn`` runs plain ``sqlite3`` calls there instead, in order with
    everything else sent to that connection; it must not touch the event loop. aiosqlite
    has no public way to do this: ``_execute`` and ``_conn`` are pinned by
    ``tests/storage/test_storage.py`` so an upgrade that moves them fails loudly.
    """
    def call() -> _T:
        return fn(conn._conn, *args)  # read in the thread, where the connection lives
    execute = cast("Callable[[Callable[[], _T]], Awaitable[_T]]", getattr(conn, "_execute"))
    return execute(call)


def _transact_now(raw: sqlite3.Connection, write: bool, fn: BodyFn[_T], args: tuple[Any, ...]) -> _T:
    """A body in a transaction of its own, begun, driven and committed on the thread."""
    raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        result = run_now(raw, fn, *args)
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
    raw.execute("COMMIT")
    return result


def immediately(db: sqlite3.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error.

    With :func:`on_thread` a whole transaction is one hop, and a cancelled caller cannot
    leave it half done: the thread finishes it either way.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db, *args)
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


class SQLiteSession:
    """The statements of :class:`storage.Session` on an aiosqlite connection."""

    dialect: Dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def _run(self, fn: Callable[..., _T], *args: Any) -> _T:
        try:
            return await on_thread(self.conn, fn, *args)
        except sqlite3.Error as exc:
            raise sqlite_error(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._run(_execute, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._run(_executemany, sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        return cast("Record | None", await self._run(_fetchone, sql, params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return cast("list[Record]", await self._run(_fetchall, sql, params))

    async def lock(self, name: str) -> None:
        del name  # BEGIN IMMEDIATE already holds the file's one write lock

    async def run(self, fn: BodyFn[_T], *args: Any) -> _T:
        """The body ``fn(*args)`` in the open transaction: all of it in one hop."""
        return await self._run(run_now, fn, *args)

    async def begin(self, *, write: bool, lock: str = "database", consistent: bool = True) -> None:
        # One lock per file: the name only matters to backends with finer locks.
        del lock, consistent
        await self._run(_execute, "BEGIN IMMEDIATE" if write else "BEGIN", ())

    async def commit(self) -> None:
        await self._run(_execute, "COMMIT", ())

    async def rollback(self) -> bool:
        # Calls run in aiosqlite's thread in order, so this runs after anything already sent,
        # even when the caller's await on it was cancelled.
        try:
            await self._run(_execute, "ROLLBACK", ())
        except sqlite3.OperationalError:
            return False
        return True


_LISTENERS: dict[tuple[str, str], set[_notify.Inbox]] = {}
"""This process's listeners on SQLite files, by (resolved file, channel): a SQLite database
is one process's, so its notifications never need to leave it."""
_LISTENERS_LOCK = threading.Lock()


class SQLiteDatabase:
    """One SQLite file in WAL mode: one connection, one lock for this process's sessions."""

    dialect: Dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._session = SQLiteSession(conn)
        self.path = path
        self.lock = asyncio.Lock()
        self._closed = False

    @property
    def conn(self) -> aiosqlite.Connection:
        """The aiosqlite connection, for SQLite-only tooling (pragmas, integrity checks)."""
        return self._session.conn

    @property
    def url(self) -> str:
        return str(self.path)

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, busy_timeout_ms: int = 10_000) -> SQLiteDatabase:
        """Connect to ``path`` (creating its directory) and set the per-connection pragmas."""
        db = Path(path)
        db.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(db, isolation_level=None)
        try:
            # The timeout first: switching a new file to WAL takes a lock another process
            # opening it at the same moment may hold.
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            # WAL: readers never block the writer. NORMAL in WAL mode survives a process
            # crash; only an OS crash may lose the last commit.
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, db)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[SQLiteSession]:
        async with self.lock:
            if self._closed:
                raise StorageError("the database is closed")
            yield self._session

    def transaction(self, *, write: bool, lock: str = "database",
                    consistent: bool = True) -> AbstractAsyncContextManager[Connection]:
        return _transaction.transaction(self, write=write, lock=lock, consistent=consistent)

    async def run(self, fn: BodyFn[_T], *args: Any, write: bool = True,
                  lock: str = "database") -> _T:
        """``fn(*args)`` in a transaction of its own: ``BEGIN`` (``IMMEDIATE`` to write), the
        body and ``COMMIT`` on the connection's thread in one hop. A cancelled caller cannot
        leave it half done: the thread finishes it either way."""
        del lock  # one lock per file
        async with self.session() as session:
            return await session._run(_transact_now, write, fn, args)

    def _listen_key(self, channel: str) -> tuple[str, str]:
        return (str(self.path.resolve()), _notify.check_channel(channel))

    async def notify(self, channel: str, payload: str) -> None:
        key = self._listen_key(channel)
        _notify.check_payload(payload)
        with _LISTENERS_LOCK:
            inboxes = list(_LISTENERS.get(key, ()))
        for inbox in inboxes:
            inbox.put(payload)

    @asynccontextmanager
    async def listen(self, channel: str) -> AsyncIterator[AsyncIterator[str | None]]:
        key = self._listen_key(channel)
        inbox = _notify.Inbox()
        with _LISTENERS_LOCK:
            _LISTENERS.setdefault(key, set()).add(inbox)
        try:
            yield inbox
        finally:
            inbox.close()
            with _LISTENERS_LOCK:
                found = _LISTENERS.get(key)
                if found is not None:
                    found.discard(inbox)
                    if not found:
                        del _LISTENERS[key]

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._session.conn.close()

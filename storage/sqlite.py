"""The SQLite implementation of the seam, over one ``aiosqlite`` connection per database
(and a plain one for short bodies on the event loop).

aiosqlite runs every call in its own thread, one queued call at a time; each call costs a
hop there and back. ``fetchone``/``fetchall``/``execute`` here cost one hop each (a cursor's
execute, fetch and close run together in the thread), where the plain aiosqlite cursor API
costs three. One ``asyncio.Lock`` gives a session exclusive use of the connection in this
process; ``BEGIN IMMEDIATE`` keeps two processes' writes from interleaving.

A ``quick`` body (``run(..., quick=True)``: a few rows, the hot path of an execute and of a
journaled call) runs on the event loop instead, on a second connection that never waits:
its busy timeout is 0, so a lock held elsewhere makes it give up at once, roll back, and
run on the thread as before, where waiting blocks no other request. In WAL mode with
``synchronous=NORMAL`` a commit writes to the WAL without an fsync, so such a body costs
the loop only its own statements; the checkpoints, which do sync, are kept off that
connection and run on the thread every :data:`CHECKPOINT_EVERY` of its commits.
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
from .body import BodyFn, Contended, drive_now, run_now, sqlite_error
from .interface import SQLITE, Connection, Dialect, Record, StorageError

__all__ = ["CHECKPOINT_EVERY", "InlineSession", "SQLiteDatabase", "SQLiteSession", "immediately",
           "on_thread"]

_T = TypeVar("_T")

CHECKPOINT_EVERY = 200
"""Commits on the loop's connection between two checkpoints on the thread. A trivial
execute writes about six pages, so the WAL stays near SQLite's own 1,000-page threshold."""


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


def _transact_inline(raw: sqlite3.Connection, write: bool, fn: BodyFn[_T],
                     args: tuple[Any, ...]) -> tuple[bool, _T | None]:
    """:func:`_transact_now` on the loop's own connection, which never waits for a lock:
    ``(True, result)``, or ``(False, None)`` with nothing changed when the database was
    busy (another connection or process writing), for the caller to run it on the thread."""
    try:
        raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    except sqlite3.OperationalError as exc:
        if _busy(exc):
            return False, None
        raise
    try:
        result = drive_now(raw, fn, args, contended=True)
        raw.execute("COMMIT")
    except Contended:
        _roll_back(raw)
        return False, None
    except sqlite3.OperationalError as exc:
        _roll_back(raw)
        if _busy(exc):  # COMMIT itself can meet a lock: nothing was committed
            return False, None
        raise
    except BaseException:
        _roll_back(raw)
        raise
    return True, result


def _busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _roll_back(raw: sqlite3.Connection) -> None:
    if raw.in_transaction:
        raw.execute("ROLLBACK")


def _checkpoint(raw: sqlite3.Connection) -> None:
    # PASSIVE: copies what no reader still needs and never waits for one.
    raw.execute("PRAGMA wal_checkpoint(PASSIVE)").close()


def _open_inline(path: Path) -> sqlite3.Connection | None:
    """The loop's connection to ``path``: no busy wait, no checkpoints of its own; None
    when the file is not in WAL mode (then a commit would sync, so nothing runs inline)."""
    # check_same_thread off: the loop's thread uses it, but a database may be opened in a
    # helper thread's loop and then used on another (tests, the CLI); only one at a time.
    raw = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    try:
        mode = raw.execute("PRAGMA journal_mode").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raw.close()
            return None
        for pragma in ("busy_timeout=0", "synchronous=NORMAL", "foreign_keys=ON",
                       "wal_autocheckpoint=0"):
            raw.execute(f"PRAGMA {pragma}").close()
    except BaseException:
        raw.close()
        raise
    return raw


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


class InlineSession:
    """The statements of :class:`storage.Session` run at once on the event loop's own
    connection (a ``quick`` session): no hop to the thread. Its ``begin`` never waits: a
    database another connection is writing raises :class:`BusyError` there, before anything
    ran. Once ``BEGIN IMMEDIATE`` holds the write lock, WAL mode lets nothing else block it."""

    dialect: Dialect = SQLITE

    def __init__(self, raw: sqlite3.Connection, committed_write: Callable[[], None]) -> None:
        self._raw = raw
        self._committed_write = committed_write
        self._writing = False

    def _now(self, fn: Callable[..., _T], *args: Any) -> _T:
        try:
            return fn(self._raw, *args)
        except sqlite3.Error as exc:
            raise sqlite_error(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._now(_execute, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._now(_executemany, sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        return cast("Record | None", self._now(_fetchone, sql, params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return cast("list[Record]", self._now(_fetchall, sql, params))

    async def lock(self, name: str) -> None:
        del name  # BEGIN IMMEDIATE already holds the file's one write lock

    async def run(self, fn: BodyFn[_T], *args: Any) -> _T:
        return cast("_T", self._now(run_now, fn, *args))

    async def begin(self, *, write: bool, lock: str = "database", consistent: bool = True) -> None:
        del lock, consistent
        self._now(_execute, "BEGIN IMMEDIATE" if write else "BEGIN", ())
        self._writing = write

    async def commit(self) -> None:
        self._now(_execute, "COMMIT", ())
        if self._writing:
            self._committed_write()  # counts toward the next checkpoint on the thread

    async def rollback(self) -> bool:
        # False when nothing was open to undo (a COMMIT that went through), as a ROLLBACK
        # sent to the thread's connection then fails: the caller must keep what it wrote.
        if not self._raw.in_transaction:
            return False
        try:
            self._raw.execute("ROLLBACK")
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

    def __init__(self, conn: aiosqlite.Connection, path: Path,
                 inline: sqlite3.Connection | None = None) -> None:
        self._session = SQLiteSession(conn)
        self.path = path
        self.lock = asyncio.Lock()
        self._closed = False
        self._inline = inline
        self._inline_commits = 0
        self._checkpointing: asyncio.Task[None] | None = None

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
            inline = _open_inline(db)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, db, inline)

    @asynccontextmanager
    async def session(self, *, quick: bool = False) -> AsyncIterator[SQLiteSession | InlineSession]:
        async with self.lock:
            if self._closed:
                raise StorageError("the database is closed")
            if not quick or self._inline is None:
                yield self._session
                return
            inline = InlineSession(self._inline, self._committed_inline)
            try:
                yield inline
            finally:
                _roll_back(self._inline)  # never left open for the next one

    def transaction(self, *, write: bool, lock: str = "database",
                    consistent: bool = True) -> AbstractAsyncContextManager[Connection]:
        return _transaction.transaction(self, write=write, lock=lock, consistent=consistent)

    async def run(self, fn: BodyFn[_T], *args: Any, write: bool = True,
                  lock: str = "database", quick: bool = False) -> _T:
        """``fn(*args)`` in a transaction of its own: ``BEGIN`` (``IMMEDIATE`` to write), the
        body and ``COMMIT`` on the connection's thread in one hop. A cancelled caller cannot
        leave it half done: the thread finishes it either way.

        ``quick``: a body of a few rows, run on the event loop when the database is free at
        that moment (no hop at all), else on the thread (see the module docstring). Either
        way it runs whole, once committed, under this process's lock."""
        del lock  # one lock per file
        async with self.lock:  # what ``session()`` does, without a generator on every write
            if self._closed:
                raise StorageError("the database is closed")
            if quick and self._inline is not None:
                try:
                    done, result = _transact_inline(self._inline, write, fn, args)
                except sqlite3.Error as exc:
                    raise sqlite_error(exc) from exc
                if done:
                    if write:
                        self._committed_inline()
                    return cast("_T", result)
            return await self._session._run(_transact_now, write, fn, args)

    def _committed_inline(self) -> None:
        self._inline_commits += 1
        if self._inline_commits >= CHECKPOINT_EVERY and self._checkpointing is None:
            self._inline_commits = 0
            self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Fold the WAL back into the file, on the thread, under this process's lock (a
        checkpoint cannot run inside the thread connection's own open transaction)."""
        try:
            async with self.session():
                await self._session._run(_checkpoint)
        except (StorageError, sqlite3.Error):
            pass  # the next one will do; SQLite's own checkpoint on close does the rest
        finally:
            self._checkpointing = None

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
            if self._checkpointing is not None:
                await asyncio.gather(self._checkpointing, return_exceptions=True)
            if self._inline is not None:
                # Closed first: the last connection to go checkpoints, on the thread.
                self._inline.close()
            await self._session.conn.close()

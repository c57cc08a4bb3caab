"""Transaction bodies: SQL written once as a plain generator, driven by either backend.

A body is a generator function that *yields* statements and receives their results::

    def rename(thing_id: int, name: str) -> Body[bool]:
        row = yield FetchOne("SELECT name FROM things WHERE id = ?", (thing_id,))
        if row is None:
            return False
        changed = yield Execute("UPDATE things SET name = ? WHERE id = ?", (name, thing_id))
        return changed > 0

    renamed = await db.run(rename, 7, "b")           # its own write transaction
    renamed = await conn.run(rename, 7, "b")         # inside the caller's transaction

Why a generator rather than ``async def``: on SQLite the whole body runs synchronously on
aiosqlite's thread, ``BEGIN IMMEDIATE`` to ``COMMIT``, in one hop there and back (each hop
costs 0.1-0.2 ms on a busy service); on PostgreSQL the same body is driven with one asyncpg
await per statement inside the transaction and its advisory lock. Python-side logic (hashes,
JSON) runs in the body on both, so both backends compute the same values.

A statement's failure is thrown into the body as the seam's error (``IntegrityError``,
``BusyError``, ``StorageError``) at its ``yield``, so a body may turn it into its own
exception. It must not go on issuing statements after catching one: PostgreSQL has aborted
the transaction by then.

On SQLite the body runs off the event loop: it must not touch the loop or await anything.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, Union

from .interface import BusyError, IntegrityError, StorageError

if TYPE_CHECKING:
    from .interface import Connection

__all__ = [
    "Body",
    "BodyFn",
    "Contended",
    "Execute",
    "ExecuteMany",
    "FetchAll",
    "FetchOne",
    "Lock",
    "Statement",
    "drive",
    "drive_now",
    "run_now",
    "sqlite_error",
]

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class FetchOne:
    """The first row of a query (a tuple or an asyncpg Record), or None."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class FetchAll:
    """Every row of a query, as a list."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class Execute:
    """One statement; the number of rows it changed (0 when it changes none)."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class ExecuteMany:
    """One statement once per parameter row; None."""

    sql: str
    rows: Iterable[Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Lock:
    """Take the write lock ``name`` too, held to the end of the transaction; None.

    For a table with writers of several lock names (the audit log, appended to inside
    Code Mode's transactions and the service's own): PostgreSQL takes its advisory lock
    for ``name``; on SQLite the one lock per file, held by every write transaction, is it.
    """

    name: str


Statement = Union[FetchOne, FetchAll, Execute, ExecuteMany, Lock]
Body = Generator[Statement, Any, _T]
"""A transaction body: yields statements, is sent each one's result, returns its value."""
BodyFn = Callable[..., Body[_T]]


def sqlite_error(exc: sqlite3.Error) -> Exception:
    """The seam's error for a ``sqlite3`` one (others pass through unchanged)."""
    if isinstance(exc, sqlite3.IntegrityError):
        return IntegrityError(str(exc))
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
        return BusyError(f"the database is busy: {exc}")
    return exc


def _perform_now(raw: sqlite3.Connection, statement: Statement) -> Any:
    if isinstance(statement, Lock):
        return None
    if isinstance(statement, ExecuteMany):
        raw.executemany(statement.sql, statement.rows).close()
        return None
    cursor = raw.execute(statement.sql, statement.params)
    try:
        if isinstance(statement, FetchOne):
            return cursor.fetchone()
        if isinstance(statement, FetchAll):
            return cursor.fetchall()
        return max(cursor.rowcount, 0)
    finally:
        cursor.close()


class Contended(Exception):
    """A statement met another connection's lock, and the body was abandoned unfinished
    (:func:`run_now` with ``contended=True``): roll back and run it again where waiting
    is allowed."""


def run_now(raw: sqlite3.Connection, fn: BodyFn[_T], *args: Any) -> _T:
    """Drive ``fn(*args)`` to its end on a plain ``sqlite3`` connection, in whatever
    transaction that connection has open; for code already on the database's thread."""
    return drive_now(raw, fn, args, contended=False)


def drive_now(raw: sqlite3.Connection, fn: BodyFn[_T], args: tuple[Any, ...], *,
              contended: bool) -> _T:
    """:func:`run_now`; with ``contended``, a busy or locked database raises
    :class:`Contended` instead of being thrown into the body, so a caller that must not
    wait can undo the transaction and hand the whole body to one that may."""
    body = fn(*args)
    try:
        statement = next(body)
        while True:
            try:
                result = _perform_now(raw, statement)
            except sqlite3.Error as exc:
                translated = sqlite_error(exc)
                if translated is exc:
                    raise
                if contended and isinstance(translated, BusyError):
                    raise Contended(str(exc)) from exc
                translated.__cause__ = exc
                statement = body.throw(translated)
                continue
            statement = body.send(result)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        body.close()


async def _perform(conn: Connection, statement: Statement) -> Any:
    if isinstance(statement, FetchOne):
        return await conn.fetchone(statement.sql, statement.params)
    if isinstance(statement, FetchAll):
        return await conn.fetchall(statement.sql, statement.params)
    if isinstance(statement, Execute):
        return await conn.execute(statement.sql, statement.params)
    if isinstance(statement, Lock):
        await conn.lock(statement.name)
        return None
    await conn.executemany(statement.sql, statement.rows)
    return None


async def drive(conn: Connection, fn: BodyFn[_T], *args: Any) -> _T:
    """Drive ``fn(*args)`` with one await per statement on ``conn`` (PostgreSQL's way)."""
    body = fn(*args)
    try:
        statement = next(body)
        while True:
            try:
                result = await _perform(conn, statement)
            except StorageError as exc:
                statement = body.throw(exc)
                continue
            statement = body.send(result)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        body.close()

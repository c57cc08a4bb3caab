"""The PostgreSQL implementation of the seam, over an ``asyncpg`` pool.

A session is one pooled connection. Statements are written with ``?`` placeholders (see
``storage.interface``); each distinct text is rewritten to ``$1, $2, ...`` once and cached,
and asyncpg prepares it once per connection. Write transactions run at READ COMMITTED under
a transaction-level advisory lock named by the caller (SQLite's ``BEGIN IMMEDIATE``, but per
name), taken in the same round trip as ``BEGIN``; every statement after it reads the latest
commit. Consistent reads run at REPEATABLE READ, READ ONLY: one snapshot throughout.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import _transaction
from .body import BodyFn, drive
from .interface import (POSTGRESQL, BusyError, Connection, Dialect, IntegrityError, Record,
                        StorageError, UnstorableValue)

__all__ = ["PostgresDatabase", "PostgresSession", "lock_key", "positional"]

_T = TypeVar("_T")


@functools.lru_cache(maxsize=4096)
def positional(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes as ``$1``, ``$2``, ... (cached per text)."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def lock_key(name: str) -> int:
    """The advisory lock number for a lock name: a stable signed 64-bit hash of it."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def _translated(exc: Exception) -> Exception:
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(str(exc))
    # SQLSTATE class 22 (a NUL in text, a number out of range), or a parameter asyncpg cannot
    # encode (its client-side DataError is an InterfaceError and a ValueError).
    if isinstance(exc, asyncpg.DataError) or (
            isinstance(exc, asyncpg.InterfaceError) and isinstance(exc, ValueError)):
        return UnstorableValue(f"the database cannot store this value: {exc}")
    if isinstance(exc, (asyncpg.TransactionRollbackError, asyncpg.LockNotAvailableError)):
        return BusyError(f"the database is busy: {exc}")
    if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
        return StorageError(f"the database connection failed: {exc}")
    return exc


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresSession:
    """The statements of :class:`storage.Session` on one asyncpg connection."""

    dialect: Dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            if params:
                return _rowcount(await self.conn.execute(positional(sql), *params))
            # Without parameters asyncpg uses the simple protocol: no statement to prepare.
            return _rowcount(await self.conn.execute(sql))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translated(exc) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.conn.executemany(positional(sql), list(rows))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translated(exc) from exc

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        try:
            return cast("Record | None", await self.conn.fetchrow(positional(sql), *params))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translated(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        try:
            return cast("list[Record]", await self.conn.fetch(positional(sql), *params))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translated(exc) from exc

    async def lock(self, name: str) -> None:
        await self.execute(f"SELECT pg_advisory_xact_lock({lock_key(name)})")

    async def run(self, fn: BodyFn[_T], *args: Any) -> _T:
        """The body ``fn(*args)`` in the open transaction, one await per statement."""
        return await drive(self, fn, *args)

    async def begin(self, *, write: bool, lock: str = "database", consistent: bool = True) -> None:
        if write:
            # One round trip: the simple protocol runs both; the key is ours, never input.
            await self.execute(f"BEGIN; SELECT pg_advisory_xact_lock({lock_key(lock)})")
        elif consistent:
            await self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        else:
            await self.execute("BEGIN READ ONLY")

    async def commit(self) -> None:
        await self.execute("COMMIT")

    async def rollback(self) -> bool:
        try:
            if self.conn.is_closed() or not self.conn.is_in_transaction():
                return False
            await self.conn.execute("ROLLBACK")
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            # A lost connection has no transaction left to end (the server rolled it back);
            # the pool has already let go of it and opens another.
            return False
        return True


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresDatabase:
    """A PostgreSQL database reached through a pool of connections."""

    dialect: Dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self._url = _without_password(url)
        self._closed = False

    @property
    def url(self) -> str:
        return self._url

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 8) -> PostgresDatabase:
        """Connect a pool to ``url`` (``postgresql://user:password@host:port/database``)."""
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(f"could not connect to {_without_password(url)}: {exc}") from exc
        return cls(pool, url)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[PostgresSession]:
        if self._closed:
            raise StorageError("the database is closed")
        try:
            conn = await self.pool.acquire()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translated(exc) from exc
        try:
            yield PostgresSession(conn)
        finally:
            await self.pool.release(conn)

    def transaction(self, *, write: bool, lock: str = "database",
                    consistent: bool = True) -> AbstractAsyncContextManager[Connection]:
        return _transaction.transaction(self, write=write, lock=lock, consistent=consistent)

    async def run(self, fn: BodyFn[_T], *args: Any, write: bool = True,
                  lock: str = "database") -> _T:
        """``fn(*args)`` in a transaction of its own (under the advisory lock ``lock`` to
        write, READ COMMITTED; a REPEATABLE READ snapshot to read)."""
        async with self.transaction(write=write, lock=lock) as conn:
            return await drive(conn, fn, *args)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.pool.close()

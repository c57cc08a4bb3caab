"""The PostgreSQL implementation of the seam, over an ``asyncpg`` pool.

A session is one pooled connection. Statements are written with ``?`` placeholders (see
``storage.interface``); each distinct text is rewritten to ``$1, $2, ...`` once and cached,
and asyncpg prepares it once per connection. Write transactions run at READ COMMITTED under
a transaction-level advisory lock named by the caller (SQLite's ``BEGIN IMMEDIATE``, but per
name), taken in the same round trip as ``BEGIN``; every statement after it reads the latest
commit. Consistent reads run at REPEATABLE READ, READ ONLY: one snapshot throughout.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import _notify, _transaction
from .body import BodyFn, drive
from .interface import (POSTGRESQL, BusyError, Connection, Dialect, IntegrityError, Record,
                        StorageError, UnstorableValue)

__all__ = ["PostgresDatabase", "PostgresSession", "lock_key", "positional"]

_T = TypeVar("_T")

CONNECT_TIMEOUT_S = 10.0
"""How long opening one connection may take (a server that is down refuses at once; one
behind a dead network would otherwise hold a request for asyncpg's default minute)."""
DEFAULT_POOL_SIZE = 8
"""Connections one pool opens at most (on demand: it starts with one). A service shares one
pool between its stores and sets its own size (``SANDBOX_DATABASE_POOL_SIZE``)."""
ACQUIRE_TIMEOUT_S = 30.0
"""How long a session waits for a pooled connection before the call fails as busy."""


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


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
"""What a statement on an asyncpg connection can raise besides our own errors."""

_LOST = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.InternalClientError,
         asyncpg.AdminShutdownError, asyncpg.CrashShutdownError, asyncpg.CannotConnectNowError,
         asyncpg.IdleSessionTimeoutError, OSError)
"""Errors after which a connection is not used again: the socket failed, the server ended
the session (an administrator, a shutdown or crash, a server still starting), or asyncpg's
protocol got into a state it cannot leave (a server's goodbye read between two statements
leaves it refusing every later one with ``InternalClientError``)."""


def _is_lost(exc: BaseException) -> bool:
    # DataError (a parameter asyncpg cannot encode) is an InterfaceError too, but the
    # connection is fine: nothing was sent.
    return isinstance(exc, _LOST) and not isinstance(exc, asyncpg.DataError)


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
    if isinstance(exc, asyncpg.InternalClientError):
        # asyncpg's words for a session the server ended between two statements.
        return StorageError("the database connection failed: the server ended the session")
    if _is_lost(exc):
        return StorageError(f"the database connection failed: {exc}")
    return exc


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresSession:
    """The statements of :class:`storage.Session` on one asyncpg connection.

    ``lost`` turns True when a statement fails in a way that leaves the connection unusable;
    the database then closes it instead of handing it back to the pool (see
    :meth:`PostgresDatabase.session`).
    """

    dialect: Dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.lost = False

    async def _call(self, call: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        try:
            return await call(*args)
        except _DRIVER_ERRORS as exc:
            if _is_lost(exc):
                self.lost = True
            raise _translated(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        if params:
            return _rowcount(await self._call(self.conn.execute, positional(sql), *params))
        # Without parameters asyncpg uses the simple protocol: no statement to prepare.
        return _rowcount(await self._call(self.conn.execute, sql))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._call(self.conn.executemany, positional(sql), list(rows))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        return cast("Record | None", await self._call(self.conn.fetchrow, positional(sql), *params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return cast("list[Record]", await self._call(self.conn.fetch, positional(sql), *params))

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
        if self.lost:
            return False  # the server rolled it back when the session ended
        try:
            if self.conn.is_closed() or not self.conn.is_in_transaction():
                return False
            await self.conn.execute("ROLLBACK")
        except _DRIVER_ERRORS:
            # The connection broke: no transaction is left on it to end.
            self.lost = True
            return False
        return True


RELEASE_TIMEOUT_S = 10.0
"""How long handing a connection back (asyncpg resets it: a round trip) may take before the
connection is closed instead."""
CLOSE_TIMEOUT_S = 10.0
"""How long closing the pool waits for its connections to say goodbye before cutting them."""


def _attached(conn: asyncpg.Connection) -> bool:
    """Whether ``conn`` (a pool's proxy) still holds its connection: asyncpg detaches it once
    the pool has taken the connection back, after which every call on it raises."""
    try:
        conn.is_closed()
    except asyncpg.InterfaceError:
        return False
    return True


async def _give_back(pool: asyncpg.Pool, conn: asyncpg.Connection, session: PostgresSession) -> None:
    """Return ``conn`` to ``pool``, or close it if it cannot be trusted; never raises.

    Found by a test that killed a backend mid-transaction and then hung in ``pool.close``:
    when asyncpg reads the server's goodbye between two statements, the connection reports
    itself closed but its pool slot is never freed (``release`` returns at once, trusting a
    clean-up that did not run), so the pool waited for it forever. ``terminate`` runs that
    clean-up: the slot is freed and the next ``acquire`` opens a new connection.
    """
    if not _attached(conn):
        return  # the pool already took it back
    if session.lost or conn.is_closed():
        conn.terminate()
        return
    try:
        await pool.release(conn, timeout=RELEASE_TIMEOUT_S)
    except asyncio.CancelledError:
        raise  # the caller's own cancellation; the release is shielded and carries on
    except Exception:
        # asyncpg has already terminated it (a failed reset): the slot is free again.
        if _attached(conn):
            conn.terminate()


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
        self._connect_url = url
        self._closed = False
        self._schema: str | None = None

    @property
    def url(self) -> str:
        return self._url

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1,
                   max_size: int = DEFAULT_POOL_SIZE) -> PostgresDatabase:
        """Connect a pool to ``url`` (``postgresql://user:password@host:port/database``)."""
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                             timeout=CONNECT_TIMEOUT_S)
        except (*_DRIVER_ERRORS, asyncio.TimeoutError) as exc:
            raise StorageError(f"could not connect to {_without_password(url)}: {exc}") from exc
        return cls(pool, url)

    @asynccontextmanager
    async def session(self, *, quick: bool = False) -> AsyncIterator[PostgresSession]:
        del quick  # a pooled connection's statements are awaited either way
        if self._closed:
            raise StorageError("the database is closed")
        conn = await self._acquire()
        session = PostgresSession(conn)
        try:
            yield session
        finally:
            await _give_back(self.pool, conn, session)

    async def _acquire(self) -> asyncpg.Connection:
        try:
            return await self.pool.acquire(timeout=ACQUIRE_TIMEOUT_S)
        except asyncio.TimeoutError as exc:
            raise BusyError(f"no database connection came free in {ACQUIRE_TIMEOUT_S:g} s") from exc
        except _DRIVER_ERRORS as exc:
            raise _translated(exc) from exc

    def transaction(self, *, write: bool, lock: str = "database",
                    consistent: bool = True) -> AbstractAsyncContextManager[Connection]:
        return _transaction.transaction(self, write=write, lock=lock, consistent=consistent)

    async def run(self, fn: BodyFn[_T], *args: Any, write: bool = True,
                  lock: str = "database", quick: bool = False) -> _T:
        """``fn(*args)`` in a transaction of its own (under the advisory lock ``lock`` to
        write, READ COMMITTED; a REPEATABLE READ snapshot to read). ``quick`` changes
        nothing here: every statement is a round trip to the server anyway."""
        del quick
        async with self.transaction(write=write, lock=lock) as conn:
            return await drive(conn, fn, *args)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                await asyncio.wait_for(self.pool.close(), CLOSE_TIMEOUT_S)
            except (Exception, asyncio.TimeoutError):
                self.pool.terminate()

    async def _channel(self, channel: str) -> str:
        """The server's name for ``channel``: channels are per database, tables per schema,
        so the schema is in the name and deployments in two schemas never hear each other."""
        _notify.check_channel(channel)
        if self._schema is None:
            async with self.session() as session:
                found = await session.fetchone("SELECT current_schema()")
            self._schema = str(found[0]) if found and found[0] else "public"
        schema = self._schema
        if len(schema) > 22:
            # NAMEDATALEN: the server would cut a longer name; a hash keeps it unique.
            schema = schema[:8] + hashlib.blake2b(schema.encode(), digest_size=7).hexdigest()
        return f"{schema}.{channel}"

    async def notify(self, channel: str, payload: str) -> None:
        name = await self._channel(channel)
        _notify.check_payload(payload)
        async with self.session() as session:
            await session.fetchone("SELECT pg_notify(?, ?)", (name, payload))

    @asynccontextmanager
    async def listen(self, channel: str) -> AsyncIterator[AsyncIterator[str | None]]:
        name = await self._channel(channel)
        inbox = _notify.Inbox()
        listener = _Listener(self._connect_url, name, inbox)
        await listener.connect()  # listening before the caller goes on, or a StorageError
        task = asyncio.get_running_loop().create_task(listener.run())
        try:
            yield inbox
        finally:
            inbox.close()
            task.cancel()
            try:
                # wait, not await: a cancellation of this task must go on, not be taken
                # for the listener's own.
                await asyncio.wait([task])
            finally:
                listener.disconnect()


LISTEN_PING_S = 5.0
"""How often a quiet listening connection is checked: a peer that vanished without closing
the socket is noticed within this, not at the next TCP timeout."""
LISTEN_RETRY_S = (0.05, 2.0)
"""First and longest pause between attempts to listen again after losing the connection."""


class _Listener:
    """One ``LISTEN`` on a connection of its own, made again whenever it is lost: each time,
    a ``None`` in the inbox says notifications sent meanwhile were missed."""

    def __init__(self, url: str, channel: str, inbox: _notify.Inbox) -> None:
        self._url = url
        self._channel = channel
        self._inbox = inbox
        self._conn: asyncpg.Connection | None = None
        self._lost = asyncio.Event()

    def _received(self, conn: object, pid: int, channel: str, payload: object) -> None:
        del conn, pid, channel
        self._inbox.put(payload if isinstance(payload, str) else None)

    async def connect(self) -> None:
        try:
            conn = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT_S,
                                         server_settings={"application_name": "sandbox-listen"})
        except (*_DRIVER_ERRORS, asyncio.TimeoutError) as exc:
            raise StorageError(f"could not listen on {_without_password(self._url)}: {exc}") from exc
        self._lost = lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: lost.set())
        try:
            await conn.add_listener(self._channel, self._received)
        except (*_DRIVER_ERRORS, asyncio.TimeoutError) as exc:
            conn.terminate()
            raise StorageError(f"could not listen: {exc}") from exc
        self._conn = conn

    def disconnect(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()  # the server drops its LISTEN with the session

    async def _alive(self) -> bool:
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            await conn.fetchval("SELECT 1", timeout=LISTEN_PING_S)
        except (*_DRIVER_ERRORS, asyncio.TimeoutError):
            return False
        return True

    async def run(self) -> None:
        pause = LISTEN_RETRY_S[0]
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._lost.wait(), LISTEN_PING_S)
            if await self._alive():
                continue
            self.disconnect()
            while True:
                try:
                    await self.connect()
                    break
                except StorageError:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, LISTEN_RETRY_S[1])
            pause = LISTEN_RETRY_S[0]
            self._inbox.put(None)  # whatever was sent while it was down is unknown

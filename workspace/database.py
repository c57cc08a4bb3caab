"""The SQLite connection: opening it, its write lock, and the transactions run on it.

``Database.open`` creates the file's directory, connects in autocommit mode (transactions
are explicit), applies the pragmas and runs the migrations. One ``asyncio.Lock`` serialises
this process's use of the connection; ``BEGIN IMMEDIATE`` keeps two processes' writes from
interleaving. ``Database.transaction`` is the one place sqlite errors become workspace
errors: an integrity failure becomes ``Conflict``, a lock held past the busy timeout
``EBUSY``.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Protocol

import aiosqlite

from .errors import Conflict, InvalidArgument, WorkspaceError
from .schema import configure_connection, migrate

__all__ = ["Database", "TransactionHooks"]


class TransactionHooks(Protocol):
    """What a transaction's owner does at each step of ``Database.transaction``."""

    async def start(self) -> None:
        """First thing inside the transaction (after BEGIN, when there is one)."""

    async def before_commit(self) -> None:
        """Last statements of a transaction whose body finished; they commit with it."""

    async def committed(self) -> None:
        """After the commit, outside the lock."""

    async def rolled_back(self) -> None:
        """After a rollback, whatever caused it."""


class Database:
    """One aiosqlite connection and the lock that serialises this process's use of it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Connect to ``path`` (creating its directory), set the pragmas, migrate."""
        db = Path(path)
        db.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(db, isolation_level=None)
        try:
            await configure_connection(conn)
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.conn.close()

    @asynccontextmanager
    async def transaction(self, hooks: TransactionHooks, *, write: bool, consistent: bool = True) -> AsyncIterator[None]:
        """One SQLite transaction under the lock; what the body did commits together or not at all.

        ``consistent=False`` (reads only) skips BEGIN/COMMIT: each statement then sees the
        latest commit on its own. Writes from this process are excluded either way by the lock.
        """
        if self._closed:
            raise WorkspaceError("the workspace store is closed", code="EIO")
        if write and not consistent:
            raise InvalidArgument("write transactions are always consistent")
        async with self.lock:
            if not write and not consistent:
                await hooks.start()
                yield
                return
            committing = False
            try:
                await self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                await hooks.start()
                yield
                await hooks.before_commit()
                committing = True
                await self.conn.execute("COMMIT")
            except BaseException as exc:
                # Statements run in aiosqlite's thread in order, so this ROLLBACK runs after
                # anything already sent, even if our await on it was cancelled.
                rolled_back = await self._rollback()
                if committing and not rolled_back:
                    # The COMMIT went through although its await was interrupted: the rows
                    # exist, so their new blobs must stay; finish as a committed change.
                    await hooks.committed()
                    raise
                await hooks.rolled_back()
                if isinstance(exc, sqlite3.IntegrityError):
                    raise Conflict(f"the database refused a change: {exc}") from exc
                if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    # Another process held the write lock past busy_timeout.
                    raise WorkspaceError("the database is busy; retry the operation", code="EBUSY") from exc
                raise
        await hooks.committed()

    async def _rollback(self) -> bool:
        """Roll back; False when no transaction was open (BEGIN failed, or COMMIT already ran)."""
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            return False
        return True

"""The workspace store's database: opening it, its write lock, and the transactions run on it.

``Database.open`` opens the database a target names (a SQLite file path, or a
``postgresql://`` URL; see the ``storage`` package) and runs the workspace migrations.
``Database.transaction`` runs one transaction with the owner's hooks at each step. A write
takes the write lock of its workspace (``lock``): SQLite has one per file (``BEGIN
IMMEDIATE``), PostgreSQL an advisory lock per name, so writers to different workspaces do
not wait for each other there. It is the one place storage errors become workspace errors:
an integrity failure becomes ``Conflict``, a lock held too long ``EBUSY``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar

import storage

from .errors import Conflict, InvalidArgument, WorkspaceError
from .schema import WORKSPACE_MIGRATIONS

__all__ = ["Database", "TransactionHooks"]

_T = TypeVar("_T")


class TransactionHooks(Protocol):
    """What a transaction's owner does at each step of ``Database.transaction``."""

    async def start(self, conn: storage.Connection) -> None:
        """First thing inside the transaction (after BEGIN, when there is one), on ``conn``."""

    async def before_commit(self) -> None:
        """Last statements of a transaction whose body finished; they commit with it."""

    async def committed(self) -> None:
        """After the commit, outside the lock."""

    async def rolled_back(self) -> None:
        """After a rollback, whatever caused it."""


class Database:
    """The storage database and the transactions of the workspace store on it."""

    def __init__(self, db: storage.Database) -> None:
        self.db = db
        self._closed = False

    @classmethod
    async def open(cls, target: str | os.PathLike[str] | storage.Database) -> Database:
        """Open ``target`` (creating a SQLite file's directory) and migrate."""
        db = await storage.open_database(target)
        try:
            await storage.apply_migrations(db, "workspace", WORKSPACE_MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.db.close()

    def _check_open(self) -> None:
        if self._closed:
            raise WorkspaceError("the workspace store is closed", code="EIO")

    async def read(self, fn: storage.BodyFn[_T], *args: Any) -> _T:
        """The read-only body ``fn(*args)`` (see ``storage.body``) in a transaction of its
        own: a quick one, on the event loop when SQLite is free (bodies of a few rows)."""
        self._check_open()
        try:
            return await self.db.run(fn, *args, write=False, quick=True)
        except storage.BusyError as exc:
            raise WorkspaceError("the database is busy; retry the operation", code="EBUSY") from exc

    @asynccontextmanager
    async def statements(self) -> AsyncIterator[storage.Connection]:
        """A connection for statements that each stand alone (no transaction around them)."""
        self._check_open()
        async with self.db.session() as session:
            yield session

    @asynccontextmanager
    async def transaction(self, hooks: TransactionHooks, *, write: bool, consistent: bool = True,
                          lock: str = "database", quick: bool = False) -> AsyncIterator[storage.Connection]:
        """One transaction; what the body did commits together or not at all.

        ``consistent=False`` (reads only) skips BEGIN/COMMIT: each statement then sees the
        latest commit on its own. On SQLite, writes from this process are excluded either way
        by the connection's lock. ``quick``: a transaction of a few short statements (a small
        file written), run on the event loop when the database is free at that moment (see
        ``storage``'s quick sessions), else as any other.
        """
        self._check_open()
        if write and not consistent:
            raise InvalidArgument("write transactions are always consistent")
        if quick and consistent:
            async with self.db.session(quick=True) as session:
                try:
                    await session.begin(write=write, lock=lock)
                    began = True
                except storage.BusyError:
                    began = False  # another connection is writing: nothing ran, wait below
                if began:
                    async with _committing(session, hooks):
                        yield session
            if began:
                await hooks.committed()
                return
        async with self.db.session() as session:
            if not write and not consistent:
                await hooks.start(session)
                yield session
                return
            async with _committing(session, hooks, lambda: session.begin(write=write, lock=lock)):
                yield session
        await hooks.committed()


@asynccontextmanager
async def _committing(session: storage.Session, hooks: TransactionHooks,
                      begin: Callable[[], Awaitable[None]] | None = None) -> AsyncIterator[None]:
    """``begin`` (unless the transaction is open already), the owner's hooks around the
    body, and the commit; on any failure a rollback, with storage errors made workspace
    errors."""
    committing = False
    try:
        if begin is not None:
            await begin()
        await hooks.start(session)
        yield
        await hooks.before_commit()
        committing = True
        await session.commit()
    except BaseException as exc:
        rolled_back = await session.rollback()
        if committing and not rolled_back:
            if not isinstance(exc, Exception):
                # The COMMIT was sent and went through although our await on it was
                # interrupted: the rows exist, so their new blobs must stay.
                await hooks.committed()
                raise
            if not isinstance(exc, (storage.IntegrityError, storage.BusyError)):
                # The connection failed during the COMMIT: whether it happened is
                # unknown, so no blob is deleted either way (orphans are collected).
                raise
        await hooks.rolled_back()
        if isinstance(exc, storage.IntegrityError):
            raise Conflict(f"the database refused a change: {exc}") from exc
        if isinstance(exc, storage.BusyError):
            raise WorkspaceError("the database is busy; retry the operation", code="EBUSY") from exc
        raise

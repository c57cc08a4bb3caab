"""One database handle lent to several stores: :func:`borrowed`.

A service process on PostgreSQL opens one pool and hands each store (workspaces, tokens,
Code Mode, the audit log, the event relay) a borrowed view of it, so N processes hold N
pools, not five times N. A store closes what it was given when it closes; closing a
borrowed view does nothing, and the owner closes the database itself once every store is
done. SQLite is not shared this way: each store keeps its own connection (and thread), as
one connection under one lock would serialise stores that today run side by side.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from .body import BodyFn
from .interface import Connection, Database, Dialect, Session

__all__ = ["borrowed"]

_T = TypeVar("_T")


class _Borrowed:
    """Everything of ``Database`` but ``close``, which leaves the lender's database open."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def lender(self) -> Database:
        return self._db

    @property
    def dialect(self) -> Dialect:
        return self._db.dialect

    @property
    def url(self) -> str:
        return self._db.url

    def session(self, *, quick: bool = False) -> AbstractAsyncContextManager[Session]:
        return self._db.session(quick=quick)

    def transaction(self, *, write: bool, lock: str = "database",
                    consistent: bool = True) -> AbstractAsyncContextManager[Connection]:
        return self._db.transaction(write=write, lock=lock, consistent=consistent)

    async def run(self, fn: BodyFn[_T], *args: Any, write: bool = True,
                  lock: str = "database", quick: bool = False) -> _T:
        return await self._db.run(fn, *args, write=write, lock=lock, quick=quick)

    async def notify(self, channel: str, payload: str) -> None:
        await self._db.notify(channel, payload)

    def listen(self, channel: str) -> AbstractAsyncContextManager[AsyncIterator[str | None]]:
        return self._db.listen(channel)

    async def close(self) -> None:
        """Nothing: the lender closes the database."""


def borrowed(db: Database) -> Database:
    """A view of ``db`` for one store: the same sessions, but its ``close`` does nothing."""
    return _Borrowed(db)

"""The one transaction shape both implementations share: begin, body, commit, or roll back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .interface import Connection, Database

__all__ = ["transaction"]


@asynccontextmanager
async def transaction(db: Database, *, write: bool, lock: str,
                      consistent: bool) -> AsyncIterator[Connection]:
    async with db.session() as session:
        if not write and not consistent:
            yield session
            return
        try:
            await session.begin(write=write, lock=lock, consistent=consistent)
        except BaseException:
            # A caller cancelled while it awaited BEGIN stops waiting, but the database may
            # still run it: the rollback queued behind it keeps the connection from staying
            # inside that transaction (every later BEGIN would fail).
            await asyncio.shield(session.rollback())
            raise
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()

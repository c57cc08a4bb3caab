"""The one transaction shape both implementations share: begin, body, commit, or roll back."""

from __future__ import annotations

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
        await session.begin(write=write, lock=lock, consistent=consistent)
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()

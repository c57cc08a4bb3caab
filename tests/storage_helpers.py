"""A database opened on a test's URL with a test's schema, closed when the test is done."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import storage


@asynccontextmanager
async def migrated(url: str, schema: Sequence[storage.Migration], *,
                   close_within_s: float | None = None) -> AsyncIterator[storage.Database]:
    """``url`` opened and ``schema`` applied (as component ``test``); closed afterwards,
    within ``close_within_s`` when given (a hang must fail the test, not stall the suite)."""
    db = await storage.open_database(url)
    try:
        await storage.apply_migrations(db, "test", schema)
        yield db
    finally:
        async with asyncio.timeout(close_within_s):
            await db.close()


def hops_of(db: storage.SQLiteDatabase) -> list[Any]:
    """Every call sent to the connection's thread from now on."""
    hops: list[Any] = []
    real = getattr(db.conn, "_execute")

    def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(fn)
        return real(fn, *args, **kwargs)

    setattr(db.conn, "_execute", counted)
    return hops

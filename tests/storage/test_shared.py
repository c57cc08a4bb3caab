"""``storage.borrowed``: stores given a borrowed view of one database share its sessions,
and a store closing its view leaves the database open for the others."""

from __future__ import annotations

import pytest

import storage


async def test_closing_a_borrowed_view_leaves_the_lenders_database_open(database: str) -> None:
    db = await storage.open_database(database)
    try:
        first, second = storage.borrowed(db), storage.borrowed(db)
        assert first.dialect is db.dialect and first.url == db.url
        async with first.transaction(write=True) as conn:
            await conn.execute("CREATE TABLE shared_t (n INTEGER)")
            await conn.execute("INSERT INTO shared_t (n) VALUES (?)", (7,))
        await first.close()
        async with second.transaction(write=False) as conn:
            assert await conn.fetchone("SELECT n FROM shared_t") == (7,)
        assert await storage.open_database(second) is second  # an open database is used as is
    finally:
        await db.close()
    with pytest.raises(storage.StorageError):
        async with second.session():
            pass

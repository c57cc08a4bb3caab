"""A test's direct hand on a running service's tables, on whichever backend it uses: a
``sqlite3`` connection to its file, or the same two calls over asyncpg (autocommit), so a
test can fake a crash ("left running by a dead process") on both backends alike."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from typing import Any

import asyncpg

from sandbox.service import Settings
from storage.postgres import positional


class _Rows:
    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def fetchone(self) -> Any:
        return tuple(self.rows[0]) if self.rows else None

    def fetchall(self) -> list[Any]:
        return [tuple(r) for r in self.rows]


class _PostgresTables:
    def __init__(self, url: str) -> None:
        self.url = url

    def __enter__(self) -> _PostgresTables:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        async def run() -> list[Any]:
            conn = await asyncpg.connect(self.url)
            try:
                return list(await conn.fetch(positional(sql), *params))
            finally:
                await conn.close()
        return _Rows(asyncio.run(run()))


def tables(settings: Settings) -> Any:
    """``with tables(settings) as db: db.execute(sql, params).fetchone()``."""
    if settings.database_url is None:
        return sqlite3.connect(settings.database_path)
    return _PostgresTables(settings.database_url)

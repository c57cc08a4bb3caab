"""Which backend a database target names, and opening it.

A ``postgresql://`` (or ``postgres://``) URL opens PostgreSQL; anything else is the path of
a SQLite file, the embedded default that needs nothing installed. An open ``Database``
(one lent by :func:`storage.borrowed`) is used as it is, so every store's ``open`` takes
either.
"""

from __future__ import annotations

import os

from .interface import Database

__all__ = ["is_postgresql", "open_database"]


def is_postgresql(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | os.PathLike[str] | Database, *,
                        pool_size: int | None = None) -> Database:
    """Open the database ``target`` names (see the module docstring); on PostgreSQL a pool
    of at most ``pool_size`` connections (default ``DEFAULT_POOL_SIZE``)."""
    if not isinstance(target, (str, os.PathLike)):
        return target
    if is_postgresql(target):
        # Imported only here: a SQLite-only install never loads the PostgreSQL driver.
        from .postgres import DEFAULT_POOL_SIZE, PostgresDatabase

        return await PostgresDatabase.open(str(target), max_size=pool_size or DEFAULT_POOL_SIZE)
    from .sqlite import SQLiteDatabase

    return await SQLiteDatabase.open(target)

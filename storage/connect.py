"""Which backend a database target names, and opening it.

A ``postgresql://`` (or ``postgres://``) URL opens PostgreSQL; anything else is the path of
a SQLite file, the embedded default that needs nothing installed.
"""

from __future__ import annotations

import os

from .interface import Database

__all__ = ["is_postgresql", "open_database"]


def is_postgresql(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | os.PathLike[str]) -> Database:
    """Open the database ``target`` names (see the module docstring)."""
    if is_postgresql(target):
        # Imported only here: a SQLite-only install never loads the PostgreSQL driver.
        from .postgres import PostgresDatabase

        return await PostgresDatabase.open(str(target))
    from .sqlite import SQLiteDatabase

    return await SQLiteDatabase.open(target)

"""Storage: the one seam between every store and its database, SQLite or PostgreSQL.

Every store (workspaces, tokens, ...) talks to a :class:`Database` from
:func:`open_database`: SQLite (``storage.sqlite``, over aiosqlite, the embedded default) for
a file path, PostgreSQL (``storage.postgres``, over an asyncpg pool, the scale-out backend)
for a ``postgresql://`` URL. A store writes its SQL once (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``) and its DDL per backend as versioned :class:`Migration` entries.

Modules: ``interface`` (the protocols, the dialect facts, the errors), ``body``
(transaction bodies: SQL as a generator of statements, one hop on SQLite), ``sqlite``,
``postgres``, ``migrations`` (the versioned runner), ``connect`` (choosing and opening),
``shared`` (one database lent to several stores).
This package imports nothing else of ours: it is the bottom layer under workspace, Code
Mode and the audit log.
"""

from .body import Body, BodyFn, Execute, ExecuteMany, FetchAll, FetchOne, Lock, Statement, run_now
from .connect import is_postgresql, open_database
from .interface import (
    POSTGRESQL,
    SQLITE,
    BusyError,
    Connection,
    Database,
    Dialect,
    IntegrityError,
    Record,
    Session,
    StorageError,
    UnstorableValue,
)
from .migrations import Migration, apply_migrations
from .shared import borrowed
from .sqlite import SQLiteDatabase, immediately, on_thread

__all__ = [
    "apply_migrations",
    "Body",
    "borrowed",
    "BodyFn",
    "BusyError",
    "Connection",
    "Database",
    "Dialect",
    "Execute",
    "ExecuteMany",
    "FetchAll",
    "FetchOne",
    "immediately",
    "IntegrityError",
    "is_postgresql",
    "Lock",
    "Migration",
    "on_thread",
    "open_database",
    "POSTGRESQL",
    "Record",
    "run_now",
    "Session",
    "SQLITE",
    "SQLiteDatabase",
    "Statement",
    "StorageError",
    "UnstorableValue",
]

"""The audit tables, in the service's one SQLite file, under the migration component ``audit``.

``audit_log``
    one row per event. ``seq`` is gap-free: each writer takes ``last + 1`` inside its
    IMMEDIATE transaction (AUTOINCREMENT only so that ``sqlite_sequence`` remembers the
    highest seq ever written, which makes a plain truncation of the tail visible).
    ``subject`` and ``body`` are canonical JSON texts; ``prev_hash`` is the previous row's
    ``row_hash`` (64 zeros for the first row) and ``row_hash`` is
    ``SHA-256(bytes.fromhex(prev_hash) || canonical_row)``, hex (see :mod:`audit.chain`).
``audit_checkpoints``
    signed ``(seq, head_hash, time)`` statements (see :mod:`audit.signing`).

Triggers refuse every UPDATE and DELETE on both tables. That stops accidents and honest
code, not an attacker with the file: the chain and the checkpoints exported outside the
database are what make tampering visible.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from workspace import apply_migrations

__all__ = ["AUDIT_MIGRATIONS", "migrate"]


def _append_only(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}"
        f" BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be {done}'); END"
        for verb, done in (("UPDATE", "changed"), ("DELETE", "deleted"))]


# (version, statements). Append new versions; never edit a released one.
AUDIT_MIGRATIONS: Sequence[tuple[int, Sequence[str]]] = (
    (
        1,
        (
            """
            CREATE TABLE audit_log (
                seq        INTEGER PRIMARY KEY AUTOINCREMENT,
                time       REAL    NOT NULL,
                tenant     TEXT    NOT NULL,
                principal  TEXT    NOT NULL,
                event      TEXT    NOT NULL,
                subject    TEXT    NOT NULL,
                body       TEXT    NOT NULL,
                prev_hash  TEXT    NOT NULL,
                row_hash   TEXT    NOT NULL
            )
            """,
            # Tenant-scoped reads page by seq within one tenant.
            "CREATE INDEX audit_log_tenant ON audit_log (tenant, seq)",
            """
            CREATE TABLE audit_checkpoints (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                seq        INTEGER NOT NULL,
                head_hash  TEXT    NOT NULL,
                time       REAL    NOT NULL,
                key_id     TEXT    NOT NULL,
                signature  TEXT    NOT NULL
            )
            """,
            *_append_only("audit_log"),
            *_append_only("audit_checkpoints"),
        ),
    ),
)


async def migrate(conn: aiosqlite.Connection) -> int:
    """Bring the audit tables up to date on ``conn`` (idempotent; safe from two processes)."""
    return await apply_migrations(conn, "audit", AUDIT_MIGRATIONS)

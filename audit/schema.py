"""The audit tables, on either backend, under the migration component ``audit``.

``audit_log``
    one row per event. ``seq`` is gap-free: each writer takes ``last + 1`` inside its
    IMMEDIATE transaction (AUTOINCREMENT only so that ``sqlite_sequence`` remembers the
    highest seq ever written, which makes a plain truncation of the tail visible).
    ``subject`` and ``body`` are canonical JSON texts; ``prev_hash`` is the previous row's
    ``row_hash`` (64 zeros for the first row) and ``row_hash`` is
    ``SHA-256(bytes.fromhex(prev_hash) || canonical_row)``, hex (see :mod:`audit.chain`).
``audit_checkpoints``
    signed ``(seq, head_hash, time)`` statements (see :mod:`audit.signing`).

Triggers refuse every UPDATE and DELETE on both tables (on PostgreSQL one plpgsql function,
and TRUNCATE too). That stops accidents and honest
code, not an attacker with the file: the chain and the checkpoints exported outside the
database are what make tampering visible.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage import POSTGRESQL, SQLITE, Database, Dialect, Migration, apply_migrations

__all__ = ["AUDIT_MIGRATIONS", "migrate"]

_TABLES = ("audit_log", "audit_checkpoints")


def _sqlite_append_only(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}"
        f" BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be {done}'); END"
        for verb, done in (("UPDATE", "changed"), ("DELETE", "deleted"))]


# One plpgsql function refuses the change; as an integrity violation, as SQLite's RAISE(ABORT)
# in a trigger is, so both backends fail the statement with the seam's IntegrityError.
# TRUNCATE has no rows to fire on: a statement trigger covers it.
_PG_REFUSE = """
CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: rows cannot be %', TG_TABLE_NAME,
        CASE TG_OP WHEN 'UPDATE' THEN 'changed' ELSE 'deleted' END
        USING ERRCODE = 'integrity_constraint_violation';
END
$$"""


def _postgresql_append_only(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION audit_append_only()",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}"
        " FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()",
    ]


def _v1(d: Dialect) -> list[str]:
    # SQLite: AUTOINCREMENT only so that sqlite_sequence remembers the highest seq ever
    # written (a truncated tail shows); the seq itself is always given by the append.
    seq = d.identity if d is SQLITE else f"{d.integer} PRIMARY KEY"
    statements = [
        f"""
        CREATE TABLE audit_log (
            seq        {seq},
            time       {d.real} NOT NULL,
            tenant     TEXT    NOT NULL,
            principal  TEXT    NOT NULL,
            event      {d.key_text} NOT NULL,
            subject    TEXT    NOT NULL,
            body       TEXT    NOT NULL,
            prev_hash  TEXT    NOT NULL,
            row_hash   TEXT    NOT NULL
        )
        """,
        # Tenant-scoped reads page by seq within one tenant.
        "CREATE INDEX audit_log_tenant ON audit_log (tenant, seq)",
        f"""
        CREATE TABLE audit_checkpoints (
            id         {d.identity},
            seq        {d.integer} NOT NULL,
            head_hash  TEXT    NOT NULL,
            time       {d.real} NOT NULL,
            key_id     TEXT    NOT NULL,
            signature  TEXT    NOT NULL
        )
        """,
    ]
    if d is SQLITE:
        return [*statements, *(s for t in _TABLES for s in _sqlite_append_only(t))]
    return [*statements, _PG_REFUSE, *(s for t in _TABLES for s in _postgresql_append_only(t))]


# Append new versions; never edit a released one (version 1 on SQLite is what shipped).
AUDIT_MIGRATIONS: Sequence[Migration] = (Migration(1, _v1(SQLITE), _v1(POSTGRESQL)),)


async def migrate(db: Database) -> int:
    """Bring the audit tables up to date in ``db`` (idempotent; safe from two processes)."""
    return await apply_migrations(db, "audit", AUDIT_MIGRATIONS)

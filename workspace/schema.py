"""The workspace tables, per backend, and the legacy SQLite-only migration runner.

Every component's tables live in one database (a SQLite file in WAL mode, or PostgreSQL);
``schema_migrations`` records, per component, which numbered migrations have run (see
``storage.apply_migrations``). ``WORKSPACE_MIGRATIONS`` spells each version for both
backends: PostgreSQL's paths are ``COLLATE "C"`` so range scans and ``ORDER BY`` compare
bytes as SQLite does, its integers 64-bit, its floats double precision, its bytes ``bytea``.
``apply_migrations``/``configure_connection`` on a bare aiosqlite connection remain for the
stores not yet on the ``storage`` seam.

Workspace layout (component ``workspace``):

``workspaces``
    one row per named workspace. ``seq`` is the last entry version handed out in that
    workspace: every write takes ``seq + 1``, so a version is never reused, even after a
    path is deleted and created again (that is what makes conflict detection sound).
``workspace_entries``
    one row per file, directory or symlink; the root ``/`` row always exists once the
    workspace does. ``parent_path`` is NULL only for the root. ``storage`` is ``inline``
    (bytes in ``content``) or ``blob`` (bytes in ``<blob_dir>/<key[:2]>/<key>``, ``content``
    NULL). Content is stored as raw bytes, so there is no text/base64 encoding column.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from storage import POSTGRESQL, SQLITE, Dialect, Migration

__all__ = ["WORKSPACE_MIGRATIONS", "apply_migrations", "configure_connection"]


def _v1(d: Dialect) -> tuple[str, ...]:
    return (
        f"""
        CREATE TABLE workspaces (
            id          {d.identity},
            name        {d.key_text} NOT NULL UNIQUE,
            created_at  {d.real}    NOT NULL,
            seq         {d.integer} NOT NULL DEFAULT 0
        )
        """,
        f"""
        CREATE TABLE workspace_entries (
            workspace_id {d.integer} NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
            path         {d.key_text} NOT NULL,
            parent_path  {d.key_text},
            name         {d.key_text} NOT NULL,
            type         TEXT    NOT NULL CHECK (type IN ('file', 'directory', 'symlink')),
            mime_type    TEXT    NOT NULL DEFAULT 'text/plain',
            size         {d.integer} NOT NULL DEFAULT 0,
            storage      TEXT    NOT NULL DEFAULT 'inline' CHECK (storage IN ('inline', 'blob')),
            blob_key     TEXT,
            target       TEXT,
            content      {d.blob},
            version      {d.integer} NOT NULL,
            created_at   {d.real}    NOT NULL,
            modified_at  {d.real}    NOT NULL,
            PRIMARY KEY (workspace_id, path)
        )
        """,
        # list_dir reads children by parent; the primary key serves range scans by path.
        "CREATE INDEX workspace_entries_parent ON workspace_entries (workspace_id, parent_path)",
        """
        CREATE UNIQUE INDEX workspace_entries_blob ON workspace_entries (blob_key)
        WHERE blob_key IS NOT NULL
        """,
    )


def _v2(d: Dialect) -> tuple[str, ...]:
    return (
        # Writes a caller tagged with a key (Code Mode: execution_id:seq), recorded in the
        # write's own transaction, so a caller that crashed after the write committed can
        # tell, and does not apply it twice.
        f"""
        CREATE TABLE workspace_operations (
            key         TEXT PRIMARY KEY,
            workspace   TEXT NOT NULL,
            applied_at  {d.real} NOT NULL
        )
        """,
        "CREATE INDEX workspace_operations_age ON workspace_operations (applied_at)",
    )


def _v3(d: Dialect) -> tuple[str, ...]:
    return (
        # The tenant a workspace belongs to; its name column holds the storage key
        # (see workspace.tenants), so names stay unique per tenant.
        "ALTER TABLE workspaces ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'",
        "CREATE INDEX workspaces_tenant ON workspaces (tenant, name)",
    )


# Append new versions; never edit a released one.
WORKSPACE_MIGRATIONS: Sequence[Migration] = tuple(
    Migration(version, step(SQLITE), step(POSTGRESQL)) for version, step in ((1, _v1), (2, _v2), (3, _v3))
)


async def configure_connection(conn: aiosqlite.Connection, *, busy_timeout_ms: int = 10_000) -> None:
    """Per-connection settings: WAL so readers never block the writer, foreign keys on."""
    await conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode survives a process crash; only an OS crash may lose the last commit.
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("PRAGMA foreign_keys=ON")
    await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")


async def apply_migrations(
    conn: aiosqlite.Connection,
    component: str,
    migrations: Sequence[tuple[int, Sequence[str]]],
) -> int:
    """Run the migrations of ``component`` not yet recorded; return the resulting version.

    Each version runs in its own IMMEDIATE transaction together with its bookkeeping row,
    so two processes starting at once cannot both apply it.
    """
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " component TEXT NOT NULL, version INTEGER NOT NULL, applied_at REAL NOT NULL"
        " DEFAULT (strftime('%s', 'now')), PRIMARY KEY (component, version))"
    )
    await conn.commit()
    current = 0
    for version, statements in sorted(migrations, key=lambda m: m[0]):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            async with conn.execute(
                "SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?",
                (component, version),
            ) as cur:
                done = await cur.fetchone() is not None
            if not done:
                for statement in statements:
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (component, version) VALUES (?, ?)",
                    (component, version),
                )
            await conn.commit()
        except BaseException:
            await conn.rollback()
            raise
        current = version
    return current

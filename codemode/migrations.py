"""The ``codemode`` component's schema history: the store's tables and the journal's.

Each owner keeps its own list of ``(version, statements)``; one version's statements from
several owners run together, in the order the owners are merged. Append new versions; never
edit a released one. Status and state columns carry no CHECK: later runtime versions may add
states, and SQLite cannot alter a CHECK without rebuilding the table; the store validates them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codemode import journal as _journal
from storage import Migration

__all__ = ["CODEMODE_MIGRATIONS", "on_both"]

_STORE_MIGRATIONS: Sequence[tuple[int, Sequence[str]]] = (
    (
        1,
        (
            """
            CREATE TABLE codemode_executions (
                id              TEXT    PRIMARY KEY,
                workspace       TEXT    NOT NULL,
                code            TEXT    NOT NULL,
                status          TEXT    NOT NULL,
                result          TEXT,
                result_recorded INTEGER NOT NULL DEFAULT 1,
                error           TEXT,
                logs            TEXT    NOT NULL DEFAULT '[]',
                namespaces      TEXT    NOT NULL DEFAULT '{}',
                toolsets        TEXT    NOT NULL DEFAULT '[]',
                runtime_version INTEGER NOT NULL DEFAULT 1,
                created_at      REAL    NOT NULL,
                updated_at      REAL    NOT NULL
            )
            """,
            # Listing and retention read newest-first per workspace, and by status.
            "CREATE INDEX codemode_executions_workspace"
            " ON codemode_executions (workspace, created_at)",
            "CREATE INDEX codemode_executions_status ON codemode_executions (status, created_at)",
            """
            CREATE TABLE codemode_toolsets (
                name        TEXT    PRIMARY KEY,
                description TEXT,
                definition  TEXT    NOT NULL,
                tool_count  INTEGER NOT NULL,
                created_at  REAL    NOT NULL,
                updated_at  REAL    NOT NULL
            )
            """,
            """
            CREATE TABLE codemode_snippets (
                name         TEXT PRIMARY KEY,
                code         TEXT NOT NULL,
                description  TEXT NOT NULL DEFAULT '',
                input_schema TEXT,
                namespaces   TEXT NOT NULL DEFAULT '{}',
                execution_id TEXT,
                created_at   REAL NOT NULL
            )
            """,
        ),
    ),
    (
        2,
        (
            # What a resume needs (inline tools, grants, limits), who runs it, until when.
            "ALTER TABLE codemode_executions ADD COLUMN options TEXT NOT NULL DEFAULT '{}'",
            "ALTER TABLE codemode_executions ADD COLUMN owner TEXT",
            "ALTER TABLE codemode_executions ADD COLUMN lease_until REAL",
            "ALTER TABLE codemode_executions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
            """
            CREATE TABLE codemode_approvals (
                id           TEXT    PRIMARY KEY,
                execution_id TEXT    NOT NULL
                             REFERENCES codemode_executions(id) ON DELETE CASCADE,
                seq          INTEGER NOT NULL,
                workspace    TEXT    NOT NULL,
                namespace    TEXT    NOT NULL,
                method       TEXT    NOT NULL,
                args         TEXT    NOT NULL,
                descriptor   TEXT    NOT NULL,
                mode         TEXT    NOT NULL,
                status       TEXT    NOT NULL,
                decided_by   TEXT,
                decided_at   REAL,
                reason       TEXT,
                created_at   REAL    NOT NULL,
                UNIQUE (execution_id, seq)
            )
            """,
            "CREATE INDEX codemode_approvals_status"
            " ON codemode_approvals (status, workspace, created_at)",
        ),
    ),
    (
        3,
        (
            # Tenants: every execution, approval, toolset and snippet belongs to one, and
            # names are unique per tenant. Rows from before tenants are the default tenant's.
            "ALTER TABLE codemode_executions ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'",
            "ALTER TABLE codemode_executions ADD COLUMN principal TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX codemode_executions_tenant"
            " ON codemode_executions (tenant, workspace, created_at)",
            "ALTER TABLE codemode_approvals ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'",
            "ALTER TABLE codemode_approvals ADD COLUMN decided_tenant TEXT",
            "CREATE INDEX codemode_approvals_tenant"
            " ON codemode_approvals (tenant, status, created_at)",
            # A primary key cannot be altered in SQLite: rebuild (nothing references these).
            """
            CREATE TABLE codemode_toolsets_by_tenant (
                tenant      TEXT    NOT NULL DEFAULT 'default',
                name        TEXT    NOT NULL,
                description TEXT,
                definition  TEXT    NOT NULL,
                tool_count  INTEGER NOT NULL,
                created_at  REAL    NOT NULL,
                updated_at  REAL    NOT NULL,
                PRIMARY KEY (tenant, name)
            )
            """,
            "INSERT INTO codemode_toolsets_by_tenant"
            " (name, description, definition, tool_count, created_at, updated_at)"
            " SELECT name, description, definition, tool_count, created_at, updated_at"
            " FROM codemode_toolsets",
            "DROP TABLE codemode_toolsets",
            "ALTER TABLE codemode_toolsets_by_tenant RENAME TO codemode_toolsets",
            """
            CREATE TABLE codemode_snippets_by_tenant (
                tenant       TEXT NOT NULL DEFAULT 'default',
                name         TEXT NOT NULL,
                code         TEXT NOT NULL,
                description  TEXT NOT NULL DEFAULT '',
                input_schema TEXT,
                namespaces   TEXT NOT NULL DEFAULT '{}',
                execution_id TEXT,
                created_at   REAL NOT NULL,
                PRIMARY KEY (tenant, name)
            )
            """,
            "INSERT INTO codemode_snippets_by_tenant"
            " (name, code, description, input_schema, namespaces, execution_id, created_at)"
            " SELECT name, code, description, input_schema, namespaces, execution_id, created_at"
            " FROM codemode_snippets",
            "DROP TABLE codemode_snippets",
            "ALTER TABLE codemode_snippets_by_tenant RENAME TO codemode_snippets",
        ),
    ),
    (
        4,
        (
            # The console pages a tenant's executions newest first (by status too) with a
            # (created_at, id) cursor: these walk straight to a page instead of sorting every
            # row of the tenant (code, result and logs included) for each one.
            "CREATE INDEX codemode_executions_newest"
            " ON codemode_executions (tenant, created_at, id)",
            "CREATE INDEX codemode_executions_tenant_status"
            " ON codemode_executions (tenant, status, created_at, id)",
        ),
    ),
)


def _merged(*histories: Sequence[tuple[int, Sequence[str]]]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """One component's migrations from several owners: each version's statements, in order."""
    versions: dict[int, list[str]] = {}
    for history in histories:
        for version, statements in history:
            versions.setdefault(version, []).extend(statements)
    return tuple((version, tuple(versions[version])) for version in sorted(versions))


CODEMODE_MIGRATIONS: Sequence[tuple[int, Sequence[str]]] = _merged(
    _STORE_MIGRATIONS, _journal.JOURNAL_MIGRATIONS
)
"""Every version of the ``codemode`` component: the store's tables and the journal's."""


_PG_TYPES = ((re.compile(r"\bREAL\b"), "DOUBLE PRECISION"), (re.compile(r"\bINTEGER\b"), "BIGINT"),
             (re.compile(r"\bTEXT\b"), 'TEXT COLLATE "C"'))


# Submitted code (and a snippet's description) is raw text that may hold NUL or lone
# surrogates, which SQLite keeps (a BLOB when it must, ``codec.sqlite_text``) and a
# PostgreSQL text column refuses: there it is always its UTF-8 bytes (surrogatepass).
_PG_RAW_TEXT = ((re.compile(r"\bcode(\s+)TEXT\b"), r"code\1BYTEA"),
                (re.compile(r"\bdescription(\s+)TEXT NOT NULL DEFAULT ''"),
                 r"description\1BYTEA NOT NULL DEFAULT ''::bytea"))


def _postgresql(statement: str) -> str:
    """A SQLite DDL statement of these histories in PostgreSQL's words: 64-bit integers,
    double-precision reals, text compared bytewise (so orderings match SQLite's), raw text
    as bytes."""
    for pattern, replacement in (*_PG_RAW_TEXT, *_PG_TYPES):
        statement = pattern.sub(replacement, statement)
    return statement


def on_both(history: Sequence[tuple[int, Sequence[str]]]) -> tuple[Migration, ...]:
    """A ``(version, SQLite statements)`` history as ``storage.Migration`` for both backends.

    The histories were released on SQLite and stay its exact statements; their DDL uses
    only plain columns, keys, indexes and table rebuilds, which PostgreSQL runs as written
    once the column types are its own, so each version means the same tables on both.
    """
    return tuple(Migration(version, tuple(statements),
                           tuple(_postgresql(s) for s in statements))
                 for version, statements in history)

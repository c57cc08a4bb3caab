"""The connectors' table, ``codemode_connectors``, and its SQL (no policy).

One row per connector, keyed ``(tenant, name)`` (names are unique per tenant): its type, its
definition as JSON (never a header value), its headers sealed by
:class:`codemode.connector_secrets.SecretBox`, the tools it had when last fetched, and when
it was created, changed and refreshed. The table is its own migration component
(``connectors``), applied by :meth:`codemode.CodeModeStore.open`; the functions take the
connection of a store transaction (``tx.connection``), as the journal's do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


from .codec import json_text
from storage import Connection

__all__ = ["CONNECTOR_MIGRATIONS", "ConnectorRow", "delete_row", "list_rows", "read_row",
           "read_stamp", "write_row"]

CONNECTOR_MIGRATIONS: Sequence[tuple[int, Sequence[str]]] = (
    (
        1,
        (
            """
            CREATE TABLE codemode_connectors (
                tenant       TEXT NOT NULL DEFAULT 'default',
                name         TEXT NOT NULL,
                type         TEXT NOT NULL,
                definition   TEXT NOT NULL,
                headers      TEXT NOT NULL DEFAULT '',
                tools        TEXT NOT NULL DEFAULT '[]',
                created_at   REAL NOT NULL,
                updated_at   REAL NOT NULL,
                refreshed_at REAL NOT NULL,
                PRIMARY KEY (tenant, name)
            )
            """,
        ),
    ),
)
"""Versions of the ``connectors`` component. Append new versions; never edit one."""


@dataclass(frozen=True)
class ConnectorRow:
    """One stored connector as its columns hold it (headers still sealed)."""

    tenant: str
    name: str
    type: str
    definition: dict[str, Any]
    sealed_headers: str
    tools: list[dict[str, Any]]
    created_at: float
    updated_at: float
    refreshed_at: float


_COLUMNS = ("tenant, name, type, definition, headers, tools, created_at, updated_at, "
            "refreshed_at")


def _row(raw: Any) -> ConnectorRow:
    return ConnectorRow(tenant=str(raw[0]), name=str(raw[1]), type=str(raw[2]),
                        definition=json.loads(raw[3]), sealed_headers=str(raw[4]),
                        tools=json.loads(raw[5]), created_at=float(raw[6]),
                        updated_at=float(raw[7]), refreshed_at=float(raw[8]))


async def read_row(conn: Connection, tenant: str, name: str) -> ConnectorRow | None:
    raw = await conn.fetchone(f"SELECT {_COLUMNS} FROM codemode_connectors"
                              " WHERE tenant = ? AND name = ?", (tenant, name))
    return None if raw is None else _row(raw)


async def read_stamp(conn: Connection, tenant: str, name: str
                     ) -> tuple[float, float] | None:
    """``(updated_at, refreshed_at)`` of a connector: whether a copy read earlier is current."""
    raw = await conn.fetchone("SELECT updated_at, refreshed_at FROM codemode_connectors"
                              " WHERE tenant = ? AND name = ?", (tenant, name))
    return None if raw is None else (float(raw[0]), float(raw[1]))


async def list_rows(conn: Connection, tenant: str) -> list[ConnectorRow]:
    rows = await conn.fetchall(f"SELECT {_COLUMNS} FROM codemode_connectors"
                               " WHERE tenant = ? ORDER BY name", (tenant,))
    return [_row(raw) for raw in rows]


async def write_row(conn: Connection, row: ConnectorRow) -> bool:
    """Insert or replace ``row`` (keeping its first ``created_at``); True when it is new."""
    created = await conn.fetchone("SELECT 1 FROM codemode_connectors WHERE tenant = ? AND name = ?",
                                  (row.tenant, row.name)) is None
    await conn.execute(
        f"INSERT INTO codemode_connectors ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tenant, name) DO UPDATE SET type = excluded.type,"
        " definition = excluded.definition, headers = excluded.headers, tools = excluded.tools,"
        " updated_at = excluded.updated_at, refreshed_at = excluded.refreshed_at",
        (row.tenant, row.name, row.type, json_text(row.definition), row.sealed_headers,
         json_text(row.tools), row.created_at, row.updated_at, row.refreshed_at))
    return created


async def delete_row(conn: Connection, tenant: str, name: str) -> bool:
    changed = await conn.execute("DELETE FROM codemode_connectors WHERE tenant = ? AND name = ?",
                             (tenant, name))
    return changed > 0

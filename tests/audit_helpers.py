"""The audit tests' helpers: events to fill a log with, and the raw-sqlite3 hands of an
attacker who drops the append-only triggers first."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from audit import GENESIS, AuditEvent, AuditLog, entry_hash


def event(n: int, tenant: str = "acme") -> AuditEvent:
    return AuditEvent(tenant, "alice", "toolset.put", {"toolset": f"crm{n}"}, {"n": n})


async def fill(log: AuditLog, count: int, tenant: str = "acme") -> None:
    await log.record([event(n, tenant) for n in range(1, count + 1)], at=1_700_000_000.0)


def attacker(db: Path) -> sqlite3.Connection:
    """A plain connection with the append-only triggers dropped, as whoever holds the file can."""
    conn = sqlite3.connect(db, isolation_level=None)
    for trigger in ("audit_log_no_update", "audit_log_no_delete",
                    "audit_checkpoints_no_update", "audit_checkpoints_no_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    return conn


def rewrite_chain(db: Path, edit_seq: int, body: str) -> None:
    """Change one entry's body and recompute every hash from there on, then drop the
    database's own checkpoints: a rewrite the database alone cannot tell from the original."""
    conn = attacker(db)
    rows = conn.execute("SELECT seq, time, tenant, principal, event, subject, body"
                        " FROM audit_log ORDER BY seq").fetchall()
    conn.execute("BEGIN")
    conn.execute("DELETE FROM audit_log")
    conn.execute("DELETE FROM audit_checkpoints")
    prev = GENESIS
    for seq, at, tenant, principal, name, subject, stored in rows:
        text = body if seq == edit_seq else stored
        row_hash = entry_hash(prev, seq, at, tenant, principal, name, subject, text)
        conn.execute("INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, at, tenant, principal, name, subject, text, prev, row_hash))
        prev = row_hash
    conn.execute("COMMIT")
    conn.close()

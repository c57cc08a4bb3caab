"""The hash chain: what an event is, how an entry is hashed, and appending inside a transaction.

``row_hash = SHA-256(bytes.fromhex(prev_hash) || canonical_row)``, hex, where
``canonical_row`` is the canonical JSON (:mod:`audit.canonical`) of
``{"body", "event", "principal", "seq", "subject", "tenant", "time"}`` and ``prev_hash``
is the previous entry's ``row_hash`` (:data:`GENESIS` for seq 1). Because each hash covers
its seq and its predecessor's hash, an edited, removed or reordered entry breaks the chain
at that point.

:func:`append` runs inside a write transaction its caller already opened, so Code Mode
records an event in the very commit that makes the change it describes: both land or
neither does, with no extra commit.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Sequence

import aiosqlite

from storage import on_thread

from .canonical import canonical_json, canonical_row
from .errors import AuditValueError

__all__ = ["GENESIS", "AuditEntry", "AuditEvent", "append", "append_now", "entry_hash"]

GENESIS = "0" * 64
"""The ``prev_hash`` of the first entry."""

_EVENT_NAME = re.compile(r"[a-z][a-z0-9_.]{0,99}")
_MAX_FIELD = 1000


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class AuditEvent:
    """Something that happened, before it has a place in the log.

    ``event`` is a dotted lower-case name (``execution.started``); ``subject`` names what it
    is about (``{"execution_id": ..., "workspace": ...}``); ``body`` is any JSON object.
    """

    tenant: str
    principal: str
    event: str
    subject: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)

    def encoded(self) -> tuple[str, str]:
        """``(subject, body)`` as canonical JSON, after checking every field."""
        if not _EVENT_NAME.fullmatch(self.event):
            raise AuditValueError(f"bad audit event name {self.event!r}: lower-case letters, "
                                  "digits, _ and ., starting with a letter, at most 100")
        for name, value in (("tenant", self.tenant), ("principal", self.principal)):
            if not isinstance(value, str) or len(value) > _MAX_FIELD or not _utf8(value):
                raise AuditValueError(f"the audit {name} must be a string of at most "
                                      f"{_MAX_FIELD} characters")
        if not isinstance(self.subject, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.subject.items()):
            raise AuditValueError("an audit subject maps names to string ids")
        if not isinstance(self.body, dict):
            raise AuditValueError("an audit body is a JSON object")
        return canonical_json(self.subject), canonical_json(self.body)


@dataclass(frozen=True)
class AuditEntry:
    """One recorded entry, as stored."""

    seq: int
    time: float
    tenant: str
    principal: str
    event: str
    subject: dict[str, str]
    body: dict[str, Any]
    prev_hash: str
    row_hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "time": self.time, "tenant": self.tenant,
                "principal": self.principal, "event": self.event, "subject": self.subject,
                "body": self.body, "prev_hash": self.prev_hash, "row_hash": self.row_hash}


def entry_hash(prev_hash: str, seq: int, at: float, tenant: str, principal: str, event: str,
               subject: str, body: str) -> str:
    """The ``row_hash`` of an entry from its stored parts (``subject``/``body`` canonical)."""
    row = canonical_row(seq, at, tenant, principal, event, subject, body)
    return hashlib.sha256(bytes.fromhex(prev_hash) + row.encode()).hexdigest()


_HASH_FUNCTION = "audit_row_hash"
# The head is read and the row written in one statement: seq = last + 1, prev_hash = the
# last row_hash, row_hash computed by the function below, so an append is one round trip
# to the database thread. Both lookups are on the rowid, O(log n).
_INSERT = (
    "INSERT INTO audit_log (seq, time, tenant, principal, event, subject, body, prev_hash,"
    f" row_hash) SELECT h.seq + 1, ?1, ?2, ?3, ?4, ?5, ?6, h.hash, {_HASH_FUNCTION}(h.hash,"
    " h.seq + 1, ?1, ?2, ?3, ?4, ?5, ?6) FROM (SELECT"
    " COALESCE((SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1), 0) AS seq,"
    f" COALESCE((SELECT row_hash FROM audit_log ORDER BY seq DESC LIMIT 1), '{GENESIS}')"
    " AS hash) AS h")


def _sql_row_hash(prev_hash: str, seq: int, at: float, tenant: str, principal: str,
                  event: str, subject: str, body: str) -> str:
    return entry_hash(prev_hash, seq, float(at), tenant, principal, event, subject, body)


def _run_insert(db: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> list[int]:
    if len(rows) == 1:
        return [int(db.execute(_INSERT, rows[0]).lastrowid or 0)]
    db.executemany(_INSERT, rows)
    last = db.execute("SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    top = int(last[0]) if last is not None else 0
    return list(range(top - len(rows) + 1, top + 1))


def append_now(db: sqlite3.Connection, events: Sequence[AuditEvent], *, at: float) -> list[int]:
    """:func:`append` on the raw connection, for code already on the database's thread
    (``storage.on_thread``): a transaction that also appends stays one round trip."""
    if not events:
        return []
    if not db.in_transaction:
        raise AuditValueError("audit.append needs the caller's open write transaction")
    stamp = float(at)
    rows = [(stamp, e.tenant, e.principal, e.event, *e.encoded()) for e in events]
    try:
        return _run_insert(db, rows)
    except sqlite3.OperationalError as exc:
        if f"no such function: {_HASH_FUNCTION}" not in str(exc):
            raise
    # First append on this connection: teach it the hash (the failed statement wrote nothing).
    db.create_function(_HASH_FUNCTION, 8, _sql_row_hash, deterministic=True)
    return _run_insert(db, rows)


async def append(conn: aiosqlite.Connection, events: Sequence[AuditEvent], *,
                 at: float) -> list[int]:
    """Append ``events`` in order inside the caller's open write transaction; their seqs.

    The transaction must be a write (``BEGIN IMMEDIATE``) one: the head is read and the
    rows written under its lock, which is what keeps ``seq`` gap-free across processes.
    Nothing is committed here; a rollback of the caller's transaction takes these rows too.
    """
    if not events:
        return []
    return await on_thread(conn, lambda db: append_now(db, events, at=at))

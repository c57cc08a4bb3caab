"""The hash chain: what an event is, how an entry is hashed, and appending inside a transaction.

``row_hash = SHA-256(bytes.fromhex(prev_hash) || canonical_row)``, hex, where
``canonical_row`` is the canonical JSON (:mod:`audit.canonical`) of
``{"body", "event", "principal", "seq", "subject", "tenant", "time"}`` and ``prev_hash``
is the previous entry's ``row_hash`` (:data:`GENESIS` for seq 1). Because each hash covers
its seq and its predecessor's hash, an edited, removed or reordered entry breaks the chain
at that point.

:func:`appending` is a transaction body (``storage.body``) run inside a write transaction
its caller already opened, so Code Mode records an event in the very commit that makes the
change it describes: both land or neither does, with no extra commit. The hashes are
computed in Python on both backends, so a chain written on one verifies the same anywhere.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Sequence

from storage import Body, Connection, Execute, ExecuteMany, FetchOne, Lock, run_now

from .canonical import canonical_json, canonical_row
from .errors import AuditValueError

__all__ = ["GENESIS", "AuditEntry", "AuditEvent", "append", "append_now", "appending", "entry_hash"]

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


_INSERT = ("INSERT INTO audit_log (seq, time, tenant, principal, event, subject, body,"
           " prev_hash, row_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
_LOCK = "audit"


def appending(events: Sequence[AuditEvent], at: float) -> Body[list[int]]:
    """The transaction body of an append: ``events`` in order at time ``at``; their seqs.

    Run it inside a write transaction (``yield from appending(...)`` in a larger body, or
    ``conn.run(appending, ...)``): the head is read and the rows written under the audit
    lock, which is what keeps ``seq`` gap-free with writers in several processes. The row
    hashes are computed here in Python, so both backends store the same chain.
    """
    if not events:
        return []
    stamp = float(at)
    encoded = [(e.tenant, e.principal, e.event, *e.encoded()) for e in events]
    yield Lock(_LOCK)
    head = yield FetchOne("SELECT seq, row_hash FROM audit_log ORDER BY seq DESC LIMIT 1")
    seq, prev = (0, GENESIS) if head is None else (int(head[0]), str(head[1]))
    rows: list[tuple[Any, ...]] = []
    for tenant, principal, event, subject, body in encoded:
        seq += 1
        row_hash = entry_hash(prev, seq, stamp, tenant, principal, event, subject, body)
        rows.append((seq, stamp, tenant, principal, event, subject, body, prev, row_hash))
        prev = row_hash
    if len(rows) == 1:
        yield Execute(_INSERT, rows[0])
    else:
        yield ExecuteMany(_INSERT, rows)
    return [int(row[0]) for row in rows]


def append_now(db: sqlite3.Connection, events: Sequence[AuditEvent], *, at: float) -> list[int]:
    """:func:`appending` on a raw ``sqlite3`` connection, for code already on the database's
    thread (``storage.on_thread``): a transaction that also appends stays one round trip."""
    if events and not db.in_transaction:
        raise AuditValueError("audit.append needs the caller's open write transaction")
    return run_now(db, appending, events, at)


async def append(conn: Connection, events: Sequence[AuditEvent], *, at: float) -> list[int]:
    """Append ``events`` in order inside the caller's open write transaction; their seqs.

    Nothing is committed here; a rollback of the caller's transaction takes these rows too.
    """
    if not events:
        return []
    return await conn.run(appending, events, at)

"""``AuditLog``: the service's handle on the audit log, on a connection of its own.

It records service events (``record``), answers queries (filters, paging by seq), signs
checkpoints (on demand and by policy: every ``every_entries`` new entries or every
``every_s`` seconds when anything is new, checked by :meth:`AuditLog.tick`), verifies and
exports. Code Mode does not go through it: it appends with :func:`audit.append` inside its
own transactions, on its own connection to the same file.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import aiosqlite

from workspace import configure_connection

from .chain import GENESIS, AuditEntry, AuditEvent, append
from .errors import AuditError, AuditQueryError
from .export import export_log, verify_export
from .schema import migrate
from .signing import Checkpoint, SigningKey, VerifyKey, append_checkpoint_line
from .verify import VerifyReport, verify_database

__all__ = ["AuditLog", "CheckpointPolicy"]

_SUBJECT_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
MAX_LIMIT = 1000
VERIFY_REUSE_S = 30.0
"""Longest a verification report is reused for, however unchanged the files look."""


@dataclass(frozen=True)
class CheckpointPolicy:
    """When :meth:`AuditLog.tick` signs a checkpoint by itself."""

    every_entries: int = 1000
    """After this many entries since the last checkpoint (0: never by count)."""
    every_s: float = 600.0
    """After this long since the last checkpoint, if any entry is new (0: never by time)."""


def _entry(row: Sequence[Any]) -> AuditEntry:
    return AuditEntry(seq=int(row[0]), time=float(row[1]), tenant=row[2], principal=row[3],
                      event=row[4], subject=json.loads(row[5]), body=json.loads(row[6]),
                      prev_hash=row[7], row_hash=row[8])


class AuditLog:
    """The audit log in one SQLite file, with its signing key and checkpoints file."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, key: SigningKey | None,
                 checkpoints_file: Path | None, policy: CheckpointPolicy) -> None:
        self._conn = conn
        self.path = path
        self.key = key
        self.checkpoints_file = checkpoints_file
        self.policy = policy
        self._lock = asyncio.Lock()
        self._last_checkpoint: tuple[int, float] | None = None
        self._writes = 0
        self._verified: tuple[tuple[Any, ...], float, VerifyReport] | None = None

    @classmethod
    async def open(cls, db_path: str | Path, *, key_file: Path | None = None,
                   checkpoints_file: Path | None = None,
                   policy: CheckpointPolicy = CheckpointPolicy()) -> "AuditLog":
        """Open (creating and migrating) the log in ``db_path``; the key is created if new."""
        path = Path(db_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        key = None if key_file is None else SigningKey.load_or_create(key_file)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await configure_connection(conn)
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, key, checkpoints_file, policy)

    async def close(self) -> None:
        await self._conn.close()

    async def record(self, events: Sequence[AuditEvent], *, at: float | None = None) -> list[int]:
        """Append ``events`` in one transaction of their own; their seqs."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                seqs = await append(self._conn, events, at=time.time() if at is None else at)
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.commit()
            self._writes += 1
        return seqs

    async def head(self) -> tuple[int, str]:
        """``(seq, row_hash)`` of the last entry; ``(0, GENESIS)`` for an empty log."""
        async with self._lock:
            async with self._conn.execute(
                    "SELECT seq, row_hash FROM audit_log ORDER BY seq DESC LIMIT 1") as cur:
                row = await cur.fetchone()
        return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))

    async def length(self) -> int:
        """How many entries the log holds (the last seq: seqs are gap-free; no scan)."""
        return (await self.head())[0]

    async def tenant_head(self, tenant: str) -> tuple[int, str]:
        """``(entries, row_hash of the newest)`` of one tenant (the tenant index, no scan of
        other tenants' rows); ``(0, GENESIS)`` when it has none."""
        async with self._lock:
            async with self._conn.execute(
                    "SELECT count(*), (SELECT row_hash FROM audit_log WHERE tenant = ?1"
                    " ORDER BY seq DESC LIMIT 1) FROM audit_log WHERE tenant = ?1",
                    (tenant,)) as cur:
                row = await cur.fetchone()
        if row is None or not row[0]:
            return 0, GENESIS
        return int(row[0]), str(row[1])

    async def tenant_of(self, seq: int) -> str | None:
        async with self._lock:
            async with self._conn.execute("SELECT tenant FROM audit_log WHERE seq = ?",
                                          (seq,)) as cur:
                row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def query(self, *, tenant: str | None = None, event: str | None = None,
                    principal: str | None = None, subject: dict[str, str] | None = None,
                    since: float | None = None, until: float | None = None,
                    after_seq: int = 0, before_seq: int | None = None,
                    newest_first: bool = False, limit: int = 100) -> list[AuditEntry]:
        """Entries in seq order after ``after_seq`` (and before ``before_seq``) matching every
        filter given; ``newest_first`` reverses the order.

        ``event`` ending in ``.`` matches a family (``execution.``); ``subject`` matches
        entries whose subject has each of those ids; ``since``/``until`` bound the time
        (``until`` exclusive). Page on by passing the last seq seen as ``after_seq`` (as
        ``before_seq`` when newest first): the seq index walks straight to it.
        """
        if not 1 <= limit <= MAX_LIMIT:
            raise AuditQueryError(f"limit must be between 1 and {MAX_LIMIT}")
        clauses: list[str] = ["seq > ?"]
        params: list[Any] = [int(after_seq)]
        if before_seq is not None:
            clauses.append("seq < ?")
            params.append(int(before_seq))
        for clause, value in (("tenant = ?", tenant), ("principal = ?", principal),
                              ("time >= ?", since), ("time < ?", until)):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        if event is not None:
            if event.endswith("."):
                clauses.append("substr(event, 1, ?) = ?")
                params.extend([len(event), event])
            else:
                clauses.append("event = ?")
                params.append(event)
        for name, value in (subject or {}).items():
            if not _SUBJECT_KEY.fullmatch(name):
                raise AuditQueryError(f"bad subject key {name!r}")
            clauses.append(f"json_extract(subject, '$.{name}') = ?")
            params.append(value)
        sql = ("SELECT seq, time, tenant, principal, event, subject, body, prev_hash, row_hash"
               f" FROM audit_log WHERE {' AND '.join(clauses)}"
               f" ORDER BY seq{' DESC' if newest_first else ''} LIMIT ?")
        async with self._lock:
            async with self._conn.execute(sql, (*params, limit)) as cur:
                rows = await cur.fetchall()
        return [_entry(row) for row in rows]

    # --- checkpoints ------------------------------------------------------------------

    def _signing_key(self) -> SigningKey:
        if self.key is None:
            raise AuditError("the audit log has no signing key: checkpoints cannot be signed")
        return self.key

    async def checkpoint(self) -> Checkpoint:
        """Sign the current head now; stored in the database and appended to the file."""
        key = self._signing_key()
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                async with self._conn.execute(
                        "SELECT seq, row_hash FROM audit_log ORDER BY seq DESC LIMIT 1") as cur:
                    row = await cur.fetchone()
                seq, head = (0, GENESIS) if row is None else (int(row[0]), str(row[1]))
                cp = key.checkpoint(seq, head)
                await self._conn.execute(
                    "INSERT INTO audit_checkpoints (seq, head_hash, time, key_id, signature)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (cp.seq, cp.head_hash, cp.time, cp.key_id, cp.signature))
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.commit()
            self._writes += 1
        if self.checkpoints_file is not None:
            await asyncio.to_thread(append_checkpoint_line, self.checkpoints_file, cp)
        self._last_checkpoint = (cp.seq, cp.time)
        return cp

    async def last_checkpoint(self) -> tuple[int, float] | None:
        """``(seq, time)`` of the newest checkpoint in the database."""
        if self._last_checkpoint is None:
            async with self._lock:
                async with self._conn.execute(
                        "SELECT seq, time FROM audit_checkpoints ORDER BY id DESC LIMIT 1") as cur:
                    row = await cur.fetchone()
            if row is not None:
                self._last_checkpoint = (int(row[0]), float(row[1]))
        return self._last_checkpoint

    async def stored_checkpoint(self) -> tuple[int, float] | None:
        """``(seq, time)`` of the newest checkpoint as the database has it now (one signed by
        another process, ``sandbox audit checkpoint``, included); one indexed row."""
        async with self._lock:
            async with self._conn.execute(
                    "SELECT seq, time FROM audit_checkpoints ORDER BY id DESC LIMIT 1") as cur:
                row = await cur.fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    async def tick(self, *, now: float | None = None, force: bool = False) -> Checkpoint | None:
        """Sign a checkpoint if the policy says one is due (``force``: if anything is new
        since the last one, as at shutdown); the checkpoint, or None."""
        if self.key is None:
            return None
        stamp = time.time() if now is None else now
        seq, _ = await self.head()
        last = await self.last_checkpoint()
        last_seq, last_time = last if last is not None else (0, float("-inf"))
        new = seq - last_seq
        if new <= 0:
            return None
        by_count = self.policy.every_entries > 0 and new >= self.policy.every_entries
        by_time = self.policy.every_s > 0 and stamp - last_time >= self.policy.every_s
        return await self.checkpoint() if by_count or by_time or force else None

    # --- verify and export ------------------------------------------------------------

    def _verify_key(self) -> VerifyKey | None:
        return None if self.key is None else self.key.verify_key

    async def verify(self, checkpoints_file: Path | None = None) -> VerifyReport:
        """Verify the whole chain against the database's and the file's checkpoints.

        The last report is reused while nothing can have changed since it was made (at most
        ``VERIFY_REUSE_S``): no commit by any connection (SQLite's ``data_version`` and this
        log's own writes), and the database, its WAL and the checkpoints file unchanged on
        disk (so even a byte edited outside SQLite walks the chain again)."""
        files = [f for f in (checkpoints_file or self.checkpoints_file,) if f is not None
                 and f.exists()]
        state = await self._fingerprint(files)
        now = time.monotonic()
        if self._verified is not None:
            seen, at, report = self._verified
            if seen == state and now - at < VERIFY_REUSE_S:
                return report
        report = await asyncio.to_thread(verify_database, self.path, key=self._verify_key(),
                                         checkpoint_files=files)
        self._verified = (state, now, report)
        return report

    async def _fingerprint(self, files: Sequence[Path]) -> tuple[Any, ...]:
        async with self._lock:
            async with self._conn.execute("PRAGMA data_version") as cur:
                row = await cur.fetchone()
            writes = self._writes
        stats: list[Any] = []
        for path in (self.path, Path(f"{self.path}-wal"), *files):
            try:
                found = path.stat()
            except FileNotFoundError:
                stats.append(None)
                continue
            stats.append((str(path), found.st_ino, found.st_size, found.st_mtime_ns))
        return (None if row is None else row[0], writes, *stats)

    async def export(self, out_dir: Path, *, tenant: str | None = None,
                     since: float | None = None, until: float | None = None) -> dict[str, Any]:
        """Write a signed export (see :mod:`audit.export`); its manifest."""
        return await asyncio.to_thread(export_log, self.path, out_dir, self._signing_key(),
                                       tenant=tenant, since=since, until=until)

    def verify_export(self, out_dir: Path) -> VerifyReport:
        return verify_export(out_dir, self._verify_key())

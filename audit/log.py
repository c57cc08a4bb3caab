"""``AuditLog``: the service's handle on the audit log, on a ``storage.Database`` of its own
(a SQLite file or a PostgreSQL URL).

It records service events (``record``), answers queries (filters, paging by seq), signs
checkpoints (on demand and by policy: every ``every_entries`` new entries or every
``every_s`` seconds when anything is new, checked by :meth:`AuditLog.tick`), verifies and
exports. Code Mode does not go through it: it appends with :func:`audit.appending` inside
its own transactions, on its own connection to the same database. Verify and export run in
a worker thread: on SQLite over a read-only file connection of their own (the fastest
pass), on PostgreSQL through the seam in one snapshot.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Any, Sequence, TypeVar

import storage
from storage import Body, Database, Execute, FetchOne, Lock

from .chain import GENESIS, AuditEntry, AuditEvent, appending
from .errors import AuditError, AuditQueryError
from .export import export_log, export_reader, verify_export
from .schema import migrate
from .signing import Checkpoint, SigningKey, VerifyKey, append_checkpoint_line
from .verify import SeamReader, VerifyReport, verify_database, verify_reader

__all__ = ["AuditLog", "CheckpointPolicy"]

_SUBJECT_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_R = TypeVar("_R")
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


_HEAD = "SELECT seq, row_hash FROM audit_log ORDER BY seq DESC LIMIT 1"
_LAST_CHECKPOINT = "SELECT seq, time FROM audit_checkpoints ORDER BY id DESC LIMIT 1"


def _signed_checkpoint(key: SigningKey) -> Body[Checkpoint]:
    """Sign the head as it is under the audit lock, and store the checkpoint."""
    yield Lock("audit")
    row = yield FetchOne(_HEAD)
    seq, head = (0, GENESIS) if row is None else (int(row[0]), str(row[1]))
    cp = key.checkpoint(seq, head)
    yield Execute("INSERT INTO audit_checkpoints (seq, head_hash, time, key_id, signature)"
                  " VALUES (?, ?, ?, ?, ?)",
                  (cp.seq, cp.head_hash, cp.time, cp.key_id, cp.signature))
    return cp


def _entry(row: Sequence[Any]) -> AuditEntry:
    return AuditEntry(seq=int(row[0]), time=float(row[1]), tenant=row[2], principal=row[3],
                      event=row[4], subject=json.loads(row[5]), body=json.loads(row[6]),
                      prev_hash=row[7], row_hash=row[8])


class AuditLog:
    """The audit log in one database, with its signing key and checkpoints file."""

    def __init__(self, db: Database, key: SigningKey | None, checkpoints_file: Path | None,
                 policy: CheckpointPolicy) -> None:
        self._db = db
        self.key = key
        self.checkpoints_file = checkpoints_file
        self.policy = policy
        self._last_checkpoint: tuple[int, float] | None = None
        self._writes = 0
        self._verified: tuple[tuple[Any, ...], float, VerifyReport] | None = None

    @property
    def path(self) -> Path | None:
        """The SQLite file, or None on PostgreSQL."""
        return self._db.path if isinstance(self._db, storage.SQLiteDatabase) else None

    @property
    def database(self) -> Database:
        return self._db

    @classmethod
    async def open(cls, database: str | Path | Database, *, key_file: Path | None = None,
                   checkpoints_file: Path | None = None,
                   policy: CheckpointPolicy = CheckpointPolicy()) -> "AuditLog":
        """Open (creating and migrating) the log in ``database``: a SQLite file, a
        ``postgresql://`` URL, or an open database (then closed with the log). The key is
        created if new."""
        key = None if key_file is None else SigningKey.load_or_create(key_file)
        db = database if not isinstance(database, (str, Path)) else (
            await storage.open_database(database))
        try:
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, key, checkpoints_file, policy)

    async def close(self) -> None:
        await self._db.close()

    async def record(self, events: Sequence[AuditEvent], *, at: float | None = None) -> list[int]:
        """Append ``events`` in one transaction of their own; their seqs."""
        seqs = await self._db.run(appending, events, time.time() if at is None else at,
                                  lock="audit")
        self._writes += 1
        return seqs

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        async with self._db.transaction(write=False, consistent=False) as conn:
            return await conn.fetchone(sql, params)

    async def head(self) -> tuple[int, str]:
        """``(seq, row_hash)`` of the last entry; ``(0, GENESIS)`` for an empty log."""
        row = await self._one(_HEAD)
        return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))

    async def length(self) -> int:
        """How many entries the log holds (the last seq: seqs are gap-free; no scan)."""
        return (await self.head())[0]

    async def tenant_head(self, tenant: str) -> tuple[int, str]:
        """``(entries, row_hash of the newest)`` of one tenant (the tenant index, no scan of
        other tenants' rows); ``(0, GENESIS)`` when it has none."""
        row = await self._one(
            "SELECT count(*), (SELECT row_hash FROM audit_log WHERE tenant = ?"
            " ORDER BY seq DESC LIMIT 1) FROM audit_log WHERE tenant = ?", (tenant, tenant))
        if row is None or not row[0]:
            return 0, GENESIS
        return int(row[0]), str(row[1])

    async def tenant_of(self, seq: int) -> str | None:
        row = await self._one("SELECT tenant FROM audit_log WHERE seq = ?", (seq,))
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
                              ("time >= ?", None if since is None else float(since)),
                              ("time < ?", None if until is None else float(until))):
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
            clauses.append(f"CAST(subject AS jsonb) ->> '{name}' = ?" if self._on_postgresql
                           else f"json_extract(subject, '$.{name}') = ?")
            params.append(value)
        sql = ("SELECT seq, time, tenant, principal, event, subject, body, prev_hash, row_hash"
               f" FROM audit_log WHERE {' AND '.join(clauses)}"
               f" ORDER BY seq{' DESC' if newest_first else ''} LIMIT ?")
        async with self._db.transaction(write=False, consistent=False) as conn:
            rows = await conn.fetchall(sql, (*params, limit))
        return [_entry(row) for row in rows]

    @property
    def _on_postgresql(self) -> bool:
        return self._db.dialect.name == "postgresql"

    # --- checkpoints ------------------------------------------------------------------

    def _signing_key(self) -> SigningKey:
        if self.key is None:
            raise AuditError("the audit log has no signing key: checkpoints cannot be signed")
        return self.key

    async def checkpoint(self) -> Checkpoint:
        """Sign the current head now; stored in the database and appended to the file."""
        cp = await self._db.run(_signed_checkpoint, self._signing_key(), lock="audit")
        self._writes += 1
        if self.checkpoints_file is not None:
            await asyncio.to_thread(append_checkpoint_line, self.checkpoints_file, cp)
        self._last_checkpoint = (cp.seq, cp.time)
        return cp

    async def last_checkpoint(self) -> tuple[int, float] | None:
        """``(seq, time)`` of the newest checkpoint in the database."""
        if self._last_checkpoint is None:
            self._last_checkpoint = await self.stored_checkpoint()
        return self._last_checkpoint

    async def stored_checkpoint(self) -> tuple[int, float] | None:
        """``(seq, time)`` of the newest checkpoint as the database has it now (one signed by
        another process, ``sandbox audit checkpoint``, included); one indexed row."""
        row = await self._one(_LAST_CHECKPOINT)
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
        ``VERIFY_REUSE_S``). On SQLite: no commit by any connection (``data_version`` and
        this log's own writes), and the database, its WAL and the checkpoints file unchanged
        on disk (so even a byte edited outside SQLite walks the chain again). On PostgreSQL:
        the same head, newest checkpoint and own writes, and the file unchanged."""
        files = [f for f in (checkpoints_file or self.checkpoints_file,) if f is not None
                 and f.exists()]
        state = await self._fingerprint(files)
        now = time.monotonic()
        if self._verified is not None:
            seen, at, report = self._verified
            if seen == state and now - at < VERIFY_REUSE_S:
                return report
        key = self._verify_key()
        if self.path is not None:
            report = await asyncio.to_thread(verify_database, self.path, key=key,
                                             checkpoint_files=files)
        else:
            report = await self._in_snapshot(
                lambda reader: verify_reader(reader, key=key, checkpoint_files=files))
        self._verified = (state, now, report)
        return report

    async def verify_against(self, files: Sequence[Path], key: VerifyKey | None) -> VerifyReport:
        """One verification pass against ``files``' checkpoints and ``key`` (``sandbox audit
        verify`` on PostgreSQL); never a reused report."""
        if self.path is not None:
            return await asyncio.to_thread(verify_database, self.path, key=key,
                                           checkpoint_files=files)
        return await self._in_snapshot(
            lambda reader: verify_reader(reader, key=key, checkpoint_files=files))

    async def _in_snapshot(self, work: Callable[[SeamReader], _R]) -> _R:
        """``work`` in a worker thread, reading through one consistent snapshot."""
        async with self._db.transaction(write=False) as conn:
            reader = SeamReader(conn, asyncio.get_running_loop())
            return await asyncio.to_thread(work, reader)

    async def _fingerprint(self, files: Sequence[Path]) -> tuple[Any, ...]:
        if self.path is None:
            marks: Sequence[Any] = (await self._one(
                "SELECT (SELECT max(seq) FROM audit_log), (SELECT row_hash FROM audit_log"
                " ORDER BY seq DESC LIMIT 1), (SELECT max(id) FROM audit_checkpoints)"),)
            on_disk: list[Path] = list(files)
        else:
            marks = (await self._one("PRAGMA data_version"),)
            on_disk = [self.path, Path(f"{self.path}-wal"), *files]
        stats: list[Any] = []
        for path in on_disk:
            try:
                found = path.stat()
            except FileNotFoundError:
                stats.append(None)
                continue
            stats.append((str(path), found.st_ino, found.st_size, found.st_mtime_ns))
        return (*(None if m is None else tuple(m) for m in marks), self._writes, *stats)

    async def export(self, out_dir: Path, *, tenant: str | None = None,
                     since: float | None = None, until: float | None = None) -> dict[str, Any]:
        """Write a signed export (see :mod:`audit.export`); its manifest."""
        key = self._signing_key()
        if self.path is not None:
            return await asyncio.to_thread(export_log, self.path, out_dir, key,
                                           tenant=tenant, since=since, until=until)
        return await self._in_snapshot(lambda reader: export_reader(
            reader, out_dir, key, tenant=tenant, since=since, until=until))

    def verify_export(self, out_dir: Path) -> VerifyReport:
        return verify_export(out_dir, self._verify_key())

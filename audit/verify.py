"""Verifying the chain: one streaming pass over the log, checked against the checkpoints.

The pass recomputes every ``row_hash`` from the stored parts and follows the links; it
stops at the first entry that is wrong and names it with the reason:

- ``deleted row``: a seq is missing;
- ``edited row``: an entry's content no longer matches its own hash;
- ``swapped rows``: an entry sits before the entry it was chained to;
- ``chain broken``: an entry is intact but the one before it is not the one it was chained
  to (that one was rewritten with a recomputed hash);
- ``truncated tail``: a checkpoint, or the database's own high-water mark, covers seqs the
  log no longer has;
- ``chain rewritten``: the hash at a checkpoint's seq is not the signed one (the chain was
  recomputed; only an anchor outside the database can tell);
- ``bad signature``: a checkpoint not signed by the audit key.

On SQLite, plain :mod:`sqlite3` (read-only, one read transaction) in batches: this is the
hot loop of a million-entry check, so it stays free of per-row object building. On
PostgreSQL the same pass reads through the storage seam in one REPEATABLE READ snapshot,
paging by seq (:class:`SeamReader`), from a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from storage import Connection

from .canonical import json_string
from .chain import GENESIS
from .errors import AuditError
from .signing import Checkpoint, VerifyKey, read_checkpoint_lines

__all__ = ["CheckpointSource", "LogReader", "SQLiteReader", "SeamReader", "VerifyReport",
           "verify_database", "verify_reader", "verify_rows"]

_R = TypeVar("_R")

_BATCH = 20_000
Row = tuple[int, float, str, str, str, str, str, str, str]
"""``(seq, time, tenant, principal, event, subject, body, prev_hash, row_hash)``."""


@dataclass(frozen=True)
class VerifyReport:
    """What a verification found. ``head`` is the last entry's hash as found."""

    ok: bool
    count: int
    head: str
    first_bad_seq: int | None = None
    reason: str | None = None
    checkpoints: int = 0
    """Checkpoints checked (database and file)."""
    signatures_checked: bool = True
    """False when no key was available: checkpoint heads were compared, not their signatures."""
    last_checkpoint: Checkpoint | None = None
    """The newest checkpoint that checked out (highest seq, then latest time)."""

    def line(self) -> str:
        if self.ok:
            last = self.last_checkpoint
            anchored = "" if last is None else (
                f", last checkpoint at seq {last.seq} ({_utc(last.time)})")
            return f"OK {self.count} entries, head {self.head}{anchored}"
        return f"FAILED at seq {self.first_bad_seq}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        last = self.last_checkpoint
        return {"ok": self.ok, "count": self.count, "head": self.head,
                "first_bad_seq": self.first_bad_seq, "reason": self.reason,
                "checkpoints": self.checkpoints, "signatures_checked": self.signatures_checked,
                "last_checkpoint": None if last is None else {
                    "seq": last.seq, "time": last.time, "head_hash": last.head_hash,
                    "key_id": last.key_id}}


def _utc(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")


def _newer(cp: Checkpoint, than: Checkpoint | None) -> Checkpoint:
    return cp if than is None or (cp.seq, cp.time) > (than.seq, than.time) else than


@dataclass
class CheckpointSource:
    """Checkpoints from one place, and lines of it that could not be read."""

    name: str
    checkpoints: list[Checkpoint] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    @classmethod
    def from_file(cls, path: Path) -> "CheckpointSource":
        source = cls(f"the checkpoints file {path}")
        for _, item in read_checkpoint_lines(path):
            if isinstance(item, Checkpoint):
                source.checkpoints.append(item)
            else:
                source.unreadable.append(item)
        return source


class _Failure(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


def _check_checkpoint(cp: Checkpoint, where: str, key: VerifyKey | None,
                      found: str | None, last: int) -> None:
    """Raise the failure ``cp`` shows: bad signature, truncated tail, or a rewritten chain."""
    if key is not None and not key.checks(cp):
        raise _Failure(cp.seq, f"bad signature: the checkpoint of seq {cp.seq} in {where} "
                               f"is not signed by the audit key {key.key_id}")
    if found is None:
        raise _Failure(last + 1, f"truncated tail: {where} has a checkpoint at seq {cp.seq} "
                                 f"but the log ends at seq {last}")
    if found != cp.head_hash:
        raise _Failure(cp.seq, f"chain rewritten: the checkpoint of seq {cp.seq} in {where} "
                               f"signed head {cp.head_hash}, the log has {found} there "
                               "(an entry at or before it was changed and the chain recomputed)")


def verify_rows(rows: Iterable[Sequence[Any]], *, sources: Sequence[CheckpointSource] = (),
                key: VerifyKey | None = None, high_water: int | None = None,
                seq_of_hash: Callable[[str], int | None] = lambda _h: None) -> VerifyReport:
    """Verify ``rows`` (in seq order) against the checkpoints of ``sources``.

    ``high_water`` is the highest seq the database remembers writing; ``seq_of_hash``
    finds the entry holding a given ``row_hash`` (used only to explain a failure).
    """
    at: dict[int, list[tuple[Checkpoint, str]]] = {}
    for source in sources:
        if source.unreadable:
            return VerifyReport(False, 0, GENESIS, 0, source.unreadable[0],
                                signatures_checked=key is not None)
        for cp in source.checkpoints:
            at.setdefault(cp.seq, []).append((cp, source.name))
    checked, newest = 0, None
    expected, prev = 1, GENESIS
    sha256, fromhex, enc = hashlib.sha256, bytes.fromhex, json_string
    try:
        for cp, where in at.pop(0, []):
            _check_checkpoint(cp, where, key, GENESIS, 0)
            checked, newest = checked + 1, _newer(cp, newest)
        for seq, t, tenant, principal, event, subject, body, row_prev, row_hash in rows:
            if seq != expected:
                raise _Failure(expected, f"deleted row: seq {expected} is missing (the log "
                                         f"goes from {expected - 1} to {seq})")
            canonical = (f'{{"body":{body},"event":{enc(event)},"principal":{enc(principal)},'
                         f'"seq":{seq},"subject":{subject},"tenant":{enc(tenant)},'
                         f'"time":{t!r}}}')
            if sha256(fromhex(row_prev) + canonical.encode()).hexdigest() != row_hash:
                _explain_bad_row(seq, row_prev, seq_of_hash)
            if row_prev != prev:
                _explain_broken_link(seq, row_prev, seq_of_hash)
            prev, expected = row_hash, expected + 1
            if seq in at:
                for cp, where in at.pop(seq):
                    _check_checkpoint(cp, where, key, row_hash, seq)
                    checked, newest = checked + 1, _newer(cp, newest)
        last = expected - 1
        for seq in sorted(at):
            for cp, where in at[seq]:
                _check_checkpoint(cp, where, key, None, last)
        if high_water is not None and high_water > last:
            raise _Failure(last + 1, f"truncated tail: the database wrote up to seq {high_water} "
                                     f"but the log ends at seq {last}")
    except _Failure as failure:
        return VerifyReport(False, expected - 1, prev, failure.seq, failure.reason, checked,
                            key is not None, newest)
    except (TypeError, ValueError) as exc:
        return VerifyReport(False, expected - 1, prev, expected,
                            f"edited row: seq {expected} cannot be read ({exc})", checked,
                            key is not None, newest)
    return VerifyReport(True, expected - 1, prev, checkpoints=checked,
                        signatures_checked=key is not None, last_checkpoint=newest)


def _explain_bad_row(seq: int, row_prev: str, seq_of_hash: Callable[[str], int | None]) -> None:
    follows = seq_of_hash(row_prev)
    if follows is not None and follows >= seq:
        raise _Failure(seq, f"swapped rows: the entry at seq {seq} was chained after the "
                            f"entry now at seq {follows}")
    raise _Failure(seq, f"edited row: the entry at seq {seq} does not match its row_hash")


def _explain_broken_link(seq: int, row_prev: str,
                         seq_of_hash: Callable[[str], int | None]) -> None:
    follows = seq_of_hash(row_prev)
    if follows is not None and follows >= seq:
        raise _Failure(seq, f"swapped rows: the entry at seq {seq} was chained after the "
                            f"entry now at seq {follows}")
    bad = max(seq - 1, 1)
    raise _Failure(bad, f"chain broken: the entry at seq {seq} was chained to a different "
                        f"entry {bad} (that one was rewritten with a recomputed hash)")


class LogReader(Protocol):
    """The few reads verification and export make, from a worker thread, in one snapshot."""

    def one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None: ...

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    def rows(self, where: str, params: Sequence[Any]) -> Iterable[Row]:
        """The log's rows matching ``where`` (a ``WHERE ...`` clause or ""), in seq order."""

    def high_water(self) -> int | None:
        """The highest seq the database remembers writing, where it keeps one (SQLite)."""


_ROW = "seq, time, tenant, principal, event, subject, body, prev_hash, row_hash"


class SQLiteReader:
    """A read-only ``sqlite3`` connection to the file, streaming one cursor in batches."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        return cast("Sequence[Any] | None", self.conn.execute(sql, params).fetchone())

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return self.conn.execute(sql, params).fetchall()

    def rows(self, where: str, params: Sequence[Any]) -> Iterable[Row]:
        cur = self.conn.execute(f"SELECT {_ROW} FROM audit_log{where} ORDER BY seq", params)
        while True:
            batch = cur.fetchmany(_BATCH)
            if not batch:
                return
            yield from batch

    def high_water(self) -> int | None:
        found = self.one("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'")
        return None if found is None else int(found[0])


class SeamReader:
    """Reads through a ``storage.Connection`` owned by the event loop, from a worker thread
    (each read handed to the loop and waited for), paging by seq in batches."""

    def __init__(self, conn: Connection, loop: asyncio.AbstractEventLoop) -> None:
        self.conn = conn
        self.loop = loop

    def _wait(self, coro: Coroutine[Any, Any, _R]) -> _R:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        return self._wait(self.conn.fetchone(sql, params))

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(self._wait(self.conn.fetchall(sql, params)))

    def rows(self, where: str, params: Sequence[Any]) -> Iterable[Row]:
        after = 0
        clause = f"{where} AND seq > ?" if where else " WHERE seq > ?"
        while True:
            batch = self._wait(self.conn.fetchall(
                f"SELECT {_ROW} FROM audit_log{clause} ORDER BY seq LIMIT {_BATCH}",
                (*params, after)))
            if not batch:
                return
            for row in batch:
                yield cast(Row, tuple(row))
            after = int(batch[-1][0])

    def high_water(self) -> int | None:
        return None  # PostgreSQL's TRUNCATE and DELETE triggers stand in for it


def verify_reader(reader: LogReader, *, key: VerifyKey | None = None,
                  checkpoint_files: Sequence[Path] = ()) -> VerifyReport:
    """Verify the log ``reader`` sees (streaming; the caller holds one read snapshot)."""
    stored = CheckpointSource("the database")
    for found in reader.all("SELECT seq, head_hash, time, key_id, signature"
                            " FROM audit_checkpoints ORDER BY id"):
        stored.checkpoints.append(Checkpoint(int(found[0]), str(found[1]), float(found[2]),
                                             str(found[3]), str(found[4])))
    sources = [stored, *(CheckpointSource.from_file(p) for p in checkpoint_files)]

    def seq_of_hash(row_hash: str) -> int | None:
        hit = reader.one("SELECT seq FROM audit_log WHERE row_hash = ?", (row_hash,))
        return None if hit is None else int(hit[0])

    return verify_rows(reader.rows("", ()), sources=sources, key=key,
                       high_water=reader.high_water(), seq_of_hash=seq_of_hash)


def _readonly(db_path: Path) -> sqlite3.Connection:
    if not db_path.is_file():
        raise AuditError(f"no database at {db_path}")
    conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True,
                           isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout=10000")
    return conn


def verify_database(db_path: Path, *, key: VerifyKey | None = None,
                    checkpoint_files: Sequence[Path] = ()) -> VerifyReport:
    """Verify the log in the SQLite file ``db_path`` (streaming, one read snapshot)."""
    conn = _readonly(db_path)
    try:
        conn.execute("BEGIN")
        try:
            return verify_reader(SQLiteReader(conn), key=key, checkpoint_files=checkpoint_files)
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            raise AuditError(f"{db_path} has no audit log") from exc
        raise
    finally:
        conn.close()

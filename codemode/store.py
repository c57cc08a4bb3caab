"""Code Mode's persistence: executions, approvals, stored toolsets and snippets, and the one
connection and transactions the journal and the ledger write through.

Everything lives in the service's one SQLite file, next to the workspace tables, under
migrations of the component ``codemode`` (see ``workspace.schema.apply_migrations``).
:class:`CodeModeStore` owns a ``storage.SQLiteDatabase`` of its own and speaks only the
storage seam (``storage.Connection``, transaction bodies): its lock serialises the
connection's use, and every write is one ``BEGIN IMMEDIATE`` transaction, so another process
on the same file waits (busy timeout) instead of interleaving. The hot transactions are
bodies (``storage.body``), one hop to the database's thread each.

Tables:

``codemode_executions``
    one row per execution: code, status, result (tagged durable JSON, see
    :mod:`codemode.codec`), error, logs, the namespaces and toolsets it ran with, the
    runtime version it started under, timestamps.
``codemode_approvals``
    one row per gated call that waits on a human, ``UNIQUE (execution_id, seq)``.
``codemode_toolsets``
    a toolset's JSON including its signing secret, which an update keeps.
``codemode_snippets``
    saved code with the tools it needs.

The connectors' table (``codemode_connectors``, :mod:`codemode.connector_store`) is a
migration component of its own, ``connectors``, applied here with the others.

The journal (``codemode_journal``, :mod:`codemode.journal`) and the action ledger
(``codemode_ledger``, :mod:`codemode.ledger`) own their tables and their SQL; their
functions take the connection of a transaction opened here (``tx.connection``), so a
journal entry and the status change it belongs with commit together. The journal's tables
are versions of the ``codemode`` component, merged here by version with the store's own.
Several changes that must land together (a pending entry and the ``paused`` status) go
through :meth:`CodeModeStore.transaction`. ``only_if`` on status and entry updates is a
compare-and-set, so of two racing decisions (approve vs reject) exactly one wins.

Every change worth an audit entry appends it (:meth:`StoreTransaction.audit`, the ``audit``
tables in the same file) in the transaction that makes the change; deleting or pruning
executions removes their journals and approvals but never their audit entries.

Caps are the reference's: code over 1,000,000 characters is refused before anything is
written; a final result over that size is replaced by a note; logs over 1 MB are trimmed.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from audit import AuditEvent, appending
from audit import migrate as _audit_migrate
from codemode import journal as _journal
from codemode.auditing import ExecutionSubject
from codemode.codec import (
    check_durable_text,
    decode_json,
    durable_text_json,
    durable_value_json,
    encode_value,
    json_text,
    sqlite_text,
    text_bytes,
    text_from_sqlite,
)
from codemode.errors import DurableSizeError, ExecutionNotFound, NotSerialisableError, SnippetDefinitionError
from codemode.connector_store import CONNECTOR_MIGRATIONS
from codemode.ledger import LEDGER_MIGRATIONS
from codemode.migrations import CODEMODE_MIGRATIONS, on_both
from codemode.normalise import trim_log_lines
from codemode.records import (
    APPROVAL_STATES,
    EXECUTION_STATES,
    TERMINAL_STATES,
    Approval,
    ExecutionRecord,
    JournalEntry,
    Snippet,
    now,
    valid_snippet_name,
)
from codemode.tooldefs import Toolset, schema_problems, stored_toolset
from sandbox import JSONText
from storage import (Body, BodyFn, Connection, Database, Execute, FetchAll, FetchOne,
                     IntegrityError, SQLiteDatabase, apply_migrations, open_database)
from workspace import DEFAULT_TENANT

__all__ = [
    "CODEMODE_MIGRATIONS",
    "DEFAULT_KEEP",
    "CodeModeStore",
    "RunEnd",
    "StoreTransaction",
]

_T = TypeVar("_T")
_LOCK = "codemode"

DEFAULT_KEEP = 50
START_PRUNE_AT_MOST = 8
"""How many executions one run's start deletes for retention. Its transaction is part of
every execute and runs on the event loop when the database is free, so a backlog (after
``keep_executions`` was lowered over thousands of executions) drains a few per start instead
of in one long delete that every other request would wait behind."""
CLAIM_BATCH = 100
"""Executions one sweep takes over per round trip (the rest come in the next round)."""
_CLAIM_LOCK = "codemode-claim:"
"""On PostgreSQL a claim's advisory lock is its owner's own: row locks keep two sweepers
apart, and they leave the store's writer lock to the requests."""
"""Terminal executions kept per workspace by :meth:`CodeModeStore.prune_executions`."""
_MAX_ERROR_MESSAGE = 10_000


@dataclass(frozen=True)
class RunEnd:
    """How a run ended: what :meth:`CodeModeStore.end_run` records in one transaction."""

    execution_id: str
    status: str
    result: Any
    error: dict[str, Any] | None
    logs: list[str]
    audit: AuditEvent
    """The ``execution.finished`` event, appended only if this end is the one recorded."""


_EXECUTION_COLUMNS = (
    "id, workspace, code, status, result, result_recorded, error, logs, namespaces, "
    "toolsets, runtime_version, created_at, updated_at, options, owner, lease_until, attempts, "
    "tenant, principal"
)
_APPROVAL_COLUMNS = (
    "id, execution_id, seq, workspace, namespace, method, args, descriptor, mode, status, "
    "decided_by, decided_at, reason, created_at, tenant, decided_tenant"
)


def _status_guard(column: str, allowed: Collection[str] | None) -> tuple[str, list[str]]:
    """An ``AND column IN (...)`` clause for compare-and-set updates; empty without one."""
    if allowed is None:
        return "", []
    if isinstance(allowed, str):
        allowed = [allowed]
    values = sorted(allowed)
    if not values:
        return " AND 1 = 0", []
    return f" AND {column} IN ({', '.join('?' for _ in values)})", values


def _check_status(status: str) -> None:
    if status not in EXECUTION_STATES:
        raise ValueError(
            f"unknown execution status {status!r}; expected one of {sorted(EXECUTION_STATES)}"
        )


def _result_for_record(result: Any) -> tuple[str, bool]:
    """The stored text of a final result and whether it is the result itself (not a note);
    one carried as its text (``JSONText``) is known to be over the limit by its length."""
    try:
        text = (durable_text_json("The result", result.text) if isinstance(result, JSONText)
                else durable_value_json("The result", result))
    except DurableSizeError as exc:
        note = f"result omitted from the audit trail: {exc.chars} characters"
        return json_text({"note": note}), False
    except NotSerialisableError as exc:
        note = f"result omitted from the audit trail: it cannot be serialised ({exc.reason})"
        return json_text({"note": note}), False
    return text, True


def _error_for_record(error: dict[str, Any] | None) -> str | None:
    if error is None:
        return None
    try:
        return durable_value_json("The error", error)
    except (DurableSizeError, NotSerialisableError):
        # An error must always be recordable: keep its name and the start of its message.
        message = str(error.get("message", ""))[:_MAX_ERROR_MESSAGE]
        return json_text(
            {"name": str(error.get("name", "Error")), "message": message + " [truncated]"}
        )


def _execution_from_row(row: Any, journal: list[JournalEntry]) -> ExecutionRecord:
    return ExecutionRecord(
        id=row[0],
        workspace=row[1],
        code=text_from_sqlite(row[2]),
        status=row[3],
        result=decode_json(row[4]),
        result_recorded=bool(row[5]),
        error=decode_json(row[6]),
        logs=json.loads(row[7]),
        namespaces=json.loads(row[8]),
        toolsets=json.loads(row[9]),
        runtime_version=int(row[10]),
        created_at=float(row[11]),
        updated_at=float(row[12]),
        options=json.loads(row[13]),
        owner=row[14],
        lease_until=None if row[15] is None else float(row[15]),
        attempts=int(row[16]),
        tenant=row[17],
        principal=row[18],
        journal=journal,
    )


def _approval_from_row(row: Any) -> Approval:
    return Approval(
        id=row[0], execution_id=row[1], seq=int(row[2]), workspace=row[3], namespace=row[4],
        method=row[5], args=decode_json(row[6]), descriptor=decode_json(row[7]), mode=row[8],
        status=row[9], decided_by=row[10], decided_at=None if row[11] is None else float(row[11]),
        reason=row[12], created_at=float(row[13]), tenant=row[14], decided_tenant=row[15],
    )


async def _insert_approval(conn: Connection, approval: Approval) -> None:
    await conn.execute(
        # The tenant is its execution's, read in the same statement.
        f"INSERT INTO codemode_approvals ({_APPROVAL_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " (SELECT tenant FROM codemode_executions WHERE id = ?), ?)",
        (
            approval.id, approval.execution_id, approval.seq, approval.workspace,
            approval.namespace, approval.method,
            durable_value_json("The arguments", approval.args),
            durable_value_json("The descriptor", approval.descriptor),
            approval.mode, approval.status, approval.decided_by, approval.decided_at,
            approval.reason, approval.created_at, approval.execution_id, approval.decided_tenant,
        ),
    )


async def _select_approvals(
    conn: Connection, where: str, params: Sequence[Any]
) -> list[Approval]:
    return [_approval_from_row(row) for row in await conn.fetchall(
        f"SELECT {_APPROVAL_COLUMNS} FROM codemode_approvals {where}", tuple(params)
    )]


async def _decide_approval(
    conn: Connection, approval_id: str, *, status: str, by: str | None,
    reason: str | None, only_if: Collection[str] = ("pending",), tenant: str | None = None,
) -> bool:
    if status not in APPROVAL_STATES:
        raise ValueError(f"unknown approval status {status!r}")
    guard, params = _status_guard("status", only_if)
    changed = await conn.execute(
        "UPDATE codemode_approvals SET status = ?, decided_by = ?, decided_at = ?, reason = ?,"
        f" decided_tenant = ? WHERE id = ?{guard}",
        (status, by, now(), reason, tenant, approval_id, *params),
    )
    return changed > 0


def _finish(
    execution_id: str,
    status: str,
    result: Any,
    error: dict[str, Any] | None,
    logs: list[str] | None,
    only_if: Collection[str] | None,
) -> Body[bool]:
    """Record a new status; whether the guard let it through."""
    _check_status(status)
    result_text, recorded = (None, True) if result is None else _result_for_record(result)
    error_text = _error_for_record(error)
    logs_text = None if logs is None else json_text(trim_log_lines(logs))
    guard, guard_params = _status_guard("status", only_if)
    # Leaving ``running`` releases the lease; the attempt count restarts, except for a
    # dead-lettered execution, whose count is the evidence an operator needs.
    ownership = "" if status == "running" else ", owner = NULL, lease_until = NULL"
    if status not in ("running", "dead_letter"):
        ownership += ", attempts = 0"
    changed = yield Execute(
        "UPDATE codemode_executions SET status = ?, result = ?, result_recorded = ?,"
        f" error = ?, logs = COALESCE(?, logs), updated_at = ?{ownership}"
        f" WHERE id = ?{guard}",
        (status, result_text, int(recorded), error_text, logs_text, now(), execution_id,
         *guard_params),
    )
    if changed > 0:
        return True
    if (yield FetchOne("SELECT 1 FROM codemode_executions WHERE id = ?", (execution_id,))) is None:
        raise ExecutionNotFound(execution_id)
    return False


def _revert_pending(execution_id: str) -> Body[int]:
    """Entries still ``pending`` become ``reverted`` and their approvals ``cancelled``."""
    reverted = yield from _journal.reverting(execution_id)
    yield Execute(
        "UPDATE codemode_approvals SET status = 'cancelled', decided_at = ?"
        " WHERE execution_id = ? AND status = 'pending'", (now(), execution_id))
    return reverted


def _prune(workspace: str, keep: int, tenant: str, pg: bool,
           at_most: int | None = None) -> Body[int]:
    """Delete the terminal executions of ``workspace`` beyond the newest ``keep`` (at most
    ``at_most`` of them, the newest of the excess first, when it is given)."""
    if keep < 0:
        raise ValueError("keep must be zero or more")
    terminal = sorted(TERMINAL_STATES)
    marks = ", ".join("?" for _ in terminal)
    # The journal rows and approvals of the deleted executions go with them by ON
    # DELETE CASCADE; the audit log has no such tie, and records each deletion.
    rows = yield FetchAll(
        "DELETE FROM codemode_executions WHERE id IN (SELECT id FROM codemode_executions"
        f" WHERE tenant = ? AND workspace = ? AND status IN ({marks})"
        # Ties in start time go to the later insert (rowid) on SQLite, to the id on PostgreSQL.
        + (" ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)" if pg
           else " ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?)") +
        " RETURNING id, status, principal",
        # LIMIT ALL on PostgreSQL is LIMIT NULL; SQLite's "no limit" is -1.
        (tenant, workspace, *terminal, at_most if at_most is not None else (None if pg else -1),
         keep))
    if rows:
        yield from appending([ExecutionSubject(str(r[0]), workspace, tenant, str(r[2]))
                              .pruned(str(r[1]), keep) for r in rows], now())
    return len(rows)


def _toolset_row(tenant: str, name: str) -> Body[Any]:
    row = yield FetchOne("SELECT definition FROM codemode_toolsets WHERE tenant = ? AND name = ?",
                         (tenant, name))
    return row


def _insert_execution(values: tuple[Any, ...], audit: Sequence[AuditEvent],
                      retention: tuple[str, str, int] | None, pg: bool) -> Body[None]:
    """Insert the row and its audit entries; with ``retention`` (tenant, workspace, keep),
    prune that workspace in the same transaction."""
    try:
        yield Execute(f"INSERT INTO codemode_executions ({_EXECUTION_COLUMNS})"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
    except IntegrityError as exc:  # the primary key refuses a duplicate id
        raise ValueError(f"execution {values[0]} already exists") from exc
    yield from appending(audit, now())
    if retention is not None:
        tenant, workspace, keep = retention
        yield from _prune(workspace, keep, tenant, pg, at_most=START_PRUNE_AT_MOST)


def _set_option(execution_id: str, key: str, value: str) -> Body[None]:
    # Read, change and write in the body: the same on both backends (no json_set).
    row = yield FetchOne("SELECT options FROM codemode_executions WHERE id = ?", (execution_id,))
    if row is None:
        return
    options = json.loads(row[0])
    options[key] = value
    yield Execute("UPDATE codemode_executions SET options = ? WHERE id = ?",
                  (json_text(options), execution_id))


def _end_run(end: RunEnd) -> Body[bool]:
    finished = yield from _finish(end.execution_id, end.status, end.result, end.error,
                                  end.logs, ("running",))
    if finished:
        if end.status != "completed":
            yield from _revert_pending(end.execution_id)
        yield from appending([end.audit], now())
    return finished


def _claim_due(where: str, params: Sequence[Any], owner: str,
               lease_of: Callable[[ExecutionRecord], float], limit: int,
               skip_locked: str) -> Body[list[str]]:
    """Take over up to ``limit`` executions matching ``where``: each becomes ``running``
    under ``owner`` with the lease ``lease_of`` gives it, one attempt more. On PostgreSQL
    the rows are locked as they are picked and rows another process is taking are passed
    over, so two sweepers split the work instead of racing for each row."""
    rows = yield FetchAll(f"SELECT {_EXECUTION_COLUMNS} FROM codemode_executions WHERE {where}"
                          f" ORDER BY created_at LIMIT {int(limit)}{skip_locked}", tuple(params))
    claimed: list[str] = []
    stamp = now()
    for row in rows:
        record = _execution_from_row(row, [])
        yield Execute("UPDATE codemode_executions SET status = 'running', owner = ?,"
                      " lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?",
                      (owner, lease_of(record), stamp, record.id))
        claimed.append(record.id)
    return claimed


def _on(conn: Connection, fn: BodyFn[_T], *args: Any) -> Awaitable[_T]:
    """The body ``fn(*args)`` in ``conn``'s open transaction, in one hop to its thread."""
    return conn.run(fn, *args)


async def _claim(
    conn: Connection,
    execution_id: str,
    *,
    owner: str,
    lease_until: float,
    from_status: Collection[str],
    stale_before: float | None = None,
    expected_owner: str | None | object = ...,
    count_attempt: bool = True,
) -> bool:
    guard, statuses = _status_guard("status", from_status)
    params: list[Any] = list(statuses)
    if stale_before is not None:
        guard += " AND (lease_until IS NULL OR lease_until < ?)"
        params.append(stale_before)
    if expected_owner is not ...:
        guard += " AND owner IS NOT DISTINCT FROM ?"
        params.append(expected_owner)
    attempts = "attempts + 1" if count_attempt else "attempts"
    changed = await conn.execute(
        "UPDATE codemode_executions SET status = 'running', owner = ?, lease_until = ?,"
        f" attempts = {attempts}, updated_at = ? WHERE id = ?{guard}",
        (owner, lease_until, now(), execution_id, *params),
    )
    return changed > 0


class StoreTransaction:
    """Several journal and status changes committed together (or not at all).

    Obtained from :meth:`CodeModeStore.transaction`; valid only inside its ``async with``.
    Durable pausing needs this: the pending entry and the ``paused`` status must land in
    one commit, or a crash between them leaves a run that is neither running nor paused.
    """

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    @property
    def connection(self) -> Connection:
        """The open connection, for modules with their own tables (the action ledger)."""
        return self._conn

    async def finish_execution(
        self,
        execution_id: str,
        *,
        status: str,
        result: Any = None,
        error: dict[str, Any] | None = None,
        logs: list[str] | None = None,
        only_if: Collection[str] | None = None,
    ) -> bool:
        return await _on(self._conn, _finish, execution_id, status, result, error, logs,
                         only_if)

    async def claim_execution(
        self, execution_id: str, *, owner: str, lease_until: float,
        from_status: Collection[str], count_attempt: bool = True,
    ) -> bool:
        """See :meth:`CodeModeStore.claim_execution`; here inside a larger transaction."""
        return await _claim(self._conn, execution_id, owner=owner, lease_until=lease_until,
                            from_status=from_status, count_attempt=count_attempt)

    async def run(self, fn: BodyFn[_T], *args: Any) -> _T:
        """The body ``fn(*args)`` (``storage.body``) in this transaction, in one hop."""
        return await _on(self._conn, fn, *args)

    async def add_approval(self, approval: Approval) -> None:
        await _insert_approval(self._conn, approval)

    async def audit(self, *events: AuditEvent) -> None:
        """Append ``events`` to the audit log in this transaction: they commit with it."""
        await _on(self._conn, appending, events, now())

    async def subject_of(self, execution_id: str) -> ExecutionSubject | None:
        """Whose execution ``execution_id`` is, for its audit events; None if there is none."""
        row = await self._conn.fetchone(
                "SELECT id, workspace, tenant, principal FROM codemode_executions WHERE id = ?",
                (execution_id,))
        return None if row is None else ExecutionSubject(*(str(v) for v in row))

    async def prune_executions(self, workspace: str, keep: int = DEFAULT_KEEP,
                               tenant: str = DEFAULT_TENANT) -> int:
        """See :meth:`CodeModeStore.prune_executions`; here inside a larger transaction."""
        return await _on(self._conn, _prune, workspace, keep, tenant,
                         self._conn.dialect.name == "postgresql")

    async def decide_approval(
        self, approval_id: str, *, status: str, by: str | None = None, reason: str | None = None,
        only_if: Collection[str] = ("pending",), tenant: str | None = None,
    ) -> bool:
        """Decide a pending approval (compare-and-set); ``by`` and ``tenant`` say who."""
        return await _decide_approval(
            self._conn, approval_id, status=status, by=by, reason=reason, only_if=only_if,
            tenant=tenant,
        )

    async def approval_at(self, execution_id: str, seq: int) -> Approval | None:
        found = await _select_approvals(
            self._conn, "WHERE execution_id = ? AND seq = ?", (execution_id, seq)
        )
        return found[0] if found else None

    async def get_approval(self, approval_id: str) -> Approval | None:
        found = await _select_approvals(self._conn, "WHERE id = ?", (approval_id,))
        return found[0] if found else None

    async def pending_approvals(self, execution_id: str) -> list[Approval]:
        return await _select_approvals(
            self._conn, "WHERE execution_id = ? AND status = 'pending'", (execution_id,)
        )

    async def status_of(self, execution_id: str) -> str | None:
        row = await self._conn.fetchone(
            "SELECT status FROM codemode_executions WHERE id = ?", (execution_id,)
        )
        return None if row is None else str(row[0])

    async def revert_pending(self, execution_id: str) -> int:
        """Entries still ``pending`` become ``reverted`` and their approvals ``cancelled``:
        the execution ended without them, so no one should be asked about them."""
        return await _on(self._conn, _revert_pending, execution_id)

    async def set_owner(
        self, execution_id: str, owner: str | None, lease_until: float | None, *,
        count_attempt: bool = False, reset_attempts: bool = False,
    ) -> None:
        attempts = "attempts + 1" if count_attempt else ("0" if reset_attempts else "attempts")
        await self._conn.execute(
            f"UPDATE codemode_executions SET owner = ?, lease_until = ?, attempts = {attempts}"
            " WHERE id = ?", (owner, lease_until, execution_id),
        )


class CodeModeStore:
    """Executions, journals, toolsets and snippets in SQLite; safe to share between tasks."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.path = db.path if isinstance(db, SQLiteDatabase) else None
        """The SQLite file, or None on PostgreSQL."""
        self._pg = db.dialect.name == "postgresql"
        self._closed = False

    @property
    def database(self) -> Database:
        return self._db

    def _raw(self, text: str) -> str | bytes:
        """Raw text (code) as the backend holds it (see ``codemode.migrations``)."""
        return text_bytes(text) if self._pg else sqlite_text(text)

    @classmethod
    async def open(cls, database: str | Path | Database) -> CodeModeStore:
        """Open (creating and migrating) the store in ``database``: a SQLite file, a
        ``postgresql://`` URL, or an open database (then closed with the store)."""
        db = database if not isinstance(database, (str, Path)) else (
            await open_database(database))
        try:
            await apply_migrations(db, "codemode", on_both(CODEMODE_MIGRATIONS))
            await apply_migrations(db, "ledger", on_both(LEDGER_MIGRATIONS))
            await _audit_migrate(db)
            await apply_migrations(db, "connectors", on_both(CONNECTOR_MIGRATIONS))
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._db.close()

    async def __aenter__(self) -> CodeModeStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        """One IMMEDIATE transaction, committed on success and rolled back on any error."""
        self._check_open()
        async with self._db.transaction(write=True, lock=_LOCK) as conn:
            yield conn

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        """A read transaction: several SELECTs see one snapshot even with other writers.

        For modules with tables of their own: ``journal.read(conn, execution_id)``.
        """
        self._check_open()
        async with self._db.transaction(write=False) as conn:
            yield conn

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the Code Mode store is closed")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[StoreTransaction]:
        """One write transaction for several changes; an exception rolls all of them back.

        Other store methods must not be awaited inside it (they wait for the same lock).
        """
        async with self._write() as conn:
            yield StoreTransaction(conn)

    async def run(self, fn: BodyFn[_T], *args: Any) -> _T:
        """The body ``fn(*args)`` (``storage.body``, a few rows: a journal entry and its
        audit) in a write transaction of its own: ``BEGIN IMMEDIATE``, the body and
        ``COMMIT`` on the event loop when the file is free (``quick``), else in one hop to
        the database's thread."""
        self._check_open()
        return await self._db.run(fn, *args, lock=_LOCK, quick=True)

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[StoreTransaction]:
        """For exactly one write statement, which SQLite commits by itself.

        Saves the BEGIN and COMMIT round trips to the database thread; the lock still keeps
        the statement out of another task's open transaction. Several writes that must land
        together need :meth:`transaction`.
        """
        self._check_open()
        async with self._db.session() as session:
            yield StoreTransaction(session)

    # --- toolsets ---------------------------------------------------------------------

    async def put_toolset(
        self, toolset: Toolset, *, description: str | None = None, tenant: str = DEFAULT_TENANT,
    ) -> tuple[Toolset, bool]:
        """Create or replace ``toolset``; returns ``(stored, created)``.

        Replacing keeps the existing secret, so agent hosts need not be reconfigured.
        """
        stamp = now()
        async with self._write() as conn:
            row = await conn.fetchone(
                "SELECT definition FROM codemode_toolsets WHERE tenant = ? AND name = ?",
                (tenant, toolset.name),
            )
            created = row is None
            stored = toolset
            if row is not None:
                secret = json.loads(row[0])["secret"]
                stored = Toolset(name=toolset.name, tools=toolset.tools, secret=secret)
            definition = json_text(stored.to_dict(include_secret=True))
            await conn.execute(
                "INSERT INTO codemode_toolsets"
                " (tenant, name, description, definition, tool_count, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tenant, name) DO UPDATE SET description = excluded.description,"
                " definition = excluded.definition, tool_count = excluded.tool_count,"
                " updated_at = excluded.updated_at",
                (tenant, stored.name, description, definition, len(stored.tools), stamp, stamp),
            )
        return stored, created

    async def get_toolset(self, name: str, tenant: str = DEFAULT_TENANT) -> Toolset | None:
        self._check_open()
        # Quick: one row, read on every execute that names the toolset.
        row = await self._db.run(_toolset_row, tenant, name, write=False, quick=True)
        return None if row is None else stored_toolset(row[0])

    async def toolset_info(self, name: str, tenant: str = DEFAULT_TENANT) -> dict[str, Any] | None:
        """``{name, description, tool_count, created_at, updated_at}`` of one toolset."""
        rows = await self._toolset_rows("WHERE tenant = ? AND name = ?", (tenant, name))
        return rows[0] if rows else None

    async def list_toolsets(self, tenant: str = DEFAULT_TENANT) -> list[dict[str, Any]]:
        """Every toolset's summary of ``tenant``, by name."""
        return await self._toolset_rows("WHERE tenant = ? ORDER BY name", (tenant,))

    async def _toolset_rows(self, tail: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        async with self.reading() as conn:
            rows = await conn.fetchall(
                "SELECT name, description, tool_count, created_at, updated_at"
                f" FROM codemode_toolsets {tail}",
                params,
            )
        return [
            {"name": r[0], "description": r[1], "tool_count": int(r[2]),
             "created_at": float(r[3]), "updated_at": float(r[4])}
            for r in rows
        ]

    async def delete_toolset(self, name: str, tenant: str = DEFAULT_TENANT) -> bool:
        async with self._write() as conn:
            changed = await conn.execute(
                "DELETE FROM codemode_toolsets WHERE tenant = ? AND name = ?", (tenant, name))
            return changed > 0

    # --- executions -------------------------------------------------------------------

    async def create_execution(self, record: ExecutionRecord,
                               audit: Sequence[AuditEvent] = (), *,
                               keep: int | None = None) -> None:
        """Insert a new execution (and ``audit``'s events with it); refuses code over the
        durable limit, recording nothing. With ``keep``, the workspace's retention runs in
        the same commit: its terminal executions beyond the newest ``keep`` are deleted (a
        few at a time, ``START_PRUNE_AT_MOST``). A run's start is where retention belongs:
        the execute writes this row while its isolate runs, off the answer's path, and
        between runs a workspace holds at most ``keep`` + 1 terminal executions (the
        newest ``keep`` when the last run started, and that run)."""
        _check_status(record.status)
        check_durable_text("The code", record.code)
        result_text, recorded = (
            (None, True) if record.result is None else _result_for_record(record.result)
        )
        values = (
            record.id, record.workspace, self._raw(record.code), record.status, result_text,
            int(recorded and record.result_recorded), _error_for_record(record.error),
            json_text(trim_log_lines(record.logs)),
            json_text(record.namespaces),
            json_text(record.toolsets),
            record.runtime_version, record.created_at, record.updated_at,
            durable_value_json("The execution options", record.options),
            record.owner, record.lease_until, record.attempts, record.tenant, record.principal,
        )
        self._check_open()
        retention = None if keep is None else (record.tenant, record.workspace, keep)
        await self._db.run(_insert_execution, values, audit, retention, self._pg, lock=_LOCK,
                           quick=True)

    async def set_option(self, execution_id: str, key: str, value: str) -> None:
        """Set one of the execution's ``options`` (a short text: the trace that parked it)."""
        self._check_open()
        await self._db.run(_set_option, execution_id, key, value, lock=_LOCK, quick=True)

    async def end_run(self, end: RunEnd) -> bool:
        """Record the end of a run still ``running``: its status, result and logs, its
        audit entry and pending calls reverted if it did not complete, all in one commit
        and one round trip (the hot path of every execute: retention runs at the start,
        see :meth:`create_execution`). Returns False when someone else ended it first
        (cancelled, expired): that decision stands.
        """
        self._check_open()
        return await self._db.run(_end_run, end, lock=_LOCK, quick=True)

    async def finish_execution(
        self,
        execution_id: str,
        *,
        status: str,
        result: Any = None,
        error: dict[str, Any] | None = None,
        logs: list[str] | None = None,
        only_if: Collection[str] | None = None,
    ) -> bool:
        """Record a new status with its result, error and logs (``logs=None`` keeps them).

        A result too large (or impossible) to record is replaced by a note; the caller
        still returns the real result to whoever asked. With ``only_if``, the change is
        made only while the execution is in one of those statuses, as one statement, so
        of two racing decisions exactly one wins; returns whether it was made.
        """
        self._check_open()
        return await self._db.run(_finish, execution_id, status, result, error, logs, only_if,
                                  lock=_LOCK, quick=True)

    async def get_execution(
        self, execution_id: str, *, with_journal: bool = True
    ) -> ExecutionRecord | None:
        async with self.reading() as conn:
            row = await conn.fetchone(
                f"SELECT {_EXECUTION_COLUMNS} FROM codemode_executions WHERE id = ?",
                (execution_id,),
            )
            if row is None:
                return None
            # The audit view shows a damaged row as such instead of failing the whole record.
            entries = await _journal.read(conn, execution_id, strict=False) if with_journal else []
        return _execution_from_row(row, entries)

    async def list_executions(
        self,
        *,
        workspace: str | None = None,
        status: str | None = None,
        limit: int = 100,
        tenant: str | None = None,
        since: float | None = None,
        until: float | None = None,
        before: tuple[float, str] | None = None,
    ) -> list[ExecutionRecord]:
        """Executions newest first (by start time, then id), without their journals
        (``tenant`` None: every tenant's). ``before`` is the ``(created_at, id)`` of the last
        one of the previous page: the next page starts right after it (keyset paging, so
        executions started meanwhile do not shift the pages)."""
        if status is not None:
            _check_status(status)
        clauses: list[str] = []
        params: list[Any] = []
        if before is not None:
            clauses.append("(created_at, id) < (?, ?)")
            params.extend(before)
        for clause, value in (("tenant = ?", tenant), ("created_at >= ?", since),
                              ("created_at < ?", until)):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        if workspace is not None:
            clauses.append("workspace = ?")
            params.append(workspace)
        if status is not None:
            clauses.append("status = ?")
            params.append(status)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        params.append(max(0, int(limit)))
        async with self.reading() as conn:
            rows = await conn.fetchall(
                f"SELECT {_EXECUTION_COLUMNS} FROM codemode_executions {where}"
                " ORDER BY created_at DESC, id DESC LIMIT ?",
                params,
            )
        return [_execution_from_row(row, []) for row in rows]

    async def delete_execution(self, execution_id: str, *, principal: str | None = None) -> bool:
        """Delete an execution and its journal; False if there was none.

        The audit log keeps its entries and records the deletion (``principal``: who asked).
        """
        async with self._write() as conn:
            await _journal.delete(conn, execution_id)
            deleted = await conn.fetchall(
                "DELETE FROM codemode_executions WHERE id = ?"
                " RETURNING workspace, status, tenant, principal", (execution_id,))
            rows = list(deleted)
            if rows:
                subject = ExecutionSubject(execution_id, str(rows[0][0]), str(rows[0][2]),
                                           str(rows[0][3]))
                await _on(conn, appending, [subject.deleted(str(rows[0][1]),
                                                            principal=principal)], now())
            return bool(rows)

    async def prune_executions(self, workspace: str, keep: int = DEFAULT_KEEP,
                               tenant: str = DEFAULT_TENANT) -> int:
        """Delete all but the newest ``keep`` terminal executions of ``workspace``.

        Running and paused executions are never touched: they still have work or a
        decision ahead of them. Each deletion is recorded in the audit log, whose entries
        stay. Returns how many were deleted.
        """
        async with self.transaction() as tx:
            return await tx.prune_executions(workspace, keep, tenant)

    async def claim_execution(
        self,
        execution_id: str,
        *,
        owner: str,
        lease_until: float,
        from_status: Collection[str],
        stale_before: float | None = None,
        expected_owner: str | None | object = ...,
        count_attempt: bool = True,
    ) -> bool:
        """Make ``owner`` the one process running ``execution_id`` (status ``running``).

        A compare-and-set: only from one of ``from_status``; with ``stale_before``, only
        when the current lease ended before that time (recovery of an abandoned run).
        Of two processes claiming at once, exactly one gets True.
        """
        async with self._write() as conn:
            return await _claim(conn, execution_id, owner=owner, lease_until=lease_until,
                                from_status=from_status, stale_before=stale_before,
                                expected_owner=expected_owner, count_attempt=count_attempt)

    async def claim_due(self, where: str, params: Sequence[Any], *, owner: str,
                        lease_of: Callable[[ExecutionRecord], float],
                        limit: int = CLAIM_BATCH) -> list[str]:
        """Take over executions matching the SQL condition ``where`` (a sweep's stale or
        decided-but-parked runs), at most ``limit``; the ids taken, oldest first.

        ``lease_of`` must not touch the event loop (on SQLite it runs on the database's
        thread). On PostgreSQL this runs under a lock of its own, not the store's one
        writer lock: the rows it picks are locked (``FOR UPDATE SKIP LOCKED``), which keeps
        every compare-and-set on them (decisions, lease renewals, ends) exact, and a second
        sweeper skips them rather than waiting for them.
        """
        self._check_open()
        lock = _CLAIM_LOCK + owner if self._pg else _LOCK
        return await self._db.run(_claim_due, where, params, owner, lease_of, limit,
                                  self._db.dialect.skip_locked, lock=lock)

    async def extend_lease(self, execution_id: str, owner: str, lease_until: float) -> bool:
        async with self._write() as conn:
            changed = await conn.execute(
                "UPDATE codemode_executions SET lease_until = ? WHERE id = ? AND owner = ?"
                " AND status = 'running'", (lease_until, execution_id, owner),
            )
            return changed > 0

    async def executions_where(self, where: str, params: Sequence[Any]) -> list[ExecutionRecord]:
        """Executions (without journals) matching a SQL condition; for sweeps and recovery."""
        async with self.reading() as conn:
            rows = await conn.fetchall(
                f"SELECT {_EXECUTION_COLUMNS} FROM codemode_executions WHERE {where}"
                " ORDER BY created_at", tuple(params),
            )
        return [_execution_from_row(row, []) for row in rows]

    # --- approvals --------------------------------------------------------------------

    async def get_approval(self, approval_id: str) -> Approval | None:
        async with self.reading() as conn:
            found = await _select_approvals(conn, "WHERE id = ?", (approval_id,))
        return found[0] if found else None

    async def approval_at(self, execution_id: str, seq: int) -> Approval | None:
        """The approval of the call at ``(execution_id, seq)``, if it needed one."""
        async with self.reading() as conn:
            found = await _select_approvals(
                conn, "WHERE execution_id = ? AND seq = ?", (execution_id, seq)
            )
        return found[0] if found else None

    async def list_approvals(
        self, *, workspace: str | None = None, status: str | None = "pending",
        execution_id: str | None = None, limit: int = 500, tenant: str | None = None,
        newest_first: bool = False,
    ) -> list[Approval]:
        """Approvals oldest first (the order a human should answer them), or newest first."""
        clauses, params = [], []
        for column, value in (("tenant", tenant), ("workspace", workspace), ("status", status),
                              ("execution_id", execution_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        async with self.reading() as conn:
            return await _select_approvals(
                conn, f"{where} ORDER BY created_at{' DESC' if newest_first else ''},"
                      f" {'id' if self._pg else 'rowid'}{' DESC' if newest_first else ''} LIMIT ?", [*params, max(0, limit)]
            )

    # --- snippets ---------------------------------------------------------------------

    async def put_snippet(self, snippet: Snippet, tenant: str = DEFAULT_TENANT) -> bool:
        """Create or replace a snippet; True when it was created."""
        problems: list[str] = []
        if not valid_snippet_name(snippet.name):
            problems.append(
                "name must start with a letter or _ and contain only letters, digits, _, . "
                "and -, at most 128 characters"
            )
        if snippet.input_schema is not None:
            problems.extend(schema_problems(snippet.input_schema, "input_schema"))
        if problems:
            raise SnippetDefinitionError(f"snippet {snippet.name!r}", problems)
        check_durable_text("The code", snippet.code)
        async with self._write() as conn:
            created = await conn.fetchone(
                "SELECT 1 FROM codemode_snippets WHERE tenant = ? AND name = ?",
                (tenant, snippet.name),
            ) is None
            await conn.execute(
                "INSERT INTO codemode_snippets (tenant, name, code, description,"
                " input_schema, namespaces, execution_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, name) DO UPDATE SET"
                " code = excluded.code, description = excluded.description,"
                " input_schema = excluded.input_schema, namespaces = excluded.namespaces,"
                " execution_id = excluded.execution_id, created_at = excluded.created_at",
                (
                    tenant, snippet.name, self._raw(snippet.code), self._raw(snippet.description),
                    None if snippet.input_schema is None
                    else json_text(encode_value(snippet.input_schema)),
                    json_text(snippet.namespaces),
                    snippet.execution_id, snippet.created_at,
                ),
            )
        return created

    async def get_snippet(self, name: str, tenant: str = DEFAULT_TENANT) -> Snippet | None:
        found = await self._snippets("WHERE tenant = ? AND name = ?", (tenant, name))
        return found[0] if found else None

    async def list_snippets(self, tenant: str = DEFAULT_TENANT) -> list[Snippet]:
        return await self._snippets("WHERE tenant = ? ORDER BY name", (tenant,))

    async def _snippets(self, tail: str, params: tuple[Any, ...]) -> list[Snippet]:
        async with self.reading() as conn:
            rows = await conn.fetchall(
                "SELECT name, code, description, input_schema, namespaces, execution_id,"
                f" created_at FROM codemode_snippets {tail}",
                params,
            )
        return [
            Snippet(name=r[0], code=text_from_sqlite(r[1]), description=text_from_sqlite(r[2]), input_schema=decode_json(r[3]),
                    namespaces=json.loads(r[4]), execution_id=r[5], created_at=float(r[6]))
            for r in rows
        ]

    async def delete_snippet(self, name: str, tenant: str = DEFAULT_TENANT) -> bool:
        async with self._write() as conn:
            changed = await conn.execute(
                "DELETE FROM codemode_snippets WHERE tenant = ? AND name = ?", (tenant, name))
            return changed > 0

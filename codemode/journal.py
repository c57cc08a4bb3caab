"""The execution journal: one row per host call and per ``codemode.step``, append and read.

Rows are keyed ``(execution_id, seq)`` with ``seq`` counting from 0 in call order. This
module only records and reads; deciding what a resumed call should do (replay, execute,
park, divergence) is the replay module's job, so nothing here interprets a row.

Values are written with the durable codec of :mod:`codemode.codec`, so a result holding
bytes reads back as bytes. Arguments are stored as canonical JSON text (sorted keys) because
replay compares them as text. Sizes are checked before anything is written: arguments or a
result over 1,000,000 characters raise :class:`~codemode.errors.DurableSizeError` and leave
the journal unchanged.

The journal owns its table, ``codemode_journal`` (:data:`JOURNAL_MIGRATIONS`), and all SQL
that touches it. Its writes are transaction bodies (``appending``, ``settling``,
``replacing``, ``reverting``; see ``storage.body``) that a caller composes with its own
changes into one transaction, one hop to SQLite's thread (``store.run(body)``,
``tx.run(body)``), so an entry commits together with the status change it belongs with.
The async functions (``append``, ``settle``, ...) run one such body inside the caller's
open transaction on its ``storage.Connection`` (``tx.connection``), one hop each.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from typing import Any


from codemode.codec import check_durable_text, decode_json, durable_value_json
from codemode.errors import (
    CorruptEntry,
    DuplicateEntry,
    EntryNotFound,
    ExecutionNotFound,
    ExecutionNotRunning,
)
from codemode.records import ENTRY_STATES, JournalEntry, now
from storage import Body, Connection, Execute, FetchOne, IntegrityError, run_now

__all__ = [
    "JOURNAL_COLUMNS",
    "JOURNAL_MIGRATIONS",
    "append",
    "append_next",
    "appending",
    "canonical_args",
    "delete",
    "make_entry",
    "next_seq",
    "read",
    "replace_entry",
    "replacing",
    "revert_pending",
    "revert_pending_now",
    "reverting",
    "settle",
    "settling",
]

# The journal's tables. They were released as versions 1 and 2 of the ``codemode``
# component's migrations, before the journal had a module of its own, so they stay versions
# of that component (:mod:`codemode.store` applies them with its own tables, merged by
# version); moving them to a component of their own would re-create the table in every
# existing database. Append new versions; never edit a released one.
JOURNAL_MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """
            CREATE TABLE codemode_journal (
                execution_id      TEXT    NOT NULL
                                  REFERENCES codemode_executions(id) ON DELETE CASCADE,
                seq               INTEGER NOT NULL CHECK (seq >= 0),
                namespace         TEXT    NOT NULL,
                method            TEXT    NOT NULL,
                args              TEXT    NOT NULL,
                result            TEXT,
                error             TEXT,
                state             TEXT    NOT NULL,
                requires_approval INTEGER NOT NULL DEFAULT 0,
                ephemeral         INTEGER NOT NULL DEFAULT 0,
                created_at        REAL    NOT NULL,
                updated_at        REAL    NOT NULL,
                PRIMARY KEY (execution_id, seq)
            )
            """,
        ),
    ),
    (
        2,
        (
            "ALTER TABLE codemode_journal ADD COLUMN attachments TEXT",
        ),
    ),
)

JOURNAL_COLUMNS = (
    "execution_id, seq, namespace, method, args, result, error, state, requires_approval, "
    "ephemeral, created_at, updated_at, attachments"
)


def canonical_args(namespace: str, method: str, args: Any, *, decoded: bool = False) -> str:
    """The arguments of ``namespace.method`` as the journal stores and replay compares them
    (``decoded``: as read from JSON text, see :func:`codemode.codec.durable_value_json`)."""
    return durable_value_json(f"The arguments of {namespace}.{method}", args, decoded=decoded)


def make_entry(
    execution_id: str,
    seq: int,
    namespace: str,
    method: str,
    args: Any,
    *,
    state: str = "executing",
    requires_approval: bool = False,
    ephemeral: bool = False,
    decoded: bool = False,
) -> JournalEntry:
    """A new entry for a call with Python ``args`` (canonicalised and size-checked here;
    ``decoded``: read from JSON text as they are, see :func:`canonical_args`)."""
    stamp = now()
    return JournalEntry(
        execution_id=execution_id,
        seq=seq,
        namespace=namespace,
        method=method,
        args=canonical_args(namespace, method, args, decoded=decoded),
        state=state,
        requires_approval=requires_approval,
        ephemeral=ephemeral,
        created_at=stamp,
        updated_at=stamp,
    )


def _check_state(state: str) -> None:
    if state not in ENTRY_STATES:
        raise ValueError(f"unknown journal entry state {state!r}; expected one of {sorted(ENTRY_STATES)}")


def _check_entry(entry: JournalEntry) -> None:
    if not isinstance(entry.seq, int) or isinstance(entry.seq, bool) or entry.seq < 0:
        raise ValueError(f"seq must be a non-negative integer, not {entry.seq!r}")
    _check_state(entry.state)
    if not isinstance(entry.args, str):
        raise TypeError("JournalEntry.args must be canonical JSON text (see canonical_args)")
    check_durable_text(f"The arguments of {entry.path}", entry.args)
    try:
        json.loads(entry.args)
    except ValueError as exc:
        raise ValueError(f"JournalEntry.args is not JSON text: {exc}") from exc


def _error_json(path: str, error: dict[str, Any] | None) -> str | None:
    if error is None:
        return None
    return durable_value_json(f"The error of {path}", error, ordered=True)


def _attachments_json(attachments: list[dict[str, Any]] | None) -> str | None:
    if not attachments:
        return None
    return durable_value_json("The attachments", attachments)


async def next_seq(conn: Connection, execution_id: str) -> int:
    """The seq the next entry of ``execution_id`` takes: one past the highest recorded."""
    row = await conn.fetchone(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM codemode_journal WHERE execution_id = ?",
        (execution_id,),
    )
    return int(row[0]) if row else 0


_INSERT = (
    # Typed: PostgreSQL infers no column type for a bare parameter in a SELECT list.
    f"INSERT INTO codemode_journal ({JOURNAL_COLUMNS}) SELECT CAST(? AS TEXT),"
    " CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),"
    " CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT),"
    " CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION),"
    " CAST(? AS TEXT) WHERE EXISTS (SELECT 1 FROM codemode_executions WHERE id = ?"
)
_INSERT_IF_FOUND = _INSERT + ")"
_INSERT_IF_RUNNING = _INSERT + " AND status = 'running')"
"""One statement checks the execution and inserts (made once: the text is the statement
cache's key, hashed again whenever it is a new string)."""


def appending(entry: JournalEntry, require_running: bool = False) -> Body[None]:
    """The body that inserts ``entry`` (see :func:`append`), for a larger transaction."""
    _check_entry(entry)
    result = None if entry.result is None and entry.state != "applied" else durable_value_json(
        f"The result of {entry.path}", entry.result, ordered=True
    )
    error = _error_json(entry.path, entry.error)
    attachments = _attachments_json(entry.attachments)
    # One statement checks the execution and inserts; the reason for a refusal is looked
    # up only then.
    try:
        inserted = yield Execute(
            _INSERT_IF_RUNNING if require_running else _INSERT_IF_FOUND,
            (
                entry.execution_id, entry.seq, entry.namespace, entry.method, entry.args,
                result, error, entry.state, int(entry.requires_approval),
                int(entry.ephemeral), entry.created_at, entry.updated_at, attachments,
                entry.execution_id,
            ),
        )
    except IntegrityError as exc:
        raise DuplicateEntry(entry.execution_id, entry.seq) from exc
    if inserted == 0:
        row = yield FetchOne("SELECT status FROM codemode_executions WHERE id = ?",
                             (entry.execution_id,))
        if row is None:
            raise ExecutionNotFound(entry.execution_id)
        raise ExecutionNotRunning(entry.execution_id, str(row[0]))


async def append(
    conn: Connection, entry: JournalEntry, *, require_running: bool = False
) -> None:
    """Insert ``entry``; :class:`DuplicateEntry` if its seq is taken, nothing changed then.

    ``require_running``: refuse (:class:`ExecutionNotRunning`) unless the execution is
    ``running``, checked in the same transaction as the insert. One hop to the database's
    thread.
    """
    await conn.run(appending, entry, require_running)


async def append_next(conn: Connection, entry: JournalEntry) -> int:
    """Record ``entry`` at the next free seq of its execution (ignoring ``entry.seq``).

    For callers that do not track seq themselves; inside one write transaction the choice
    and the insert are one step, so concurrent callers get distinct, gap-free seqs.
    """
    entry.seq = await next_seq(conn, entry.execution_id)
    await append(conn, entry)
    return entry.seq


def reverting(execution_id: str) -> Body[int]:
    """The body that turns entries still ``pending`` into ``reverted`` (their execution
    ended without them); returns how many (see ``storage.body``)."""
    return int((yield Execute(
        "UPDATE codemode_journal SET state = 'reverted', updated_at = ?"
        " WHERE execution_id = ? AND state = 'pending'", (now(), execution_id))))


def revert_pending_now(db: sqlite3.Connection, execution_id: str) -> int:
    """:func:`reverting` on a raw ``sqlite3`` connection, on the database's thread."""
    return run_now(db, reverting, execution_id)


async def revert_pending(conn: Connection, execution_id: str) -> int:
    """:func:`reverting` from the event loop, in one hop."""
    return await conn.run(reverting, execution_id)


async def delete(conn: Connection, execution_id: str) -> None:
    """Remove every entry of ``execution_id`` (its execution is being deleted)."""
    await conn.execute("DELETE FROM codemode_journal WHERE execution_id = ?", (execution_id,))


def replacing(entry: JournalEntry) -> Body[None]:
    """The body that overwrites the row at ``entry``'s seq (a ``reverted`` call made afresh)."""
    yield Execute("DELETE FROM codemode_journal WHERE execution_id = ? AND seq = ?",
                  (entry.execution_id, entry.seq))
    yield from appending(entry)


async def replace_entry(conn: Connection, entry: JournalEntry) -> None:
    """:func:`replacing` in the caller's transaction, in one hop."""
    await conn.run(replacing, entry)


def settling(
    execution_id: str,
    seq: int,
    *,
    state: str,
    result: Any = None,
    error: dict[str, Any] | None = None,
    only_if: Collection[str] | None = None,
    attachments: list[dict[str, Any]] | None = None,
    path: str | None = None,
) -> Body[bool]:
    """The body of :func:`settle`, for a larger transaction."""
    _check_state(state)
    if path is None:
        row = yield FetchOne(
            "SELECT namespace, method, state FROM codemode_journal"
            " WHERE execution_id = ? AND seq = ?", (execution_id, seq))
        if row is None:
            raise EntryNotFound(execution_id, seq)
        path = f"{row[0]}.{row[1]}"
    # An applied call's None result is a real result and is stored as JSON null; other
    # states without a result store SQL NULL ("no result yet").
    result_text = (
        durable_value_json(f"The result of {path}", result, ordered=True)
        if result is not None or state == "applied"
        else None
    )
    guard, allowed = "", []
    if only_if is not None:
        allowed = sorted({only_if} if isinstance(only_if, str) else set(only_if))
        guard = f" AND state IN ({', '.join('?' for _ in allowed)})" if allowed else " AND 1 = 0"
    changed = yield Execute(
        "UPDATE codemode_journal SET state = ?, result = ?, error = ?, updated_at = ?,"
        f" attachments = ? WHERE execution_id = ? AND seq = ?{guard}",
        (state, result_text, _error_json(path, error), now(), _attachments_json(attachments),
         execution_id, seq, *allowed),
    )
    if changed > 0:
        return True
    found = yield FetchOne("SELECT 1 FROM codemode_journal WHERE execution_id = ? AND seq = ?",
                           (execution_id, seq))
    if found is None:
        raise EntryNotFound(execution_id, seq)
    return False


async def settle(
    conn: Connection,
    execution_id: str,
    seq: int,
    *,
    state: str,
    result: Any = None,
    error: dict[str, Any] | None = None,
    only_if: Collection[str] | None = None,
    attachments: list[dict[str, Any]] | None = None,
    path: str | None = None,
) -> bool:
    """Record how the call at ``seq`` ended (or moved on): its state, result and error.

    ``path`` (``namespace.method``, for messages) saves a lookup when the caller knows it.

    ``only_if`` names the states the row must be in for the change to happen (the caller's
    transaction makes check and write one step); returns whether it changed. One hop.
    """
    return await conn.run(lambda: settling(
        execution_id, seq, state=state, result=result, error=error, only_if=only_if,
        attachments=attachments, path=path))


def _entry_from_row(row: Any, *, strict: bool = True) -> JournalEntry:
    """The entry of a stored row. An unreadable value raises :class:`CorruptEntry`, or,
    with ``strict=False`` (for showing the audit trail), is shown as an error on the entry."""
    try:
        result, error, attachments = decode_json(row[5]), decode_json(row[6]), decode_json(row[12])
    except (ValueError, TypeError) as exc:
        if strict:
            raise CorruptEntry(row[0], int(row[1]), str(exc)) from exc
        result, attachments = None, []
        error = {"name": "CorruptEntry", "message": str(CorruptEntry(row[0], int(row[1]), str(exc)))}
    return JournalEntry(
        execution_id=row[0],
        seq=int(row[1]),
        namespace=row[2],
        method=row[3],
        args=row[4],
        result=result,
        error=error,
        state=row[7],
        requires_approval=bool(row[8]),
        ephemeral=bool(row[9]),
        created_at=float(row[10]),
        updated_at=float(row[11]),
        attachments=attachments or [],
    )


async def read(
    conn: Connection, execution_id: str, *, strict: bool = True
) -> list[JournalEntry]:
    """Every entry of ``execution_id`` in seq order (empty for an unknown execution).

    ``strict`` (replay): an unreadable row raises :class:`CorruptEntry`; otherwise (the
    audit view) it is returned with a ``CorruptEntry`` error and no result.
    """
    rows = await conn.fetchall(
        f"SELECT {JOURNAL_COLUMNS} FROM codemode_journal WHERE execution_id = ? ORDER BY seq",
        (execution_id,),
    )
    return [_entry_from_row(row, strict=strict) for row in rows]

"""The idempotency ledger of actions: one row per action key, so a side effect runs at most once.

Reference section 4 ("Idempotency ledger"). Before a side-effecting tool runs, the runtime
*claims* its key inside its own write transaction:

- no row: a ``pending`` row is written and the caller executes (:class:`Execute`);
- a ``settled`` row with the same action and input hash: the stored result is replayed and
  the tool is not called (:class:`Replay`);
- a row with another action or another input hash: :class:`ActionKeyConflict`, a
  programming error in the calling code (checked for pending and settled rows alike);
- a ``pending`` row: an earlier attempt whose outcome is unknown. It is reclaimed when the
  same ``(execution_id, seq)`` wrote it (that execution resuming after a crash; the tool
  endpoint gets the same key again and deduplicates), or when the key is explicit, the
  retry lease is enabled and the row is older than the lease; otherwise
  :class:`ActionPendingError`.

After the call the caller :func:`settle`\\ s the row with the result, or :func:`discard`\\ s
it when the call raised or timed out, so the next attempt runs again. Results are stored
with the durable codec of :mod:`codemode.codec` (bytes replay as bytes); a result that
cannot be stored removes the row and is returned to the code unrecorded.

Keys come from :func:`ledger_key`: an explicit template such as ``"invoice:{invoice_id}"``
rendered over the input gives ``action:<tool>:<rendered>``; without one the key is
``tool:<execution_id>:<seq>``. ``LedgerKey.sent`` is what the tool endpoint receives as its
idempotency key on every attempt.

The database functions take an open ``storage.Connection`` and run inside the caller's
transaction (like :mod:`codemode.journal`); a claim is only safe when its read and write
are one ``BEGIN IMMEDIATE`` transaction. :class:`KeyLocks` is the in-process half: calls
that arrive together with one key take turns, so the later ones replay the first one's
settled row instead of racing on it.

Only explicit keys get a row: a default key ``<execution_id>:<seq>`` names one journal
step, and that step's journal row (``executing`` then ``applied``) is already its ledger.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import string
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any


from codemode.errors import (
    ActionKeyConflict,
    ActionKeyError,
    ActionPendingError,
    DurableSizeError,
    NotSerialisableError,
)
from codemode.codec import canonical_json, decode_json, durable_value_json, encode_value, sqlite_safe_json
from codemode.records import now as _now
from storage import Connection

__all__ = [
    "DEFAULT_LEASE_MS",
    "LEDGER_MIGRATIONS",
    "MAX_KEY_CHARS",
    "PENDING_MAX_AGE_S",
    "SETTLED_MAX_AGE_S",
    "Claim",
    "Execute",
    "KeyLocks",
    "LedgerKey",
    "LedgerRow",
    "Replay",
    "claim",
    "discard",
    "get",
    "input_hash",
    "ledger_key",
    "settle",
    "sweep",
]

DEFAULT_LEASE_MS = 300_000
"""How old a pending explicit-key row must be before another attempt may reclaim it."""
SETTLED_MAX_AGE_S = 30 * 24 * 3600.0
PENDING_MAX_AGE_S = 90 * 24 * 3600.0
MAX_KEY_CHARS = 1_000
"""Longest rendered explicit key: a key is an identifier, not a place to put a payload."""

LEDGER_MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """
            CREATE TABLE codemode_ledger (
                key          TEXT    PRIMARY KEY,
                action       TEXT    NOT NULL,
                execution_id TEXT,
                seq          INTEGER,
                input_hash   TEXT    NOT NULL,
                status       TEXT    NOT NULL CHECK (status IN ('pending', 'settled')),
                result       TEXT,
                explicit     INTEGER NOT NULL CHECK (explicit IN (0, 1)),
                created_at   REAL    NOT NULL,
                updated_at   REAL    NOT NULL
            )
            """,
            # The retention sweep deletes by status and age.
            "CREATE INDEX codemode_ledger_retention ON codemode_ledger (status, updated_at)",
            # The audit view lists the actions one execution claimed.
            "CREATE INDEX codemode_ledger_execution ON codemode_ledger (execution_id, seq)",
        ),
    ),
)

_COLUMNS = (
    "key, action, execution_id, seq, input_hash, status, result, explicit, "
    "created_at, updated_at"
)
# A template field is a dotted path of plain names; anything else Python's format mini
# language would accept (``[0]``, ``!r``, ``:>10``) is refused rather than half-supported.
_FIELD_SEGMENT = re.compile(r"^[\w-]+\Z")


# --- keys and hashes --------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerKey:
    """A ledger key, whether it came from an explicit template, and the key the tool gets."""

    key: str
    explicit: bool
    sent: str


def _render_value(value: Any) -> str:
    if isinstance(value, (str, bool, int)):
        return str(value)
    return sqlite_safe_json(canonical_json(encode_value(value)))


def _lookup(tool: str, template: str, args: Mapping[str, Any], field: str) -> Any:
    current: Any = args
    walked: list[str] = []
    for segment in field.split("."):
        if not isinstance(current, Mapping):
            where = ".".join(walked)
            raise ActionKeyError(
                tool, template, f'input field "{where}" is not an object, so "{field}" does not exist'
            )
        walked.append(segment)
        # Null and "" are refused like a missing field: rendering them would give every
        # such call one shared key ("invoice:" or "invoice:null") and so wrong replays.
        if current.get(segment) is None or current.get(segment) == "":
            raise ActionKeyError(
                tool, template, f'the input has no value for field "{".".join(walked)}"'
            )
        current = current[segment]
    return current


def _render(tool: str, template: str, args: Mapping[str, Any]) -> str:
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ActionKeyError(
            tool, template, f"{exc}; write a literal brace as {{{{ or }}}}"
        ) from exc
    # Check every field before looking any up, so a bad template is reported as such
    # whatever the input holds.
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if conversion is not None or spec:
            raise ActionKeyError(
                tool, template,
                f'"{{{field}{"!" + conversion if conversion else ""}{":" + spec if spec else ""}}}"'
                " uses a conversion or format spec; fields are plain dotted names such as "
                "{invoice_id} or {customer.id}",
            )
        if not field or not all(_FIELD_SEGMENT.match(s) for s in field.split(".")):
            raise ActionKeyError(
                tool, template,
                f'"{{{field}}}" is not a field name; fields are plain dotted names such as '
                "{invoice_id} or {customer.id} (no positions, indexes or attributes)",
            )
    out: list[str] = []
    for literal, field, _, _ in parts:
        out.append(literal)
        if field is not None:
            try:
                out.append(_render_value(_lookup(tool, template, args, field)))
            except NotSerialisableError as exc:
                raise ActionKeyError(
                    tool, template, f'input field "{field}" cannot be rendered: {exc.reason}'
                ) from exc
            except ValueError as exc:  # an integer too long for str() (Python's digit cap)
                raise ActionKeyError(
                    tool, template, f'input field "{field}" cannot be rendered: {exc}'
                ) from exc
    return "".join(out)


def ledger_key(
    tool_name: str,
    template: str | None,
    args: Mapping[str, Any],
    execution_id: str,
    seq: int,
) -> LedgerKey:
    """The ledger key of one call of ``tool_name`` with input ``args``.

    With a ``template`` its fields (``{name}``, nested ``{a.b}``) are filled from the input:
    strings, integers and booleans as ``str()`` gives them, other values as canonical JSON.
    A missing or null field, an empty or over-long result, or a field using Python format
    features (``{x!r}``, ``{x:>10}``, ``{x[0]}``) raises :class:`ActionKeyError`.
    """
    if template is None:
        sent = f"{execution_id}:{seq}"
        return LedgerKey(key=f"tool:{sent}", explicit=False, sent=sent)
    if not isinstance(template, str):
        raise ActionKeyError(tool_name, template, "the template must be a string")
    if not isinstance(args, Mapping):
        raise ActionKeyError(
            tool_name, template, f"the input must be an object, not {type(args).__name__}"
        )
    rendered = _render(tool_name, template, args)
    if not rendered:
        raise ActionKeyError(tool_name, template, "the rendered key is empty")
    if len(rendered) > MAX_KEY_CHARS:
        raise ActionKeyError(
            tool_name, template,
            f"the rendered key is {len(rendered):,} characters; at most {MAX_KEY_CHARS:,} "
            "are allowed (use an id field, not the payload)",
        )
    return LedgerKey(key=f"action:{tool_name}:{rendered}", explicit=True, sent=rendered)


def input_hash(args: Any) -> str:
    """SHA-256 hex of the canonical JSON (sorted keys) of the durable-encoded input.

    Bytes and their base64 text hash differently, as they are different inputs. Raises
    :class:`~codemode.errors.NotSerialisableError` for input with no durable form.
    """
    try:
        text = sqlite_safe_json(canonical_json(encode_value(args)))
    except ValueError as exc:  # an integer too long for str() (Python's digit cap)
        raise NotSerialisableError("The input", str(exc)) from exc
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- rows and claims --------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerRow:
    """One ledger row as stored; ``result`` decoded (bytes are bytes again)."""

    key: str
    action: str
    execution_id: str | None
    seq: int | None
    input_hash: str
    status: str
    result: Any
    explicit: bool
    created_at: float
    updated_at: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the audit view; the result in its tagged durable form."""
        return {
            "key": self.key,
            "action": self.action,
            "execution_id": self.execution_id,
            "seq": self.seq,
            "input_hash": self.input_hash,
            "status": self.status,
            "result": encode_value(self.result),
            "explicit": self.explicit,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass(frozen=True)
class Execute:
    """The caller holds the pending row: call the tool, then settle or discard the key.

    ``reclaimed`` is True when an earlier pending attempt's row was taken over.
    """

    reclaimed: bool = False


@dataclass(frozen=True)
class Replay:
    """The action already ran with this input: return ``result`` without calling the tool."""

    result: Any


Claim = Execute | Replay


def _row(row: Any) -> LedgerRow:
    return LedgerRow(
        key=row[0],
        action=row[1],
        execution_id=row[2],
        seq=None if row[3] is None else int(row[3]),
        input_hash=row[4],
        status=row[5],
        result=decode_json(row[6]),
        explicit=bool(row[7]),
        created_at=float(row[8]),
        updated_at=float(row[9]),
    )


async def get(conn: Connection, key: str) -> LedgerRow | None:
    """The row stored under ``key``, or None."""
    row = await conn.fetchone(
        f"SELECT {_COLUMNS} FROM codemode_ledger WHERE key = ?", (key,)
    )
    return None if row is None else _row(row)


def _lease_expired(updated_at: float, lease_ms: int | None, at: float) -> bool:
    if lease_ms is None or lease_ms <= 0:
        return False
    return (at - updated_at) * 1000.0 > lease_ms


async def claim(
    conn: Connection,
    key: LedgerKey,
    *,
    action: str,
    input_hash: str,
    execution_id: str | None,
    seq: int | None,
    lease_ms: int | None,
    now: float | None = None,
) -> Claim:
    """Decide whether this call executes or replays, recording the claim (see module doc).

    Must run inside the caller's write transaction, so the read and the write are one step
    for every other connection. ``lease_ms`` None or ``<= 0`` disables reclaiming stale
    explicit-key rows. Raises :class:`ActionKeyConflict` or :class:`ActionPendingError`.
    """
    at = _now() if now is None else now
    row = await conn.fetchone(
        "SELECT action, input_hash, status, result, execution_id, seq, updated_at"
        " FROM codemode_ledger WHERE key = ?",
        (key.key,),
    )
    if row is None:
        await conn.execute(
            f"INSERT INTO codemode_ledger ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'pending', NULL, ?, ?, ?)",
            (key.key, action, execution_id, seq, input_hash, int(key.explicit), at, at),
        )
        return Execute()
    stored_action, stored_hash, status, result, owner_id, owner_seq, updated_at = row
    if stored_action != action or stored_hash != input_hash:
        raise ActionKeyConflict(key.key, action)
    if status == "settled":
        return Replay(decode_json(result))
    own_attempt = (
        execution_id is not None
        and seq is not None
        and owner_id == execution_id
        and owner_seq == seq
    )
    # Only explicit keys are leased: a ``tool:`` key names one step of one execution, and
    # only that execution's own resume may take it over.
    if not own_attempt and not (key.explicit and _lease_expired(float(updated_at), lease_ms, at)):
        raise ActionPendingError(key.key, action)
    await conn.execute(
        "UPDATE codemode_ledger SET execution_id = ?, seq = ?, updated_at = ? WHERE key = ?",
        (execution_id, seq, at, key.key),
    )
    return Execute(reclaimed=True)


async def settle(conn: Connection, key: str, result: Any, *, now: float | None = None) -> bool:
    """Record ``result`` on the pending row ``key``; False when it was not recorded.

    A result with no durable form (or over the durable size limit) deletes the row, so
    the next attempt runs again, and the caller returns the result unrecorded. False too
    when no pending row exists (discarded or swept meanwhile).
    """
    try:
        text = durable_value_json(f'The result of action "{key}"', result, ordered=True)
    except (NotSerialisableError, DurableSizeError):
        await discard(conn, key)
        return False
    at = _now() if now is None else now
    changed = await conn.execute(
        "UPDATE codemode_ledger SET status = 'settled', result = ?, updated_at = ?"
        " WHERE key = ? AND status = 'pending'",
        (text, at, key),
    )
    return changed == 1


async def discard(conn: Connection, key: str) -> bool:
    """Delete the pending row ``key`` (the call raised or timed out); settled rows stay."""
    changed = await conn.execute(
        "DELETE FROM codemode_ledger WHERE key = ? AND status = 'pending'", (key,)
    )
    return changed == 1


async def sweep(
    conn: Connection,
    *,
    settled_max_age_s: float = SETTLED_MAX_AGE_S,
    pending_max_age_s: float = PENDING_MAX_AGE_S,
    now: float | None = None,
) -> int:
    """Delete settled rows older than ``settled_max_age_s`` and pending ones older than
    ``pending_max_age_s`` (by last update); return how many were deleted."""
    at = _now() if now is None else now
    changed = await conn.execute(
        "DELETE FROM codemode_ledger WHERE (status = 'settled' AND updated_at < ?)"
        " OR (status = 'pending' AND updated_at < ?)",
        (at - settled_max_age_s, at - pending_max_age_s),
    )
    return changed


# --- coalescing -------------------------------------------------------------------------


class KeyLocks:
    """Concurrent calls with one key, in this process, take turns (no database involved).

    The first holder claims, runs and settles; the next then claims a settled row and
    replays it, or meets :class:`ActionKeyConflict` if its input differs, so an action runs
    once however many calls with its key arrive together. A lock lives only while someone
    holds or waits for it.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def users(self, key: str) -> int:
        """Callers holding or waiting for ``key`` (0 when it is free)."""
        return self._locks.get(key, (None, 0))[1]

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

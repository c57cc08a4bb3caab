"""The idempotency ledger: keys, input hashes, claims, settling, retention and coalescing.

Every database test runs against a real SQLite file migrated with ``apply_migrations``;
each claim/settle/discard runs in its own ``BEGIN IMMEDIATE`` transaction, as the runtime
will call them. Lease tests pass ``now=`` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import storage
from storage.sqlite import SQLiteSession
import pytest

from codemode.errors import (
    ActionKeyConflict,
    ActionKeyError,
    ActionPendingError,
    CodeModeError,
    NotSerialisableError,
)
from codemode.ledger import (
    DEFAULT_LEASE_MS,
    LEDGER_MIGRATIONS,
    MAX_KEY_CHARS,
    PENDING_MAX_AGE_S,
    SETTLED_MAX_AGE_S,
    KeyLocks,
    Execute,
    LedgerKey,
    Replay,
    claim,
    discard,
    get,
    input_hash,
    ledger_key,
    settle,
    sweep,
)
from codemode.migrations import on_both
from workspace.schema import apply_migrations

T0 = 1_700_000_000.0
DAY = 24 * 3600.0
PENDING_MESSAGE = (
    "A prior attempt of this action is in an unknown state; not re-executed. "
    "Manual reconciliation may be required."
)
REPO = Path(__file__).resolve().parents[2]


class LedgerConn(SQLiteSession):
    """A connection of its own to a file with the ledger's table: what the ledger's
    functions are given inside a store transaction (``tx(conn)`` opens one)."""

    async def close(self) -> None:
        await self.conn.close()


async def _open(path: Path) -> LedgerConn:
    db = await storage.SQLiteDatabase.open(path)
    await apply_migrations(db.conn, "ledger", LEDGER_MIGRATIONS)
    return LedgerConn(db.conn)


@pytest.fixture
async def conn(database: str) -> AsyncIterator[storage.Session]:
    """A session on a database with the ledger's table, on each backend in turn."""
    db = await storage.open_database(database)
    try:
        await storage.apply_migrations(db, "ledger", on_both(LEDGER_MIGRATIONS))
        async with db.session() as session:
            yield session
    finally:
        await db.close()


@asynccontextmanager
async def tx(conn: storage.Session) -> AsyncIterator[storage.Session]:
    await conn.begin(write=True)
    try:
        yield conn
    except BaseException:
        await conn.rollback()
        raise
    await conn.commit()


async def do_claim(
    conn: LedgerConn,
    key: LedgerKey,
    args: Any,
    *,
    action: str = "charge",
    execution_id: str | None = "exec_a",
    seq: int | None = 0,
    lease_ms: int | None = DEFAULT_LEASE_MS,
    now: float = T0,
) -> Execute | Replay:
    async with tx(conn):
        return await claim(
            conn, key, action=action, input_hash=input_hash(args),
            execution_id=execution_id, seq=seq, lease_ms=lease_ms, now=now,
        )


async def do_settle(conn: LedgerConn, key: str, result: Any, now: float = T0) -> bool:
    async with tx(conn):
        return await settle(conn, key, result, now=now)


INVOICE = ledger_key("charge", "invoice:{invoice_id}", {"invoice_id": "inv_1"}, "exec_a", 0)


# --- keys ------------------------------------------------------------------------------


def test_explicit_template_renders_the_input_field_into_an_action_key() -> None:
    key = ledger_key("charge", "invoice:{invoice_id}", {"invoice_id": "inv_42", "amount": 5}, "e", 3)
    assert key == LedgerKey(key="action:charge:invoice:inv_42", explicit=True, sent="invoice:inv_42")


def test_no_template_keys_the_call_by_execution_and_step() -> None:
    key = ledger_key("charge", None, {"invoice_id": "inv_42"}, "exec_9", 7)
    assert key == LedgerKey(key="tool:exec_9:7", explicit=False, sent="exec_9:7")


def test_nested_fields_are_reached_by_dotted_names() -> None:
    args = {"customer": {"account": {"id": "acc_1"}}, "n": 2}
    key = ledger_key("bill", "{customer.account.id}/{n}", args, "e", 0)
    assert key.sent == "acc_1/2"


def test_str_int_and_bool_render_as_text_other_values_as_canonical_json() -> None:
    args = {"s": "x y", "i": -3, "b": True, "f": 1.5, "l": [2, "a"], "d": {"z": 1, "a": 2},
            "raw": b"\x00\xff"}
    key = ledger_key("t", "{s}|{i}|{b}|{f}|{l}|{d}|{raw}", args, "e", 0)
    assert key.sent == 'x y|-3|True|1.5|[2,"a"]|{"a":2,"z":1}|{"$bytes":"AP8="}'


def test_doubled_braces_are_literal_braces() -> None:
    assert ledger_key("t", "{{{id}}}", {"id": "k"}, "e", 0).sent == "{k}"


def test_a_template_without_fields_is_one_fixed_key() -> None:
    assert ledger_key("t", "daily-report", {}, "e", 0).key == "action:t:daily-report"


@pytest.mark.parametrize(
    ("args", "missing"),
    [
        ({}, "invoice_id"),
        ({"invoice_id": None}, "invoice_id"),
        ({"invoice_id": ""}, "invoice_id"),
    ],
)
def test_missing_null_or_empty_field_is_an_action_key_error_naming_it(
    args: dict[str, Any], missing: str
) -> None:
    with pytest.raises(ActionKeyError, match=f'no value for field "{missing}"') as info:
        ledger_key("charge", "invoice:{invoice_id}", args, "e", 0)
    assert 'action "charge"' in str(info.value)


def test_missing_nested_field_names_the_path_walked() -> None:
    with pytest.raises(ActionKeyError, match='no value for field "customer.id"'):
        ledger_key("t", "{customer.id}", {"customer": {"name": "n"}}, "e", 0)


def test_dotted_name_through_a_non_object_is_refused_not_an_attribute_lookup() -> None:
    with pytest.raises(ActionKeyError, match='"name" is not an object'):
        ledger_key("t", "{name.upper}", {"name": "abc"}, "e", 0)


def test_dunder_segment_is_a_dict_key_never_a_python_attribute() -> None:
    assert ledger_key("t", "{x.__class__}", {"x": {"__class__": "k"}}, "e", 0).sent == "k"
    with pytest.raises(ActionKeyError, match="no value"):
        ledger_key("t", "{x.__class__}", {"x": {}}, "e", 0)


def test_empty_rendered_key_is_refused() -> None:
    with pytest.raises(ActionKeyError, match="rendered key is empty"):
        ledger_key("t", "", {"a": 1}, "e", 0)


@pytest.mark.parametrize(
    "template", ["{x!r}", "{x:>10}", "{x!s:^3}", "{x:{y}}", "{x[0]}", "{x.y[1]}", "{}", "{ x }",
                 "{x.}", "{.x}"]
)
def test_format_features_beyond_dotted_names_are_refused(template: str) -> None:
    args = {"x": {"y": [1, 2]}, "y": "3"}
    with pytest.raises(ActionKeyError, match="plain dotted names"):
        ledger_key("t", template, args, "e", 0)


@pytest.mark.parametrize("template", ["{x", "x}", "{x!}"])
def test_unbalanced_braces_are_an_action_key_error(template: str) -> None:
    with pytest.raises(ActionKeyError, match="literal brace"):
        ledger_key("t", template, {"x": 1}, "e", 0)


def test_format_spec_is_refused_even_when_the_field_is_missing() -> None:
    with pytest.raises(ActionKeyError, match="format spec"):
        ledger_key("t", "{absent:>10}", {}, "e", 0)


def test_rendered_key_at_the_length_cap_is_kept_one_past_is_refused() -> None:
    assert len(ledger_key("t", "{k}", {"k": "a" * MAX_KEY_CHARS}, "e", 0).sent) == MAX_KEY_CHARS
    with pytest.raises(ActionKeyError, match="at most 1,000"):
        ledger_key("t", "{k}", {"k": "a" * (MAX_KEY_CHARS + 1)}, "e", 0)


def test_unrenderable_field_and_non_string_template_are_action_key_errors() -> None:
    with pytest.raises(ActionKeyError, match='"s" cannot be rendered'):
        ledger_key("t", "{s}", {"s": {1, 2}}, "e", 0)
    with pytest.raises(ActionKeyError, match='"n" cannot be rendered'):
        ledger_key("t", "{n}", {"n": 10**5000}, "e", 0)
    with pytest.raises(ActionKeyError, match="must be a string"):
        ledger_key("t", 5, {}, "e", 0)  # type: ignore[arg-type]
    with pytest.raises(ActionKeyError, match="must be an object"):
        ledger_key("t", "{a}", ["a"], "e", 0)  # type: ignore[arg-type]


def test_ledger_errors_are_code_mode_errors_with_their_reference_names() -> None:
    assert issubclass(ActionKeyError, CodeModeError) and ActionKeyError.name == "ActionKeyError"
    conflict = ActionKeyConflict("action:echo:k", "echo")
    assert conflict.name == "ActionKeyConflict" and isinstance(conflict, CodeModeError)
    pending = ActionPendingError("action:echo:k", "echo")
    assert pending.name == "ActionPendingError" and str(pending) == PENDING_MESSAGE


# --- input hash ------------------------------------------------------------------------


def test_input_hash_is_sha256_of_sorted_canonical_json() -> None:
    expected = hashlib.sha256(b'{"a":[1,2],"b":"\xc3\xa9"}').hexdigest()
    assert input_hash({"b": "\u00e9", "a": (1, 2)}) == expected
    assert input_hash({"a": [1, 2], "b": "\u00e9"}) == expected


def test_input_hash_tells_bytes_from_their_base64_text_and_values_apart() -> None:
    assert input_hash({"d": b"hi"}) != input_hash({"d": "aGk="})
    assert input_hash({"n": 1}) != input_hash({"n": 2})
    assert input_hash({"n": 1}) != input_hash({"n": "1"})


def test_input_hash_of_lone_surrogate_is_stable_not_a_crash() -> None:
    assert input_hash({"s": "\ud800"}) == input_hash({"s": "\ud800"})


def test_input_hash_of_unserialisable_input_raises_not_serialisable() -> None:
    with pytest.raises(NotSerialisableError):
        input_hash({"s": {1}})
    with pytest.raises(NotSerialisableError, match="digits"):
        input_hash({"n": 10**5000})


# --- claims ----------------------------------------------------------------------------


async def test_first_claim_executes_and_writes_a_pending_row(conn: LedgerConn) -> None:
    assert await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, seq=4) == Execute(reclaimed=False)
    row = await get(conn, INVOICE.key)
    assert row is not None
    assert (row.action, row.status, row.execution_id, row.seq, row.explicit) == (
        "charge", "pending", "exec_a", 4, True
    )
    assert row.input_hash == input_hash({"invoice_id": "inv_1"})
    assert row.created_at == row.updated_at == T0 and row.result is None


async def test_claim_rolled_back_with_the_callers_transaction_leaves_no_row(
    conn: LedgerConn,
) -> None:
    with pytest.raises(RuntimeError):
        async with tx(conn):
            await claim(conn, INVOICE, action="charge", input_hash="h", execution_id="e",
                        seq=0, lease_ms=None)
            raise RuntimeError("caller failed later in the same transaction")
    assert await get(conn, INVOICE.key) is None


async def test_settled_key_replays_its_result_and_bytes_survive(conn: LedgerConn) -> None:
    args = {"invoice_id": "inv_1"}
    await do_claim(conn, INVOICE, args)
    result = {"receipt": b"\x89PNG\x00", "ok": True, "nan": float("inf"), "$bytes": "looks-like-a-tag"}
    assert await do_settle(conn, INVOICE.key, result, now=T0 + 1)
    replay = await do_claim(conn, INVOICE, args, execution_id="exec_b", seq=9, now=T0 + 2)
    assert replay == Replay(result)
    assert isinstance(replay, Replay) and isinstance(replay.result["receipt"], bytes)
    row = await get(conn, INVOICE.key)
    assert row is not None
    # A replay changes nothing: the row still names the attempt that ran.
    assert (row.status, row.execution_id, row.seq, row.updated_at) == ("settled", "exec_a", 0, T0 + 1)


async def test_a_none_result_is_recorded_and_replayed_as_none(conn: LedgerConn) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    assert await do_settle(conn, INVOICE.key, None)
    assert await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="b") == Replay(None)


@pytest.mark.parametrize("status", ["pending", "settled"])
async def test_same_key_with_other_input_is_a_conflict_with_the_reference_message(
    conn: LedgerConn, status: str
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1", "amount": 5})
    if status == "settled":
        await do_settle(conn, INVOICE.key, "done")
    with pytest.raises(ActionKeyConflict) as info:
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1", "amount": 6}, execution_id="exec_a", seq=0)
    assert str(info.value) == (
        'Idempotency key "action:charge:invoice:inv_1" for action "charge" was reused with '
        "different input. This is a programming error; do not retry."
    )
    row = await get(conn, INVOICE.key)
    assert row is not None and row.status == status


@pytest.mark.parametrize("status", ["pending", "settled"])
async def test_same_key_claimed_by_another_action_is_a_conflict(
    conn: LedgerConn, status: str
) -> None:
    key = ledger_key("charge", None, {}, "exec_a", 0)
    await do_claim(conn, key, {"x": 1}, action="charge")
    if status == "settled":
        await do_settle(conn, key.key, 1)
    with pytest.raises(ActionKeyConflict, match='for action "refund"'):
        await do_claim(conn, key, {"x": 1}, action="refund")


async def test_fresh_pending_row_of_another_attempt_is_action_pending_error(
    conn: LedgerConn,
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    with pytest.raises(ActionPendingError) as info:
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b", now=T0 + 1)
    assert str(info.value) == PENDING_MESSAGE
    row = await get(conn, INVOICE.key)
    assert row is not None and (row.execution_id, row.updated_at) == ("exec_a", T0)


async def test_stale_explicit_key_is_reclaimed_past_the_lease(conn: LedgerConn) -> None:
    args = {"invoice_id": "inv_1"}
    await do_claim(conn, INVOICE, args)
    got = await do_claim(conn, INVOICE, args, execution_id="exec_b", seq=2, lease_ms=50,
                         now=T0 + 0.051)
    assert got == Execute(reclaimed=True)
    row = await get(conn, INVOICE.key)
    assert row is not None
    assert (row.execution_id, row.seq, row.updated_at, row.created_at) == ("exec_b", 2, T0 + 0.051, T0)
    assert await do_settle(conn, INVOICE.key, "charged")
    assert await do_claim(conn, INVOICE, args, execution_id="exec_c") == Replay("charged")


async def test_pending_row_exactly_at_the_lease_age_is_not_yet_reclaimed(
    conn: LedgerConn,
) -> None:
    # 0.125 s is exact in binary floating point, so this is the edge and not rounding.
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    with pytest.raises(ActionPendingError):
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b",
                       lease_ms=125, now=T0 + 0.125)
    got = await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b",
                         lease_ms=125, now=T0 + 0.126)
    assert got == Execute(reclaimed=True)


async def test_a_reclaimed_row_starts_a_new_lease(conn: LedgerConn) -> None:
    args = {"invoice_id": "inv_1"}
    await do_claim(conn, INVOICE, args)
    await do_claim(conn, INVOICE, args, execution_id="exec_b", lease_ms=50, now=T0 + 1)
    with pytest.raises(ActionPendingError):
        await do_claim(conn, INVOICE, args, execution_id="exec_c", lease_ms=50, now=T0 + 1.01)


async def test_stale_tool_key_of_another_attempt_is_never_lease_reclaimed(
    conn: LedgerConn,
) -> None:
    key = ledger_key("charge", None, {}, "exec_a", 0)
    await do_claim(conn, key, {"x": 1}, execution_id="exec_a", seq=0)
    with pytest.raises(ActionPendingError):
        await do_claim(conn, key, {"x": 1}, execution_id="exec_other", seq=0, lease_ms=50,
                       now=T0 + DAY)


@pytest.mark.parametrize("lease_ms", [None, 0, -1])
async def test_disabled_lease_never_reclaims_another_attempts_row(
    conn: LedgerConn, lease_ms: int | None
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    with pytest.raises(ActionPendingError):
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b",
                       lease_ms=lease_ms, now=T0 + 30 * DAY)


@pytest.mark.parametrize("template", [None, "invoice:{invoice_id}"])
async def test_same_execution_and_step_reclaims_its_own_attempt_at_once(
    conn: LedgerConn, template: str | None
) -> None:
    args = {"invoice_id": "inv_1"}
    key = ledger_key("charge", template, args, "exec_a", 3)
    await do_claim(conn, key, args, execution_id="exec_a", seq=3)
    got = await do_claim(conn, key, args, execution_id="exec_a", seq=3, lease_ms=None, now=T0 + 0.001)
    assert got == Execute(reclaimed=True)
    row = await get(conn, key.key)
    assert row is not None and row.updated_at == T0 + 0.001


async def test_same_execution_at_another_step_is_another_attempt(conn: LedgerConn) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_a", seq=0)
    with pytest.raises(ActionPendingError):
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_a", seq=1)


async def test_claims_without_an_owner_never_count_as_the_same_attempt(
    conn: LedgerConn,
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id=None, seq=None)
    with pytest.raises(ActionPendingError):
        await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id=None, seq=None)


# --- settle, discard, sweep ------------------------------------------------------------


async def test_discard_leaves_no_row_and_the_next_call_executes_fresh(
    conn: LedgerConn,
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    async with tx(conn):
        assert await discard(conn, INVOICE.key)
    assert await get(conn, INVOICE.key) is None
    got = await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b")
    assert got == Execute(reclaimed=False)


async def test_discard_never_deletes_a_settled_result(conn: LedgerConn) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    await do_settle(conn, INVOICE.key, "ok")
    async with tx(conn):
        assert not await discard(conn, INVOICE.key)
    row = await get(conn, INVOICE.key)
    assert row is not None and row.result == "ok"


@pytest.mark.parametrize("result", [{"s": {1, 2}}, object(), "x" * 1_000_001])
async def test_unrecordable_result_deletes_the_row_and_reports_unrecorded(
    conn: LedgerConn, result: Any
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    assert await do_settle(conn, INVOICE.key, result) is False
    assert await get(conn, INVOICE.key) is None


async def test_settle_without_a_pending_row_records_nothing(conn: LedgerConn) -> None:
    assert await do_settle(conn, INVOICE.key, "late") is False
    assert await get(conn, INVOICE.key) is None
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    assert await do_settle(conn, INVOICE.key, "first")
    assert await do_settle(conn, INVOICE.key, "second") is False
    row = await get(conn, INVOICE.key)
    assert row is not None and row.result == "first"


async def test_sweep_deletes_settled_after_30_days_and_pending_after_90(
    conn: LedgerConn,
) -> None:
    ages = {"settled-new": 29, "settled-old": 31, "pending-mid": 31, "pending-old": 91}
    for name, age in ages.items():
        key = ledger_key("t", name, {}, "e", 0)
        await do_claim(conn, key, {}, action="t", execution_id=name, now=T0 - age * DAY)
        if name.startswith("settled"):
            await do_settle(conn, key.key, name, now=T0 - age * DAY)
    async with tx(conn):
        assert await sweep(conn, now=T0) == 2
    remaining = {name for name in ages if await get(conn, f"action:t:{name}") is not None}
    assert remaining == {"settled-new", "pending-mid"}
    assert SETTLED_MAX_AGE_S == 30 * DAY and PENDING_MAX_AGE_S == 90 * DAY


async def test_sweep_age_is_counted_from_the_last_update_and_limits_are_configurable(
    conn: LedgerConn,
) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, now=T0 - 100)
    await do_settle(conn, INVOICE.key, "r", now=T0 - 10)
    async with tx(conn):
        assert await sweep(conn, settled_max_age_s=10, now=T0) == 0
        assert await sweep(conn, settled_max_age_s=9.5, now=T0) == 1
    async with tx(conn):
        assert await sweep(conn, now=T0) == 0


async def test_row_to_dict_is_json_ready_for_the_audit_view(conn: LedgerConn) -> None:
    await do_claim(conn, INVOICE, {"invoice_id": "inv_1"})
    await do_settle(conn, INVOICE.key, {"pdf": b"%PDF"})
    row = await get(conn, INVOICE.key)
    assert row is not None
    assert row.to_dict()["result"] == {"pdf": {"$bytes": "JVBERg=="}}
    assert row.to_dict()["key"] == "action:charge:invoice:inv_1"


async def test_migrations_apply_once_and_again_is_a_no_op(tmp_path: Path) -> None:
    first = await _open(tmp_path / "m.db")
    await first.close()
    second = await _open(tmp_path / "m.db")
    try:
        names = {r[0] for r in await second.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'codemode_ledger'")}
        assert "codemode_ledger_retention" in names
    finally:
        await second.close()


# --- durability across connections and processes ---------------------------------------


async def test_committed_pending_row_blocks_a_second_connection(tmp_path: Path) -> None:
    first = await _open(tmp_path / "shared.db")
    second = await _open(tmp_path / "shared.db")
    try:
        await do_claim(first, INVOICE, {"invoice_id": "inv_1"})
        with pytest.raises(ActionPendingError):
            await do_claim(second, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b")
    finally:
        await first.close()
        await second.close()


async def test_pending_row_survives_kill_9_then_a_stale_claim_reclaims_and_settles_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "killed.db"
    script = textwrap.dedent(
        f"""
        import asyncio, os, signal
        import storage
        from codemode.ledger import LEDGER_MIGRATIONS, claim, input_hash, ledger_key
        from workspace.schema import apply_migrations

        async def main():
            db = await storage.SQLiteDatabase.open({str(db)!r})
            await apply_migrations(db.conn, "ledger", LEDGER_MIGRATIONS)
            args = {{"invoice_id": "inv_1"}}
            key = ledger_key("charge", "invoice:{{invoice_id}}", args, "exec_a", 0)
            async with db.transaction(write=True) as conn:
                await claim(conn, key, action="charge", input_hash=input_hash(args),
                            execution_id="exec_a", seq=0, lease_ms=None, now={T0!r})
            # Killed mid-call, after the claim and before settle or discard.
            os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          timeout=30, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    conn = await _open(db)
    try:
        row = await get(conn, INVOICE.key)
        assert row is not None and row.status == "pending"
        with pytest.raises(ActionPendingError):
            await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b",
                           now=T0 + 1)
        got = await do_claim(conn, INVOICE, {"invoice_id": "inv_1"}, execution_id="exec_b",
                             now=T0 + DEFAULT_LEASE_MS / 1000 + 1)
        assert got == Execute(reclaimed=True)
        assert await do_settle(conn, INVOICE.key, "charged once")
        row = await get(conn, INVOICE.key)
        assert row is not None and (row.status, row.execution_id) == ("settled", "exec_b")
    finally:
        await conn.close()


# --- coalescing ------------------------------------------------------------------------


async def until(condition: Callable[[], bool]) -> None:
    """Yield to other tasks until ``condition`` holds; fail (not hang) after 2 s."""
    async with asyncio.timeout(2):
        while not condition():
            await asyncio.sleep(0)


async def test_calls_with_one_key_take_turns_and_the_lock_is_dropped_after() -> None:
    locks = KeyLocks()
    inside = 0
    most = 0
    gate = asyncio.Event()

    async def call() -> None:
        nonlocal inside, most
        async with locks.hold("k"):
            inside += 1
            most = max(most, inside)
            await gate.wait()
            inside -= 1

    tasks = [asyncio.create_task(call()) for _ in range(10)]
    await until(lambda: locks.users("k") == 10)
    gate.set()
    await asyncio.gather(*tasks)
    assert most == 1
    assert locks.users("k") == 0


async def test_different_keys_do_not_wait_for_each_other() -> None:
    locks = KeyLocks()
    gate = asyncio.Event()

    async def hold_a() -> None:
        async with locks.hold("a"):
            await gate.wait()

    holder = asyncio.create_task(hold_a())
    await until(lambda: locks.users("a") == 1)
    async with asyncio.timeout(1):
        async with locks.hold("b"):
            pass
    gate.set()
    await holder


async def test_a_failing_holder_frees_the_key_for_the_next() -> None:
    locks = KeyLocks()
    with pytest.raises(RuntimeError):
        async with locks.hold("k"):
            raise RuntimeError("boom")
    assert locks.users("k") == 0
    async with asyncio.timeout(1):
        async with locks.hold("k"):
            pass


class Actions:
    """A minimal driver: coalesce, claim, call, settle or discard - each step its own transaction."""

    def __init__(self, conn: LedgerConn) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()
        self.locks = KeyLocks()
        self.effects: Counter[str] = Counter()

    async def call(
        self, tool: str, template: str | None, args: dict[str, Any],
        fn: Callable[[dict[str, Any]], Awaitable[Any]], *, execution_id: str = "exec_a",
        seq: int = 0,
    ) -> Any:
        key = ledger_key(tool, template, args, execution_id, seq)
        digest = input_hash(args)

        async def once() -> Any:
            async with self.lock, tx(self.conn):
                decision = await claim(self.conn, key, action=tool, input_hash=digest,
                                       execution_id=execution_id, seq=seq,
                                       lease_ms=DEFAULT_LEASE_MS)
            if isinstance(decision, Replay):
                return decision.result
            try:
                self.effects[key.sent] += 1
                result = await fn(args)
            except BaseException:
                async with self.lock, tx(self.conn):
                    await discard(self.conn, key.key)
                raise
            async with self.lock, tx(self.conn):
                await settle(self.conn, key.key, result)
            return result

        async with self.locks.hold(key.key):
            return await once()


async def echo(args: dict[str, Any]) -> Any:
    await asyncio.sleep(0.01)
    return {"echoed": args["text"]}


async def test_same_idempotency_key_twice_executes_once_then_other_input_conflicts(
    conn: LedgerConn,
) -> None:
    actions = Actions(conn)
    args = {"key": "replay-key", "text": "hi"}
    first = await actions.call("echo", "{key}", args, echo, seq=0)
    second = await actions.call("echo", "{key}", args, echo, seq=1)
    assert first == second == {"echoed": "hi"}
    assert actions.effects["replay-key"] == 1
    row = await get(conn, "action:echo:replay-key")
    assert row is not None and row.status == "settled"
    with pytest.raises(ActionKeyConflict):
        await actions.call("echo", "{key}", {"key": "replay-key", "text": "other"}, echo, seq=2)
    assert actions.effects["replay-key"] == 1


async def test_keyed_action_that_raises_runs_again_each_call_and_leaves_no_row(
    conn: LedgerConn,
) -> None:
    actions = Actions(conn)

    async def broken(args: dict[str, Any]) -> Any:
        raise RuntimeError("upstream down")

    for seq in range(3):
        with pytest.raises(RuntimeError):
            await actions.call("echo", "{key}", {"key": "k1", "text": "x"}, broken, seq=seq)
    assert actions.effects["k1"] == 3
    assert await get(conn, "action:echo:k1") is None


async def test_two_parallel_calls_with_one_key_execute_once(conn: LedgerConn) -> None:
    actions = Actions(conn)
    args = {"key": "par", "text": "p"}
    results = await asyncio.gather(
        actions.call("echo", "{key}", args, echo, seq=0),
        actions.call("echo", "{key}", args, echo, seq=1),
    )
    assert list(results) == [{"echoed": "p"}] * 2
    assert actions.effects["par"] == 1


async def test_parallel_call_with_other_input_is_not_handed_the_first_result(
    conn: LedgerConn,
) -> None:
    actions = Actions(conn)
    outcomes = await asyncio.gather(
        actions.call("echo", "{key}", {"key": "par", "text": "a"}, echo, seq=0),
        actions.call("echo", "{key}", {"key": "par", "text": "b"}, echo, seq=1),
        return_exceptions=True,
    )
    assert outcomes[0] == {"echoed": "a"}
    assert isinstance(outcomes[1], ActionKeyConflict)
    assert actions.effects["par"] == 1

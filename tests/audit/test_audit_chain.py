"""The chain itself: canonical JSON, append inside the caller's transaction, the append-only
triggers, and queries."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

import pytest

import storage

from audit import (
    GENESIS,
    AuditEvent,
    AuditLog,
    AuditQueryError,
    AuditValueError,
    append,
    append_now,
    canonical_json,
    entry_hash,
    migrate,
)
from audit.canonical import canonical_row
from audit_helpers import event, fill


def test_canonical_json_sorts_keys_drops_whitespace_and_keeps_utf8() -> None:
    assert canonical_json({"b": [1, 2.5], "a": {"z": "é", "y": None}}) == \
        '{"a":{"y":null,"z":"é"},"b":[1,2.5]}'


@pytest.mark.parametrize("value", [math.nan, math.inf, {"x": -math.inf}, "\ud800", {"k": object()}])
def test_canonical_json_refuses_what_has_no_json_or_utf8_form(value: object) -> None:
    with pytest.raises(AuditValueError):
        canonical_json(value)


@pytest.mark.parametrize("at", [1.0, 1_700_000_000.123456, 1e16, 0.1 + 0.2])
def test_the_row_built_from_stored_parts_is_the_canonical_json_of_the_entry(at: float) -> None:
    subject, body = {"execution_id": "ex_1"}, {"ünï": [1, {"b": 2, "a": "\"q\""}], "x": 0.5}
    built = canonical_row(7, at, "acme", "bob", "execution.started", canonical_json(subject),
                          canonical_json(body))
    assert built == canonical_json({"seq": 7, "time": at, "tenant": "acme", "principal": "bob",
                                    "event": "execution.started", "subject": subject,
                                    "body": body})


async def test_entries_chain_from_genesis_with_gap_free_seqs(log: AuditLog) -> None:
    await fill(log, 3)
    entries = await log.query()
    assert [e.seq for e in entries] == [1, 2, 3]
    assert entries[0].prev_hash == GENESIS
    for before, after in zip(entries, entries[1:]):
        assert after.prev_hash == before.row_hash
    first = entries[0]
    assert first.row_hash == entry_hash(GENESIS, 1, first.time, "acme", "alice", "toolset.put",
                                        '{"toolset":"crm1"}', '{"n":1}')


def test_append_on_sqlites_thread_needs_the_callers_open_transaction(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    try:
        with pytest.raises(AuditValueError, match="open write transaction"):
            append_now(conn, [event(1)], at=1.0)
    finally:
        conn.close()


async def test_append_rolls_back_with_the_callers_transaction_leaving_no_gap(database: str) -> None:
    db = await storage.open_database(database)
    try:
        await migrate(db)
        with pytest.raises(RuntimeError):
            async with db.transaction(write=True, lock="codemode") as conn:
                assert await append(conn, [event(1), event(2)], at=1.0) == [1, 2]
                raise RuntimeError("the caller's change failed")
        async with db.transaction(write=True, lock="codemode") as conn:
            assert await append(conn, [event(3)], at=2.0) == [1]
    finally:
        await db.close()


def test_a_chain_hashes_alike_on_both_backends() -> None:
    # The hash is computed in Python from the stored parts: a float time hashes by its repr,
    # which PostgreSQL's double precision and SQLite's REAL both give back unchanged.
    parts = (GENESIS, 1, 1_700_000_000.123456, "acme", "alice", "toolset.put",
             '{"toolset":"crm1"}', '{"n":1}')
    assert entry_hash(*parts) == entry_hash(*parts[:2], float("1700000000.123456"), *parts[3:])


@pytest.mark.parametrize("bad", [
    AuditEvent("acme", "alice", "Not An Event"),
    AuditEvent("acme", "alice", "x.y", {"id": 5}),  # type: ignore[dict-item]
    AuditEvent("acme", "alice", "x.y", {}, {"v": math.nan}),
    AuditEvent("acme", "\udc80", "x.y"),
])
async def test_an_event_that_cannot_be_recorded_is_refused_and_nothing_is_written(
        log: AuditLog, bad: AuditEvent) -> None:
    with pytest.raises(AuditValueError):
        await log.record([event(1), bad])
    assert await log.query() == []


@pytest.mark.parametrize("statement", [
    "UPDATE audit_log SET body = '{}' WHERE seq = 1",
    "DELETE FROM audit_log WHERE seq = 2",
    "DELETE FROM audit_log",
    "UPDATE audit_checkpoints SET seq = 0",
    "DELETE FROM audit_checkpoints",
])
async def test_the_triggers_refuse_every_update_and_delete(log: AuditLog, statement: str) -> None:
    await fill(log, 2)
    await log.checkpoint()
    with pytest.raises(storage.IntegrityError, match="append-only"):
        async with log.database.transaction(write=True) as conn:
            await conn.execute(statement)
    assert (await log.verify()).ok


async def test_postgresql_refuses_truncating_the_log_too(postgres_url: str, tmp_path: Path) -> None:
    log = await AuditLog.open(postgres_url)
    try:
        await fill(log, 2)
        for table in ("audit_log", "audit_checkpoints"):
            with pytest.raises(storage.IntegrityError, match="append-only"):
                async with log.database.transaction(write=True) as conn:
                    await conn.execute(f"TRUNCATE {table}")
        assert (await log.verify()).count == 2
    finally:
        await log.close()


async def test_query_filters_by_tenant_event_family_principal_subject_and_time(log: AuditLog) -> None:
    await log.record([AuditEvent("acme", "alice", "execution.started", {"execution_id": "e1"}),
                      AuditEvent("acme", "bob", "execution.finished", {"execution_id": "e1"}),
                      AuditEvent("globex", "carol", "execution.started", {"execution_id": "e2"})],
                     at=100.0)
    await log.record([AuditEvent("acme", "alice", "toolset.put", {"toolset": "crm"})], at=200.0)
    seqs = lambda entries: [e.seq for e in entries]  # noqa: E731
    assert seqs(await log.query(tenant="acme")) == [1, 2, 4]
    assert seqs(await log.query(event="execution.")) == [1, 2, 3]
    assert seqs(await log.query(event="execution.started", tenant="globex")) == [3]
    assert seqs(await log.query(principal="alice")) == [1, 4]
    assert seqs(await log.query(subject={"execution_id": "e1"})) == [1, 2]
    assert seqs(await log.query(since=150.0)) == [4]
    assert seqs(await log.query(until=150.0)) == [1, 2, 3]


async def test_query_pages_by_seq(log: AuditLog) -> None:
    await fill(log, 25)
    pages, after = [], 0
    while page := await log.query(after_seq=after, limit=10):
        pages.append([e.seq for e in page])
        after = page[-1].seq
    assert pages == [list(range(1, 11)), list(range(11, 21)), list(range(21, 26))]


@pytest.mark.parametrize("kwargs", [{"limit": 0}, {"limit": 100_000},
                                    {"subject": {"a') OR 1=1 --": "x"}}])
async def test_bad_query_parameters_are_refused(log: AuditLog, kwargs: dict[str, object]) -> None:
    with pytest.raises(AuditQueryError):
        await log.query(**kwargs)  # type: ignore[arg-type]


async def test_entries_read_back_as_recorded(log: AuditLog) -> None:
    body = {"nested": {"list": [1, "two", None, True]}, "text": "çà\n\t"}
    await log.record([AuditEvent("acme", "alice", "snippet.put", {"snippet": "s"}, body)])
    [entry] = await log.query()
    assert entry.body == body and entry.subject == {"snippet": "s"}
    assert json.loads(canonical_json(entry.to_dict()))["body"] == body

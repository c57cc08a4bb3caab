"""CodeModeStore: executions, toolsets and snippets persisted in SQLite, with the caps."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.codec import decode_value, encode_value
from codemode.errors import DurableSizeError, ExecutionNotFound, ToolDefinitionError
from codemode import journal
from codemode.journal import make_entry
from codemode.records import (
    ExecutionRecord,
    Snippet,
    new_execution_id,
)
from codemode.normalise import trim_log_lines
from codemode.auditing import ExecutionSubject
from workspace.tenants import DEFAULT_TENANT
from codemode.store import START_PRUNE_AT_MOST, CodeModeStore, RunEnd
from codemode.tooldefs import ToolDef, Toolset

import journal_io

LIMIT = 1_000_000


def _record(workspace: str = "default", code: str = "1 + 1", **kw: Any) -> ExecutionRecord:
    return ExecutionRecord(id=new_execution_id(), workspace=workspace, code=code, **kw)


def _toolset(name: str = "github", *tool_names: str) -> Toolset:
    tools = [
        ToolDef(name=t, description=f"{t} things", url="http://127.0.0.1:9/hook",
                input_schema={"type": "object", "properties": {"q": {"type": "string"}},
                              "required": ["q"]})
        for t in (tool_names or ("create_issue",))
    ]
    return Toolset.create(name, tools)


# --- the durable value codec ---------------------------------------------------------------

NASTY_VALUES: list[Any] = [
    b"\x00\xff\x80binary",
    {"data": b"", "nested": [b"\x01", {"deeper": bytearray(b"\x02")}]},
    {"$bytes": "AAAA"},  # a real dict that looks like a tag must stay a dict
    {"$dict": {"$bytes": "x"}},
    {"$float": "nan"},
    "unicode: \u00e9\u4e2d\U0001f600 and a lone \ud800",
    [1, 2.5, -0.0, True, None, "", {}, []],
    {"k" * 1000: ["v"] * 100},
    float("inf"),
    float("-inf"),
]


@pytest.mark.parametrize("value", NASTY_VALUES, ids=range(len(NASTY_VALUES)))
def test_codec_round_trips_values_plain_json_cannot_hold(value: Any) -> None:
    decoded = decode_value(encode_value(value))
    expected = bytes(value) if isinstance(value, bytearray) else value
    if isinstance(value, dict) and "nested" in value:
        expected = {"data": b"", "nested": [b"\x01", {"deeper": b"\x02"}]}
    assert decoded == expected
    assert type(decoded) is type(expected)


def test_codec_round_trips_nan_as_nan() -> None:
    decoded = decode_value(encode_value([float("nan")]))
    assert decoded[0] != decoded[0]


def test_codec_replaces_a_cycle_instead_of_recursing() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    assert encode_value(loop) == [1, "[Circular]"]


# --- executions ----------------------------------------------------------------------------


async def test_execution_round_trips_every_field(store: CodeModeStore) -> None:
    record = _record(
        namespaces={"tools": ["search"], "github": ["create_issue"]},
        toolsets=["github"],
        logs=["started", "[warn] careful"],
    )
    await store.create_execution(record)
    got = await store.get_execution(record.id)
    assert got is not None
    assert (got.id, got.workspace, got.code, got.status) == (record.id, "default", "1 + 1", "running")
    assert got.namespaces == {"tools": ["search"], "github": ["create_issue"]}
    assert got.toolsets == ["github"]
    assert got.logs == ["started", "[warn] careful"]
    assert got.runtime_version == 1
    assert got.created_at == record.created_at
    assert got.journal == []


async def test_finish_records_bytes_unicode_and_nested_results_exactly(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    result = {"blob": b"\x00\x01\xfe", "text": "h\u00e9llo \U0001f600", "rows": [[1, {"a": None}]]}
    await store.finish_execution(record.id, status="completed", result=result, logs=["done"])
    got = await store.get_execution(record.id)
    assert got is not None
    assert got.status == "completed"
    assert got.result == result and isinstance(got.result["blob"], bytes)
    assert got.result_recorded is True
    assert got.logs == ["done"]
    assert got.updated_at >= got.created_at


async def test_finish_keeps_logs_when_none_are_given(store: CodeModeStore) -> None:
    record = _record(logs=["first"])
    await store.create_execution(record)
    await store.finish_execution(record.id, status="paused")
    got = await store.get_execution(record.id)
    assert got is not None and got.logs == ["first"] and got.status == "paused"


async def test_oversized_final_result_is_replaced_by_a_note_in_the_record(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await store.finish_execution(record.id, status="completed", result="x" * 1_100_000)
    got = await store.get_execution(record.id)
    assert got is not None and got.status == "completed"
    assert got.result_recorded is False
    assert "result omitted from the audit trail" in got.result["note"]
    assert "1100002 characters" in got.result["note"]  # the JSON text, quotes included


async def test_unserialisable_final_result_is_noted_not_fatal(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await store.finish_execution(record.id, status="completed", result={1, 2})
    got = await store.get_execution(record.id)
    assert got is not None and got.result_recorded is False
    assert "cannot be serialised" in got.result["note"]


async def test_error_is_recorded_as_given(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    error = {"name": "ValueError", "message": "bad \u00e9", "hint": ["x"]}
    await store.finish_execution(record.id, status="error", error=error)
    got = await store.get_execution(record.id)
    assert got is not None and got.error == error and got.status == "error"


async def test_huge_error_message_is_truncated_not_refused(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await store.finish_execution(record.id, status="error", error={"name": "E", "message": "m" * LIMIT})
    got = await store.get_execution(record.id)
    assert got is not None and got.error is not None
    assert got.error["name"] == "E" and got.error["message"].endswith("[truncated]")
    assert len(got.error["message"]) < 20_000


async def test_logs_over_one_megabyte_are_trimmed_with_a_note(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    lines = ["\u00e9" * 1000] * 1000  # 2 MB of UTF-8
    await store.finish_execution(record.id, status="completed", logs=lines)
    got = await store.get_execution(record.id)
    assert got is not None
    assert got.logs[-1].startswith("[logs trimmed: ") and got.logs[-1].endswith(" bytes omitted]")
    kept = sum(len(line.encode()) + 1 for line in got.logs[:-1])
    assert 999_000 < kept <= 1_000_000
    assert got.logs[0] == lines[0]


def test_trim_log_lines_leaves_small_logs_alone() -> None:
    assert trim_log_lines(["a", "b"]) == ["a", "b"]
    assert trim_log_lines(["abcdef", "ghi"], limit_bytes=5) == ["abcd", "[logs trimmed: 6 bytes omitted]"]


async def test_code_over_the_durable_limit_is_refused_and_nothing_recorded(store: CodeModeStore) -> None:
    record = _record(code="x" * (LIMIT + 1))
    with pytest.raises(DurableSizeError) as info:
        await store.create_execution(record)
    assert "too large to record durably" in str(info.value)
    assert "Write large data to a file or workspace" in str(info.value)
    assert await store.get_execution(record.id) is None
    assert await store.list_executions() == []


async def test_code_at_exactly_the_limit_is_recorded(store: CodeModeStore) -> None:
    record = _record(code="x" * LIMIT)
    await store.create_execution(record)
    got = await store.get_execution(record.id)
    assert got is not None and len(got.code) == LIMIT


async def test_unknown_status_is_refused(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    with pytest.raises(ValueError, match="unknown execution status"):
        await store.finish_execution(record.id, status="done")


async def test_finishing_a_missing_execution_is_a_clear_error(store: CodeModeStore) -> None:
    with pytest.raises(ExecutionNotFound, match="exec_nope not found"):
        await store.finish_execution("exec_nope", status="completed")


async def test_creating_the_same_execution_twice_is_refused(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    with pytest.raises(ValueError, match="already exists"):
        await store.create_execution(record)


async def test_list_is_newest_first_and_filters_by_workspace_and_status(store: CodeModeStore) -> None:
    made = []
    for i in range(4):
        record = _record(workspace="a" if i % 2 == 0 else "b", created_at=1000.0 + i)
        await store.create_execution(record)
        made.append(record)
    await store.finish_execution(made[2].id, status="completed")
    assert [r.id for r in await store.list_executions()] == [r.id for r in reversed(made)]
    assert [r.id for r in await store.list_executions(workspace="a")] == [made[2].id, made[0].id]
    assert [r.id for r in await store.list_executions(status="completed")] == [made[2].id]
    assert [r.id for r in await store.list_executions(workspace="b", status="completed")] == []
    assert len(await store.list_executions(limit=3)) == 3


async def test_pages_follow_on_from_the_last_one_shown_even_through_equal_start_times(
        store: CodeModeStore) -> None:
    made = [_record(workspace="a", created_at=1000.0 + i // 2) for i in range(5)]
    for record in made:
        await store.create_execution(record)
    newest_first = [r.id for r in sorted(made, key=lambda r: (r.created_at, r.id), reverse=True)]
    seen: list[str] = []
    before = None
    while True:
        page = await store.list_executions(workspace="a", limit=2, before=before)
        seen.extend(r.id for r in page)
        if len(page) < 2:
            break
        before = (page[-1].created_at, page[-1].id)
    assert seen == newest_first
    await store.create_execution(_record(workspace="a", created_at=2000.0))
    after_first = await store.list_executions(workspace="a", limit=2,
                                              before=(1002.0, newest_first[0]))
    assert [r.id for r in after_first] == newest_first[1:3]


async def test_listing_leaves_journals_out(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await journal_io.append(store, make_entry(record.id, 0, "tools", "search", {"q": "x"}))
    (listed,) = await store.list_executions()
    assert listed.journal == []
    without = await store.get_execution(record.id, with_journal=False)
    assert without is not None and without.journal == []


async def test_delete_execution_removes_its_journal(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await journal_io.append(store, make_entry(record.id, 0, "tools", "search", {"q": "x"}))
    assert await store.delete_execution(record.id) is True
    assert await store.get_execution(record.id) is None
    assert await journal_io.entries(store, record.id) == []
    assert await store.delete_execution(record.id) is False


async def test_prune_keeps_newest_terminal_and_never_touches_paused_or_running(
    store: CodeModeStore,
) -> None:
    statuses = ["completed", "paused", "error", "running", "rejected", "rolled_back", "completed"]
    records = []
    for i, status in enumerate(statuses):
        record = _record(created_at=100.0 + i)  # index 0 is the oldest
        await store.create_execution(record)
        await journal_io.append(store, make_entry(record.id, 0, "tools", "t", {}))
        await store.finish_execution(record.id, status=status)
        records.append(record)
    other = _record(workspace="other", created_at=1.0)
    await store.create_execution(other)
    await store.finish_execution(other.id, status="completed")

    deleted = await store.prune_executions("default", keep=2)

    assert deleted == 3  # 5 terminal, keep the newest 2
    left = {r.id for r in await store.list_executions(workspace="default")}
    assert left == {records[1].id, records[3].id, records[5].id, records[6].id}
    for gone in (records[0], records[2], records[4]):
        assert await journal_io.entries(store, gone.id) == []
    assert await store.get_execution(other.id) is not None
    assert await store.prune_executions("default", keep=0) == 2
    assert {r.status for r in await store.list_executions(workspace="default")} == {"paused", "running"}


async def test_prune_by_default_keeps_fifty(store: CodeModeStore) -> None:
    for i in range(53):
        record = _record(created_at=float(i), status="completed")
        await store.create_execution(record)
    assert await store.prune_executions("default") == 3
    assert len(await store.list_executions(limit=1000)) == 50


async def test_a_runs_start_prunes_a_backlog_a_few_at_a_time(store: CodeModeStore) -> None:
    # keep_executions lowered over a long history: each start deletes a bounded batch (its
    # transaction is part of every execute), and the backlog still drains.
    for i in range(40):
        await store.create_execution(_record(created_at=float(i), status="completed"))
    starts = 0
    while True:
        before = len(await store.list_executions(limit=1000))
        running = _record(created_at=1_000.0 + starts, status="running")
        await store.create_execution(running, keep=3)
        starts += 1
        deleted = before + 1 - len(await store.list_executions(limit=1000))
        assert 0 <= deleted <= START_PRUNE_AT_MOST
        assert await store.end_run(RunEnd(
            execution_id=running.id, status="completed", result=None, error=None, logs=[],
            audit=ExecutionSubject.of(running).finished("completed", None, 0)))
        if deleted < START_PRUNE_AT_MOST:
            break
    # The newest three as the last run started, and that run: never more than keep + 1.
    left = await store.list_executions(limit=1000)
    assert len(left) == 4 and running.id in {r.id for r in left}
    assert starts == -(-(40 + starts - 1 - 3) // START_PRUNE_AT_MOST)  # full batches, then the rest


async def test_a_start_prunes_in_its_own_workspace_and_tenant_only(store: CodeModeStore) -> None:
    for i in range(3):
        await store.create_execution(_record(created_at=float(i), status="completed"))
        await store.create_execution(_record("other", created_at=float(i), status="completed"))
        await store.create_execution(_record(created_at=float(i), status="completed",
                                             tenant="acme"))
    await store.create_execution(_record(created_at=10.0, status="running"), keep=1)
    mine = await store.list_executions(workspace="default", tenant=DEFAULT_TENANT, limit=1000)
    assert sorted((r.status, r.created_at) for r in mine) == [("completed", 2.0), ("running", 10.0)]
    assert len(await store.list_executions(workspace="other", limit=1000)) == 3
    assert len(await store.list_executions(tenant="acme", limit=1000)) == 3


# --- toolsets --------------------------------------------------------------------------------


async def test_toolset_round_trips_with_its_secret(store: CodeModeStore) -> None:
    toolset = _toolset("github", "create_issue", "list_issues")
    stored, created = await store.put_toolset(toolset, description="GitHub")
    assert created is True and stored == toolset
    got = await store.get_toolset("github")
    assert got is not None
    assert got.secret == toolset.secret
    assert [t.name for t in got.tools] == ["create_issue", "list_issues"]
    assert got.tools[0].input_schema == toolset.tools[0].input_schema


async def test_updating_a_toolset_keeps_the_existing_secret(store: CodeModeStore) -> None:
    first, _ = await store.put_toolset(_toolset("github", "a"))
    second, created = await store.put_toolset(_toolset("github", "a", "b"))
    assert created is False
    assert second.secret == first.secret
    got = await store.get_toolset("github")
    assert got is not None and got.secret == first.secret and len(got.tools) == 2


async def test_an_unchanged_toolset_is_parsed_once_and_a_changed_one_anew(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    async with await CodeModeStore.open(path) as one, await CodeModeStore.open(path) as other:
        await one.put_toolset(_toolset("github", "a"))
        first = await one.get_toolset("github")
        assert first is not None
        assert await one.get_toolset("github") is first  # the same objects: parsed once
        # Changed through another store on the file (another process, in a deployment):
        await other.put_toolset(_toolset("github", "a", "b"))
        changed = await one.get_toolset("github")
        assert changed is not None and changed is not first
        assert [t.name for t in changed.tools] == ["a", "b"] and changed.secret == first.secret
        await other.delete_toolset("github")
        assert await one.get_toolset("github") is None


async def test_list_toolsets_summarises_by_name(store: CodeModeStore) -> None:
    await store.put_toolset(_toolset("zeta", "a"))
    await store.put_toolset(_toolset("alpha", "a", "b"), description="first")
    listed = await store.list_toolsets()
    assert [(t["name"], t["tool_count"], t["description"]) for t in listed] == [
        ("alpha", 2, "first"), ("zeta", 1, None)
    ]
    assert set(listed[0]) == {"name", "description", "tool_count", "created_at", "updated_at"}


async def test_delete_toolset(store: CodeModeStore) -> None:
    await store.put_toolset(_toolset("github"))
    assert await store.delete_toolset("github") is True
    assert await store.get_toolset("github") is None
    assert await store.delete_toolset("github") is False


# --- snippets --------------------------------------------------------------------------------


async def test_snippet_round_trips(store: CodeModeStore) -> None:
    snippet = Snippet(name="triage", code="tools.search(q='x')", description="find",
                      input_schema={"type": "object", "properties": {"q": {"type": "string"}}},
                      namespaces={"tools": ["search"]}, execution_id="exec_1")
    assert await store.put_snippet(snippet) is True
    assert await store.get_snippet("triage") == snippet
    assert await store.put_snippet(snippet) is False  # replaced, not created
    assert [s.name for s in await store.list_snippets()] == ["triage"]
    assert await store.delete_snippet("triage") is True
    assert await store.get_snippet("triage") is None
    assert await store.delete_snippet("triage") is False


async def test_snippet_with_a_bad_name_or_schema_is_refused_with_every_problem(
    store: CodeModeStore,
) -> None:
    bad = Snippet(name="no spaces", code="1", input_schema={"type": "nonsense"})
    with pytest.raises(ToolDefinitionError) as info:
        await store.put_snippet(bad)
    assert len(info.value.problems) == 2
    assert await store.list_snippets() == []


async def test_snippet_code_over_the_limit_is_refused(store: CodeModeStore) -> None:
    with pytest.raises(DurableSizeError):
        await store.put_snippet(Snippet(name="big", code="x" * (LIMIT + 1)))


# --- the database ----------------------------------------------------------------------------


async def test_opening_twice_runs_migrations_once(tmp_path: Path) -> None:
    path = tmp_path / "sandbox.db"
    first = await CodeModeStore.open(path)
    second = await CodeModeStore.open(path)
    await first.close()
    await second.close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT version FROM schema_migrations WHERE component = 'codemode'"
        ).fetchall()
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert rows == [(1,), (2,), (3,), (4,)]
    assert mode == "wal"


async def test_everything_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "sandbox.db"
    first = await CodeModeStore.open(path)
    record = _record()
    await first.create_execution(record)
    await journal_io.append(first, make_entry(record.id, 0, "state", "read_bytes", {"path": "/a"}))
    await journal_io.settle(first, record.id, 0, state="applied", result=b"\x00bytes")
    await first.finish_execution(record.id, status="paused")
    toolset, _ = await first.put_toolset(_toolset("github"))
    await first.put_snippet(Snippet(name="s", code="1"))
    await first.close()

    second = await CodeModeStore.open(path)
    try:
        got = await second.get_execution(record.id)
        assert got is not None and got.status == "paused"
        assert got.journal[0].result == b"\x00bytes"
        reloaded = await second.get_toolset("github")
        assert reloaded is not None and reloaded.secret == toolset.secret
        assert await second.get_snippet("s") is not None
    finally:
        await second.close()


async def test_shares_the_database_file_with_the_workspace_store(tmp_path: Path) -> None:
    from workspace import WorkspaceStore

    path = tmp_path / "sandbox.db"
    workspaces = await WorkspaceStore.open(path)
    codemode = await CodeModeStore.open(path)
    try:
        await codemode.create_execution(_record())
        with sqlite3.connect(path) as conn:
            components = {row[0] for row in conn.execute("SELECT component FROM schema_migrations")}
        assert components == {"workspace", "codemode", "ledger", "audit", "connectors"}
    finally:
        await codemode.close()
        await workspaces.close()


async def test_a_closed_store_refuses_use(tmp_path: Path) -> None:
    opened = await CodeModeStore.open(tmp_path / "x.db")
    await opened.close()
    await opened.close()  # closing twice is harmless
    with pytest.raises(RuntimeError, match="closed"):
        await opened.list_executions()


async def test_lone_surrogates_survive_in_code_result_logs_and_journal(store: CodeModeStore) -> None:
    # JSON "\ud800" decodes to a lone surrogate, which SQLite's UTF-8 text cannot hold as is.
    record = _record(code="print('\ud800')")
    await store.create_execution(record)
    await journal_io.append(store, make_entry(record.id, 0, "tools", "echo", {"s": "\udcff"}))
    await journal_io.settle(store, record.id, 0, state="applied", result="r\ud800")
    await store.finish_execution(record.id, status="completed", result={"k\ud800": "v"}, logs=["l\udcff"])
    got = await store.get_execution(record.id)
    assert got is not None
    assert got.code == "print('\ud800')"
    assert got.result == {"k\ud800": "v"}
    assert got.logs == ["l\udcff"]
    assert got.journal[0].result == "r\ud800"
    assert decode_value(json.loads(got.journal[0].args)) == {"s": "\udcff"}


async def test_finish_only_if_lets_exactly_one_of_two_racing_decisions_win(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    await store.finish_execution(record.id, status="paused")
    outcomes = await asyncio.gather(
        store.finish_execution(record.id, status="running", only_if={"paused"}),
        store.finish_execution(record.id, status="rejected", only_if={"paused"},
                               error={"name": "ApprovalRejected", "message": "no"}),
    )
    assert sorted(outcomes) == [False, True]
    got = await store.get_execution(record.id)
    assert got is not None
    assert got.status == ("running" if outcomes[0] else "rejected")


async def test_finish_only_if_still_reports_a_missing_execution(store: CodeModeStore) -> None:
    with pytest.raises(ExecutionNotFound):
        await store.finish_execution("exec_gone", status="running", only_if={"paused"})


@settings(max_examples=60, deadline=None)
@given(value=st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.sampled_from(["$bytes", "$float", "$dict"]),
                      inner, max_size=4),
    max_leaves=20,
))
def test_codec_round_trips_any_json_like_value_with_bytes(value: Any) -> None:
    encoded = encode_value(value)
    json.dumps(encoded, allow_nan=False)  # the encoded form is strict JSON
    again = decode_value(json.loads(json.dumps(encoded)))
    assert _same(again, value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


async def test_a_transaction_commits_entry_and_status_together(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    async with store.transaction() as tx:
        seq = await journal.next_seq(tx.connection, record.id)
        await journal.append(tx.connection, make_entry(record.id, seq, "github", "merge", {}, state="pending",
                                         requires_approval=True))
        assert await tx.finish_execution(record.id, status="paused", only_if={"running"})
    got = await store.get_execution(record.id)
    assert got is not None and got.status == "paused"
    assert [(e.seq, e.state) for e in got.journal] == [(0, "pending")]


async def test_a_failed_transaction_leaves_nothing_behind(store: CodeModeStore) -> None:
    record = _record()
    await store.create_execution(record)
    with pytest.raises(DurableSizeError):
        async with store.transaction() as tx:
            await journal.append(tx.connection, make_entry(record.id, 0, "tools", "t", {}))
            await tx.finish_execution(record.id, status="paused")
            await journal.settle(tx.connection, record.id, 0, state="applied", result="x" * (LIMIT + 1))
    got = await store.get_execution(record.id)
    assert got is not None and got.status == "running" and got.journal == []


async def test_two_stores_on_one_file_append_without_losing_rows(tmp_path: Path) -> None:
    # Two service processes share the file; BEGIN IMMEDIATE plus the busy timeout serialise them.
    path = tmp_path / "sandbox.db"
    first = await CodeModeStore.open(path)
    second = await CodeModeStore.open(path)
    try:
        record = _record()
        await first.create_execution(record)
        await asyncio.gather(*(
            journal_io.append(first if seq % 2 else second, make_entry(record.id, seq, "tools", "t", {}))
            for seq in range(20)
        ))
        assert [e.seq for e in await journal_io.entries(first, record.id)] == list(range(20))
        assert [e.seq for e in await journal_io.entries(second, record.id)] == list(range(20))
    finally:
        await first.close()
        await second.close()

"""The journal: rows keyed (execution_id, seq), appended and read back exactly, never overwritten."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from codemode.errors import (
    CodeModeError,
    DuplicateEntry,
    DurableSizeError,
    EntryNotFound,
    ExecutionNotFound,
    NotSerialisableError,
)
from codemode.journal import canonical_args, make_entry
from codemode.records import ExecutionRecord, JournalEntry, Snippet, new_execution_id, tools_called
from codemode.store import CodeModeStore

import journal_io

LIMIT = 1_000_000


@pytest.fixture
async def execution_id(store: CodeModeStore) -> str:
    record = ExecutionRecord(id=new_execution_id(), workspace="default", code="x = 1")
    await store.create_execution(record)
    return record.id


def test_canonical_args_sort_keys_so_equal_calls_give_equal_text() -> None:
    assert canonical_args("tools", "t", {"b": 1, "a": [1, {"d": 2, "c": 3}]}) == (
        canonical_args("tools", "t", {"a": [1, {"c": 3, "d": 2}], "b": 1})
    )
    assert canonical_args("tools", "t", {"a": (1, 2)}) == '{"a":[1,2]}'


def test_canonical_args_distinguish_bytes_from_their_base64_text() -> None:
    assert canonical_args("state", "w", {"data": b"hi"}) != canonical_args("state", "w", {"data": "aGk="})


def test_args_over_the_durable_limit_are_refused_with_the_references_message() -> None:
    with pytest.raises(DurableSizeError) as info:
        make_entry("exec_1", 0, "tools", "upload", {"data": "x" * LIMIT})
    message = str(info.value)
    assert message.startswith("The arguments of tools.upload is too large to record durably")
    assert "Write large data to a file or workspace instead" in message


def test_unserialisable_args_are_refused_naming_the_call() -> None:
    with pytest.raises(NotSerialisableError, match="The arguments of tools.t cannot be serialised"):
        make_entry("exec_1", 0, "tools", "t", {"s": {1, 2}})


async def test_entry_round_trips_every_field(store: CodeModeStore, execution_id: str) -> None:
    entry = make_entry(execution_id, 0, "github", "create_issue", {"title": "T\u00e9"},
                       state="pending", requires_approval=True, ephemeral=True)
    await journal_io.append(store, entry)
    (got,) = await journal_io.entries(store, execution_id)
    assert got == entry
    assert got.path == "github.create_issue"
    assert json.loads(got.args) == {"title": "T\u00e9"}
    assert got.result is None and got.error is None


async def test_settle_records_result_bytes_exactly(store: CodeModeStore, execution_id: str) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "state", "read_bytes", {"path": "/img"}))
    payload = {"data": b"\x89PNG\x00\xff", "size": 6, "nested": [b"", "\U0001f600"]}
    await journal_io.settle(store, execution_id, 0, state="applied", result=payload)
    (got,) = await journal_io.entries(store, execution_id)
    assert got.state == "applied"
    assert got.result == payload and isinstance(got.result["data"], bytes)
    assert got.updated_at >= got.created_at


async def test_applied_none_result_is_kept_as_a_real_result(store: CodeModeStore, execution_id: str) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "noop", {}))
    await journal_io.settle(store, execution_id, 0, state="applied", result=None)
    await journal_io.append(store, make_entry(execution_id, 1, "tools", "noop", {}))
    async with store.reading() as conn:  # the distinction lives in the column: NULL vs 'null'
        rows = await conn.fetchall("SELECT seq, result FROM codemode_journal ORDER BY seq")
    assert [tuple(r) for r in rows] == [(0, "null"), (1, None)]


async def test_settle_records_an_error(store: CodeModeStore, execution_id: str) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "t", {}))
    await journal_io.settle(store, execution_id, 0, state="error", error={"name": "ToolError", "message": "no"})
    (got,) = await journal_io.entries(store, execution_id)
    assert (got.state, got.error, got.result) == ("error", {"name": "ToolError", "message": "no"}, None)


async def test_oversized_result_is_refused_and_the_entry_left_as_it_was(
    store: CodeModeStore, execution_id: str
) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "dump", {}))
    with pytest.raises(DurableSizeError, match="The result of tools.dump is too large to record durably"):
        await journal_io.settle(store, execution_id, 0, state="applied", result="x" * 1_100_000)
    (got,) = await journal_io.entries(store, execution_id)
    assert got.state == "executing" and got.result is None


async def test_duplicate_seq_is_rejected_and_the_first_row_kept(store: CodeModeStore, execution_id: str) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "first", {"n": 1}))
    with pytest.raises(DuplicateEntry) as info:
        await journal_io.append(store, make_entry(execution_id, 0, "tools", "second", {"n": 2}))
    assert isinstance(info.value, CodeModeError)
    assert "already has a journal entry at step 0" in str(info.value)
    (got,) = await journal_io.entries(store, execution_id)
    assert got.method == "first"


async def test_same_seq_in_another_execution_is_fine(store: CodeModeStore, execution_id: str) -> None:
    other = ExecutionRecord(id=new_execution_id(), workspace="default", code="y")
    await store.create_execution(other)
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "t", {}))
    await journal_io.append(store, make_entry(other.id, 0, "tools", "t", {}))
    assert len(await journal_io.entries(store, other.id)) == 1


async def test_appending_to_a_missing_execution_is_a_clear_error(store: CodeModeStore) -> None:
    with pytest.raises(ExecutionNotFound, match="exec_missing not found"):
        await journal_io.append(store, make_entry("exec_missing", 0, "tools", "t", {}))


async def test_settling_a_missing_entry_is_a_clear_error(store: CodeModeStore, execution_id: str) -> None:
    with pytest.raises(EntryNotFound, match="no journal entry at step 3"):
        await journal_io.settle(store, execution_id, 3, state="applied", result=1)


@pytest.mark.parametrize("bad", [{"state": "done"}, {"seq": -1}, {"args": "{not json"}])
async def test_malformed_entries_are_refused(store: CodeModeStore, execution_id: str, bad: dict[str, object]) -> None:
    entry = make_entry(execution_id, 0, "tools", "t", {})
    for key, value in bad.items():
        setattr(entry, key, value)
    with pytest.raises(ValueError):
        await journal_io.append(store, entry)
    assert await journal_io.entries(store, execution_id) == []


async def test_concurrent_appends_from_twenty_tasks_keep_unique_seqs(
    store: CodeModeStore, execution_id: str
) -> None:
    await asyncio.gather(*(
        journal_io.append(store, make_entry(execution_id, seq, "tools", f"call_{seq}", {"seq": seq}))
        for seq in reversed(range(20))
    ))
    entries = await journal_io.entries(store, execution_id)
    assert [e.seq for e in entries] == list(range(20))
    assert [e.method for e in entries] == [f"call_{i}" for i in range(20)]


async def test_twenty_tasks_racing_for_one_seq_leave_exactly_one_row(
    store: CodeModeStore, execution_id: str
) -> None:
    outcomes = await asyncio.gather(
        *(journal_io.append(store, make_entry(execution_id, 0, "tools", f"t{i}", {})) for i in range(20)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert all(isinstance(o, DuplicateEntry) for o in outcomes if o is not None)
    assert len(await journal_io.entries(store, execution_id)) == 1


async def test_append_next_hands_out_gap_free_seqs_to_concurrent_callers(
    store: CodeModeStore, execution_id: str
) -> None:
    seqs = await asyncio.gather(*(
        journal_io.append_next(store, make_entry(execution_id, 0, "tools", "t", {"i": i})) for i in range(20)
    ))
    assert sorted(seqs) == list(range(20))
    entries = await journal_io.entries(store, execution_id)
    assert [e.seq for e in entries] == list(range(20))
    # Each row holds the arguments of the call that was given that seq.
    by_seq = dict(zip(seqs, range(20)))
    assert all(json.loads(e.args) == {"i": by_seq[e.seq]} for e in entries)


async def test_entries_of_an_unknown_execution_are_empty(store: CodeModeStore) -> None:
    assert await journal_io.entries(store, "exec_unknown") == []


def test_to_dict_shows_parsed_args_and_tagged_bytes() -> None:
    entry = make_entry("exec_1", 2, "state", "read_bytes", {"path": "/a"})
    entry.result = b"\x00"
    data = entry.to_dict()
    assert data["args"] == {"path": "/a"}
    assert data["result"] == {"$bytes": "AA=="}
    json.dumps(data)  # the whole shape is plain JSON


def test_tools_called_ignores_steps_state_and_codemode() -> None:
    def entry(ns: str, method: str) -> JournalEntry:
        return make_entry("e", 0, ns, method, {})

    used = tools_called([entry("tools", "b"), entry("tools", "a"), entry("tools", "b"),
                         entry("github", "create_issue"), entry("__step", "now"),
                         entry("state", "read_file"), entry("codemode", "search")])
    assert used == {"github": ["create_issue"], "tools": ["a", "b"]}


async def test_snippet_from_execution_needs_the_tools_its_journal_called(
    store: CodeModeStore, execution_id: str
) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "tools", "search", {"q": "x"}))
    await journal_io.append(store, make_entry(execution_id, 1, "__step", "clock", {}))
    record = await store.get_execution(execution_id)
    assert record is not None
    snippet = Snippet.from_execution("find", record, description="d")
    assert (snippet.code, snippet.namespaces, snippet.execution_id) == (
        "x = 1", {"tools": ["search"]}, execution_id
    )


async def test_settle_only_if_refuses_a_row_that_has_moved_on(store: CodeModeStore, execution_id: str) -> None:
    await journal_io.append(store, make_entry(execution_id, 0, "github", "merge", {}, state="pending",
                                        requires_approval=True))
    assert await journal_io.settle(store, execution_id, 0, state="reverted", only_if={"pending"}) is True
    assert await journal_io.settle(store, execution_id, 0, state="executing", only_if={"pending"}) is False
    (got,) = await journal_io.entries(store, execution_id)
    assert got.state == "reverted"


def test_the_journal_owns_its_table_and_every_write_to_it() -> None:
    from pathlib import Path

    import codemode
    from codemode.journal import JOURNAL_MIGRATIONS
    from codemode.store import CODEMODE_MIGRATIONS

    created = [s for _, statements in JOURNAL_MIGRATIONS for s in statements
               if "CREATE TABLE codemode_journal" in s]
    assert len(created) == 1
    # Released as versions of the codemode component: the store applies them in place.
    applied = {s for _, statements in CODEMODE_MIGRATIONS for s in statements}
    assert {s for _, statements in JOURNAL_MIGRATIONS for s in statements} <= applied
    for path in sorted(Path(codemode.__file__).parent.glob("*.py")):
        if path.name == "journal.py":
            continue
        text = path.read_text()
        for write in ("TABLE codemode_journal", "INTO codemode_journal", "UPDATE codemode_journal",
                      "FROM codemode_journal WHERE"):
            assert write not in text, f"{path.name} writes the journal's table itself ({write})"

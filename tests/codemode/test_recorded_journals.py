"""Replaying recorded journals: real executions' journals (``journals/*.json``, written by
``recorded.py``) loaded into a fresh store and resumed in a real isolate.

Like Temporal's replayer tests over recorded histories: a journal written by an earlier
version of Code Mode must still replay to the same result, a nondeterministic one must stop
with a divergence that says exactly where and what, and a journal cut short by a crash must
replay what it holds and run only the rest.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from codemode import CodeMode, ExecutionRecord, canonical_json

import journal_io
import recorded


@pytest.fixture
async def cm(tmp_path: Path) -> AsyncIterator[CodeMode]:
    recorded.fresh_calls.clear()
    async with CodeMode(tmp_path, tools=recorded.TOOLS) as runtime:
        yield runtime


async def _resume(cm: CodeMode, name: str) -> tuple[dict[str, Any], ExecutionRecord]:
    """Load ``journals/<name>.json`` into the fresh store and let recovery replay it."""
    file = recorded.load(name)
    # The tools the journal was recorded with are the tools it is replayed against.
    assert [tool.to_dict() for tool in cm.tools] == file["tools"]
    execution_id = await recorded.load_into(cm.executions.store, file)
    swept = await cm.executions.sweep()
    assert swept["recovered"] == [execution_id]
    await cm.executions.wait_background()
    record = await cm.executions.store.get_execution(execution_id)
    assert record is not None
    return file, record


def _journal_of(record: ExecutionRecord) -> list[dict[str, Any]]:
    return [recorded._entry_json(entry.to_dict()) for entry in record.journal]


def test_the_recorded_files_are_what_the_recorder_writes() -> None:
    for name in ("complete", "divergent", "truncated"):
        file = recorded.load(name)
        assert file["generated_by"] == "tests/codemode/recorded.py"
        assert file["code"] and file["tools"] and file["journal"]
        assert [entry["seq"] for entry in file["journal"]] == list(range(len(file["journal"])))
    complete, truncated = recorded.load("complete"), recorded.load("truncated")
    assert truncated["journal"] == complete["journal"][: recorded.TRUNCATED_AFTER]
    assert truncated["code"] == complete["code"] == recorded.COMPLETE_CODE


async def test_a_complete_journal_replays_to_the_same_result_without_calling_any_tool(
        cm: CodeMode) -> None:
    file, record = await _resume(cm, "complete")
    assert record.status == "completed", record.error
    assert record.to_dict()["result"] == file["result"]
    assert record.to_dict()["result"]["is_bytes"] is True  # bytes replayed as bytes
    assert sum(recorded.fresh_calls.values()) == 0
    assert _journal_of(record) == file["journal"]  # nothing appended, nothing rewritten


async def test_a_divergent_journal_stops_naming_the_execution_step_recorded_and_actual(
        cm: CodeMode) -> None:
    file, record = await _resume(cm, "divergent")
    assert record.status == "error"
    assert record.error is not None
    message = record.error["message"]
    recorded_args = canonical_json(file["journal"][1]["args"])
    assert f"execution {file['execution_id']}" in message
    assert "replay divergence at step 1" in message
    assert "tools.lookup" in message
    assert f"recorded {recorded_args}" in message
    got = message.split(", got ", 1)[1]
    assert got.startswith('{"key":"roll-') and not got.startswith(recorded_args)
    # The step before the divergence was answered from the journal; nothing ran fresh.
    assert sum(recorded.fresh_calls.values()) == 0
    assert _journal_of(record) == file["journal"]


async def test_a_truncated_journal_replays_what_is_recorded_and_runs_the_rest_fresh(
        cm: CodeMode) -> None:
    file, record = await _resume(cm, "truncated")
    complete = recorded.load("complete")
    assert record.status == "completed", record.error
    assert record.to_dict()["result"] == complete["result"]
    # lookup and add (seq 0 and 1) came from the journal; blob is the first call made fresh.
    assert recorded.fresh_calls == {"blob": 1}
    journal = _journal_of(record)
    assert journal[: len(file["journal"])] == file["journal"]
    assert journal == complete["journal"]
    entries = await journal_io.entries(cm.executions.store, record.id)
    assert [entry.state for entry in entries] == ["applied"] * len(complete["journal"])


def test_the_files_are_json_a_reader_can_diff() -> None:
    for path in sorted(recorded.JOURNALS.glob("*.json")):
        text = path.read_text()
        assert json.loads(text)["description"]
        assert text.endswith("}\n") and "\n  " in text  # indented, one key per line

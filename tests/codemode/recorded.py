"""Recorded journals: real executions written to ``tests/codemode/journals/*.json``, and the
way a test loads one back into a fresh store.

Regenerate the files (after a change to the journal's format or to these scenarios) with::

    PYTHONPATH=$PWD python tests/codemode/recorded.py

Each scenario runs once for real (``codemode.CodeMode``, a real isolate, the Python tools
below) and the file keeps what that run left behind: the code, the tools' JSON definitions,
the execution's options, its result and its journal. The three files:

``complete.json``
    a run that finished: every call has its outcome recorded.
``divergent.json``
    a run whose code is nondeterministic outside ``codemode.step`` (``random.random()`` in
    a tool's arguments), so a replay cannot ask for what was recorded.
``truncated.json``
    the same run as ``complete.json``, but only the entries a process killed after its
    second call would have committed (each entry commits on its own, so a crash leaves a
    prefix of the journal).

A loaded journal belongs to an execution left ``running`` by a process that died (a stale
lease): the sweep recovers it by replay, as the service does after a restart.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from codemode import CodeMode, CodeModeStore, ExecutionRecord, canonical_json, decode_value, journal
from codemode.records import JournalEntry

JOURNALS = Path(__file__).resolve().parent / "journals"
DEAD_OWNER = "recorded-host:0:0"
"""The owner a loaded execution had: a process that no longer runs (its lease is over)."""

fresh_calls: Counter[str] = Counter()
"""How many times each tool really ran (not answered from a journal)."""


def lookup(key: str) -> dict[str, Any]:
    """Look a key up.

    Args:
        key: What to look up.
    """
    fresh_calls["lookup"] += 1
    return {"key": key, "length": len(key)}


def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first.
        b: The second.
    """
    fresh_calls["add"] += 1
    return a + b


def blob(n: int) -> Any:
    """``n`` bytes of zero (a result the journal must keep as bytes).

    Args:
        n: How many.
    """
    fresh_calls["blob"] += 1
    return b"\x00" * n


TOOLS = [lookup, add, blob]

COMPLETE_CODE = """\
user = tools.lookup(key="ada")
total = tools.add(a=user["length"], b=39)
raw = tools.blob(n=3)
stamp = codemode.step("stamp", lambda: 7)
{"user": user, "total": total, "raw": raw, "is_bytes": isinstance(raw, bytes), "stamp": stamp}
"""

DIVERGENT_CODE = """\
import random
first = tools.lookup(key="ada")
second = tools.lookup(key=f"roll-{random.random()}")
[first, second]
"""

TRUNCATED_AFTER = 2
"""Entries kept in ``truncated.json``: a kill after the second call committed."""


async def _run(code: str) -> dict[str, Any]:
    """Run ``code`` once for real and return what the file keeps of it."""
    with tempfile.TemporaryDirectory() as data_dir:
        async with CodeMode(data_dir, tools=TOOLS) as cm:
            outcome = await cm.execute(code)
            record = await cm.executions.store.get_execution(outcome["execution_id"])
            assert record is not None and record.status == "completed", outcome
            data = record.to_dict()
            return {
                "execution_id": record.id,
                "code": record.code,
                "tools": [tool.to_dict() for tool in cm.tools],
                "options": record.options,
                "result": data["result"],
                "journal": [_entry_json(entry) for entry in data["journal"]],
            }


def _entry_json(entry: dict[str, Any]) -> dict[str, Any]:
    keep = ("seq", "namespace", "method", "args", "state", "result", "error", "ephemeral")
    return {key: entry[key] for key in keep}


async def record_all() -> None:
    """Run every scenario for real and (re)write ``journals/*.json``."""
    JOURNALS.mkdir(exist_ok=True)
    complete = await _run(COMPLETE_CODE)
    divergent = await _run(DIVERGENT_CODE)
    truncated = dict(complete, result=None, journal=complete["journal"][:TRUNCATED_AFTER])
    files = {
        "complete": (complete, "A finished run; replaying it must call no tool."),
        "divergent": (divergent, "random.random() outside codemode.step: a replay diverges."),
        "truncated": (truncated, f"complete.json's run, killed after call {TRUNCATED_AFTER}."),
    }
    for name, (content, description) in files.items():
        path = JOURNALS / f"{name}.json"
        body = {"description": description, "generated_by": "tests/codemode/recorded.py",
                **content}
        path.write_text(json.dumps(body, indent=2, ensure_ascii=True) + "\n")
        print(f"wrote {path}", file=sys.stderr)


def load(name: str) -> dict[str, Any]:
    """The recorded file ``journals/<name>.json``."""
    data: dict[str, Any] = json.loads((JOURNALS / f"{name}.json").read_text())
    return data


async def load_into(store: CodeModeStore, recorded: dict[str, Any]) -> str:
    """Store the recorded execution as one a dead process left running; returns its id."""
    record = ExecutionRecord(
        id=recorded["execution_id"], workspace="default", code=recorded["code"],
        status="running", options=recorded["options"], owner=DEAD_OWNER, lease_until=0.0,
        namespaces={"tools": [tool["name"] for tool in recorded["tools"]]},
    )
    await store.create_execution(record)
    async with store.transaction() as tx:
        for item in recorded["journal"]:
            await journal.append(tx.connection, JournalEntry(
                execution_id=record.id, seq=item["seq"], namespace=item["namespace"],
                method=item["method"], args=canonical_json(item["args"]), state=item["state"],
                result=decode_value(item["result"]), error=item["error"],
                ephemeral=item["ephemeral"],
            ))
    return record.id


if __name__ == "__main__":
    asyncio.run(record_all())

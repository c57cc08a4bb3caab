"""Code Mode as a library: Python callables become typed, validated, journaled tools."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from codemode import CodeMode, DurableSettings, ExecuteOptions, tool_from_callable
from codemode.calls import CodeModeHandler
from sandbox.engine import CompiledGuest
from sandbox.json_text import JSONText


def get_weather(city: str, units: str = "metric") -> dict[str, object]:
    """Current weather for a city.

    Args:
        city: The city's name.
        units: metric or imperial.
    """
    return {"city": city, "temp": 21 if units == "metric" else 70}


async def slow_add(a: int, b: int) -> int:
    """Add two integers (asynchronously)."""
    return a + b


async def test_callables_are_tools_with_schemas_from_their_hints(compiled_guest: CompiledGuest,
                                                                 tmp_path: Path) -> None:
    async with CodeMode(tmp_path, tools=[get_weather, slow_add], workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute("w = tools.get_weather(city='Paris')\n"
                                   "[w['temp'], tools.slow_add(a=2, b=3)]")
        assert outcome["status"] == "completed", outcome
        assert outcome["result"] == [21, 5]
        assert [c["method"] for c in outcome["calls"]] == ["get_weather", "slow_add"]
        rejected = await cm.execute("tools.slow_add(a='x', b=1)")
        assert rejected["status"] == "error" and rejected["calls"] == []
        declarations = cm.declarations()
        assert "def get_weather(*, city: str, units: str = ...)" in declarations
        assert "The city's name." in declarations


async def test_state_persists_in_the_data_directory(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        await cm.execute("state.write_file('/kept.txt', 'still here')")
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        assert (await cm.execute("state.read_file('/kept.txt')"))["result"] == "still here"


def deploy(target: str) -> str:
    """Deploy to a target (needs a human's approval)."""
    return f"deployed {target}"


async def test_an_inline_wait_is_held_no_longer_than_the_services_maximum(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    gated = tool_from_callable(deploy, approval={"mode": "inline"})
    async with CodeMode(tmp_path, tools=[gated], workers=1, guest=compiled_guest,
                        durable=DurableSettings(max_approval_wait_ms=200)) as cm:
        started = time.monotonic()
        outcome = await cm.execute("tools.deploy(target='prod')", approval_wait_ms=60_000)
        assert outcome["status"] == "paused"
        assert time.monotonic() - started < 5
        done = await cm.approve(outcome["pending"][0]["approval_id"])
        assert done["status"] == "completed" and done["result"] == "deployed prod"


def _noting_host_calls(monkeypatch: pytest.MonkeyPatch, count: int = 1) -> asyncio.Event:
    """An event set when ``count`` host calls have reached the service (before the last is
    answered)."""
    called, answer, seen = asyncio.Event(), CodeModeHandler.__call__, [0]

    async def noting(handler: CodeModeHandler, name: str, payload: Any) -> Any:
        seen[0] += 1
        if seen[0] >= count:
            called.set()
        return await answer(handler, name, payload)

    monkeypatch.setattr(CodeModeHandler, "__call__", noting)
    return called


async def test_a_new_run_starts_while_its_row_is_written_and_no_call_is_answered_before(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        assert cm._store is not None and cm._workspaces is not None and cm._sandbox is not None
        store, workspace = cm._store, cm._workspaces.workspace("default")
        write_row, gate, asked = store.create_execution, asyncio.Event(), asyncio.Event()
        called = _noting_host_calls(monkeypatch)

        async def held(record: Any, **options: Any) -> None:
            asked.set()
            await gate.wait()
            await write_row(record, **options)

        monkeypatch.setattr(store, "create_execution", held)
        run = asyncio.create_task(cm.execute("state.write_file('/a.txt', 'x')\n'done'"))
        await asyncio.wait_for(asked.wait(), 30)
        await asyncio.wait_for(called.wait(), 30)  # the isolate has made its call
        assert not run.done()
        pool = cm._sandbox._pool
        assert pool is not None and pool.stats()["idle"] == 0  # its one worker has the run
        assert await workspace.read_file("/a.txt") is None
        gate.set()
        outcome = await asyncio.wait_for(run, 30)
        assert outcome["status"] == "completed" and outcome["result"] == "done"
        assert await workspace.read_file("/a.txt") == "x"
        record = await store.get_execution(outcome["execution_id"])
        assert record is not None and record.status == "completed"
        assert [entry.method for entry in record.journal] == ["write_file"]


async def test_a_row_that_cannot_be_written_stops_its_run_before_any_call(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        assert cm._store is not None and cm._workspaces is not None and cm._sandbox is not None
        store, workspace = cm._store, cm._workspaces.workspace("default")
        write_row = store.create_execution
        called = _noting_host_calls(monkeypatch)

        async def failing(record: Any, **options: Any) -> None:
            await asyncio.wait_for(called.wait(), 30)  # fail while the call waits for the row
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(store, "create_execution", failing)
        with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
            await cm.execute("state.write_file('/b.txt', 'x')")
        assert await workspace.read_file("/b.txt") is None
        assert await store.list_executions() == []
        monkeypatch.setattr(store, "create_execution", write_row)
        after = await cm.execute("state.write_file('/c.txt', 'y')\nstate.read_file('/c.txt')")
        assert after["status"] == "completed" and after["result"] == "y"


def _tools_counting(invoked: list[str], *, first_fails: bool = False) -> list[Any]:
    def first() -> str:
        """The first step."""
        invoked.append("first")
        if first_fails:
            raise ValueError("no first")
        return "one"

    def second() -> str:
        """The second step."""
        invoked.append("second")
        return "two"
    return [first, second]


@pytest.mark.parametrize("first_fails", [False, True], ids=["value", "error"])
async def test_a_calls_record_commits_while_the_code_goes_on_and_the_next_call_waits_for_it(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        first_fails: bool) -> None:
    invoked: list[str] = []
    settled = "error" if first_fails else "applied"
    async with CodeMode(tmp_path, tools=_tools_counting(invoked, first_fails=first_fails),
                        workers=1, guest=compiled_guest, durable=DurableSettings()) as cm:
        assert cm._store is not None
        store, write = cm._store, CodeModeHandler._write
        gate, held = asyncio.Event(), asyncio.Event()
        calls_seen = _noting_host_calls(monkeypatch, count=2)

        async def holding(handler: CodeModeHandler, entry: Any, recorded: Any, **kw: Any) -> None:
            if kw["state"] == settled and entry.seq == 0:
                held.set()
                await gate.wait()
            await write(handler, entry, recorded, **kw)

        monkeypatch.setattr(CodeModeHandler, "_write", holding)
        run = asyncio.create_task(cm.execute(
            "try:\n    a = tools.first()\nexcept Exception as e:\n    a = str(e)\n"
            "b = tools.second()\n[a, b]"))
        await asyncio.wait_for(held.wait(), 30)
        # The code has its first value and has made its second call, which waits: the
        # first call's record is not committed, so nothing more happens yet.
        await asyncio.wait_for(calls_seen.wait(), 30)
        assert invoked == ["first"] and not run.done()
        running = await store.get_execution((await store.list_executions())[0].id)
        assert running is not None
        assert [(e.seq, e.state) for e in running.journal] == [(0, "executing")]
        gate.set()
        outcome = await asyncio.wait_for(run, 30)
        assert outcome["status"] == "completed", outcome
        assert outcome["result"] == ["no first" if first_fails else "one", "two"]
        assert invoked == ["first", "second"]
        assert [c["state"] for c in outcome["calls"]] == [settled, "applied"]
        record = await store.get_execution(outcome["execution_id"])
        assert record is not None
        assert [(e.seq, e.state) for e in record.journal] == [(0, settled), (1, "applied")]


async def test_a_run_cancelled_while_a_record_commits_lets_the_record_finish(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    invoked: list[str] = []
    async with CodeMode(tmp_path, tools=_tools_counting(invoked), workers=1, guest=compiled_guest,
                        durable=DurableSettings()) as cm:
        assert cm._store is not None
        store, write = cm._store, CodeModeHandler._write
        gate, held = asyncio.Event(), asyncio.Event()
        calls_seen = _noting_host_calls(monkeypatch, count=2)

        async def holding(handler: CodeModeHandler, entry: Any, recorded: Any, **kw: Any) -> None:
            if kw["state"] == "applied" and entry.seq == 0:
                held.set()
                await gate.wait()
            await write(handler, entry, recorded, **kw)

        monkeypatch.setattr(CodeModeHandler, "_write", holding)
        run = asyncio.create_task(cm.execute("a = tools.first()\nb = tools.second()\n[a, b]"))
        await asyncio.wait_for(held.wait(), 30)
        await asyncio.wait_for(calls_seen.wait(), 30)  # the second call waits for the record
        run.cancel()  # as a shutdown does
        await asyncio.sleep(0.05)
        gate.set()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(run, 30)
        # The first call's effect happened, and its record says so: a recovery replays it
        # rather than finding it ``executing``. The second call never ran.
        execution = (await store.list_executions())[0]
        record = await store.get_execution(execution.id)
        assert record is not None
        assert [(e.seq, e.state) for e in record.journal] == [(0, "applied")]
        assert invoked == ["first"]


@pytest.mark.parametrize("first_fails", [False, True], ids=["value", "error"])
@pytest.mark.parametrize("then", ["tools.second()", "print('went on')\n'done'"],
                         ids=["another call", "the run's end"])
async def test_a_record_that_cannot_be_written_stops_the_run_before_anything_else_happens(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        first_fails: bool, then: str) -> None:
    # The first call's record (its value, or the error it raised) fails to commit; the code
    # catches either and goes on, to a second call or to its end: neither may happen.
    invoked: list[str] = []
    code = f"try:\n    tools.first()\nexcept Exception:\n    pass\n{then}"
    async with CodeMode(tmp_path, tools=_tools_counting(invoked, first_fails=first_fails),
                        workers=1, guest=compiled_guest) as cm:
        assert cm._store is not None
        write = CodeModeHandler._write

        async def failing(handler: CodeModeHandler, entry: Any, recorded: Any, **kw: Any) -> None:
            if kw["state"] in ("applied", "error"):
                raise sqlite3.OperationalError("disk I/O error")
            await write(handler, entry, recorded, **kw)

        monkeypatch.setattr(CodeModeHandler, "_write", failing)
        outcome = await cm.execute(code)
        assert outcome["status"] == "error", outcome
        assert "the record of call 0 (tools.first) could not be written" in outcome["error"]["message"]
        assert invoked == ["first"]  # nothing after the call whose record failed
        record = await cm._store.get_execution(outcome["execution_id"])
        assert record is not None and record.status == "error"
        assert [(e.seq, e.state) for e in record.journal] == [(0, "executing")]


async def test_retention_keeps_the_newest_terminal_runs_and_never_a_paused_one(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    # Acceptance case 72: keep 2, after five runs at most three kept; paused runs stay.
    gated = tool_from_callable(deploy, approval={"mode": "inline"})
    async with CodeMode(tmp_path, tools=[gated], workers=1, guest=compiled_guest,
                        durable=replace(DurableSettings(), keep_executions=2)) as cm:
        assert cm._store is not None
        paused = await cm.execute("tools.deploy(target='prod')")
        assert paused["status"] == "paused"
        ids = [(await cm.execute(f"{n} + 1"))["execution_id"] for n in range(5)]
        kept = await cm._store.list_executions(workspace="default", limit=100)
        terminal = [r.id for r in kept if r.status == "completed"]
        assert len(terminal) <= 3 and terminal == ids[-len(terminal):][::-1]
        assert ids[-1] in terminal and paused["execution_id"] in {r.id for r in kept}


async def test_a_large_result_is_a_value_for_the_library_and_text_inside_the_driver(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    code = "[{'n': i, 'tags': ['a', str(i)]} for i in range(10_000)]"
    expected = [{"n": i, "tags": ["a", str(i)]} for i in range(10_000)]
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(code)
        assert outcome["status"] == "completed" and outcome["result"] == expected
        # What the service writes out without parsing it (sandbox.json_text).
        carried = await cm.executions.start(ExecuteOptions(code=code, limits=cm.limits),
                                            await cm._plan(()))
        assert isinstance(carried["result"], JSONText) and carried["result"].value() == expected


_OUTPUTS: dict[str, Any] = {
    "plain": {"n": 1, "items": [1.5, None, True, "x"], "nested": {"k": [[]]}},
    "non_ascii": {"city": "Zürich", "emoji": "\U0001f600"},
    "escaped": {"text": "tab\there \\u0041 \"quoted\""},
    "bytes": {"raw": b"\x00\xff", "list": [b"a"]},
    "nan": [1.0, float("nan")],
    "tuple": (1, (2, 3)),
    "int_keys": {1: "one", None: "none", 2.5: "half"},
    "deep": [[[[[[[[[[["bottom"]]]]]]]]]]],
    "big": {"x": "y" * 30_000},
}


def output(kind: str) -> Any:
    """A tool's output of the given kind (the kinds above)."""
    return _OUTPUTS[kind]


async def test_the_code_sees_each_kind_of_tool_output_as_the_model_would(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    """Plain outputs go to the guest as the text made to cap them; bytes, NaN and the rest
    the long way. Either way the code sees the same values."""
    async with CodeMode(tmp_path, tools=[output], workers=1, guest=compiled_guest) as cm:
        # Keys sorted before the repr: a replayed value (always-replay mode) comes back from
        # the journal's canonical text, with its keys in sorted order.
        code = ("def canon(v):\n"
                "    if isinstance(v, dict):\n"
                "        return {k: canon(v[k]) for k in sorted(v)}\n"
                "    return [canon(x) for x in v] if isinstance(v, list) else v\n"
                "seen = {k: tools.output(kind=k) for k in %r}\n"
                "{k: [type(v).__name__, repr(canon(v))[:80]] for k, v in seen.items()}" % list(_OUTPUTS))
        outcome = await cm.execute(code)
        assert outcome["status"] == "completed", outcome
        seen = outcome["result"]
    expected = {
        "plain": repr({"items": [1.5, None, True, "x"], "n": 1, "nested": {"k": [[]]}}),
        "non_ascii": repr({"city": "Zürich", "emoji": "\U0001f600"}),
        "escaped": repr({"text": "tab\there \\u0041 \"quoted\""}),
        "bytes": repr({"list": [b"a"], "raw": b"\x00\xff"}),
        "nan": repr([1.0, None]),
        "tuple": repr([1, [2, 3]]),
        "int_keys": repr({"1": "one", "2.5": "half", "null": "none"}),
        "deep": repr([[[[[[[[[[["bottom"]]]]]]]]]]]),
    }
    for kind, text in expected.items():
        assert seen[kind][1] == text[:80], kind
    assert seen["big"][0] == "dict" and seen["big"][1].startswith("{'chars': 30008, 'preview': '{\"x\":\"yyy")


async def test_calls_are_reported_to_watchers_in_order(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    """A settled call is reported by the next call while it waits for its tool, and before
    any later report."""
    published: list[tuple[str, dict[str, Any]]] = []
    seen_before_second: list[list[int]] = []

    async def second(n: int) -> int:
        """Waits for the first call's report (it is made while this tool runs)."""
        for _ in range(500):  # the bound makes a failure a failure, not a hang
            reported = [d["seq"] for kind, d in published if kind == "tool_call"]
            if reported:
                break
            await asyncio.sleep(0.01)
        seen_before_second.append(reported)
        return n

    async with CodeMode(tmp_path, tools=[get_weather, second], workers=1, guest=compiled_guest) as cm:
        cm.executions._publish = lambda eid, kind, data: published.append((kind, data))
        outcome = await cm.execute("tools.get_weather(city='Paris')\n"
                                   "tools.second(n=1)\n"
                                   "state.write_file('/a.txt', 'a')\n"
                                   "tools.get_weather(city='Oslo')\n")
        assert outcome["status"] == "completed", outcome
    assert seen_before_second == [[0]]
    assert [d["seq"] for kind, d in published if kind == "tool_call"] == [0, 1, 2, 3]
    assert [c["seq"] for c in outcome["calls"]] == [0, 1, 2, 3]


async def test_a_settled_call_is_reported_while_the_code_goes_on_without_reporting_calls(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls refused before they are journaled (bad arguments) report nothing and wait for no
    tool: the settled call before them is reported by its timer, not at the run's end. The
    timer is set to fire at the event loop's next turn, so the test counts calls, not time.
    Normal mode whatever the environment: in always-replay mode a replayed call is reported
    as it is replayed, with no timer."""
    monkeypatch.setattr("codemode.calls.REPORT_WITHIN_S", 0.0)
    answered = [0]
    answer = CodeModeHandler.__call__

    async def counting(handler: CodeModeHandler, name: str, payload: Any) -> Any:
        answered[0] += 1
        return await answer(handler, name, payload)

    monkeypatch.setattr(CodeModeHandler, "__call__", counting)
    reported_at: list[int] = []
    async with CodeMode(tmp_path, tools=[get_weather], workers=1, guest=compiled_guest,
                        durable=DurableSettings(always_replay=False)) as cm:
        cm.executions._publish = lambda eid, kind, data: (
            reported_at.append(answered[0]) if kind == "tool_call" else None)
        outcome = await cm.execute("tools.get_weather(city='Paris')\n"
                                   "for _ in range(20):\n"
                                   "    try:\n"
                                   "        tools.get_weather(city=1)\n"
                                   "    except Exception:\n"
                                   "        pass\n")
        assert outcome["status"] == "completed", outcome
    assert answered[0] == 21
    assert len(reported_at) == 1 and reported_at[0] < 21, reported_at


def ordered_answer() -> dict[str, Any]:
    """An answer whose keys are not in sorted order."""
    return {"zeta": 1, "alpha": {"y": 2, "b": b"\x00"}, "mid": [{"k": 1, "c": 2}]}


async def test_a_resumed_run_sees_each_answer_with_its_keys_in_the_first_runs_order(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    """Python code sees a dict's order (printing it, taking its first key): the journal gives
    a replayed answer back in the order the first run saw, not sorted."""
    gated = tool_from_callable(deploy)  # a durable approval: the run parks, then resumes by replay
    gated = replace(gated, approval={"mode": "durable"})
    code = ("r = tools.ordered_answer()\n"
            "first = [list(r), list(r['alpha']), list(r['mid'][0])]\n"
            "tools.deploy(target='prod')\n"
            "[first, [list(r), list(r['alpha']), list(r['mid'][0])]]")
    async with CodeMode(tmp_path, tools=[ordered_answer, gated], workers=1, guest=compiled_guest) as cm:
        paused = await cm.execute(code)
        assert paused["status"] == "paused", paused
        done = await cm.approve(paused["pending"][0]["approval_id"])
    assert done["status"] == "completed", done
    orders = [["zeta", "alpha", "mid"], ["y", "b"], ["k", "c"]]
    assert done["result"] == [orders, orders]

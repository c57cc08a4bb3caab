"""Execution events: the bus (order, fan-out, overflow, ring buffer), history, and the SSE stream."""

from __future__ import annotations

import asyncio
import json
import threading
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from codemode.events import (
    _MAX_DEPTH,
    _displayed_event_data,
    _plain_event_data,
    _sized_event_data,
    MAX_EVENT_CHARS,
    EventBus,
    ExecutionEvent,
    Subscription,
    event_data,
    history_events,
    sse_stream,
)
from codemode.errors import SubscriptionClosed
from json_values import JSON_VALUES, strict_text
from loop_turns import loop_turns
from sandbox.json_text import JSONText
from codemode.records import ExecutionRecord, JournalEntry

EID = "exec_1"
WAIT = 2.0  # seconds: any single await in these tests should finish far sooner


# --- helpers ------------------------------------------------------------------------------


def parse_sse(raw: bytes) -> tuple[list[dict[str, Any]], int]:
    """A deliberately small SSE reader: (messages as {id?, event, data}, number of comments)."""
    messages: list[dict[str, Any]] = []
    comments = 0
    text = raw.decode("utf-8")
    assert text == "" or text.endswith("\n\n"), "every message ends with a blank line"
    for block in text.split("\n\n")[:-1]:
        message: dict[str, Any] = {}
        data_lines: list[str] = []
        for line in block.split("\n"):
            if line.startswith(":"):
                comments += 1
                continue
            name, _, value = line.partition(": ")
            if name == "data":
                data_lines.append(value)
            else:
                assert name in ("id", "event"), f"unexpected field {name!r}"
                message[name] = value
        if data_lines:
            assert len(data_lines) == 1, "data is one JSON line"
            message["data"] = json.loads(data_lines[0])
            messages.append(message)
    return messages, comments


def record(
    status: str = "running",
    *,
    journal: list[JournalEntry] | None = None,
    logs: list[str] | None = None,
    result: Any = None,
    error: dict[str, Any] | None = None,
) -> ExecutionRecord:
    return ExecutionRecord(
        id=EID,
        workspace="default",
        code="print('hi')",
        status=status,
        journal=journal or [],
        logs=logs or [],
        result=result,
        error=error,
    )


def entry(seq: int, state: str = "applied", result: Any = None, **kw: Any) -> JournalEntry:
    return JournalEntry(
        execution_id=EID,
        seq=seq,
        namespace="tools",
        method=kw.pop("method", "charge"),
        args=kw.pop("args", '{"amount":5}'),
        state=state,
        result=result,
        **kw,
    )


def loader(
    value: ExecutionRecord | None,
) -> tuple[Callable[[str], Awaitable[ExecutionRecord | None]], asyncio.Event]:
    """A load_record that also says when it was called (the stream has subscribed by then)."""
    called = asyncio.Event()

    async def load(execution_id: str) -> ExecutionRecord | None:
        called.set()
        return value if value is not None and value.id == execution_id else None

    return load, called


async def read_all(stream: AsyncIterator[bytes]) -> bytes:
    async def drain() -> bytes:
        return b"".join([chunk async for chunk in stream])

    return await asyncio.wait_for(drain(), WAIT)


async def next_of(subscription: Subscription) -> ExecutionEvent:
    return await asyncio.wait_for(subscription.__anext__(), WAIT)


def kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [m["event"] for m in messages]


# --- the bus ------------------------------------------------------------------------------


async def test_subscriber_receives_events_in_publish_order_with_increasing_ids() -> None:
    bus = EventBus(first_id=1)
    subscription = bus.subscribe(EID)
    for n in range(5):
        bus.publish(EID, "log", {"line": f"line {n}"})
    received = [await next_of(subscription) for _ in range(5)]
    assert [e.data["line"] for e in received] == [f"line {n}" for n in range(5)]
    assert [e.id for e in received] == [1, 2, 3, 4, 5]
    assert all(e.execution_id == EID and e.type == "log" for e in received)


async def test_subscriber_sees_only_its_own_execution() -> None:
    bus = EventBus()
    subscription = bus.subscribe(EID)
    bus.publish("exec_other", "log", {"line": "not for you"})
    bus.publish(EID, "log", {"line": "for you"})
    assert (await next_of(subscription)).data == {"line": "for you"}


async def test_two_subscribers_each_receive_every_event() -> None:
    bus = EventBus()
    first, second = bus.subscribe(EID), bus.subscribe(EID)
    bus.publish(EID, "status", {"status": "running"})
    bus.publish(EID, "log", {"line": "x"})
    for subscription in (first, second):
        assert [(await next_of(subscription)).type for _ in range(2)] == ["status", "log"]


async def test_overflow_closes_only_the_slow_subscriber_and_never_the_publisher() -> None:
    bus = EventBus(subscriber_queue=3)
    slow, fast = bus.subscribe(EID), bus.subscribe(EID)
    seen_by_fast: list[int] = []
    for n in range(6):
        event = bus.publish(EID, "log", {"line": str(n)})
        assert event is not None
        seen_by_fast.append((await next_of(fast)).id)
    assert bus.watcher_count(EID) == 1
    slow_events = [e async for e in slow]
    assert [e.type for e in slow_events] == ["log", "log", "log", "overflow"]
    assert slow_events[-1].id == 0, "overflow carries no id, so Last-Event-ID stays on the last real one"
    assert slow_events[-1].data["dropped_from"] == slow_events[2].id + 1
    assert slow.overflowed and slow.closed
    assert not fast.closed and len(seen_by_fast) == 6


async def test_close_ends_iteration_and_detaches() -> None:
    bus = EventBus()
    subscription = bus.subscribe(EID)
    bus.publish(EID, "log", {"line": "dropped on close"})
    subscription.close()
    subscription.close()
    assert [e async for e in subscription] == []
    assert bus.watcher_count(EID) == 0
    with pytest.raises(SubscriptionClosed):
        await subscription.next_event()


async def test_close_wakes_a_waiting_reader() -> None:
    bus = EventBus()
    subscription = bus.subscribe(EID)
    reader = asyncio.create_task(subscription.next_event())
    await asyncio.sleep(0)
    subscription.close()
    with pytest.raises(SubscriptionClosed):
        await asyncio.wait_for(reader, WAIT)


async def test_next_event_returns_none_when_the_timeout_passes_first() -> None:
    bus = EventBus()
    subscription = bus.subscribe(EID)
    assert await subscription.next_event(timeout=0.01) is None
    bus.publish(EID, "log", {"line": "after the timeout"})
    assert (await next_of(subscription)).data["line"] == "after the timeout"


async def test_publish_from_another_thread_wakes_the_reader() -> None:
    bus = EventBus()
    subscription = bus.subscribe(EID)
    reader = asyncio.create_task(subscription.next_event())
    await asyncio.sleep(0)
    worker = threading.Thread(target=bus.publish, args=(EID, "log", {"line": "from a thread"}))
    worker.start()
    event = await asyncio.wait_for(reader, WAIT)
    worker.join()
    assert event is not None and event.data["line"] == "from a thread"


async def test_late_subscriber_gets_buffered_events_first() -> None:
    bus = EventBus()
    bus.publish(EID, "status", {"status": "running"})
    bus.publish(EID, "log", {"line": "early"})
    subscription = bus.subscribe(EID)
    bus.publish(EID, "log", {"line": "late"})
    received = [await next_of(subscription) for _ in range(3)]
    assert [e.data for e in received] == [{"status": "running"}, {"line": "early"}, {"line": "late"}]
    assert subscription.watermark == received[1].id


async def test_subscribe_after_last_event_id_replays_only_newer_buffered_events() -> None:
    bus = EventBus()
    ids = [event.id for n in range(5) if (event := bus.publish(EID, "log", {"line": str(n)}))]
    subscription = bus.subscribe(EID, after=ids[2])
    assert subscription.resumable
    assert [e.id for e in subscription.take_backlog()] == ids[3:]


async def test_ring_buffer_keeps_the_last_events_and_knows_a_resume_from_before_them_has_a_gap() -> None:
    bus = EventBus(buffer_size=200)
    ids = [event.id for n in range(250) if (event := bus.publish(EID, "log", {"line": str(n)}))]
    assert [e.id for e in bus.buffered(EID)] == ids[50:]
    assert bus.subscribe(EID, after=ids[49]).resumable
    assert not bus.subscribe(EID, after=ids[10]).resumable


async def test_lines_nobody_watches_become_only_the_events_the_buffer_would_keep() -> None:
    skipping, publishing_all = EventBus(buffer_size=200), EventBus(buffer_size=200)
    for bus in (skipping, publishing_all):
        bus.publish(EID, "tool_call", {"seq": 0})
    seen = skipping.last_id
    lines = [f"line {n}" for n in range(1_000)]
    assert skipping.unwatched_tail(EID, len(lines)) == 200
    for line in lines[-200:]:
        skipping.publish(EID, "log", {"line": line})
    for line in lines:
        publishing_all.publish(EID, "log", {"line": line})
    assert [e.data for e in skipping.buffered(EID)] == [e.data for e in publishing_all.buffered(EID)]
    # A watcher who had seen the call is sent the history: the lines between are gone.
    assert not skipping.subscribe(EID, after=seen).resumable
    assert not skipping.subscribe(EID).intact
    assert skipping.subscribe(EID, after=skipping.last_id).resumable


async def test_lines_someone_watches_or_that_fit_the_buffer_are_all_published() -> None:
    bus = EventBus(buffer_size=200)
    assert bus.unwatched_tail(EID, 200) == 200 and bus.subscribe("exec_other").intact
    watcher = bus.subscribe(EID)
    assert bus.unwatched_tail(EID, 10_000) == 10_000
    watcher.close()
    assert bus.unwatched_tail(EID, 10_000) == 200


async def test_resume_from_an_id_the_bus_never_issued_is_not_resumable() -> None:
    bus = EventBus()
    bus.publish(EID, "log", {"line": "x"})
    assert not bus.subscribe(EID, after=bus.last_id + 1000).resumable
    assert not bus.subscribe(EID, after=1).resumable, "an id from before this bus started"


async def test_idle_execution_buffers_are_dropped_after_the_idle_time() -> None:
    now = [0.0]
    bus = EventBus(idle_s=600.0, clock=lambda: now[0])
    bus.publish(EID, "log", {"line": "old"})
    now[0] = 599.0
    bus.publish("exec_busy", "log", {"line": "keeps the bus awake"})
    assert len(bus.buffered(EID)) == 1
    now[0] = 601.0
    bus.publish("exec_busy", "log", {"line": "sweeps"})
    assert bus.buffered(EID) == []
    assert bus.buffered("exec_busy") != []


async def test_total_buffered_executions_are_bounded_least_recently_active_first() -> None:
    bus = EventBus(max_executions=3)
    for n in range(5):
        bus.publish(f"exec_{n}", "log", {"line": str(n)})
    kept = [n for n in range(5) if bus.buffered(f"exec_{n}")]
    assert kept == [2, 3, 4]


async def test_total_buffered_characters_are_bounded() -> None:
    bus = EventBus(max_buffer_bytes=20_000)
    for n in range(10):
        bus.publish(f"exec_{n}", "log", {"line": "x" * 5_000})
    kept = [n for n in range(10) if bus.buffered(f"exec_{n}")]
    assert kept == [7, 8, 9]


async def test_the_buffer_bound_holds_for_the_memory_small_events_really_use() -> None:
    # Small events cost far more memory than their text: the bound must count that.
    bound = 2_000_000
    bus = EventBus(max_buffer_bytes=bound, buffer_size=100_000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(20_000):
            bus.publish(f"exec_{n % 100}", "log", {"line": f"line {n}"})
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert used < 1.5 * bound, f"{used} bytes held for a bound of {bound}"


async def test_publish_never_raises_on_unserialisable_data() -> None:
    bus = EventBus()
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    event = bus.publish(EID, "tool_call", {"args": cyclic, "obj": object(), "s": {1, 2}})
    assert event is not None
    assert event.data == {"args": {"self": "[Circular]"}, "obj": "<object>", "s": [1, 2]}


# --- event data ---------------------------------------------------------------------------


def test_event_data_tags_bytes_and_replaces_lone_surrogates() -> None:
    data = event_data({"result": b"\x00\xff", "line": "bad \udc80 ok \ud83d\ude00", "nan": float("nan")})
    assert data == {
        "result": {"$bytes": "AP8="},
        "line": "bad \ufffd ok \U0001f600",
        "nan": {"$float": "nan"},
    }
    json.dumps(data).encode("utf-8")


def test_event_data_cuts_oversized_fields_to_a_preview() -> None:
    data = event_data({"seq": 1, "result": "y" * (MAX_EVENT_CHARS * 2)})
    assert data["seq"] == 1
    assert data["result"].endswith(f"[truncated {MAX_EVENT_CHARS * 2 - 2_000} chars]")
    assert len(json.dumps(data)) <= MAX_EVENT_CHARS


_KEYS = st.sampled_from(["seq", "args", "$bytes", "$float", "$dict", "bad \udc80", "é"])
_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats() | st.binary(max_size=3)
           | st.text(max_size=4) | st.sampled_from(["\ud800", "$bytes", "[", "{"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3)
                       | st.lists(inner, max_size=3).map(tuple)
                       | st.dictionaries(_KEYS | st.integers(0, 2), inner, max_size=3),
                       max_leaves=10)


@settings(max_examples=500, deadline=None)
@given(data=st.dictionaries(_KEYS, _VALUES, max_size=4))
def test_event_data_taken_as_it_is_reads_as_the_walked_form_would(data: dict[str, Any]) -> None:
    plain = _plain_event_data(data)
    if plain is not None:
        displayed = _displayed_event_data(data)
        assert plain == displayed
        assert json.dumps(plain[0]) == json.dumps(displayed[0])


@pytest.mark.parametrize("depth, taken", [(_MAX_DEPTH - 1, True), (_MAX_DEPTH + 5, False)])
def test_event_data_nested_near_the_depth_limit_is_walked(depth: int, taken: bool) -> None:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    data = {"args": value}
    assert (_plain_event_data(data) is not None) is taken
    assert _sized_event_data(data) == _displayed_event_data(data)


@settings(max_examples=300, deadline=None)
@given(item=JSON_VALUES, copies=st.sampled_from([1, 3, 4_000]))
def test_a_result_carried_as_its_text_makes_the_event_its_value_makes(item: Any, copies: int) -> None:
    result = [item] * copies
    data = {"status": "completed", "result": result, "error": None}
    assert _sized_event_data({**data, "result": JSONText(strict_text(result))}) == _sized_event_data(data)


@pytest.mark.parametrize("result", ["y" * 100_000, "$" + "y" * 100_000, "caf\u00e9 \n" * 20_000,
                                    "\u2603" * 70_000, ["x" * 70_000, 1], {"$bytes": "x" * 70_000}])
def test_a_long_string_carried_as_its_text_makes_the_event_its_value_makes(result: Any) -> None:
    data = {"status": "completed", "result": result, "error": None}
    assert _sized_event_data({**data, "result": JSONText(strict_text(result))}) == _sized_event_data(data)


@pytest.mark.parametrize("data", [
    {"line": "x" * (MAX_EVENT_CHARS + 1)},
    {"line": "caf\u00e9 " * MAX_EVENT_CHARS, "seq": 4},
    {"line": "$" + "x" * MAX_EVENT_CHARS, "args": {"a": [1, 2]}},
    {"$bytes": "x" * (MAX_EVENT_CHARS + 1)},
    {"line": "bad \udc80" * MAX_EVENT_CHARS},
    {"line": "x" * MAX_EVENT_CHARS, "other": "y" * MAX_EVENT_CHARS, "raw": b"\x00"},
    {"a": "x" * MAX_EVENT_CHARS * 2, "b": "y" * (MAX_EVENT_CHARS - 10), "c": list(range(20_000))},
    {"a": "x" * MAX_EVENT_CHARS * 3, "b": "y" * (MAX_EVENT_CHARS + 5), "c": "z" * 3_000},
    {"line": 'say "hi" ' * MAX_EVENT_CHARS, "seq": 1},
    {"line": "tab\t" * MAX_EVENT_CHARS, "more": "x" * (MAX_EVENT_CHARS + 1)},
    {"line": "x" * (MAX_EVENT_CHARS + 1), "args": {"k": "v" * (MAX_EVENT_CHARS // 2)},
     "list": ["w" * 100] * 400},
    {"line": "x" * (MAX_EVENT_CHARS + 1), "tagged": {"$bytes": "AA=="}},
    {"key \"quoted\"": "x" * (MAX_EVENT_CHARS * 2), "n": 1.5},
])
def test_an_event_with_a_string_longer_than_an_event_is_cut_as_the_walk_cuts_it(
        data: dict[str, Any]) -> None:
    assert _sized_event_data(data) == _displayed_event_data(data)


def test_a_large_result_carried_as_its_text_is_cut_to_its_preview_unparsed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = [{"a": n, "b": [str(n)]} for n in range(20_000)]
    monkeypatch.setattr(JSONText, "value", lambda self: pytest.fail("parsed"))
    data = event_data({"status": "completed", "result": JSONText(strict_text(result))})
    assert data["result"] == {"truncated": True, "chars": len(strict_text(result)),
                              "preview": strict_text(result)[:2_000]}


def test_a_calls_event_of_plain_json_is_taken_as_it_is_and_copied() -> None:
    data = {"seq": 3, "namespace": "tools", "args": {"n": [1, 2.5, None, "x"]}, "state": "applied"}
    plain = _plain_event_data(data)
    assert plain is not None and plain[0] == data and plain[1] == len(json.dumps(data, separators=(",", ":")))
    data["args"]["n"].append("later")  # the caller's value changing does not change the event
    assert plain[0]["args"]["n"] == [1, 2.5, None, "x"]


def test_to_sse_survives_data_that_was_never_made_safe() -> None:
    event = ExecutionEvent(EID, "log", {"line": "lone \udfff", "raw": b"hi"}, id=7)
    messages, _ = parse_sse(event.to_sse())
    assert messages == [{"id": "7", "event": "log", "data": {"line": "lone \ufffd", "raw": {"$bytes": "aGk="}}}]


def test_sse_format_is_id_event_and_one_data_line_then_a_blank_line() -> None:
    event = ExecutionEvent(EID, "log", {"line": "two\nlines"}, id=42)
    assert event.to_sse() == b'id: 42\nevent: log\ndata: {"line":"two\\nlines"}\n\n'
    assert ExecutionEvent(EID, "error", {"message": "m"}).to_sse().startswith(b"event: error\n")


# --- history ------------------------------------------------------------------------------


def test_history_of_a_finished_execution_is_status_calls_logs_and_completed() -> None:
    done = record(
        "completed",
        journal=[entry(1, result=b"\x01"), entry(0, result={"ok": True})],
        logs=["one", "two"],
        result={"total": 3},
    )
    events = history_events(done)
    assert [e.type for e in events] == ["status", "tool_call", "tool_call", "log", "log", "completed"]
    assert events[1].data == {
        "seq": 0, "namespace": "tools", "method": "charge", "args": {"amount": 5},
        "state": "applied", "result": {"ok": True},
    }
    assert events[2].data["result"] == {"$bytes": "AQ=="}
    assert events[-1].data == {"status": "completed", "result": {"total": 3}}
    assert all(e.id == 0 for e in events)


def test_history_of_a_running_execution_has_no_logs_or_completed() -> None:
    events = history_events(record("running", journal=[entry(0, "executing")], logs=["partial"]))
    assert [e.type for e in events] == ["status", "tool_call"]
    assert "result" not in events[1].data


def test_history_reports_a_failed_call_and_a_failed_execution() -> None:
    failed = record(
        "error",
        journal=[entry(0, "error", error={"name": "ToolError", "message": "no"})],
        error={"name": "Error", "message": "boom"},
    )
    events = history_events(failed)
    assert events[1].data["error"] == {"name": "ToolError", "message": "no"}
    assert events[-1].data == {"status": "error", "error": {"name": "Error", "message": "boom"}}


# --- the SSE stream -----------------------------------------------------------------------


async def test_stream_of_a_finished_execution_sends_its_history_then_ends() -> None:
    bus = EventBus(first_id=100)
    load, _ = loader(record("completed", journal=[entry(0)], logs=["hi"], result=1))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load)))
    assert kinds(messages) == ["status", "tool_call", "log", "completed"]
    assert messages[-1]["data"] == {"status": "completed", "result": 1}
    assert bus.watcher_count(EID) == 0, "the stream unsubscribes when it ends"


async def test_stream_of_an_unknown_execution_sends_one_error_and_ends() -> None:
    load, _ = loader(None)
    messages, _ = parse_sse(await read_all(sse_stream(EventBus(), "exec_nope", load)))
    assert messages == [{"event": "error", "data": {"message": "execution exec_nope not found"}}]


async def test_stream_reports_a_failing_loader_as_an_error_event() -> None:
    async def broken(execution_id: str) -> ExecutionRecord | None:
        raise OSError("disk gone")

    messages, _ = parse_sse(await read_all(sse_stream(EventBus(), EID, broken)))
    assert kinds(messages) == ["error"]
    assert "could not load execution exec_1" in messages[0]["data"]["message"]


async def test_live_stream_receives_tool_calls_and_completed_published_after_it_subscribed() -> None:
    bus = EventBus(first_id=1)
    load, subscribed = loader(record("running"))
    reader = asyncio.create_task(read_all(sse_stream(bus, EID, load)))
    await asyncio.wait_for(subscribed.wait(), WAIT)
    running = entry(0, "executing")
    bus.publish(EID, "tool_call", {"seq": 0, "namespace": "tools", "method": "charge",
                                   "args": {"amount": 5}, "state": running.state})
    bus.publish(EID, "log", {"line": "charged"})
    bus.publish(EID, "tool_call", {"seq": 0, "namespace": "tools", "method": "charge",
                                   "args": {"amount": 5}, "state": "applied", "result": b"ok"})
    bus.publish(EID, "completed", {"status": "completed", "result": "done"})
    bus.publish(EID, "log", {"line": "never sent: the stream has ended"})
    messages, _ = parse_sse(await reader)
    assert kinds(messages) == ["status", "tool_call", "log", "tool_call", "completed"]
    assert messages[0]["data"] == {"status": "running"}
    assert messages[3]["data"]["result"] == {"$bytes": "b2s="}
    assert [m["id"] for m in messages[1:]] == ["1", "2", "3", "4"]


async def test_paused_completed_keeps_the_stream_open_until_the_final_status() -> None:
    bus = EventBus(first_id=1)
    load, subscribed = loader(record("running"))
    chunks: list[bytes] = []

    async def consume() -> None:
        async for chunk in sse_stream(bus, EID, load, heartbeat_s=5.0):
            chunks.append(chunk)

    reader = asyncio.create_task(consume())
    await asyncio.wait_for(subscribed.wait(), WAIT)
    bus.publish(EID, "approval_requested", {"approval_id": "apr_1", "seq": 0, "namespace": "tools",
                                            "method": "charge", "args": {}, "descriptor": {}})
    bus.publish(EID, "completed", {"status": "paused"})
    await asyncio.sleep(0.05)
    assert not reader.done(), "a paused execution may continue after an approval"
    bus.publish(EID, "approval_decided", {"approval_id": "apr_1", "decision": "approve", "by": "ops"})
    bus.publish(EID, "status", {"status": "running"})
    bus.publish(EID, "completed", {"status": "completed", "result": None})
    await asyncio.wait_for(reader, WAIT)
    messages, _ = parse_sse(b"".join(chunks))
    assert kinds(messages) == [
        "status", "approval_requested", "paused", "approval_decided", "status", "completed",
    ]


async def test_a_second_pause_after_an_approval_is_not_mistaken_for_a_repeat() -> None:
    bus = EventBus()
    load, subscribed = loader(record("paused", journal=[entry(0, "pending")]))
    chunks: list[bytes] = []

    async def consume() -> None:
        async for chunk in sse_stream(bus, EID, load):
            chunks.append(chunk)

    reader = asyncio.create_task(consume())
    await asyncio.wait_for(subscribed.wait(), WAIT)
    bus.publish(EID, "completed", {"status": "paused"})  # the snapshot already said so
    bus.publish(EID, "tool_call", {"seq": 0, "state": "applied", "result": 1})
    bus.publish(EID, "tool_call", {"seq": 1, "state": "pending"})
    bus.publish(EID, "completed", {"status": "paused"})
    bus.publish(EID, "completed", {"status": "rejected"})
    await asyncio.wait_for(reader, WAIT)
    messages, _ = parse_sse(b"".join(chunks))
    assert kinds(messages) == ["status", "tool_call", "paused", "tool_call", "tool_call",
                               "paused", "rejected"]
    assert all(m["data"]["status"] == m["event"] for m in messages[2:] if m["event"] != "tool_call")


async def test_events_published_while_the_record_loads_are_not_missed() -> None:
    bus = EventBus()

    async def load_while_the_runtime_moves_on(execution_id: str) -> ExecutionRecord | None:
        # The read saw a running execution; meanwhile the runtime published two more events.
        bus.publish(EID, "tool_call", {"seq": 0, "state": "applied", "result": 1})
        bus.publish(EID, "completed", {"status": "completed", "result": 1})
        return record("running")

    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load_while_the_runtime_moves_on)))
    assert kinds(messages) == ["status", "tool_call", "completed"]


async def test_snapshot_and_live_overlap_is_not_sent_twice() -> None:
    bus = EventBus()
    # The record already shows the applied call and the pause; the same facts then arrive live.
    load, subscribed = loader(record("paused", journal=[entry(0, "applied", result=1)]))
    reader = asyncio.create_task(read_all(sse_stream(bus, EID, load)))
    await asyncio.wait_for(subscribed.wait(), WAIT)
    bus.publish(EID, "tool_call", {"seq": 0, "state": "applied", "result": 1})
    bus.publish(EID, "status", {"status": "paused"})
    bus.publish(EID, "completed", {"status": "paused"})
    bus.publish(EID, "tool_call", {"seq": 0, "state": "applied", "result": 1, "replayed": True})
    bus.publish(EID, "completed", {"status": "completed", "result": 2})
    messages, _ = parse_sse(await reader)
    assert kinds(messages) == ["status", "tool_call", "paused", "tool_call", "completed"]
    assert messages[3]["data"]["replayed"] is True


async def test_new_watcher_of_a_running_execution_gets_buffered_logs_and_approvals() -> None:
    bus = EventBus()
    bus.publish(EID, "tool_call", {"seq": 0, "state": "executing"})  # the record shows it
    bus.publish(EID, "log", {"line": "before the watcher came"})
    load, _ = loader(record("running", journal=[entry(0, "applied", result=1)]))
    stream = sse_stream(bus, EID, load)
    opening = [await asyncio.wait_for(stream.__anext__(), WAIT) for _ in range(3)]
    await stream.aclose()
    messages, _ = parse_sse(b"".join(opening))
    assert kinds(messages) == ["status", "tool_call", "log"]
    assert messages[1]["data"]["state"] == "applied", "stale buffered call states are not replayed"
    mark = bus.last_id
    assert [m["id"] for m in messages] == [f"{mark}-2", f"{mark}-1", str(mark)], (
        "the snapshot's ids count down to the bus position it reflects")
    assert bus.watcher_count(EID) == 0


async def test_reconnect_with_last_event_id_resumes_from_the_buffer_without_history() -> None:
    bus = EventBus()
    first = bus.publish(EID, "log", {"line": "seen"})
    bus.publish(EID, "log", {"line": "missed"})
    bus.publish(EID, "completed", {"status": "completed", "result": 1})
    assert first is not None
    load, _ = loader(record("completed", logs=["seen", "missed"], result=1))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load, last_event_id=str(first.id))))
    assert kinds(messages) == ["log", "completed"]
    assert messages[0]["data"] == {"line": "missed"}
    assert int(messages[0]["id"]) > first.id


async def test_reconnect_after_the_end_gets_the_final_outcome_again() -> None:
    bus = EventBus()
    bus.publish(EID, "completed", {"status": "completed", "result": 1})
    load, _ = loader(record("completed", result=1))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load, last_event_id=bus.last_id)))
    assert kinds(messages) == ["completed"]


async def test_reconnect_with_an_id_the_buffer_no_longer_covers_gets_the_full_history() -> None:
    bus = EventBus(buffer_size=2)
    first = bus.publish(EID, "log", {"line": "a"})
    for line in "bcd":
        bus.publish(EID, "log", {"line": line})
    assert first is not None
    load, _ = loader(record("completed", logs=list("abcd"), result=None))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load, last_event_id=first.id)))
    assert kinds(messages) == ["status", "log", "log", "log", "log", "completed"]


@pytest.mark.parametrize("junk", ["", "abc", "-5", "1e9", "٣", "5-", "5-0", "5--1", "5-x"])
async def test_malformed_last_event_id_is_ignored(junk: str) -> None:
    load, _ = loader(record("completed", result=None))
    messages, _ = parse_sse(await read_all(sse_stream(EventBus(), EID, load, last_event_id=junk)))
    assert kinds(messages) == ["status", "completed"]


async def test_heartbeat_comment_is_sent_while_nothing_happens() -> None:
    bus = EventBus()
    load, _ = loader(record("running"))
    stream = sse_stream(bus, EID, load, heartbeat_s=0.01)
    chunks = [await asyncio.wait_for(stream.__anext__(), WAIT) for _ in range(3)]
    await stream.aclose()
    assert chunks[1:] == [b": ping\n\n", b": ping\n\n"]
    messages, comments = parse_sse(b"".join(chunks))
    assert kinds(messages) == ["status"] and comments == 2


async def test_a_watcher_that_goes_away_is_unsubscribed() -> None:
    bus = EventBus()
    load, subscribed = loader(record("paused"))

    async def consume() -> None:
        async for _ in sse_stream(bus, EID, load):
            pass

    watcher = asyncio.create_task(consume())
    await asyncio.wait_for(subscribed.wait(), WAIT)
    await asyncio.sleep(0.01)
    assert bus.watcher_count(EID) == 1
    watcher.cancel()  # what the server does when the client disconnects
    with pytest.raises(asyncio.CancelledError):
        await watcher
    assert bus.watcher_count(EID) == 0


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
async def test_heartbeat_must_be_positive(bad: float) -> None:
    load, _ = loader(record("running"))
    with pytest.raises(ValueError, match="heartbeat_s must be a positive number"):
        await sse_stream(EventBus(), EID, load, heartbeat_s=bad).__anext__()


async def test_stream_ends_with_the_overflow_event_when_its_watcher_falls_behind() -> None:
    bus = EventBus(subscriber_queue=2)
    load, _ = loader(record("running"))
    stream = sse_stream(bus, EID, load)
    first = await asyncio.wait_for(stream.__anext__(), WAIT)  # the snapshot; now not reading
    for n in range(5):
        bus.publish(EID, "log", {"line": str(n)})
    rest = await read_all(stream)
    messages, _ = parse_sse(first + rest)
    assert kinds(messages) == ["status", "log", "log", "overflow"]
    assert "id" not in messages[-1]


# --- over HTTP ----------------------------------------------------------------------------


def events_app(bus: EventBus, load: Callable[[str], Awaitable[ExecutionRecord | None]]) -> FastAPI:
    app = FastAPI()

    @app.get("/v1/executions/{execution_id}/events")
    async def events(execution_id: str, request: Request) -> StreamingResponse:
        return StreamingResponse(
            sse_stream(bus, execution_id, load, last_event_id=request.headers.get("last-event-id")),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )

    return app


async def test_events_route_serves_a_live_execution_as_server_sent_events() -> None:
    bus = EventBus()
    load, subscribed = loader(record("running"))

    async def runtime() -> None:
        await asyncio.wait_for(subscribed.wait(), WAIT)
        bus.publish(EID, "tool_call", {"seq": 0, "namespace": "tools", "method": "charge",
                                       "args": {"amount": 5}, "state": "applied", "result": 7})
        bus.publish(EID, "completed", {"status": "completed", "result": 7})

    publisher = asyncio.create_task(runtime())
    transport = httpx.ASGITransport(app=events_app(bus, load))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        async with client.stream("GET", f"/v1/executions/{EID}/events") as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = [line async for line in response.aiter_lines()]
    await publisher
    messages, _ = parse_sse(("\n".join(lines) + "\n").encode())
    assert kinds(messages) == ["status", "tool_call", "completed"]
    assert messages[1]["data"]["result"] == 7


async def test_events_route_resumes_from_the_last_event_id_header() -> None:
    bus = EventBus()
    seen = bus.publish(EID, "log", {"line": "seen"})
    bus.publish(EID, "completed", {"status": "error", "error": {"message": "boom"}})
    assert seen is not None
    load, _ = loader(record("error", error={"message": "boom"}))
    transport = httpx.ASGITransport(app=events_app(bus, load))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get(
            f"/v1/executions/{EID}/events", headers={"Last-Event-ID": str(seen.id)}
        )
    messages, _ = parse_sse(response.content)
    assert kinds(messages) == ["error"], "the outcome is named after the status"
    assert messages[0]["data"] == {"status": "error", "error": {"message": "boom"}}


# --- ids and names ------------------------------------------------------------------------


def _order(event_id: str) -> tuple[int, int]:
    """Where an id sits in a stream: ``P`` at (P, 0), ``M-k`` k events before ``M``."""
    position, _, remaining = event_id.partition("-")
    return int(position), -int(remaining or 0)


async def test_every_event_of_a_history_has_its_own_increasing_id() -> None:
    bus = EventBus(first_id=100)
    bus.publish("exec_other", "log", {"line": "another execution moves the bus"})
    load, _ = loader(record("completed", journal=[entry(0), entry(1)], logs=["a", "b"], result=3))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load)))
    ids = [m["id"] for m in messages]
    assert ids == ["100-5", "100-4", "100-3", "100-2", "100-1", "100"]
    assert len(set(ids)) == len(ids) and ids == sorted(ids, key=_order)


@pytest.mark.parametrize("status", ["paused", "awaiting_tool", "completed", "error", "rejected",
                                    "rolled_back", "cancelled", "dead_letter"])
def test_the_outcome_event_is_named_after_what_happened(status: str) -> None:
    bus = EventBus()
    published = bus.publish(EID, "completed", {"status": status})
    assert published is not None and published.type == status
    assert published.to_sse().startswith(f"id: {published.id}\nevent: {status}\n".encode())
    assert history_events(record(status))[-1].type == status


async def test_a_watcher_that_stopped_inside_the_history_gets_exactly_the_rest_then_live_events() -> None:
    bus = EventBus()
    bus.publish(EID, "approval_requested", {"approval_id": "apr_1", "seq": 1, "namespace": "tools",
                                            "method": "charge", "args": {}, "descriptor": {}})
    bus.publish(EID, "completed", {"status": "paused"})
    paused = record("paused", journal=[entry(0), entry(1, "pending")], logs=["hi"])
    load, _ = loader(paused)
    first = sse_stream(bus, EID, load)
    whole = parse_sse(b"".join([await asyncio.wait_for(first.__anext__(), WAIT) for _ in range(6)]))[0]
    await first.aclose()
    assert kinds(whole) == ["status", "tool_call", "tool_call", "log", "approval_requested", "paused"]

    second = sse_stream(bus, EID, load, last_event_id=whole[2]["id"])
    rest = parse_sse(b"".join([await asyncio.wait_for(second.__anext__(), WAIT) for _ in range(3)]))[0]
    assert rest == whole[3:], "the same events with the same ids, nothing twice"
    bus.publish(EID, "approval_decided", {"approval_id": "apr_1", "decision": "approve", "by": "ops"})
    live = parse_sse(await asyncio.wait_for(second.__anext__(), WAIT))[0]
    await second.aclose()
    assert kinds(live) == ["approval_decided"] and _order(live[0]["id"]) > _order(whole[-1]["id"])


async def test_a_watcher_that_stopped_inside_the_history_of_a_moving_execution_gets_a_new_history() -> None:
    bus = EventBus()
    bus.publish(EID, "completed", {"status": "paused"})
    load, _ = loader(record("paused", journal=[entry(0, "pending")]))
    first = sse_stream(bus, EID, load)
    seen = parse_sse(await asyncio.wait_for(first.__anext__(), WAIT))[0]
    await first.aclose()
    bus.publish(EID, "approval_decided", {"approval_id": "apr_1", "decision": "reject", "by": "ops"})
    bus.publish(EID, "completed", {"status": "rejected"})
    load, _ = loader(record("rejected", journal=[entry(0, "rejected")]))
    messages, _ = parse_sse(await read_all(sse_stream(bus, EID, load, last_event_id=seen[0]["id"])))
    assert kinds(messages) == ["status", "tool_call", "approval_decided", "rejected"]
    assert messages[-1]["id"] == str(bus.last_id)


async def test_a_run_s_log_lines_are_published_in_order_letting_the_loop_go_between_batches() -> None:
    from codemode.driver import LOG_EVENTS_PER_TURN, publish_logs

    lines = [f"line {n}" for n in range(4 * LOG_EVENTS_PER_TURN + 1)]
    published: list[tuple[str, int]] = []
    async with loop_turns() as turns:
        await publish_logs(lambda data: published.append((data["line"], turns())), lines)
    assert [line for line, _ in published] == lines
    # Other work ran between batches, never inside one.
    assert [turns_then for _, turns_then in published[::LOG_EVENTS_PER_TURN]] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("data", [
    {"status": "completed", "result": [{"a": n, "b": str(n)} for n in range(20_000)], "error": None},
    {"status": "completed", "result": "x" * (MAX_EVENT_CHARS + 1), "error": None},
    {"a": "y" * (MAX_EVENT_CHARS // 2), "b": "z" * (MAX_EVENT_CHARS // 2)},
    {"status": "error", "result": [[1]] * 30_000, "error": {"name": "E", "message": "m"}},
])
def test_data_too_long_for_an_event_is_cut_without_the_walk_as_the_walk_cuts_it(data: dict[str, Any]) -> None:
    assert _plain_event_data(data) == _displayed_event_data(data)


def test_a_cut_field_counts_its_whole_length_past_the_walks_node_bound() -> None:
    from codemode.events import _MAX_NODES

    rows = [{"a": n} for n in range(_MAX_NODES)]
    plain = _plain_event_data({"result": rows})
    assert plain is not None
    assert plain[0]["result"]["chars"] == len(json.dumps(rows, separators=(",", ":")))
    assert plain[0]["result"]["preview"] == _displayed_event_data({"result": rows})[0]["result"]["preview"]

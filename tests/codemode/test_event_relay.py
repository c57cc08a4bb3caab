"""``codemode.EventRelay``: an execution's events published in one process reach the event
bus (and so the SSE watchers) of every other process on the same database, in order, whole
however large, never echoed back to their own process, and not lost when a listener is cut
off. Two relays on two database handles stand for two processes (each test on both
backends; SQLite relays within one process only). Every test has a hard deadline."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import asyncpg
import pytest

import storage
from codemode import EventBus, EventRelay

DEADLINE_S = 30


class Process:
    """What one service process holds: a database handle, its bus, its relay."""

    def __init__(self, db: storage.Database, bus: EventBus, relay: EventRelay) -> None:
        self.db, self.bus, self.relay = db, bus, relay


async def _process(database: str) -> Process:
    db = await storage.open_database(database)
    bus = EventBus()
    return Process(db, bus, await EventRelay.open(db, bus))


@pytest.fixture
async def a_and_b(database: str) -> AsyncIterator[tuple[Process, Process]]:
    a = await _process(database)
    b = await _process(database)
    try:
        yield a, b
    finally:
        for p in (a, b):
            await p.relay.close()
            await p.db.close()


async def _next(subscription: object) -> tuple[str, dict[str, object]]:
    from codemode.events import Subscription

    assert isinstance(subscription, Subscription)
    event = await subscription.next_event()
    assert event is not None
    return event.type, event.data


async def test_an_event_published_on_one_process_reaches_watchers_on_the_other(
    a_and_b: tuple[Process, Process],
) -> None:
    a, b = a_and_b
    async with asyncio.timeout(DEADLINE_S):
        watcher = b.bus.subscribe("ex_1")
        a.relay.publish("ex_1", "status", {"status": "running"})
        a.relay.publish("ex_1", "log", {"line": "x" * 50_000})  # far past a NOTIFY payload
        a.relay.publish("ex_1", "completed", {"status": "paused"})
        assert await _next(watcher) == ("status", {"status": "running"})
        assert await _next(watcher) == ("log", {"line": "x" * 50_000})
        assert await _next(watcher) == ("paused", {"status": "paused"})
        watcher.close()
        # The publishing process saw each once: its own rows are not relayed back to it.
        assert [e.type for e in a.bus.buffered("ex_1")] == ["status", "log", "paused"]
        assert b.relay.relayed == 3 and a.relay.relayed == 0


async def test_events_published_from_worker_threads_arrive_in_order(
    a_and_b: tuple[Process, Process],
) -> None:
    a, b = a_and_b
    async with asyncio.timeout(DEADLINE_S):
        watcher = b.bus.subscribe("ex_2")

        def publish_many() -> None:
            for i in range(300):  # more than one batch
                a.relay.publish("ex_2", "log", {"line": str(i)})

        thread = threading.Thread(target=publish_many)
        thread.start()
        await asyncio.to_thread(thread.join)
        lines = [(await _next(watcher))[1]["line"] for _ in range(300)]
        assert lines == [str(i) for i in range(300)]
        watcher.close()


async def test_events_written_while_a_listener_was_cut_off_are_caught_up(postgres_url: str) -> None:
    a = await _process(postgres_url)
    b = await _process(postgres_url)
    admin = await asyncpg.connect(postgres_url)
    try:
        async with asyncio.timeout(DEADLINE_S):
            watcher = b.bus.subscribe("ex_3")
            a.relay.publish("ex_3", "log", {"line": "before"})
            assert await _next(watcher) == ("log", {"line": "before"})
            # Both processes' listeners are cut off; what A writes meanwhile is not lost.
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'sandbox-listen' AND datname = current_database()")
            for i in range(5):
                a.relay.publish("ex_3", "log", {"line": f"meanwhile {i}"})
            assert [await _next(watcher) for _ in range(5)] == [
                ("log", {"line": f"meanwhile {i}"}) for i in range(5)]
            a.relay.publish("ex_3", "log", {"line": "after"})
            assert await _next(watcher) == ("log", {"line": "after"})
            watcher.close()
    finally:
        await admin.close()
        for p in (a, b):
            await p.relay.close()
            await p.db.close()


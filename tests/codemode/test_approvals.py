"""Waiting inline for a decision: woken at once from this process, by polling from another."""

from __future__ import annotations

import asyncio
import time

from codemode.approvals import DecisionWaiters


async def test_a_notified_waiter_reads_the_decision_at_once() -> None:
    waiters = DecisionWaiters()
    status = "pending"

    async def status_of() -> str | None:
        return status

    waiting = asyncio.create_task(waiters.wait("a1", 30, status_of))
    await asyncio.sleep(0.01)
    status = "approved"
    started = time.monotonic()
    assert waiters.notify("a1")
    assert await waiting == "approved"
    assert time.monotonic() - started < 0.2
    assert not waiters.notify("a1")  # nobody waits for it any more


async def test_a_decision_made_elsewhere_is_seen_by_polling() -> None:
    calls = 0

    async def status_of() -> str | None:
        nonlocal calls
        calls += 1
        return "rejected" if calls >= 2 else "pending"

    assert await DecisionWaiters().wait("a2", 5, status_of) == "rejected"


async def test_no_decision_in_time_is_pending_and_a_vanished_approval_is_cancelled() -> None:
    async def pending() -> str | None:
        return "pending"

    async def gone() -> str | None:
        return None

    started = time.monotonic()
    assert await DecisionWaiters().wait("a3", 0.1, pending) == "pending"
    assert time.monotonic() - started < 1
    assert await DecisionWaiters().wait("a4", 5, gone) == "cancelled"

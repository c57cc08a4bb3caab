"""Time a host call spends in ``uncharged_wait()`` (a human deciding) is not charged to the run.

The real path: worker processes, isolates and the epoch deadline, with a tool standing in
for an inline approval that waits on a decision.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any, Callable, cast

import pytest
import wasmtime

from sandbox import AsyncSandbox, Limits
from sandbox import workers as workers_module
from sandbox.engine import CompiledGuest
from sandbox.hostcalls import UnchargedClock, current_uncharged_clock, uncharged_wait
from sandbox.isolate import _DeadlineTimer
from sandbox.workers import GRACE_S


async def _decision_after(seconds: float) -> str:
    """An inline approval: waits, uncharged, on a decision someone else makes later."""
    loop = asyncio.get_running_loop()
    decision: asyncio.Future[str] = loop.create_future()
    loop.call_later(seconds, decision.set_result, "approved")
    async with uncharged_wait():
        return await asyncio.wait_for(decision, timeout=30)


async def _charged_wait(seconds: float) -> str:
    await asyncio.sleep(seconds)
    return "approved"


async def _rejection_after(seconds: float) -> None:
    async with uncharged_wait():
        await asyncio.sleep(seconds)
    raise PermissionError("rejected by a reviewer")


async def _hang() -> None:
    await asyncio.sleep(60)


TOOLS: dict[str, Callable[..., Any]] = {"decision_after": _decision_after, "charged_wait": _charged_wait,
         "rejection_after": _rejection_after, "hang": _hang}


async def _timed(box: AsyncSandbox, code: str, deadline_s: float) -> tuple[Any, float]:
    started = time.monotonic()
    outcome = await box.execute(code, limits=Limits(deadline_s=deadline_s))
    return outcome, time.monotonic() - started


async def test_a_wait_on_a_decision_longer_than_the_deadline_is_not_charged(
        compiled_guest: CompiledGuest) -> None:
    # 1.7 s outlasts both the isolate's deadline (1 s) and the supervisor's kill (1.5 s).
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, _ = await _timed(box, "verdict = tools.decision_after(1.7)\nverdict + '!'", 1.0)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == "approved!"
        assert box.pool.restarts == 0


async def test_uncharged_waits_of_several_host_calls_add_up(compiled_guest: CompiledGuest) -> None:
    # Each wait alone fits in the kill time (0.4 + 0.5 grace), the two together do not.
    code = "first = tools.decision_after(0.5)\nsecond = tools.decision_after(0.5)\n[first, second]"
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, code, 0.4)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == ["approved", "approved"]
        assert elapsed >= 1.0


async def test_a_finished_run_reports_how_long_it_waited_uncharged(compiled_guest: CompiledGuest) -> None:
    request = json.dumps({"code": "tools.decision_after(0.3)", "max_output_bytes": 10_000,
                          "namespaces": {"tools": [{"name": "decision_after", "doc": "",
                                                    "keyword_only": False}]}})
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        output = await box.pool.run("execute", request, Limits(deadline_s=5.0), box.tools)
        assert json.loads(output.response)["result"] == "approved"
        assert 0.3 <= output.uncharged_s < 1.0


async def test_the_same_wait_outside_uncharged_wait_hits_the_deadline(
        compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, _ = await _timed(box, "tools.charged_wait(1.7)", 1.0)
        assert outcome.status == "error"
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"


async def test_a_rejection_after_an_uncharged_wait_reaches_the_guest_in_time(
        compiled_guest: CompiledGuest) -> None:
    code = ("try:\n    tools.rejection_after(1.0)\nexcept PermissionError as error:\n"
            "    answer = 'handled: ' + str(error)\nanswer")
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, _ = await _timed(box, code, 0.5)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == "handled: rejected by a reviewer"


@pytest.mark.parametrize(("deadline_s", "waited_s"), [
    (1.0, 0.4),  # the wait ends before the deadline: the pending deadline moves
    (0.5, 1.0),  # the deadline passed during the wait: its fire is undone and re-armed
])
async def test_a_busy_loop_after_an_uncharged_wait_stops_at_the_deadline_plus_the_wait(
        compiled_guest: CompiledGuest, deadline_s: float, waited_s: float) -> None:
    code = f"tools.decision_after({waited_s})\nwhile True:\n    pass"
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, code, deadline_s)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        # Stopped by the isolate's own (extended) epoch deadline, not the supervisor's kill.
        assert "replaced" not in outcome.trap["message"]
        assert "waiting, uncharged" in outcome.trap["message"]
        assert box.pool.restarts == 0
        assert deadline_s + waited_s - 0.05 <= elapsed < deadline_s + waited_s + GRACE_S


async def test_a_guest_blocked_after_the_extension_is_still_killed_at_deadline_plus_wait_plus_grace(
        compiled_guest: CompiledGuest) -> None:
    deadline_s, waited_s = 0.5, 0.8
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, f"tools.decision_after({waited_s})\ntools.hang()", deadline_s)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        assert "replaced" in outcome.trap["message"]
        assert box.pool.restarts == 1
        kill_at = deadline_s + waited_s + GRACE_S
        assert kill_at - 0.05 <= elapsed < kill_at + 1.0


async def test_uncharged_credit_is_capped_per_run(compiled_guest: CompiledGuest,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers_module, "MAX_UNCHARGED_S", 0.3)
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, "tools.decision_after(3.0)", 0.5)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        # Killed once the cap and the charged budget are both used up, not after the 3 s wait.
        assert elapsed < 0.5 + 0.3 + GRACE_S + 0.5


async def test_uncharged_wait_outside_a_run_is_a_no_op() -> None:
    assert current_uncharged_clock.get() is None
    started = time.monotonic()
    async with uncharged_wait():
        await asyncio.sleep(0.01)
    with uncharged_wait():
        pass
    assert current_uncharged_clock.get() is None
    assert time.monotonic() - started < 0.5


def test_uncharged_wait_cannot_be_entered_twice_at_once() -> None:
    wait = uncharged_wait()
    with wait:
        with pytest.raises(RuntimeError, match="already entered"):
            wait.__enter__()


class _FakeTime:
    def __init__(self) -> None:
        self.value = 100.0

    def __call__(self) -> float:
        return self.value


def test_clock_counts_overlapping_waits_once() -> None:
    now = _FakeTime()
    clock = UnchargedClock(3600.0, now=now)
    clock.begin_call()
    clock.enter()
    now.value += 1.0
    clock.enter()
    now.value += 2.0
    clock.exit()
    now.value += 1.0
    clock.exit()
    clock.end_call()
    assert clock.take() == pytest.approx(4.0)
    assert clock.take() == 0.0


def test_clock_counts_only_while_a_host_call_is_being_answered() -> None:
    now = _FakeTime()
    clock = UnchargedClock(3600.0, now=now)
    clock.begin_call()
    clock.enter()
    now.value += 1.0
    clock.end_call()  # a background task kept its wait open past the call
    now.value += 50.0
    clock.exit()
    assert clock.credited() == pytest.approx(1.0)


def test_clock_credit_never_exceeds_its_cap_and_tells_the_supervisor_when_it_runs() -> None:
    now = _FakeTime()
    changes: list[bool] = []
    clock = UnchargedClock(2.0, now=now, on_change=lambda: changes.append(clock.running))
    clock.begin_call()
    clock.enter()
    now.value += 5.0
    assert clock.credited() == 2.0
    clock.exit()
    clock.end_call()
    assert clock.take() == 2.0
    assert changes == [True, False]


def test_a_closed_clock_ignores_later_waits() -> None:
    now = _FakeTime()
    clock = UnchargedClock(3600.0, now=now)
    clock.begin_call()
    clock.close()
    clock.enter()
    now.value += 3.0
    clock.exit()
    assert clock.credited() == 0.0


def test_a_run_started_from_a_handler_credits_its_waits_to_the_outer_run_too() -> None:
    now = _FakeTime()
    outer = UnchargedClock(3600.0, now=now)
    outer.begin_call()
    inner = UnchargedClock(3600.0, now=now, parent=outer)
    inner.begin_call()
    inner.enter()
    now.value += 2.0
    inner.exit()
    assert inner.credited() == pytest.approx(2.0)
    assert outer.credited() == pytest.approx(2.0)


def test_closing_an_inner_run_with_a_wait_still_open_stops_crediting_the_outer_run() -> None:
    now = _FakeTime()
    outer = UnchargedClock(3600.0, now=now)
    outer.begin_call()
    inner = UnchargedClock(3600.0, now=now, parent=outer)
    inner.begin_call()
    inner.enter()
    now.value += 1.0
    inner.close()
    now.value += 10.0
    inner.exit()
    assert not outer.running
    assert outer.credited() == pytest.approx(1.0)


class _CountingEngine:
    def __init__(self) -> None:
        self.epochs = 0
        self.bumped = threading.Event()

    def increment_epoch(self) -> None:
        self.epochs += 1
        self.bumped.set()


def test_deadline_timer_extension_after_a_fire_undoes_it_and_fires_again_later() -> None:
    engine = _CountingEngine()
    timer = _DeadlineTimer(cast(wasmtime.Engine, engine))
    timer.arm(0.05)
    assert engine.bumped.wait(2.0)
    engine.bumped.clear()
    undone: list[int] = []
    assert timer.extend(0.2, lambda: undone.append(engine.epochs)) is True
    assert undone == [1]
    assert engine.bumped.wait(2.0)
    assert engine.epochs == 2
    timer.disarm()


def test_deadline_timer_extension_too_small_to_reach_the_present_leaves_the_fire_standing() -> None:
    engine = _CountingEngine()
    timer = _DeadlineTimer(cast(wasmtime.Engine, engine))
    timer.arm(0.01)
    assert engine.bumped.wait(2.0)
    time.sleep(0.2)
    undone: list[int] = []
    assert timer.extend(0.05, lambda: undone.append(1)) is False
    assert undone == []
    time.sleep(0.1)
    assert engine.epochs == 1
    timer.disarm()


def test_deadline_timer_extension_before_the_fire_moves_it_later() -> None:
    engine = _CountingEngine()
    timer = _DeadlineTimer(cast(wasmtime.Engine, engine))
    timer.arm(0.1)
    assert timer.extend(0.3, lambda: pytest.fail("nothing fired, nothing to undo")) is True
    assert not engine.bumped.wait(0.25)
    assert engine.bumped.wait(2.0)
    assert engine.epochs == 1
    timer.disarm()

"""Time a host call spends in ``uncharged_wait()`` (a human deciding) is not charged to the run.

The real path: worker processes, isolates and the epoch deadline, with a tool standing in
for an inline approval that waits on a decision.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from types import SimpleNamespace
from typing import Any, Callable, cast

import pytest
import wasmtime

from sandbox import AsyncSandbox, Limits
from sandbox import isolate as isolate_module
from sandbox import workers as workers_module
from sandbox.engine import CompiledGuest
from sandbox.hostcalls import UnchargedClock, current_uncharged_clock, uncharged_wait
from sandbox.isolate import _DeadlineTimer
from sandbox.workers import GRACE_S


DEADLINE_S = 2.0
"""The charged budget of the runs below. It has to hold the guest's own start-up and work,
which take tens of milliseconds on an idle machine and far more on a loaded one."""
PAST_THE_KILL_S = DEADLINE_S + GRACE_S + 0.5
"""A wait that outlasts both the isolate's deadline and the supervisor's kill."""


async def _decision_after(seconds: float) -> str:
    """An inline approval: waits, uncharged, on a decision someone else makes ``seconds`` after
    the wait opened (so the wait lasts at least ``seconds``)."""
    loop = asyncio.get_running_loop()
    decision: asyncio.Future[str] = loop.create_future()
    async with uncharged_wait():
        loop.call_later(seconds, decision.set_result, "approved")
        return await asyncio.wait_for(decision, timeout=seconds + 30)


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


def _credited_s(message: str) -> float:
    """The uncharged seconds a deadline message reports ("not counting 1.23 s spent waiting")."""
    found = re.search(r"not counting (\d+\.\d+) s spent waiting, uncharged", message)
    assert found is not None, message
    return float(found.group(1))


async def test_a_wait_on_a_decision_longer_than_the_deadline_is_not_charged(
        compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(
            box, f"verdict = tools.decision_after({PAST_THE_KILL_S})\nverdict + '!'", DEADLINE_S)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == "approved!"
        assert box.pool.restarts == 0
        assert elapsed >= PAST_THE_KILL_S  # it did run past the kill time it would have had


async def test_uncharged_waits_of_several_host_calls_add_up(compiled_guest: CompiledGuest) -> None:
    # Each wait alone fits in the kill time (deadline + grace), the two together do not.
    wait_s = 1.5
    assert wait_s < DEADLINE_S + GRACE_S < 2 * wait_s
    code = (f"first = tools.decision_after({wait_s})\nsecond = tools.decision_after({wait_s})\n"
            "[first, second]")
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, code, DEADLINE_S)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == ["approved", "approved"]
        assert elapsed >= 2 * wait_s


async def test_a_finished_run_reports_how_long_it_waited_uncharged(compiled_guest: CompiledGuest) -> None:
    request = json.dumps({"code": "tools.decision_after(0.3)", "max_output_bytes": 10_000,
                          "namespaces": {"tools": [{"name": "decision_after", "doc": "",
                                                    "keyword_only": False}]}})
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        output = await box.pool.run("execute", request, Limits(deadline_s=5.0), box.tools)
        assert json.loads(output.response)["result"] == "approved"
        # At least the wait; not the whole run's 5 s, however slowly the decision is delivered.
        assert 0.3 <= output.uncharged_s < 5.0


async def test_the_same_wait_outside_uncharged_wait_hits_the_deadline(
        compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, _ = await _timed(box, f"tools.charged_wait({PAST_THE_KILL_S})", DEADLINE_S)
        assert outcome.status == "error"
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"


async def test_a_rejection_after_an_uncharged_wait_reaches_the_guest_in_time(
        compiled_guest: CompiledGuest) -> None:
    code = (f"try:\n    tools.rejection_after({PAST_THE_KILL_S})\nexcept PermissionError as error:\n"
            "    answer = 'handled: ' + str(error)\nanswer")
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, _ = await _timed(box, code, DEADLINE_S)
        assert outcome.status == "completed", outcome.trap
        assert outcome.result == "handled: rejected by a reviewer"


@pytest.mark.parametrize("waited_s", [
    0.5,  # the wait ends before the deadline: the pending deadline moves
    DEADLINE_S + 1.0,  # the deadline passed during the wait: its fire is undone and re-armed
])
async def test_a_busy_loop_after_an_uncharged_wait_stops_at_the_deadline_plus_the_wait(
        compiled_guest: CompiledGuest, monkeypatch: pytest.MonkeyPatch, waited_s: float) -> None:
    # A long grace, so the isolate's own deadline is the one that stops the loop however
    # slowly the machine schedules the epoch thread: the supervisor's kill is far behind.
    grace_s = 5.0
    monkeypatch.setattr(workers_module, "GRACE_S", grace_s)
    code = f"tools.decision_after({waited_s})\nwhile True:\n    pass"
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, code, DEADLINE_S)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        # Stopped by the isolate's own (extended) epoch deadline, not the supervisor's kill.
        assert "replaced" not in outcome.trap["message"]
        assert box.pool.restarts == 0
        credited_s = _credited_s(outcome.trap["message"])
        assert credited_s >= waited_s - 0.005  # the message rounds to 0.01 s
        assert DEADLINE_S + credited_s - 0.05 <= elapsed < DEADLINE_S + credited_s + grace_s


async def test_a_guest_blocked_after_the_extension_is_still_killed_at_deadline_plus_wait_plus_grace(
        compiled_guest: CompiledGuest) -> None:
    waited_s = 1.0
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, f"tools.decision_after({waited_s})\ntools.hang()", DEADLINE_S)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        assert "replaced" in outcome.trap["message"]
        assert box.pool.restarts == 1
        kill_at = DEADLINE_S + waited_s + GRACE_S
        # Not before the extended kill time; long before the 60 s the hang would take.
        assert kill_at - 0.05 <= elapsed < kill_at + 10


async def test_uncharged_credit_is_capped_per_run(compiled_guest: CompiledGuest,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers_module, "MAX_UNCHARGED_S", 0.3)
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome, elapsed = await _timed(box, "tools.decision_after(30.0)", DEADLINE_S)
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        # Killed once the cap and the charged budget are both used up, not after the 30 s
        # wait, and credited exactly the cap.
        assert "replaced" in outcome.trap["message"]
        assert "0.30 s of it waiting, uncharged" in outcome.trap["message"]
        assert elapsed < 10


async def test_uncharged_wait_outside_a_run_is_a_no_op() -> None:
    assert current_uncharged_clock.get() is None
    async with uncharged_wait():
        await asyncio.sleep(0.01)
    with uncharged_wait():
        pass
    assert current_uncharged_clock.get() is None


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


class _Timeline:
    """The engine and the clock of a ``_DeadlineTimer`` under test: time moves only when the
    test moves it, and every epoch bump and clock reading is recorded.

    The timer's thread waits in real seconds for what is left on this clock, so it reads the
    clock again within that (small) time after a move.
    """

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.value = 100.0
        self.epochs = 0
        self.reads = 0
        self._moved_at = (0, 0)

    def now(self) -> float:
        with self.changed:
            self.reads += 1
            self.changed.notify_all()
            return self.value

    def increment_epoch(self) -> None:
        with self.changed:
            self.epochs += 1
            self.changed.notify_all()

    def advance(self, seconds: float) -> None:
        with self.changed:
            self.value += seconds
            self._moved_at = (self.reads, self.epochs)

    def fired(self, times: int) -> bool:
        """Wait (generously: a loaded machine) until the timer has bumped the epoch ``times``."""
        with self.changed:
            return self.changed.wait_for(lambda: self.epochs >= times, timeout=30)

    def settle(self) -> None:
        """Wait until the timer's thread has decided what to do at the current time: it has
        read the clock since the last move and then either fired or, having decided not to,
        read it again."""
        reads, epochs = self._moved_at
        with self.changed:
            assert self.changed.wait_for(lambda: self.reads >= reads + 2 or self.epochs > epochs,
                                         timeout=30)


def _timer(timeline: _Timeline, monkeypatch: pytest.MonkeyPatch) -> _DeadlineTimer:
    # The timer reads the clock as ``time.monotonic()`` of its module: give it the timeline's.
    monkeypatch.setattr(isolate_module, "time", SimpleNamespace(monotonic=timeline.now))
    return _DeadlineTimer(cast(wasmtime.Engine, timeline))


def test_deadline_timer_extension_after_a_fire_undoes_it_and_fires_again_later(monkeypatch: pytest.MonkeyPatch) -> None:
    timeline = _Timeline()
    timer = _timer(timeline, monkeypatch)
    timer.arm(0.05)
    timeline.advance(0.06)
    assert timeline.fired(1)
    undone: list[int] = []
    assert timer.extend(0.2, lambda: undone.append(timeline.epochs)) is True
    assert undone == [1]
    timeline.advance(0.18)  # 0.01 s before the extended deadline
    timeline.settle()
    assert timeline.epochs == 1
    timeline.advance(0.02)
    assert timeline.fired(2)
    assert timeline.epochs == 2
    timer.disarm()


def test_deadline_timer_extension_too_small_to_reach_the_present_leaves_the_fire_standing(monkeypatch: pytest.MonkeyPatch) -> None:
    timeline = _Timeline()
    timer = _timer(timeline, monkeypatch)
    timer.arm(0.01)
    timeline.advance(0.02)
    assert timeline.fired(1)
    timeline.advance(0.2)
    undone: list[int] = []
    assert timer.extend(0.05, lambda: undone.append(1)) is False
    assert undone == []
    timeline.advance(1.0)
    time.sleep(0.1)  # a fire wrongly re-armed would come at once: the clock is past any deadline
    assert timeline.epochs == 1
    timer.disarm()


def test_deadline_timer_extension_before_the_fire_moves_it_later(monkeypatch: pytest.MonkeyPatch) -> None:
    timeline = _Timeline()
    timer = _timer(timeline, monkeypatch)
    timer.arm(0.1)
    # The clock has not moved, so nothing can have fired yet, however slow the machine.
    assert timer.extend(0.3, lambda: pytest.fail("nothing fired, nothing to undo")) is True
    timeline.advance(0.39)  # past the original deadline, 0.01 s before the extended one
    timeline.settle()
    assert timeline.epochs == 0
    timeline.advance(0.02)
    assert timeline.fired(1)
    assert timeline.epochs == 1
    timer.disarm()

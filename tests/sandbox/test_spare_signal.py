"""The spare signal: a worker tells the pool, through shared memory, that its next isolate
is made; the pool hands a run to the worker that ran last when it is ready."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from sandbox import AsyncSandbox
from sandbox.engine import CompiledGuest
from sandbox.spans import tracing
from sandbox.spare_signal import ENV_VAR, SpareCounter, SpareSignal
from sandbox.workers import _IdleWorkers


def test_what_the_worker_counts_the_pool_reads() -> None:
    signal = SpareSignal()
    assert signal.fd is not None
    environ = {ENV_VAR: str(os.dup(signal.fd)), "OTHER": "kept"}
    counter = SpareCounter(environ)
    assert environ == {"OTHER": "kept"}  # its name leaves the worker's environment
    assert signal.finished() == 0
    counter.finished()
    counter.finished()
    assert signal.finished() == 2
    signal.close()


def test_a_worker_started_without_a_counter_counts_for_itself_only() -> None:
    counter = SpareCounter({})
    counter.finished()  # no shared memory: nothing to write, nothing raised
    bad = SpareCounter({ENV_VAR: "not a number"})
    bad.finished()


def test_without_memfd_the_pool_reads_no_worker_as_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "memfd_create", refused)
    signal = SpareSignal()
    assert signal.fd is None and signal.finished() == 0  # nothing to pass: the oldest goes first
    signal.close()


@dataclass
class _Stub:
    name: str
    ready: bool


def _idle(*workers: _Stub) -> _IdleWorkers:
    idle = _IdleWorkers()
    for worker in workers:
        idle.put(worker)  # type: ignore[arg-type]
    return idle


async def test_the_last_returned_ready_worker_goes_first() -> None:
    idle = _idle(_Stub("oldest", True), _Stub("middle", True), _Stub("last", True))
    assert (await idle.get()).name == "last"  # type: ignore[attr-defined]


async def test_a_last_worker_still_making_its_spare_is_passed_over_for_a_ready_one() -> None:
    idle = _idle(_Stub("oldest", True), _Stub("middle", True), _Stub("last", False))
    assert (await idle.get()).name == "middle"  # type: ignore[attr-defined]


async def test_with_none_ready_the_longest_waiting_goes_first() -> None:
    idle = _idle(_Stub("oldest", False), _Stub("middle", False), _Stub("last", False))
    assert (await idle.get()).name == "oldest"  # type: ignore[attr-defined]
    assert idle.qsize() == 2


async def test_callers_waiting_for_a_worker_are_served_in_turn() -> None:
    idle = _IdleWorkers()
    first = asyncio.ensure_future(idle.get())
    second = asyncio.ensure_future(idle.get())
    await asyncio.sleep(0)
    idle.put(_Stub("a", False))  # type: ignore[arg-type]
    idle.put(_Stub("b", False))  # type: ignore[arg-type]
    assert (await first).name == "a" and (await second).name == "b"  # type: ignore[attr-defined]


async def test_a_worker_handed_to_a_cancelled_waiter_is_not_lost() -> None:
    idle = _IdleWorkers()
    waiting = asyncio.ensure_future(idle.get())
    await asyncio.sleep(0)
    idle.put(_Stub("a", True))  # type: ignore[arg-type]
    waiting.cancel()  # cancelled after it was handed the worker, before it resumed
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert idle.qsize() == 1 and (await idle.get()).name == "a"  # type: ignore[attr-defined]


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(60):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_run_goes_to_the_worker_that_ran_last_once_its_spare_is_made(
        compiled_guest: CompiledGuest) -> None:
    pids: list[Any] = []
    stop = tracing.listen(lambda name, attributes, _duration, _error: pids.append(
        attributes.get("sandbox.worker.pid")) if name == "sandbox.guest.run" else None)
    try:
        async with AsyncSandbox(workers=3, guest=compiled_guest) as box:
            workers = list(box.pool._all)
            await _until(lambda: all(worker.ready for worker in workers))
            for _ in range(4):
                assert (await box.execute("1 + 1")).result == 2
                await _until(lambda: all(worker.ready for worker in workers))
    finally:
        stop()
    assert len(pids) == 4 and len(set(pids)) == 1, pids

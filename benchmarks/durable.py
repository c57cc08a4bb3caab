"""Durability benchmark: what the journal, approvals and replay cost, measured in-process.

    .venv/bin/python benchmarks/durable.py [--runs 15] [--loop 200] [--profile]

Uses the library API (``codemode.CodeMode``: real isolates, real SQLite in a temporary data
directory) with Python-callable tools, one of them gated by ``{"mode": "durable"}``:

1. approve-to-completed latency: code makes N recorded ``read`` calls, then one gated
   ``charge``; ``execute`` pauses; we time ``approve(approval_id)`` until it returns
   ``completed`` (a fresh isolate replays the N recorded calls, then runs the charge).
   Targets on this 2-core machine: p50 <= 20 ms for N=10, <= 60 ms for N=100 (issue 6).
2. the journal's cost per call: a loop of ``--loop`` reads through CodeMode (validated,
   journaled) against the same loop through the plain ``AsyncSandbox`` (no journal). Each
   per-call figure subtracts the same loop with the call replaced by a local lambda, so the
   isolate start and the execution's own bookkeeping are not counted as per-call cost.
3. always-replay test mode (``DurableSettings(always_replay=True)``) for 20 calls: every
   fresh call ends the run and the next run replays the journal, so the ratio grows with N
   (N+1 isolate runs answering about N*N/2 calls instead of one run answering N).

``--profile`` adds where the time goes, for one approve per N and for the loop: wall-clock
time and call counts of the store, journal, ledger, validation and isolate functions, and
the number of aiosqlite round trips (each a hop to the database thread and back). These
machines are noisy: compare ratios across runs rather than single figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here cannot hide the package of its name (codemode.py); what the scripts share imports
# as ``benchmarks.measuring``, from the project's root.
_HERE = str(Path(__file__).resolve().parent)
# The project's root goes first: its packages are found by an editable install's finder,
# which Python asks only after every sys.path entry, this directory's included.
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import functools
import inspect
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from codemode import CodeMode
from codemode.driver import DurableSettings
from codemode.callables import tool_from_callable
from sandbox import AsyncSandbox, CompiledGuest, Limits
from sandbox.engine import ensure_compiled

from benchmarks.measuring import pct

APPROVE_TARGETS_MS = {10: 20.0, 100: 60.0}
"""N recorded calls -> p50 target for approve-to-completed (issue 6)."""

REPLAY_CALLS = 20
LIMITS = Limits(max_host_calls=10_000, deadline_s=120)


def read(key: int) -> dict[str, int]:
    """A read: the value stored under ``key``.

    Args:
        key: Which value.
    """
    return {"key": key, "value": key * 2}


charges: list[int] = []
"""What ``charge`` did: the benchmark checks each approval charged exactly once."""


def charge(amount: int) -> dict[str, Any]:
    """Charge ``amount``: a side effect, so it waits for a human's approval.

    Args:
        amount: In cents.
    """
    charges.append(amount)
    return {"charged": amount}


def tools() -> list[Any]:
    return [read, tool_from_callable(charge, approval={"mode": "durable", "risk": "high"})]


def approval_code(calls: int) -> str:
    return (f"total = 0\nfor i in range({calls}):\n    total += tools.read(key=i)['value']\n"
            "tools.charge(amount=total)['charged']")


def loop_code(calls: int, *, through_tool: bool) -> str:
    call = "tools.read(key=i)" if through_tool else "(lambda key: {'key': key, 'value': key * 2})(i)"
    return f"for i in range({calls}):\n    {call}"


def row(name: str, value: str, target: str = "", judged: str = "") -> None:
    print(f"| {name:<50} | {value:>30} | {target:<14} | {judged:<7} |")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


async def timed(action: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = await action()
    return (time.perf_counter() - started) * 1000, value


class Breakdown:
    """Wall-clock time and call counts of chosen functions, around chosen awaits only.

    Measurement only: each function is wrapped while ``run`` is active and restored after,
    so the figures include time spent awaiting (SQLite runs on aiosqlite's thread, the guest
    in a worker process), which a CPU profile of this thread would not show.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.totals: dict[str, list[float]] = {}
        self.runs = 0

    def _targets(self) -> list[tuple[Any, str, str]]:
        # Late imports: only --profile needs the internals.
        import aiosqlite

        from codemode import calls, driver, store
        from sandbox import api
        handler, tx, db = calls.CodeModeHandler, store.StoreTransaction, store.CodeModeStore
        executions = driver
        return [
            (executions.Executions, "approve", "Executions.approve (whole approve)"),
            (db, "get_approval", "  CodeModeStore.get_approval"),
            (db, "get_execution", "  CodeModeStore.get_execution"),
            (executions.Executions, "_plan_for_resume", "  Executions._plan_for_resume"),
            (tx, "decide_approval", "  StoreTransaction.decide_approval"),
            (db, "claim_execution", "  CodeModeStore.claim_execution"),
            (executions.Executions, "start", "Executions.start (whole execute)"),
            (db, "create_execution", "  CodeModeStore.create_execution"),
            (api.AsyncSandbox, "execute", "  AsyncSandbox.execute (isolate run)"),
            (handler, "__call__", "    CodeModeHandler.__call__ (host calls)"),
            (calls, "validate_arguments", "      validate_arguments (jsonschema)"),
            (calls, "make_entry", "      make_entry (canonical args)"),
            (calls, "check_step", "      check_step (replay match)"),
            (handler, "_request_approval", "      CodeModeHandler._request_approval"),
            (handler, "_guarded", "      CodeModeHandler._guarded (journal writes)"),
            (calls, "ledger_claim", "        ledger.claim"),
            (calls, "ledger_settle", "        ledger.settle"),
            (handler, "_invoke", "      CodeModeHandler._invoke (the tool)"),
            (calls, "bind_arguments", "        bind_arguments (JSON -> hinted types)"),
            (tx, "finish_execution", "  StoreTransaction.finish_execution"),
            (tx, "revert_pending", "  StoreTransaction.revert_pending"),
            (db, "prune_executions", "  CodeModeStore.prune_executions"),
            (aiosqlite.Connection, "_execute", "aiosqlite round trips (all SQL, commits)"),
        ]

    def _in_db_thread(self) -> Callable[[], None]:
        """Time each aiosqlite operation where it runs, on the database thread, by kind.

        The round-trip row minus these rows is the cost of the hops themselves (queueing,
        waking the thread and the event loop), as opposed to SQLite's own work.
        """
        import aiosqlite
        original = aiosqlite.Connection.__dict__["_execute"]
        totals = self.totals

        def kind(fn: Any, args: tuple[Any, ...]) -> str:
            """``SELECT``, ``INSERT``, ``BEGIN``..., or the cursor/connection method's name."""
            name = str(getattr(fn, "__name__", "call"))
            words = args[0].split() if args and isinstance(args[0], str) else []
            return words[0].upper() if name == "execute" and words else name

        async def timed_execute(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            counter = totals.setdefault(f"  in the db thread: {kind(fn, args)}", [0.0, 0.0])

            def run() -> Any:
                started = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    counter[0] += 1
                    counter[1] += time.perf_counter() - started
            return await original(conn, run)

        setattr(aiosqlite.Connection, "_execute", timed_execute)
        return lambda: setattr(aiosqlite.Connection, "_execute", original)

    def _wrap(self, owner: Any, name: str, label: str) -> Callable[[], None]:
        original = owner.__dict__[name]
        totals = self.totals.setdefault(label, [0.0, 0.0])
        if inspect.iscoroutinefunction(original):
            @functools.wraps(original)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    totals[0] += 1
                    totals[1] += time.perf_counter() - started
            wrapper: Any = timed_async
        else:
            @functools.wraps(original)
            def timed_sync(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    totals[0] += 1
                    totals[1] += time.perf_counter() - started
            wrapper = timed_sync
        setattr(owner, name, wrapper)
        return lambda: setattr(owner, name, original)

    async def run(self, action: Callable[[], Awaitable[Any]]) -> Any:
        if not self.enabled:
            return await action()
        restores = [self._in_db_thread()]
        restores += [self._wrap(*target) for target in self._targets()]
        try:
            return await action()
        finally:
            self.runs += 1
            for restore in reversed(restores):
                restore()

    def report(self, title: str) -> None:
        if not self.enabled or not self.runs:
            return
        print(f"\n-- where the time goes: {title} (wall clock, mean of {self.runs} runs; "
              "indented rows are part of the row above) --")
        print(f"| {'function':<50} | {'calls/run':>9} | {'ms/run':>8} | {'us each':>8} |")
        for label, (count, seconds) in self.totals.items():
            if count:
                print(f"| {label:<50} | {count / self.runs:>9.1f} | "
                      f"{seconds * 1000 / self.runs:>8.2f} | {seconds * 1e6 / count:>8.1f} |")


async def pause(cm: CodeMode, calls: int) -> str:
    outcome = await cm.execute(approval_code(calls), limits=LIMITS)
    if outcome["status"] != "paused":
        message = (outcome.get("error") or {}).get("message", "")
        raise SystemExit(
            f"execute should have paused for approval but ended {outcome['status']!r}: "
            f"{message!r}. If the message says 'awaiting approval', the handler's HostAbort "
            "kind ('paused') was lost on its way back from the worker (sandbox/errors.py "
            "from_trap maps kinds it does not know to SandboxError, kind 'error').")
    approval_id: str = outcome["pending"][0]["approval_id"]
    return approval_id


async def approve_latency(cm: CodeMode, calls: int, runs: int) -> list[float]:
    """Milliseconds from ``approve`` to its ``completed`` outcome, one paused execution each."""
    expected = sum(2 * i for i in range(calls))
    for _ in range(3):  # warm the workers, the SQLite page cache and the schema validators
        await cm.approve(await pause(cm, calls))
    times = []
    for _ in range(runs):
        approval_id = await pause(cm, calls)
        before = len(charges)
        elapsed, outcome = await timed(lambda: cm.approve(approval_id))
        assert outcome["status"] == "completed" and outcome["result"] == expected, outcome
        assert charges[before:] == [expected], "the approved charge must run exactly once"
        replayed = sum(1 for c in outcome["calls"] if c.get("replayed"))
        assert replayed == calls, f"expected {calls} replayed calls, saw {replayed}"
        times.append(elapsed)
    return times


async def execute_ms(run: Callable[[], Awaitable[Any]], repetitions: int) -> float:
    """Median wall-clock milliseconds of ``run()``, after two warm-up runs."""
    for _ in range(2):
        await run()
    times = []
    for _ in range(repetitions):
        elapsed, _ = await timed(run)
        times.append(elapsed)
    return statistics.median(times)


def completed(outcome: Any) -> None:
    status = outcome["status"] if isinstance(outcome, dict) else outcome.status
    assert status == "completed", outcome


async def plain_run_ms(box: AsyncSandbox, code: str, repetitions: int) -> float:
    """The same code in the plain sandbox: no journal, no replay, no approval."""
    async def run() -> None:
        completed(await box.execute(code, limits=LIMITS))
    return await execute_ms(run, repetitions)


async def journal_cost(cm: CodeMode, box: AsyncSandbox, calls: int,
                       repetitions: int) -> tuple[float, float]:
    """(CodeMode ms per call, plain sandbox ms per call) for a loop of ``calls`` reads."""

    async def codemode(through_tool: bool) -> None:
        completed(await cm.execute(loop_code(calls, through_tool=through_tool), limits=LIMITS))

    journaled = await execute_ms(lambda: codemode(True), repetitions)
    journaled_base = await execute_ms(lambda: codemode(False), repetitions)
    unjournaled = await plain_run_ms(box, loop_code(calls, through_tool=True), repetitions)
    unjournaled_base = await plain_run_ms(box, loop_code(calls, through_tool=False), repetitions)
    return (journaled - journaled_base) / calls, (unjournaled - unjournaled_base) / calls


async def always_replay_ratio(guest: CompiledGuest, data: Path, calls: int,
                              repetitions: int) -> tuple[float, float]:
    """(normal ms, always-replay ms) for one execute of ``calls`` reads."""
    code = loop_code(calls, through_tool=True)
    figures = []
    for always in (False, True):
        async with CodeMode(data / f"replay-{always}", tools=tools(), workers=2, guest=guest,
                            durable=DurableSettings(always_replay=always)) as cm:
            async def run() -> None:
                outcome = await cm.execute(code, limits=LIMITS)
                completed(outcome)
                assert len(outcome["calls"]) >= calls, outcome["calls"]
            figures.append(await execute_ms(run, repetitions))
    return figures[0], figures[1]


async def where_the_time_goes(cm: CodeMode, loop: int, repetitions: int) -> None:
    """--profile: the breakdown of one approve per N, and of the journaled loop."""
    for calls in APPROVE_TARGETS_MS:
        breakdown = Breakdown(True)
        for _ in range(repetitions):
            approval_id = await pause(cm, calls)
            completed(await breakdown.run(lambda: cm.approve(approval_id)))
        breakdown.report(f"approve after {calls} recorded calls")
    breakdown = Breakdown(True)
    for _ in range(repetitions):
        completed(await breakdown.run(
            lambda: cm.execute(loop_code(loop, through_tool=True), limits=LIMITS)))
    breakdown.report(f"execute of a loop of {loop} journaled calls")


async def main(runs: int, loop: int, profile: bool) -> None:
    guest = ensure_compiled(progress=lambda _m: None)
    print(f"| {'measure':<50} | {'figure':>30} | {'target':<14} | {'verdict':<7} |")
    print(f"|{'-' * 52}|{'-' * 32}|{'-' * 16}|{'-' * 9}|")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        async with CodeMode(data / "main", tools=tools(), workers=2, guest=guest,
                            durable=DurableSettings()) as cm, \
                AsyncSandbox(tools={"read": read, "charge": charge}, workers=2, guest=guest) as box:
            for calls, target in APPROVE_TARGETS_MS.items():
                times = await approve_latency(cm, calls, runs)
                p50 = pct(times, 50)
                row(f"approve -> completed, {calls} recorded calls (n={runs})",
                    f"p50 {p50:.1f} / p90 {pct(times, 90):.1f} ms", f"p50 <= {target:.0f} ms",
                    verdict(p50 <= target))
                floor = await plain_run_ms(box, approval_code(calls), runs)
                row("  same code, plain AsyncSandbox (no journal)", f"{floor:.1f} ms "
                    f"(approve is {p50 / floor:.1f}x)")
            journaled, plain = await journal_cost(cm, box, loop, 7)
            row(f"per call, CodeMode (journaled), loop of {loop}", f"{journaled:.3f} ms")
            row(f"per call, plain AsyncSandbox, loop of {loop}", f"{plain:.3f} ms")
            row("journal's cost per call (difference)", f"{journaled - plain:.3f} ms "
                f"({journaled / plain:.1f}x)" if plain > 0 else f"{journaled - plain:.3f} ms")
            normal, always = await always_replay_ratio(guest, data, REPLAY_CALLS, 9)
            row(f"execute with {REPLAY_CALLS} calls, normal", f"{normal:.1f} ms")
            row(f"execute with {REPLAY_CALLS} calls, always-replay mode",
                f"{always:.1f} ms ({always / normal:.1f}x)")
            if profile:
                await where_the_time_goes(cm, loop, 5)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="approvals timed per N")
    parser.add_argument("--loop", type=int, default=200, help="calls in the journal-cost loop")
    parser.add_argument("--profile", action="store_true",
                        help="add where the time goes (wall clock per function)")
    arguments = parser.parse_args()
    asyncio.run(main(max(1, arguments.runs), max(1, arguments.loop), arguments.profile))

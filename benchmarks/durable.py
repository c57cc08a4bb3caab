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
   fresh call ends the run and the next run replays the journal, so the ratio is expected to
   grow with N (N runs, N*(N+1)/2 calls answered).

``--profile`` adds, for the N=100 approve and for the loop, where the host-side time goes
(cProfile of this process; the isolate itself runs in worker processes and shows up as
waiting). These machines are noisy: compare ratios across runs rather than single figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path and its name would hide
# the codemode package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import asyncio
import cProfile
import io
import pstats
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from codemode import CodeMode
from codemode.executions import DurableSettings
from codemode.tooldefs import tool_from_callable
from sandbox import AsyncSandbox, CompiledGuest, Limits
from sandbox.engine import ensure_compiled

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


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def row(name: str, value: str, target: str = "", verdict: str = "") -> None:
    print(f"| {name:<50} | {value:>30} | {target:<14} | {verdict:<7} |")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


async def timed(action: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = await action()
    return (time.perf_counter() - started) * 1000, value


class Profiler:
    """cProfile around chosen awaits only, summed over repetitions (off unless --profile)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.profile = cProfile.Profile()

    async def run(self, action: Callable[[], Awaitable[Any]]) -> Any:
        if not self.enabled:
            return await action()
        self.profile.enable()
        try:
            return await action()
        finally:
            self.profile.disable()

    def report(self, title: str, repetitions: int, limit: int = 18) -> None:
        if not self.enabled:
            return
        out = io.StringIO()
        stats = pstats.Stats(self.profile, stream=out)
        stats.sort_stats("cumulative").print_stats(r"codemode|sandbox|workspace|aiosqlite|sqlite3|jsonschema", limit)
        print(f"\n-- profile: {title} (cumulative, summed over {repetitions} repetitions) --")
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
        print("\n".join(lines[start:]).rstrip())


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


async def approve_latency(cm: CodeMode, calls: int, runs: int, profiler: Profiler) -> list[float]:
    """Milliseconds from ``approve`` to its ``completed`` outcome, one paused execution each."""
    expected = sum(2 * i for i in range(calls))
    for _ in range(3):  # warm the workers, the SQLite page cache and the schema validators
        await cm.approve(await pause(cm, calls))
    times = []
    for _ in range(runs):
        approval_id = await pause(cm, calls)
        before = len(charges)
        elapsed, outcome = await timed(lambda: profiler.run(lambda: cm.approve(approval_id)))
        assert outcome["status"] == "completed" and outcome["result"] == expected, outcome
        assert charges[before:] == [expected], "the approved charge must run exactly once"
        replayed = sum(1 for c in outcome["calls"] if c.get("replayed"))
        assert replayed == calls, f"expected {calls} replayed calls, saw {replayed}"
        times.append(elapsed)
    return times


async def execute_ms(run: Callable[[], Awaitable[Any]], repetitions: int,
                     profiler: Profiler | None = None) -> float:
    """Median wall-clock milliseconds of ``run()``, after two warm-up runs."""
    for _ in range(2):
        await run()
    times = []
    for _ in range(repetitions):
        elapsed, _ = await timed(run if profiler is None else lambda: profiler.run(run))
        times.append(elapsed)
    return statistics.median(times)


def completed(outcome: Any) -> None:
    status = outcome["status"] if isinstance(outcome, dict) else outcome.status
    assert status == "completed", outcome


async def journal_cost(cm: CodeMode, box: AsyncSandbox, calls: int, repetitions: int,
                       profiler: Profiler) -> tuple[float, float]:
    """(CodeMode ms per call, plain sandbox ms per call) for a loop of ``calls`` reads."""

    async def codemode(through_tool: bool) -> None:
        completed(await cm.execute(loop_code(calls, through_tool=through_tool), limits=LIMITS))

    async def plain(through_tool: bool) -> None:
        completed(await box.execute(loop_code(calls, through_tool=through_tool), limits=LIMITS))

    journaled = await execute_ms(lambda: codemode(True), repetitions, profiler)
    journaled_base = await execute_ms(lambda: codemode(False), repetitions)
    unjournaled = await execute_ms(lambda: plain(True), repetitions)
    unjournaled_base = await execute_ms(lambda: plain(False), repetitions)
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


async def main(runs: int, loop: int, profile: bool) -> None:
    guest = ensure_compiled(progress=lambda _m: None)
    print(f"| {'measure':<50} | {'figure':>30} | {'target':<14} | {'verdict':<7} |")
    print(f"|{'-' * 52}|{'-' * 32}|{'-' * 16}|{'-' * 9}|")
    profiles: list[tuple[Profiler, str, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        async with CodeMode(data / "main", tools=tools(), workers=2, guest=guest,
                            durable=DurableSettings()) as cm:
            for calls, target in APPROVE_TARGETS_MS.items():
                profiler = Profiler(profile and calls == max(APPROVE_TARGETS_MS))
                times = await approve_latency(cm, calls, runs, profiler)
                p50 = pct(times, 50)
                row(f"approve -> completed, {calls} recorded calls (n={runs})",
                    f"p50 {p50:.1f} / p90 {pct(times, 90):.1f} ms", f"p50 <= {target:.0f} ms",
                    verdict(p50 <= target))
                profiles.append((profiler, f"approve with {calls} recorded calls", runs))
            loop_profiler = Profiler(profile)
            async with AsyncSandbox(tools={"read": read}, workers=2, guest=guest) as box:
                journaled, plain = await journal_cost(cm, box, loop, 7, loop_profiler)
            profiles.append((loop_profiler, f"CodeMode loop of {loop} journaled calls", 7))
            row(f"per call, CodeMode (journaled), loop of {loop}", f"{journaled:.3f} ms")
            row(f"per call, plain AsyncSandbox, loop of {loop}", f"{plain:.3f} ms")
            row("journal's cost per call (difference)", f"{journaled - plain:.3f} ms "
                f"({journaled / plain:.1f}x)" if plain > 0 else f"{journaled - plain:.3f} ms")
        normal, always = await always_replay_ratio(guest, data, REPLAY_CALLS, 5)
        row(f"execute with {REPLAY_CALLS} calls, normal", f"{normal:.1f} ms")
        row(f"execute with {REPLAY_CALLS} calls, always-replay mode",
            f"{always:.1f} ms ({always / normal:.1f}x)")
    for profiler, title, repetitions in profiles:
        profiler.report(title, repetitions)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="approvals timed per N (>= 15)")
    parser.add_argument("--loop", type=int, default=200, help="calls in the journal-cost loop")
    parser.add_argument("--profile", action="store_true", help="add host-side cProfile reports")
    arguments = parser.parse_args()
    asyncio.run(main(max(1, arguments.runs), max(1, arguments.loop), arguments.profile))

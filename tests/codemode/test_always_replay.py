"""Always-replay mode: every run stops after each fresh host call and continues from its
journal in a fresh isolate. Outcomes must be identical to a normal run, and no tool runs
twice: the journal, not luck, is what makes the code see the same values."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from codemode import CodeMode, DurableSettings, tool_from_callable
from sandbox.engine import CompiledGuest

CODE = """
import random
items = [tools.fetch(n=n) for n in range(4)]
seed = codemode.step('seed', lambda: random.random())
state.write_file('/notes.txt', str(len(items)))
print('made', len(items))
try:
    tools.explode()
except Exception as e:
    caught = str(e)
{'items': items, 'seed_is_float': isinstance(seed, float), 'caught': caught,
 'notes': state.read_file('/notes.txt')}
"""


def _tools(counts: Counter[str]) -> list[Any]:
    def fetch(n: int) -> dict[str, int]:
        """Fetch item n."""
        counts["fetch"] += 1
        return {"n": n, "square": n * n}

    def explode() -> None:
        """Always fails."""
        counts["explode"] += 1
        raise RuntimeError("kaboom")

    def approve_me(x: int) -> int:
        """Needs a human."""
        counts["approve_me"] += 1
        return x * 10

    return [tool_from_callable(fetch), tool_from_callable(explode),
            tool_from_callable(approve_me, approval={"mode": "durable"})]


async def _outcome(tmp_path: Path, guest: CompiledGuest, replay: bool,
                   code: str = CODE) -> tuple[dict[str, Any], Counter[str], int]:
    counts: Counter[str] = Counter()
    settings = DurableSettings(always_replay=replay)
    async with CodeMode(tmp_path, tools=_tools(counts), workers=1, guest=guest,
                        durable=settings) as cm:
        outcome = await cm.execute(code)
        if outcome["status"] == "paused":
            outcome = await cm.approve(outcome["pending"][0]["approval_id"])
        return outcome, counts, cm.executions.replays


def _comparable(outcome: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in outcome.items() if k not in ("execution_id", "duration_ms")}


async def test_an_execution_reads_the_same_with_replay_after_every_call(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    normal, normal_counts, normal_replays = await _outcome(tmp_path / "a", compiled_guest, False)
    replayed, replay_counts, replays = await _outcome(tmp_path / "b", compiled_guest, True)
    assert normal["status"] == "completed", normal
    assert normal_replays == 0 and replays >= 8  # 4 fetches, step, write, explode, read
    assert _comparable(replayed) == _comparable(normal)
    assert replay_counts == normal_counts == Counter(fetch=4, explode=1)
    assert replayed["logs"] == ["made 4"]


async def test_an_approval_resumes_the_same_way_in_always_replay_mode(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    code = "a = tools.fetch(n=2)\nb = tools.approve_me(x=a['square'])\n[a, b]"
    normal, counts, _ = await _outcome(tmp_path / "a", compiled_guest, False, code)
    replayed, replay_counts, replays = await _outcome(tmp_path / "b", compiled_guest, True, code)
    assert normal["status"] == replayed["status"] == "completed"
    assert replayed["result"] == normal["result"] == [{"n": 2, "square": 4}, 40]
    assert replay_counts == counts == Counter(fetch=1, approve_me=1)
    assert replays >= 2


async def test_a_step_that_raised_raises_the_same_way_when_replayed(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    code = ("try:\n    codemode.step('ratio', lambda: 1 / 0)\n"
            "except ZeroDivisionError as e:\n    first = 'caught ' + type(e).__name__\n"
            "second = tools.fetch(n=1)\n[first, second]")
    normal, _, _ = await _outcome(tmp_path / "a", compiled_guest, False, code)
    replayed, counts, replays = await _outcome(tmp_path / "b", compiled_guest, True, code)
    assert normal["result"] == replayed["result"] == ["caught ZeroDivisionError",
                                                      {"n": 1, "square": 1}]
    assert replays >= 2 and counts == Counter(fetch=1)


async def test_a_step_function_cannot_reach_tools_or_state(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    code = ("try:\n    codemode.step('sneaky', lambda: tools.fetch(n=1))\n"
            "except Exception as e:\n    out = str(e)\nout")
    outcome, counts, _ = await _outcome(tmp_path, compiled_guest, False, code)
    assert "must only compute a value" in outcome["result"]
    assert counts == Counter()


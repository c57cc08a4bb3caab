"""Replay rules on their own: when a resumed call matches its record, and what divergence says."""

from __future__ import annotations

import pytest

from codemode import ReplayDivergence
from codemode.journal import make_entry
from codemode.records import JournalEntry
from codemode.replay import check_step, first_unconsumed, replayable


def _entry(seq: int, method: str, args: object, state: str = "applied") -> JournalEntry:
    return make_entry("exec_1", seq, "shop", method, args, state=state)


def test_the_same_call_with_the_same_arguments_in_any_key_order_matches() -> None:
    check_step("exec_1", _entry(0, "buy", {"a": 1, "b": [1, 2]}), _entry(0, "buy", {"b": [1, 2], "a": 1}))


def test_another_call_is_divergence_naming_the_execution_step_and_both_calls() -> None:
    with pytest.raises(ReplayDivergence) as caught:
        check_step("exec_1", _entry(4, "buy", {}), _entry(4, "sell", {}))
    assert caught.value.kind == "call"
    assert str(caught.value) == ("execution exec_1: replay divergence at step 4: "
                                 "expected shop.buy, got shop.sell")


def test_other_arguments_are_divergence_showing_both_and_pointing_at_step() -> None:
    with pytest.raises(ReplayDivergence) as caught:
        check_step("exec_1", _entry(2, "buy", {"n": 0.25}), _entry(2, "buy", {"n": 0.75}))
    message = str(caught.value)
    assert caught.value.kind == "arguments" and caught.value.arguments
    assert "0.25" in message and "0.75" in message and "codemode.step(name, fn)" in message


def test_long_arguments_are_shortened_in_the_message() -> None:
    with pytest.raises(ReplayDivergence) as caught:
        check_step("exec_1", _entry(0, "buy", {"t": "a" * 5000}), _entry(0, "buy", {"t": "b" * 5000}))
    assert len(str(caught.value)) < 1000


@pytest.mark.parametrize(("state", "ephemeral", "expected"), [
    ("applied", False, True), ("error", False, True), ("applied", True, False),
    ("pending", False, False), ("executing", False, False), ("reverted", False, False),
])
def test_only_settled_outcomes_are_replayed(state: str, ephemeral: bool, expected: bool) -> None:
    entry = _entry(0, "buy", {}, state=state)
    entry.ephemeral = ephemeral
    assert replayable(entry) is expected


def test_recorded_steps_left_over_at_the_end_are_divergence_at_the_first_of_them() -> None:
    entries = [_entry(n, f"m{n}", {}) for n in range(4)]
    assert first_unconsumed("exec_1", entries, 4) is None
    left = first_unconsumed("exec_1", entries, 2)
    assert left is not None and left.kind == "missing" and left.seq == 2
    assert "the recorded run called shop.m2 here" in str(left)

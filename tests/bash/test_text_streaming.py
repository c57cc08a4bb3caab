"""Text commands stream: they produce output before their input ends and stop pulling when done.

Pipelines in the guest chain generators, so a command that buffered all input would hang on
``yes | head`` or ``seq 1 100000000 | head``. These tests feed infinite inputs and count
how much was consumed.
"""

from __future__ import annotations

import io
import itertools
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bash.commands import COMMANDS
from bash.commands.text.basic import _last_lines
from bash.commands.base import CommandContext


class CountingInput:
    """An endless stdin that records how many chunks were pulled."""

    def __init__(self, chunk: bytes) -> None:
        self.chunk = chunk
        self.pulled = 0

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        self.pulled += 1
        return self.chunk


def _ctx(stdin: Iterator[bytes]) -> CommandContext:
    return CommandContext(stdin=stdin, stderr=io.BytesIO(), cwd="/", env={}, root="/nonexistent")


def _first_output(argv: list[str], stdin: CountingInput) -> bytes:
    gen = COMMANDS[argv[0]](_ctx(stdin), argv)
    try:
        return next(gen)
    finally:
        gen.close()


def test_yes_produces_without_input_and_can_be_closed() -> None:
    gen = COMMANDS["yes"](_ctx(iter([])), ["yes", "ok"])
    chunk = next(gen)
    gen.close()
    assert chunk.startswith(b"ok\nok\n")


def test_head_stops_pulling_after_enough_lines() -> None:
    stdin = CountingInput(b"y\n" * 100)
    gen = COMMANDS["head"](_ctx(stdin), ["head", "-n", "3"])
    out = b"".join(gen)
    assert out == b"y\ny\ny\n"
    assert stdin.pulled == 1


def test_seq_huge_range_yields_first_chunk_immediately() -> None:
    gen = COMMANDS["seq"](_ctx(iter([])), ["seq", "1", "100000000"])
    first = next(gen)
    gen.close()
    assert first.startswith(b"1\n2\n3\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["cat"], ["cat", "-n"], ["grep", "y"], ["cut", "-c1"], ["tr", "y", "z"], ["rev"], ["tail", "-n", "+2"],
        ["uniq", "-c"], ["nl"], ["fold", "-w", "3"], ["expand"], ["unexpand", "-a"],
        ["sed", "s/y/z/"], ["sed", "-n", "/yy/p"], ["uniq", "--group"],
    ],
)
def test_filters_emit_output_from_an_endless_input(argv: list[str]) -> None:
    stdin = CountingInput(b"y\nyy\n" * 2000)
    first = _first_output(argv, stdin)
    assert first
    assert stdin.pulled < 50


def test_sed_hands_its_output_on_in_batches_and_each_cycle_with_u() -> None:
    from bash.commands.sed.command import OUTPUT_BATCH

    batched = _first_output(["sed", "s/y/z/"], CountingInput(b"y\n" * 10))
    assert batched == b"z\n" * batched.count(b"\n") and 1 < batched.count(b"\n") <= OUTPUT_BATCH
    assert _first_output(["sed", "-u", "s/y/z/"], CountingInput(b"y\n" * 10)) == b"z\n"


def test_paste_reads_stdin_twice_for_two_dashes_lazily() -> None:
    stdin = CountingInput(b"1\n2\n" * 5000)
    first = _first_output(["paste", "-", "-"], stdin)
    assert first.startswith(b"1\t2\n1\t2\n")
    assert stdin.pulled < 50


def test_grep_quiet_stops_at_first_match() -> None:
    stdin = CountingInput(b"match\n")
    gen = COMMANDS["grep"](_ctx(stdin), ["grep", "-q", "match"])
    assert list(gen) == []
    assert stdin.pulled == 1


def test_tail_keeps_bounded_window() -> None:
    data = itertools.islice(CountingInput(b"a\nb\nc\n"), 10000)
    gen = COMMANDS["tail"](_ctx(data), ["tail", "-n", "2"])
    assert b"".join(gen) == b"b\nc\n"


class DeadlinePassed(Exception):
    pass


@pytest.mark.parametrize("argv", [["sort"], ["tac"], ["wc", "-l"], ["tr", "y", "n"], ["bc"], ["diff", "-", "/dev/null"]])
def test_commands_reading_endless_stdin_honour_the_deadline(argv: list[str]) -> None:
    calls = {"n": 0}

    def check_time() -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise DeadlinePassed()

    ctx = _ctx(CountingInput(b"y\n" * 100))
    ctx.extras["check_time"] = check_time
    gen = COMMANDS[argv[0]](ctx, argv)
    with pytest.raises(DeadlinePassed):
        for _ in itertools.islice(gen, 100000):
            pass


def _lines_kept(data: bytes, sep: bytes) -> list[bytes]:
    lines, start = [], 0
    while (cut := data.find(sep, start)) >= 0:
        lines.append(data[start:cut + 1])
        start = cut + 1
    return lines + ([data[start:]] if start < len(data) else [])


@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=40).map(lambda b: bytes(b"ab\n"[c % 3] for c in b)),
       cuts=st.lists(st.integers(0, 40), max_size=6), count=st.integers(1, 7), sep=st.sampled_from([b"\n", b"a"]))
def test_tail_keeps_the_last_lines_however_the_input_is_cut(data: bytes, cuts: list[int], count: int,
                                                            sep: bytes) -> None:
    bounds = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
    chunks = [data[i:j] for i, j in zip(bounds, bounds[1:])]
    assert _last_lines(iter(chunks), count, sep) == b"".join(_lines_kept(data, sep)[-count:])

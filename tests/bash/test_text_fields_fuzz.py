"""cut, uniq, tr, paste, fold, expand, unexpand, nl, comm, join and column agree with GNU on
random small inputs and option combinations."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_text_support import run_gnu, run_ours

ALPHABET = "ab,: \tAB1\\"


def _data(rng: random.Random) -> bytes:
    lines = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 8))) for _ in range(rng.randint(0, 6))]
    text = "\n".join(lines)
    if lines and rng.random() < 0.8:
        text += "\n"
    return text.encode()


def _list(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 3)):
        low = rng.randint(1, 4)
        roll = rng.random()
        parts.append(str(low) if roll < 0.4 else f"{low}-" if roll < 0.6 else f"-{low}" if roll < 0.7 else f"{low}-{low + rng.randint(0, 3)}")
    return ",".join(parts)


def _sorted_unique(data: bytes, strip: bool = False) -> bytes:
    lines = {(line.strip() if strip else line) for line in data.split(b"\n")}
    return b"".join(sorted(line + b"\n" for line in lines if line))


def _invocation(rng: random.Random) -> tuple[list[str], bytes, dict[str, bytes | str]]:
    which = rng.choice(["cut", "uniq", "tr", "paste", "fold", "expand", "unexpand", "nl", "comm", "join", "column"])
    first, second = _data(rng), _data(rng)
    files: dict[str, bytes | str] = {"a": first, "b": second}
    if which == "cut":
        mode = rng.choice(["-b", "-c", "-f"])
        argv = ["cut", mode, _list(rng)]
        if mode == "-f":
            if rng.random() < 0.7:
                argv += ["-d", rng.choice([",", ":", " ", "a"])]
            if rng.random() < 0.3:
                argv.append("-s")
        if rng.random() < 0.2:
            argv.append("--complement")
        if rng.random() < 0.2:
            argv.append("--output-delimiter=|")
    elif which == "uniq":
        argv = ["uniq", *rng.sample(["-c", "-d", "-u", "-i", "-f1", "-s1", "-w2", "-D"], rng.randint(0, 2))]
    elif which == "tr":
        mode = rng.choice([[], ["-d"], ["-s"], ["-c", "-d"], ["-ds"], ["-c"], ["-t"], ["-cs"]])
        argv = ["tr", *mode, rng.choice(["a-b", "ab", "[:upper:]", "[:lower:]", "[:space:]", "[:alnum:]", ":,", "\\t", "AB1"])]
        if mode != ["-d"] and mode != ["-c", "-d"] and (mode != ["-s"] or rng.random() < 0.5):
            argv.append(rng.choice(["x", "xy", "[:upper:]", "[:lower:]", "_", "a-c", "[x*]", "12"]))
    elif which == "paste":
        argv = ["paste", *rng.sample(["-s", "-d,", "-d:;", "-d\\n"], rng.randint(0, 2)),
                *rng.choice([["a", "b"], ["a"], ["-", "a"], ["a", "-", "b"]])]
    elif which == "fold":
        argv = ["fold", "-w", str(rng.randint(1, 6)), *rng.sample(["-s", "-b"], rng.randint(0, 2))]
    elif which == "expand":
        argv = ["expand", *rng.choice([[], ["-t", "3"], ["-t", "2,5"], ["-i"], ["-t", "1"]])]
    elif which == "unexpand":
        argv = ["unexpand", *rng.choice([[], ["-a"], ["-t", "3"], ["-t", "2,5"], ["--first-only"]])]
    elif which == "nl":
        argv = ["nl", *rng.sample(["-ba", "-bn", "-nln", "-nrz", "-w2", "-s:", "-v0", "-i2", "-bpa"], rng.randint(0, 3))]
    elif which == "comm":
        files = {"a": _sorted_unique(first), "b": _sorted_unique(second)}
        argv = ["comm", *rng.sample(["-1", "-2", "-3"], rng.randint(0, 2)), "a", "b"]
    elif which == "join":
        files = {"a": _sorted_unique(first, strip=True), "b": _sorted_unique(second, strip=True)}
        argv = ["join", *rng.sample(["-a1", "-a2", "-v1", "-i", "-t:"], rng.randint(0, 2)), "a", "b"]
    else:
        argv = ["column", *rng.choice([["-t"], ["-t", "-s:"], [], ["-x"], ["-c", "10"], ["-t", "-s,", "-o", "|"]])]
    if which not in ("comm", "join", "paste"):
        argv.append("a")
    return argv, second, files


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_random_field_commands_match_gnu(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        argv, stdin, files = _invocation(rng)
        if shutil.which(argv[0]) is None:
            continue
        ours, gnu = run_ours(argv, stdin, files), run_gnu(argv, stdin, files)
        assert (ours.stdout, ours.status, bool(ours.stderr)) == (gnu.stdout, gnu.status, bool(gnu.stderr)), (argv, files)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.sampled_from(["a", "b", "", "a ", "A"]), max_size=12), terminated=st.booleans(),
       flags=st.lists(st.sampled_from(["-c", "-d", "-u", "-i", "-z", "-D", "-f1", "--all-repeated=prepend",
                                       "--all-repeated=separate", "--group", "--group=prepend",
                                       "--group=append", "--group=both", "--group=", "--group=b",
                                       "--all-repeated=s", "--all-repeated=x"]), max_size=2, unique=True))
def test_uniq_runs_of_lines_match_gnu(lines: list[str], terminated: bool, flags: list[str]) -> None:
    """Runs of equal lines (whole lines: found by ``groupby`` over each chunk's lines), read in
    chunks of 7 bytes, with and without a final newline; the repeated groups and every group
    with their separators, and the options that refuse each other."""
    eol = "\0" if "-z" in flags else "\n"
    data = (eol.join(lines) + (eol if terminated and lines else "")).encode()
    ours, gnu = run_ours(["uniq", *flags], data), run_gnu(["uniq", *flags], data)
    assert (ours.stdout, ours.status, ours.stderr) == (gnu.stdout, gnu.status, gnu.stderr), (lines, flags)


@pytest.mark.skipif(shutil.which("uniq") is None, reason="GNU uniq is not installed")
def test_uniq_writes_all_of_a_large_output_to_its_output_file() -> None:
    data = b"".join(b"line %d\n" % (i // 2) for i in range(20_000))
    ours, gnu = run_ours(["uniq", "-", "out.txt"], data), run_gnu(["uniq", "-", "out.txt"], data)
    assert ours.stdout == gnu.stdout == b""
    assert ours.files["out.txt"] == gnu.files["out.txt"] and len(gnu.files["out.txt"]) > 16_384

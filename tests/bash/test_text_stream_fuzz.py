"""head, tail, cat, wc, tac, od, xxd, base64, seq, strings and md5sum agree with GNU on random
(binary-ish) inputs and option combinations."""

from __future__ import annotations

import random
import shutil

import pytest

from test_text_support import run_gnu, run_ours


def _data(rng: random.Random) -> bytes:
    lines = ["".join(rng.choice("ab \t\x01\x80\x7f") for _ in range(rng.randint(0, 5))) for _ in range(rng.randint(0, 8))]
    text = "\n".join(lines)
    if lines and rng.random() < 0.7:
        text += "\n"
    return text.encode("latin-1")


def _argv(rng: random.Random) -> list[str]:
    which = rng.choice(["head", "tail", "cat", "wc", "tac", "od", "xxd", "base64", "seq", "strings", "md5sum"])
    if which == "head":
        argv = ["head", rng.choice(["-n", "-c"]), rng.choice(["0", "1", "2", "-1", "-3", "5"]), *rng.sample(["-q", "-v"], rng.randint(0, 1))]
    elif which == "tail":
        argv = ["tail", rng.choice(["-n", "-c"]), rng.choice(["0", "1", "2", "+1", "+3", "7"]), *rng.sample(["-q", "-v"], rng.randint(0, 1))]
    elif which == "cat":
        argv = ["cat", *rng.sample(["-n", "-b", "-s", "-v", "-E", "-T", "-A", "-e", "-t"], rng.randint(0, 3))]
    elif which == "wc":
        argv = ["wc", *rng.sample(["-l", "-w", "-c", "-m", "-L"], rng.randint(0, 3))]
    elif which == "tac":
        argv = ["tac", *rng.choice([[], ["-s", " "], ["-b"], ["-b", "-s", "a"]])]
    elif which == "od":
        argv = ["od", *rng.sample(["-c", "-a", "-x", "-d", "-b", "-An", "-Ax", "-tx1", "-tu2", "-td4", "-w8", "-v", "-j1", "-N5", "-tx1z"], rng.randint(0, 3))]
    elif which == "xxd":
        argv = ["xxd", *rng.sample(["-p", "-u", "-c4", "-g1", "-g3", "-l7", "-b", "-i"], rng.randint(0, 2))]
    elif which == "base64":
        argv = ["base64", *rng.choice([[], ["-w", "5"], ["-w", "0"]])]
    elif which == "seq":
        numbers = [rng.choice(["1", "-2", "3", "0.5", "10", "2.25", "-1.5", "0"]) for _ in range(rng.randint(1, 3))]
        return ["seq", *rng.sample(["-w", "-s,", "-f%.3f", "-f%g"], rng.randint(0, 1)), *numbers]
    elif which == "strings":
        argv = ["strings", *rng.choice([[], ["-n", "2"], ["-n", "1"]])]
    else:
        argv = ["md5sum"]
    operands = rng.choice([["a"], ["a", "b"], ["-"], [], ["b", "-", "a"]])
    if which == "strings" and "-" in operands:
        operands = ["a"]
    return argv + operands


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_random_stream_commands_match_gnu(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        files: dict[str, bytes | str] = {"a": _data(rng), "b": _data(rng)}
        argv = _argv(rng)
        if shutil.which(argv[0]) is None:
            continue
        stdin = files["b"]
        assert isinstance(stdin, bytes)
        ours, gnu = run_ours(argv, stdin, files), run_gnu(argv, stdin, files)
        assert (ours.stdout, ours.status, bool(ours.stderr)) == (gnu.stdout, gnu.status, bool(gnu.stderr)), (argv, files)

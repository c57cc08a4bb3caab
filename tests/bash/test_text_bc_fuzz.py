"""bc agrees with GNU bc on random arithmetic: result scales, truncation, powers, bases."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("bc") is None, reason="GNU bc not installed")


def _number(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return str(rng.randint(0, 99))
    if roll < 0.7:
        return f"{rng.randint(0, 99)}.{rng.randint(0, 999):0{rng.randint(1, 3)}d}"
    if roll < 0.8:
        return "." + str(rng.randint(1, 99))
    return "-" + str(rng.randint(1, 50))


def _expression(rng: random.Random, depth: int = 0) -> str:
    if depth > 2 or rng.random() < 0.3:
        return _number(rng)
    op = rng.choice(["+", "-", "*", "/", "%", "^"])
    left, right = _expression(rng, depth + 1), _expression(rng, depth + 1)
    if op == "^":
        right = str(rng.randint(-3, 4))
    text = f"{left} {op} {right}"
    return f"({text})" if rng.random() < 0.5 else text


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(3))
def test_random_arithmetic_matches_gnu_bc(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        program = f"scale={rng.randint(0, 6)}\n" + "\n".join(_expression(rng) for _ in range(4))
        if rng.random() < 0.3:
            program = f"obase={rng.choice([2, 8, 16, 3, 20])}\n" + program
        data = (program + "\n").encode()
        try:
            gnu = run_gnu(["bc"], data)
        except subprocess.TimeoutExpired:
            continue
        ours = run_ours(["bc"], data)
        assert (ours.stdout, bool(ours.stderr)) == (gnu.stdout, bool(gnu.stderr)), program

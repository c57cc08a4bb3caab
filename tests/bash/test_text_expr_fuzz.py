"""expr agrees with GNU expr on random token sequences: values, exit statuses, syntax errors."""

from __future__ import annotations

import random
import shutil

import pytest

from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("expr") is None, reason="GNU expr not installed")

TOKENS = ["1", "0", "-3", "12", "abc", "", "a.c", "x", "+", "-", "*", "/", "%", "<", "<=", "=", "==", "!=", ">=",
          ">", "|", "&", ":", "(", ")", "length", "substr", "index", "match", "2", "b\\(.\\)", "^a", "a*"]


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(3))
def test_random_expressions_match_gnu_expr(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(80):
        argv = ["expr", *(rng.choice(TOKENS) for _ in range(rng.randint(1, 6)))]
        ours, gnu = run_ours(argv), run_gnu(argv)
        assert (ours.stdout, ours.status, bool(ours.stderr)) == (gnu.stdout, gnu.status, bool(gnu.stderr)), argv


def test_unevaluated_side_of_and_raises_no_error() -> None:
    out = run_ours(["expr", "0", "&", "0", "/", "0"])
    assert (out.stdout, out.status, out.stderr) == (b"0\n", 1, b"")

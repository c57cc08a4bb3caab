"""grep agrees with GNU grep on random inputs and option combinations (context groups across
files, -o with -v, -c/-l/-q precedence, -m, byte offsets...)."""

from __future__ import annotations

import random
import shutil

import pytest

from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("grep") is None, reason="GNU grep not installed")

OPTIONS = ["-v", "-c", "-l", "-L", "-o", "-n", "-b", "-h", "-H", "-i", "-w", "-x", "-q", "-s", "-m1", "-m2",
           "-A1", "-B1", "-C1", "-A2", "-E", "-F"]
PATTERNS = ["a", "b.", "ab", "^a", "c$", "a*", "x", "A", "[ab]+", "a|b", ".", "", "b\\|c", "\\ba"]


def _data(rng: random.Random) -> bytes:
    lines = ["".join(rng.choice("abcAB .x") for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(0, 12))]
    text = "\n".join(lines)
    if lines and rng.random() < 0.8:
        text += "\n"
    return text.encode()


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_random_greps_match_gnu(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        files: dict[str, bytes | str] = {"a": _data(rng), "b": _data(rng)}
        argv = ["grep", *rng.sample(OPTIONS, rng.randint(0, 4)), "-e", rng.choice(PATTERNS)]
        if rng.random() < 0.3:
            argv += ["-e", rng.choice(["c", "B", "x.", "^$"])]
        argv += rng.choice([["a"], ["a", "b"], ["b", "-"], []])
        stdin = files["b"]
        assert isinstance(stdin, bytes)
        ours, gnu = run_ours(argv, stdin, files), run_gnu(argv, stdin, files)
        assert (ours.stdout, ours.status, bool(ours.stderr)) == (gnu.stdout, gnu.status, bool(gnu.stderr)), (argv, files)

"""diff picks the same edit script as GNU diff on random small inputs (normal, -u, -c).

Equal-cost alignments are where implementations differ; this checks ties are broken the
GNU way (identical-ends trimming, discarding unmatched lines, boundary shifting).
"""

from __future__ import annotations

import random
import shutil

import pytest

from bash.commands.text.diffcore import changed_lines
from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("diff") is None, reason="GNU diff not installed")


def _random_pair(rng: random.Random) -> tuple[str, str]:
    alphabet = "abcde"[: rng.randint(2, 5)]
    a = [rng.choice(alphabet) for _ in range(rng.randint(0, 12))]
    b = list(a)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.4 and b:
            del b[rng.randrange(len(b))]
        elif roll < 0.8:
            b.insert(rng.randint(0, len(b)), rng.choice(alphabet + "xy"))
        elif b:
            b[rng.randrange(len(b))] = rng.choice(alphabet + "z")
    text_a = "".join(x + "\n" for x in a)
    text_b = "".join(x + "\n" for x in b)
    if rng.random() < 0.2 and text_b:
        text_b = text_b[:-1]
    return text_a, text_b


def _body(out: bytes, skip: int) -> bytes:
    return b"\n".join(out.split(b"\n")[skip:])


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(6))
def test_random_edits_match_gnu_diff(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(15):
        a, b = _random_pair(rng)
        files: dict[str, bytes | str] = {"a": a, "b": b}
        for argv, skip in ((["diff", "a", "b"], 0), (["diff", "-u", "a", "b"], 2), (["diff", "-c", "a", "b"], 2)):
            ours, gnu = run_ours(argv, b"", files), run_gnu(argv, b"", files)
            assert (_body(ours.stdout, skip), ours.status) == (_body(gnu.stdout, skip), gnu.status), (a, b, argv)


def _vary(rng: random.Random, line: str) -> str:
    roll = rng.random()
    if roll < 0.2:
        return line.upper()
    if roll < 0.4:
        return line.replace(" ", "  ")
    if roll < 0.5:
        return line + " "
    if roll < 0.6:
        return " " + line
    if roll < 0.7:
        return ""
    return line


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(3))
def test_whitespace_case_and_blank_line_options_match_gnu_diff(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        base = ["".join(rng.choice("ab ") for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(0, 10))]
        other = [_vary(rng, line) for line in base]
        for _ in range(rng.randint(0, 3)):
            if other and rng.random() < 0.5:
                del other[rng.randrange(len(other))]
            else:
                other.insert(rng.randint(0, len(other)), rng.choice(["", "x", "a b"]))
        files: dict[str, bytes | str] = {"a": "".join(x + "\n" for x in base), "b": "".join(x + "\n" for x in other)}
        style = rng.choice([[], ["-u"], ["-c"], ["-U1"], ["-q"]])
        argv = ["diff", *rng.sample(["-i", "-b", "-w", "-B", "-E", "--strip-trailing-cr", "-Z"], rng.randint(1, 2)), *style, "a", "b"]
        skip = 2 if style and style != ["-q"] else 0
        ours, gnu = run_ours(argv, b"", files), run_gnu(argv, b"", files)
        assert (_body(ours.stdout, skip), ours.status) == (_body(gnu.stdout, skip), gnu.status), (argv, files)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(2))
def test_side_by_side_layout_matches_gnu_diff(seed: int) -> None:
    rng = random.Random(seed)

    def line() -> str:
        return "".join(rng.choice("ab \tXYZ0123456789") for _ in range(rng.randint(0, rng.choice([5, 40, 90]))))

    for _ in range(30):
        left = [line() for _ in range(rng.randint(0, 8))]
        right = [x if rng.random() < 0.6 else line() for x in left]
        if rng.random() < 0.5:
            right.insert(rng.randint(0, len(right)), line())
        files: dict[str, bytes | str] = {"a": "".join(x + "\n" for x in left), "b": "".join(x + "\n" for x in right)}
        argv = ["diff", "-y", *rng.sample(["--suppress-common-lines", "--left-column", "-t"], rng.randint(0, 2))]
        if rng.random() < 0.4:
            argv += ["-W", str(rng.choice([20, 40, 71, 80, 200]))]
        argv += ["a", "b"]
        ours, gnu = run_ours(argv, b"", files), run_gnu(argv, b"", files)
        assert (ours.stdout, ours.status) == (gnu.stdout, gnu.status), (argv, files)


def test_changed_lines_marks_only_the_inserted_line() -> None:
    flags_a, flags_b = changed_lines(["a", "b", "c"], ["a", "b", "x", "c"])
    assert flags_a == [False, False, False]
    assert flags_b == [False, False, True, False]

"""sort agrees with GNU sort on random inputs, options and key specifications."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bash.commands.text.sort import filevercmp
from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("sort") is None, reason="GNU sort not installed")

TOKENS = ["a", "B", "b", "10", "9", "-1", "2.5", " 3", "x y", "", "1e2", "abc", "A1", "a10", "a2", "0", "-0",
          "1K", "2M", "Jan", "feb", "_z", "z:1", "y:02", "v1.2~rc", "v1.10"]
OPTIONS = ["-n", "-r", "-f", "-b", "-u", "-s", "-d", "-g", "-h", "-V", "-M", "-i"]


def _random_invocation(rng: random.Random) -> tuple[list[str], bytes]:
    lines = [" ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 8))]
    argv = ["sort", *rng.sample(OPTIONS, rng.randint(0, 2))]
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 2)):
            first = rng.randint(1, 3)
            spec = str(first)
            if rng.random() < 0.3:
                spec += f".{rng.randint(1, 3)}"
            if rng.random() < 0.3:
                spec += rng.choice("nrbfgh")
            if rng.random() < 0.6:
                spec += f",{rng.randint(first, 3)}"
                if rng.random() < 0.3:
                    spec += f".{rng.randint(0, 3)}"
                if rng.random() < 0.3:
                    spec += rng.choice("nrb")
            argv += ["-k", spec]
    if rng.random() < 0.3:
        argv += ["-t", rng.choice([" ", ":", "a"])]
    return argv, ("\n".join(lines) + "\n").encode()


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_random_sorts_match_gnu(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        argv, data = _random_invocation(rng)
        ours, gnu = run_ours(argv, data), run_gnu(argv, data)
        assert (ours.stdout, ours.status, bool(ours.stderr)) == (gnu.stdout, gnu.status, bool(gnu.stderr)), (argv, data)


def test_version_order_puts_tilde_before_release_and_suffixes_last() -> None:
    assert filevercmp(b"1.9~rc", b"1.9") < 0
    assert filevercmp(b"a2", b"a10") < 0
    assert filevercmp(b".hidden", b"a") < 0
    assert filevercmp(b"file-1.0.tar.gz", b"file-1.0a.tar.gz") < 0


_NUMBER = st.from_regex(r"\A[ \t]?-?(\d|[1-9]\d\d)?(\.\d{0,2})?[a-z]?\Z", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_NUMBER, min_size=1, max_size=10), flags=st.sampled_from(["-n", "-nr", "-ns", "-nu"]))
def test_numbers_sort_as_gnu_sorts_them_integers_and_fractions_alike(lines: list[str], flags: str) -> None:
    """Integers are compared as ``int`` and fractions as ``Decimal`` (one order across the
    two), with leading zeros, ``-0``, a bare ``.``, and no number at all among them."""
    data = ("\n".join(lines) + "\n").encode()
    ours, gnu = run_ours(["sort", flags], data), run_gnu(["sort", flags], data)
    assert (ours.stdout, ours.status) == (gnu.stdout, gnu.status), lines


_LINE = st.sampled_from(["a", "b", "B", "c", "10", "9", "2", "a 1", "b 0", "b 2", " b", "x"])


@settings(max_examples=150, deadline=None)
@given(first=st.lists(_LINE, max_size=5), second=st.lists(_LINE, max_size=5), stdin=st.lists(_LINE, max_size=3),
       flags=st.lists(st.sampled_from(["-n", "-r", "-u", "-s", "-f", "-k1,1", "-k2n"]), max_size=2, unique=True))
def test_merge_takes_the_least_next_line_of_the_files_as_gnu_does(
        first: list[str], second: list[str], stdin: list[str], flags: list[str]) -> None:
    """``-m`` treats each input as sorted and does not sort it: unsorted files come out
    merged, the earlier input's line first on a tie (GNU's order, which ``-u`` then thins)."""
    files: dict[str, bytes | str] = {"one": "".join(f"{line}\n" for line in first),
                                     "two": "".join(f"{line}\n" for line in second)}
    data = "".join(f"{line}\n" for line in stdin).encode()
    argv = ["sort", "-m", *flags, "one", "-", "two"]
    ours, gnu = run_ours(argv, data, files), run_gnu(argv, data, files)
    assert (ours.stdout, ours.status) == (gnu.stdout, gnu.status), (first, stdin, second, flags)

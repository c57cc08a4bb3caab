"""``find -name``'s wildcards (``bash.commands.files.glob.glob_regex``) answer as the
machine's own glibc ``fnmatch(3)`` does, odd patterns included: brackets holding ``\\``,
``[``, classes, equivalence classes, collating symbols, reversed and half-written ranges,
unterminated brackets, a trailing backslash, and FNM_CASEFOLD (``-iname``).

The reference is the C library itself, called through ``ctypes`` in the C locale. glibc
2.36 changed how an unterminated bracket that matched reads (its bug 28792); older ones
answer differently, so the differential tests need 2.36 or later.
"""

from __future__ import annotations

import ctypes
import locale
import os
import random
from collections.abc import Callable, Iterator

import pytest

from bash.commands.files import glob
from bash.commands.files.glob import glob_regex

FNM_CASEFOLD = 1 << 4
Fnmatch = Callable[[bytes, bytes, int], int]


def _glibc_version() -> tuple[int, ...]:
    try:
        name = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError):
        return ()
    return tuple(int(part) for part in name.removeprefix("glibc ").split(".")[:2]) if name.startswith("glibc ") else ()


needs_glibc = pytest.mark.skipif(_glibc_version() < (2, 36), reason="needs glibc >= 2.36's fnmatch")


@pytest.fixture(scope="module")
def fnmatch() -> Iterator[Fnmatch]:
    libc = ctypes.CDLL(None)
    function = libc.fnmatch
    function.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
    function.restype = ctypes.c_int
    saved = locale.setlocale(locale.LC_ALL)
    locale.setlocale(locale.LC_ALL, "C")
    try:
        yield function
    finally:
        locale.setlocale(locale.LC_ALL, saved)


def _glibc_says(fnmatch: Fnmatch, pattern: str, name: str, fold: bool) -> bool:
    return bool(fnmatch(pattern.encode(), name.encode(), FNM_CASEFOLD if fold else 0) == 0)


PIECES = [*"aZz09_`@[]\\-!^:*?=.A{}/ ", "[:alpha:]", "[:lower:]", "[:upper:]", "[:digit:]",
          "[:punct:]", "[:space:]", "[=", "=]", "[.", ".]", "[:foo:]", "[:", ":]"]
NAME_CHARS = "aZz09_`@[]\\-!^:*?=.A{}/ "


@needs_glibc
@pytest.mark.parametrize("seed", range(8))
def test_random_patterns_answer_as_glibc_does(fnmatch: Fnmatch, seed: int) -> None:
    rng = random.Random(seed)
    wrong: list[tuple[str, bool, str, bool]] = []
    for _ in range(1500):
        pattern = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
        fold = rng.random() < 0.4
        regex = glob_regex(pattern, ignore_case=fold)
        for _ in range(12):
            name = "".join(rng.choice(NAME_CHARS) for _ in range(rng.randint(0, 4)))
            expected = _glibc_says(fnmatch, pattern, name, fold)
            if bool(regex.match(name)) != expected:
                wrong.append((pattern, fold, name, expected))
    assert not wrong, wrong[:10]


# Each: (pattern, name, what glibc answers): one case per rule the translation follows.
RULES = [
    ("\\", "\\", False),                 # a trailing backslash matches nothing
    ("a*\\", "a\\", False),
    ("[\\]]", "]", True),                # an escaped ] in a bracket is an element
    ("[\\]", "[]", True),                # ... so this bracket is unterminated: [ is literal
    ("[[", "[[", True),                  # an unterminated bracket that matched: [ read again
    ("[[\\]", "[[]", True),
    ("[a", "a", False),
    ("[\\a-c]", "b", True),              # an escaped character can start a range
    ("[Z-\\]]", "]", True),              # ... and end one
    ("[z-a]", "m", False),               # a reversed range matches nothing
    ("[!z-a]", "m", True),
    ("[[:alpha:]-z]", "-", True),        # after a class, - is an ordinary element
    ("[[:foo:]a]", "a", False),          # an unknown class fails the match...
    ("[a[:foo:]]", "a", True),           # ... except for what an element before it matched
    ("[[:alpha]", "[", True),            # not a class name's shape: [ is an element
    ("[[:z:]]", "z]", True),             # glibc's class names hold no "z": [ : z : elements
    ("[[=a=]]", "a", True),              # an equivalence class (one character in C)
    ("[[.-.]]", "-", True),              # a collating symbol
    ("[[.ab.]]", "a", False),            # a name the C locale does not define
    ("[[.a.]-]", "a", False),            # a symbol followed by - is a range's start
    ("[]a]", "]", True),                 # a leading ] is an element
    ("[!]a]", "b", True),
    ("[^a]", "b", True),                 # ^ negates like !
    ("[[?=-[:upper:]", "[[", True),      # the matched [ skips [:upper:] as a class, finds no
                                         # ], and is read again; the others close at "r]"
]


@needs_glibc
@pytest.mark.parametrize("pattern, name, expected", RULES, ids=[f"{p!r}~{n!r}" for p, n, _ in RULES])
def test_each_rule_matches_glibc(fnmatch: Fnmatch, pattern: str, name: str, expected: bool) -> None:
    assert _glibc_says(fnmatch, pattern, name, False) is expected  # the table is glibc's
    assert bool(glob_regex(pattern).match(name)) is expected


# With FNM_CASEFOLD glibc folds the name and the pattern's characters and range bounds, but
# tests a class against the name's own character.
FOLDED = [
    ("[[:upper:]]", "a", False),
    ("[[:upper:]]", "A", True),
    ("[#-_]", "A", False),               # A folds to a, outside # .. _
    ("[A-C]", "b", True),
    ("ABC", "abc", True),
]


@needs_glibc
@pytest.mark.parametrize("pattern, name, expected", FOLDED, ids=[f"{p!r}~{n!r}" for p, n, _ in FOLDED])
def test_case_folding_matches_glibc(fnmatch: Fnmatch, pattern: str, name: str, expected: bool) -> None:
    assert _glibc_says(fnmatch, pattern, name, True) is expected
    assert bool(glob_regex(pattern, ignore_case=True).match(name)) is expected


@needs_glibc
def test_brackets_that_branch_answer_as_glibc_while_the_regex_stays_small(fnmatch: Fnmatch) -> None:
    # A matched "z" goes on after the last "]", any other listed character after the first
    # one: each bracket makes the regex branch, so it doubles with every repetition.
    for count in (1, 2, 5):
        pattern = "[z=-[:alpha:][:foo:]:]" * count
        for name in ("z" * count, "=" * count, "a" * count):
            assert bool(glob_regex(pattern).match(name)) is _glibc_says(fnmatch, pattern, name, False)


def test_a_pattern_built_to_branch_without_end_is_read_one_way_per_bracket() -> None:
    # 400 such brackets would make 2**400 branches: past a bound, each bracket keeps its
    # largest way, and the regex stays linear in the pattern.
    pattern = "[z=-[:alpha:][:foo:]:]" * 400
    assert len(glob_regex(pattern).pattern) < 60 * len(pattern)


def _count_elements_read(monkeypatch: pytest.MonkeyPatch, limit: int) -> Callable[[], int]:
    """Count the elements read (one scan past each); past ``limit`` the test fails at once,
    so a quadratic reading fails here rather than by running for minutes."""
    read = 0
    skip_rest = glob._skip_rest

    def counted(pattern: str, p: int, known: dict[int, int | None]) -> int | None:
        nonlocal read
        read += 1
        if read > limit:
            raise AssertionError(f"more than {limit} elements read")
        return skip_rest(pattern, p, known)

    monkeypatch.setattr(glob, "_skip_rest", counted)
    return lambda: read


def test_many_unclosed_brackets_cost_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each unclosed "[" is read again as an ordinary character from just after it; with no
    # "]" left, reading stops at the first element that decides "[" (else: quadratic):
    # 20,000 brackets read 2 elements each (one for "[", one for "[:").
    count = 20_000
    read = _count_elements_read(monkeypatch, 3 * count)
    regex = glob_regex("[" + "[:" * count)
    assert regex.match("[" + "[:" * count)
    assert regex.pattern.count("\\[") == count + 1
    assert read() <= 2 * count + 2


@pytest.mark.parametrize("unit", ["[[:alpha:]", "[a[:digit:]", "[![[:alpha:]", "[[:alpha:]\\]"])
def test_brackets_whose_closing_signs_close_nothing_cost_linear_work(
        monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    # Here "]" is left to the end (each ":]"), but no scan closes on one: every "[" read
    # again as an ordinary character used to read the whole rest of the pattern again
    # (4 million elements for 2,000 units). A place from which a reading already found
    # nothing to send a character on ends the next one: 11 to 14 elements a unit.
    count = 4_000
    read = _count_elements_read(monkeypatch, 20 * count)
    regex = glob_regex(unit * count)
    assert read() <= 15 * count
    assert regex.match("[" * count) is None


@needs_glibc
@pytest.mark.parametrize("unit", ["[[:alpha:]", "[a[:digit:]", "[![[:alpha:]", "[[:alpha:]\\]"])
def test_brackets_whose_closing_signs_close_nothing_match_as_glibc(fnmatch: Fnmatch, unit: str) -> None:
    rng = random.Random(unit)
    pattern = unit * 40
    names = ["[" * 40, "[a" * 40, "a" * 40, "[1" * 40, "[" * 39 + "a", "" ,
             *("".join(rng.choice("[a1]!\\:") for _ in range(rng.randint(1, 80))) for _ in range(300))]
    for fold in (False, True):
        regex = glob_regex(pattern, fold)
        for name in names:
            assert bool(regex.match(name)) is _glibc_says(fnmatch, pattern, name, fold), (name, fold)

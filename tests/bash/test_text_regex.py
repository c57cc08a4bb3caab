"""POSIX BRE/ERE translation: grep with each pattern selects and extracts what GNU grep does."""

from __future__ import annotations

import shutil

import pytest

from bash.commands.text.regex import RegexError, translate
from test_text_support import assert_same

TEXT = (
    b"abc\naXc\na.c\nab\nabab\na+b\na|b\n(x)\n{1}\na{2}\naa\n^start\nend$\nback\\slash\n"
    b"tab\there\nfoo_bar-baz\n123-456\n   \n]x\n-x\nA.B\n"
)

BRE = [
    r"a.c", r"a\.c", r"^a", r"c$", r"ab*", r"\(ab\)*", r"\(ab\)\{2\}", r"a\{2\}", r"a{2}", r"a+b", r"a\+b",
    r"a|b", r"a\|b", r"\(x\)", r"(x)", r"^\^", r"\$$", r"^$", r"[]x]", r"[^a-z]", r"[-x]", r"[a\]", r"\\",
    r"^*", r"\(^a\)", r"a\?b", r"[[:alpha:]]\+", r"[[:space:]]", r"\w\+-", r"\<a", r"b\>", r"[.]", r"[*]",
    r"a\{1,\}b", r"\(a\)\(b\)\2", r"^[^[:space:]]*$", r"a\{,2\}c",
]
ERE = [
    r"a.c", r"ab+", r"(ab)+", r"(ab){2}", r"a{2}", r"a|b", r"^(a|b)", r"a\|b", r"a{,2}", r"a{1", r"x+$",
    r"[0-9]+-[0-9]+", r"^[[:blank:]]+$", r"(a)(b)\2", r"a?c", r"a||b", r"\.", r"\w+_\w+", r"[^]x]",
    r"(^a|c$)", r"a**", r"a+?", r"*x", r"+a",
]

pytestmark = pytest.mark.skipif(shutil.which("grep") is None, reason="GNU grep not installed")


@pytest.mark.parametrize("pattern", BRE)
@pytest.mark.parametrize("flags", [[], ["-o"], ["-w"]], ids=["select", "only", "word"])
def test_basic_regex_matches_gnu(pattern: str, flags: list[str]) -> None:
    assert_same(["grep", "-G", *flags, "-e", pattern], TEXT)


@pytest.mark.parametrize("pattern", ERE)
@pytest.mark.parametrize("flags", [[], ["-o"], ["-i", "-c"]], ids=["select", "only", "icase-count"])
def test_extended_regex_matches_gnu(pattern: str, flags: list[str]) -> None:
    assert_same(["grep", "-E", *flags, "-e", pattern], TEXT)


def test_stacked_quantifiers_wrap_instead_of_turning_lazy() -> None:
    assert translate("a+?", extended=True) == "(?:a+)?"


def test_unbalanced_groups_are_errors() -> None:
    with pytest.raises(RegexError):
        translate(r"\(a", extended=False)
    with pytest.raises(RegexError):
        translate("(a", extended=True)


def test_ere_repetition_at_start_is_ignored_with_a_warning() -> None:
    warnings: list[str] = []
    assert translate("*x", extended=True, warnings=warnings) == "x"
    assert warnings == ["* at start of expression"]

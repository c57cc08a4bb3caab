"""The GNU getopt_long emulation shared by the text commands."""

from __future__ import annotations

import pytest

from bash.commands.text.common import NONE, OPTIONAL, REQUIRED, OptSpec, UsageError, parse_options, split_lines

SPEC = OptSpec("abn:c::", {"number": ("n", REQUIRED), "all": ("a", NONE), "color": ("color", OPTIONAL), "colour": ("color", OPTIONAL), "count": ("count", NONE)})


def test_short_options_cluster_and_take_attached_or_separate_arguments() -> None:
    assert parse_options(["x", "-abn5", "f"], SPEC) == ([("a", None), ("b", None), ("n", "5")], ["f"])
    assert parse_options(["x", "-n", "7"], SPEC) == ([("n", "7")], [])


def test_options_after_operands_are_permuted_until_double_dash() -> None:
    assert parse_options(["x", "f", "-a", "--", "-b"], SPEC) == ([("a", None)], ["f", "-b"])


def test_single_dash_is_an_operand() -> None:
    assert parse_options(["x", "-", "-a"], SPEC) == ([("a", None)], ["-"])


def test_long_options_accept_unambiguous_prefixes_and_equals() -> None:
    assert parse_options(["x", "--num=3", "--al"], SPEC) == ([("n", "3"), ("a", None)], [])
    assert parse_options(["x", "--number", "4"], SPEC) == ([("n", "4")], [])


def test_prefix_matching_two_spellings_of_one_option_is_not_ambiguous() -> None:
    assert parse_options(["x", "--colo"], SPEC) == ([("color", None)], [])


def test_ambiguous_prefix_is_rejected_with_possibilities() -> None:
    with pytest.raises(UsageError, match="ambiguous"):
        parse_options(["x", "--co"], SPEC)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["x", "-z"], "invalid option -- 'z'"),
        (["x", "-n"], "option requires an argument -- 'n'"),
        (["x", "--bogus"], "unrecognized option '--bogus'"),
        (["x", "--all=1"], "option '--all' doesn't allow an argument"),
        (["x", "--number"], "option '--number' requires an argument"),
    ],
)
def test_errors_use_glibc_wording(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_options(argv, SPEC)
    assert caught.value.message == message


def test_numeric_shorthand_is_reported_as_hash_option() -> None:
    assert parse_options(["head", "-15", "f"], OptSpec("n:"), numeric_short=True) == ([("#", "15")], ["f"])


def test_optional_short_argument_only_when_attached() -> None:
    assert parse_options(["x", "-c3", "-c", "y"], SPEC) == ([("c", "3"), ("c", None)], ["y"])


def test_split_lines_keeps_terminators_across_chunk_boundaries() -> None:
    assert list(split_lines([b"a\nb", b"c\n", b"", b"d"])) == [b"a\n", b"bc\n", b"d"]
    assert list(split_lines([b"x\0y\0"], b"\0")) == [b"x\0", b"y\0"]

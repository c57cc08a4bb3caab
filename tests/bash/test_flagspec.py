"""The one GNU getopt_long emulation every command parses its flags with (``bash.flagspec``)."""

from __future__ import annotations

import pytest

from bash.flagspec import FlagSpec, UsageError, parse_flags

SPEC = FlagSpec("abn:c::", {"number": "n=", "all": "a", "color": "color?", "colour": "color?", "count": "count"})


def test_short_options_cluster_and_take_attached_or_separate_arguments() -> None:
    assert parse_flags(SPEC, ["-abn5", "f"]) == ([("a", None), ("b", None), ("n", "5")], ["f"])
    assert parse_flags(SPEC, ["-n", "7"]) == ([("n", "7")], [])


def test_options_after_operands_are_permuted_until_double_dash() -> None:
    assert parse_flags(SPEC, ["f", "-a", "--", "-b"]) == ([("a", None)], ["f", "-b"])


def test_single_dash_is_an_operand() -> None:
    assert parse_flags(SPEC, ["-", "-a"]) == ([("a", None)], ["-"])


def test_long_options_accept_unambiguous_prefixes_and_equals() -> None:
    assert parse_flags(SPEC, ["--num=3", "--al"]) == ([("n", "3"), ("a", None)], [])
    assert parse_flags(SPEC, ["--number", "4"]) == ([("n", "4")], [])


def test_prefix_matching_two_spellings_of_one_option_is_not_ambiguous() -> None:
    assert parse_flags(SPEC, ["--colo"]) == ([("color", None)], [])


def test_ambiguous_prefix_is_rejected_with_possibilities() -> None:
    with pytest.raises(UsageError, match="ambiguous"):
        parse_flags(SPEC, ["--co"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-z"], "invalid option -- 'z'"),
        (["-n"], "option requires an argument -- 'n'"),
        (["--bogus"], "unrecognized option '--bogus'"),
        (["--bogus=1"], "unrecognized option '--bogus=1'"),
        (["--all=1"], "option '--all' doesn't allow an argument"),
        (["--number"], "option '--number' requires an argument"),
    ],
)
def test_errors_use_glibc_wording(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_flags(SPEC, argv)
    assert caught.value.message == message


def test_numeric_shorthand_is_reported_as_hash_option() -> None:
    assert parse_flags(FlagSpec("n:"), ["-15", "f"], numeric_short=True) == ([("#", "15")], ["f"])


def test_optional_short_argument_only_when_attached() -> None:
    assert parse_flags(SPEC, ["-c3", "-c", "y"]) == ([("c", "3"), ("c", None)], ["y"])



def test_options_permute_and_stop_at_double_dash() -> None:
    spec = FlagSpec("ab:", {"all": "a", "block": "b="})
    opts, operands = parse_flags(spec, ["x", "-a", "-bval", "y", "--block=2", "--", "-a"])
    assert opts == [("a", None), ("b", "val"), ("b", "2")]
    assert operands == ["x", "y", "-a"]


def test_without_permute_the_first_operand_ends_the_options() -> None:
    assert parse_flags(FlagSpec("a", permute=False), ["-a", "x", "-a"]) == ([("a", None)], ["x", "-a"])


def test_ambiguous_abbreviation_lists_the_candidates() -> None:
    spec = FlagSpec("", {"all": "a", "almost-all": "A"})
    with pytest.raises(UsageError) as info:
        parse_flags(spec, ["--al"])
    assert info.value.message == "option '--al' is ambiguous; possibilities: '--all' '--almost-all'"


def test_an_empty_long_name_is_a_prefix_of_every_option_so_ambiguous() -> None:
    with pytest.raises(UsageError) as info:
        parse_flags(SPEC, ["--=x"])
    assert info.value.message.startswith("option '--' is ambiguous; possibilities: '--number'")

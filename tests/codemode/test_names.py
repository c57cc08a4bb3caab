"""Name sanitising (acceptance case 88) and collision detection (case 84)."""

from __future__ import annotations

import keyword

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode.errors import NameCollisionError, ToolDefinitionError
from codemode.names import ensure_unique, is_identifier, sanitise_name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("get-weather", "get_weather"),
        ("3drender", "_3drender"),
        ("class", "class_"),
        ("hello@world!", "helloworld"),
        ("", "_"),
        ("@@@", "_"),
        ("a.b c\td", "a_b_c_d"),
        ("getWeather", "getWeather"),
        ("None", "None_"),
        ("import", "import_"),
        ("café", "caf"),
        ("__init__", "__init___"),
        ("__", "__"),
        ("_private", "_private"),
        ("9", "_9"),
    ],
)
def test_sanitise_name_follows_reference_rules(name: str, expected: str) -> None:
    assert sanitise_name(name) == expected


@pytest.mark.parametrize("soft", ["match", "case", "type", "_"])
def test_soft_keywords_stay_as_they_are_because_they_are_valid_names(soft: str) -> None:
    assert sanitise_name(soft) == soft


@pytest.mark.parametrize("builtin", ["list", "input", "print", "open"])
def test_builtin_names_are_kept_since_tools_are_reached_as_attributes(builtin: str) -> None:
    assert sanitise_name(builtin) == builtin


@pytest.mark.parametrize("word", keyword.kwlist)
def test_every_hard_keyword_gets_trailing_underscore(word: str) -> None:
    assert sanitise_name(word) == word + "_"


@given(st.text())
def test_sanitised_name_is_always_an_ascii_identifier_usable_in_code(name: str) -> None:
    result = sanitise_name(name)
    assert result.isascii()
    assert is_identifier(result)
    compile(f"x.{result}", "<test>", "eval")


@given(st.text())
def test_sanitising_is_idempotent(name: str) -> None:
    once = sanitise_name(name)
    assert sanitise_name(once) == once


def test_two_tools_mapping_to_one_name_is_an_error_naming_both() -> None:
    with pytest.raises(NameCollisionError) as caught:
        ensure_unique(["foo-bar", "other", "foo_bar"])
    message = str(caught.value)
    assert '"foo-bar"' in message and '"foo_bar"' in message
    assert 'both map to "foo_bar"' in message
    assert (caught.value.first, caught.value.second) == ("foo-bar", "foo_bar")
    assert isinstance(caught.value, ToolDefinitionError)


def test_same_name_twice_is_a_collision() -> None:
    with pytest.raises(NameCollisionError):
        ensure_unique(["search", "search"])


def test_unique_names_map_sanitised_to_original() -> None:
    assert ensure_unique(["get-weather", "class"]) == {
        "get_weather": "get-weather",
        "class_": "class",
    }


def test_is_identifier_refuses_keywords_and_odd_names() -> None:
    assert is_identifier("city")
    assert not is_identifier("class")
    assert not is_identifier("odd-name")
    assert not is_identifier("")

"""The guest's result conversion (``wasm/guest/tojson.py``): a list or dict that is its own
JSON is copied whole, and that shortcut gives what the rules give item by item."""

from __future__ import annotations

import enum
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tojson


class Level(enum.IntEnum):
    LOW = 1


class Name(str, enum.Enum):
    A = "a"


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([Level.LOW, Name.A, b"\x00", (1, 2)]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers(), st.sampled_from([Level.LOW])),
                    inner, max_size=6)), max_leaves=40)


def _item_by_item(value: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patched:
        patched.setattr(tojson, "_plain_copy", lambda _value: None)
        return tojson.to_json(value)


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN included, and of the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_the_shortcut_gives_what_the_rules_give_item_by_item(value: Any) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _same(tojson.to_json(value), _item_by_item(value, monkeypatch))


def test_a_plain_list_or_dict_is_copied_not_shared() -> None:
    items, record = [1, "a", None, 2.5, True], {"a": 1, "b": "x"}
    assert tojson.to_json(items) == items and tojson.to_json(items) is not items
    assert tojson.to_json(record) == record and tojson.to_json(record) is not record


def test_what_is_not_its_own_json_still_takes_the_rules() -> None:
    assert tojson.to_json([1.0, math.nan, math.inf]) == [1.0, "NaN", "Infinity"]
    assert tojson.to_json([Level.LOW, Name.A]) == [1, "a"]
    assert tojson.to_json({1: "x", None: "y"}) == {"1": "x", "null": "y"}


def test_the_depth_limit_holds_for_plain_containers_too() -> None:
    value: Any = [1]
    for _ in range(tojson.MAX_DEPTH):
        value = [value]
    result = tojson.to_json(value)
    for _ in range(tojson.MAX_DEPTH):
        result = result[0]
    assert result == "[MaxDepth]"

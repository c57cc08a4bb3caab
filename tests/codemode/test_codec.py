"""The value codec: strict for what is recorded and replayed, lenient for what is only shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import NotSerialisableError, codec
from codemode.errors import DurableSizeError
from codemode.codec import (_MAX_DEPTH, _dumps, _plain_text, decode_value, display_value,
                            durable_text_json, durable_value_json, encode_value, sqlite_safe_json)
from json_values import JSON_VALUES, strict_text


class Opaque:
    pass


def test_strict_and_lenient_agree_on_everything_that_has_a_durable_form() -> None:
    value = {"b": b"\x00\xff", "f": float("inf"), "l": [1, "two", None], "$bytes": 1}
    assert display_value(value) == encode_value(value)
    assert decode_value(encode_value(value)) == value


@pytest.mark.parametrize("value", [{1, 2}, Opaque(), {"k": Opaque()}, {(1, 2): "tuple key"}])
def test_the_durable_codec_refuses_what_it_could_not_replay(value: object) -> None:
    with pytest.raises(NotSerialisableError):
        encode_value(value)


def test_the_lenient_form_never_raises_and_marks_what_it_could_not_show() -> None:
    deep: list[object] = []
    cursor = deep
    for _ in range(300):
        cursor.append([])
        cursor = cursor[0]  # type: ignore[assignment]
    shown = display_value({"set": {3}, "obj": Opaque(), (1, 2): "k", "text": "lone \udc80",
                           "deep": deep})
    assert shown["set"] == [3] and shown["obj"] == "<Opaque>" and shown["<tuple>"] == "k"
    assert shown["text"] == "lone \ufffd"
    assert "[Too deep]" in str(shown["deep"])
    assert display_value(list(range(50)), max_nodes=10)[-1] == "[Truncated]"


def test_plain_and_tagged_forms_write_keys_and_cycles_the_same_way() -> None:
    from codemode.codec import to_json_safe

    loop: list[object] = [1]
    loop.append(loop)
    value = {7: "a", False: "b", None: "c", 2.5: "d", "loop": loop}
    assert to_json_safe(value) == encode_value(value)
    assert to_json_safe([float("nan")]) == [None]
    assert encode_value([float("nan")]) == [{"$float": "nan"}]


def test_a_lone_surrogate_is_kept_through_sqlite_safe_text() -> None:
    import json

    from codemode.codec import durable_value_json, sqlite_safe_json, sqlite_text, text_from_sqlite

    text = durable_value_json("The result", {"s": "\ud800", "b": b"\x00"})
    text.encode("utf-8")  # SQLite can hold it
    assert decode_value(json.loads(text)) == {"s": "\ud800", "b": b"\x00"}
    assert sqlite_safe_json('{"a":"é"}') == '{"a":"é"}'  # only escaped when it must be
    assert text_from_sqlite(sqlite_text("x\udcffy")) == "x\udcffy"


def test_no_other_module_defines_its_own_json_codec() -> None:
    """Journal, records, ledger and store all encode through codemode.codec."""
    import ast
    from pathlib import Path

    import codemode

    for path in sorted(Path(codemode.__file__).parent.glob("*.py")):
        if path.name == "codec.py":
            continue
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and node.value in ("$bytes", "surrogatepass"):
                if path.name == "normalise.py" and node.value == "surrogatepass":
                    continue  # counting UTF-8 bytes of logs, not encoding values
                raise AssertionError(f"{path.name} encodes values itself ({node.value!r})")
            if isinstance(node, ast.keyword) and node.arg == "ensure_ascii" and \
                    isinstance(node.value, ast.Constant) and node.value.value is True:
                raise AssertionError(f"{path.name} escapes JSON itself")


# --- plain values: the text without the walk ----------------------------------------------

_KEYS = st.sampled_from(["a", "b", "$bytes", "$float", "$dict", "é", "\ud800"]) | st.integers(-11, 11)
_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats() | st.binary(max_size=3)
           | st.text(max_size=4) | st.sampled_from(["\udc80", "$bytes", "[", "{"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3)
                       | st.lists(inner, max_size=3).map(tuple)
                       | st.dictionaries(_KEYS, inner, max_size=3), max_leaves=12)


def _walked(value: Any, *, ordered: bool = False) -> str:
    return sqlite_safe_json(_dumps(encode_value(value), sort_keys=not ordered), ordered=ordered)


@settings(max_examples=800, deadline=None)
@given(value=_VALUES)
def test_a_durable_text_made_without_the_walk_is_the_walks_text(value: Any) -> None:
    try:
        expected: str | type[Exception] = _walked(value)
    except NotSerialisableError:
        expected = NotSerialisableError
    if _plain_text(value) is not None:
        assert durable_value_json("v", value) == expected
    try:
        assert durable_value_json("v", value) == expected
    except NotSerialisableError:
        assert expected is NotSerialisableError


@settings(max_examples=400, deadline=None)
@given(value=_VALUES)
def test_an_ordered_text_reads_back_with_the_keys_in_their_order(value: Any) -> None:
    try:
        text = durable_value_json("v", value, ordered=True)
    except NotSerialisableError:
        with pytest.raises(NotSerialisableError):
            durable_value_json("v", value)
        return
    sorted_text = durable_value_json("v", value)
    # The tagged forms compared (a NaN is a tag there, equal to itself).
    assert json.loads(text) == json.loads(sorted_text)
    assert _key_orders(json.loads(text)) == _key_orders(json.loads(_walked(value, ordered=True)))


def _key_orders(value: Any) -> list[list[str]]:
    """Every dict's keys in order, depth first."""
    if isinstance(value, dict):
        return [list(value)] + [order for v in value.values() for order in _key_orders(v)]
    if isinstance(value, list):
        return [order for v in value for order in _key_orders(v)]
    return []


@pytest.mark.parametrize("value", [
    {"z": 1, "a": {"y": b"\x00", "b": [{"k": 1, "c": 2}]}},  # tagged bytes: the walk
    {"z": "lone \udc80", "a": 1},                           # a lone surrogate: escaped
    {"z": 1, "a": [3, 2]},                                 # plain: no walk
], ids=["walked", "surrogate", "plain"])
def test_results_keep_their_key_order_and_arguments_are_sorted(value: Any) -> None:
    ordered = json.loads(durable_value_json("v", value, ordered=True))
    assert list(ordered) == ["z", "a"]
    assert list(json.loads(durable_value_json("v", value))) == ["a", "z"]


@pytest.mark.parametrize("value", [
    {"n": 1, "tags": ["a", "b"], "nested": {"z": None, "a": 2.5}}, [1, True, "x"], "text", 7])
def test_plain_json_is_written_without_the_walk(value: Any) -> None:
    assert _plain_text(value) == _walked(value)


@pytest.mark.parametrize("value", [
    {10: "a", 9: "b"},  # the walk sorts keys as text: "10" before "9"
    {"a": (1, 2)}, {"$bytes": "AA=="}, {"x": b"\x00"}, {"x": float("nan")}, {"x": {1, 2}}])
def test_what_the_walk_would_change_is_left_to_it(value: Any) -> None:
    assert _plain_text(value) is None


@given(JSON_VALUES)
@settings(max_examples=200, deadline=None)
def test_a_value_read_from_json_text_is_written_the_same_without_its_read_back(value: Any) -> None:
    decoded = json.loads(json.dumps(value))
    for ordered in (False, True):
        assert durable_value_json("v", decoded, decoded=True, ordered=ordered) == \
            durable_value_json("v", decoded, ordered=ordered)


@pytest.mark.parametrize("text", ['{"$bytes": "AA=="}', '{"x": NaN}', '[{"b": 1, "a": [2]}]'])
def test_a_value_read_from_json_that_the_walk_would_change_is_still_left_to_it(text: str) -> None:
    value = json.loads(text)
    assert _plain_text(value, decoded=True) == _plain_text(value)
    assert durable_value_json("v", value, decoded=True) == durable_value_json("v", value)


def test_a_strict_text_over_the_limit_is_refused_without_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_walk(value: Any) -> Any:
        raise AssertionError("walked")

    monkeypatch.setattr(codec, "encode_value", no_walk)
    rows = [{"a": n, "b": str(n)} for n in range(50)]
    limit = len(_dumps(rows, sort_keys=True)) - 1
    with pytest.raises(DurableSizeError) as refused:
        durable_value_json("The result", rows, limit=limit)
    assert refused.value.what == "The result" and refused.value.chars == limit + 1


def test_nesting_past_the_walks_bound_is_left_to_it() -> None:
    value: Any = 1
    for _ in range(_MAX_DEPTH + 1):
        value = [value]
    assert _plain_text(value) is None
    with pytest.raises(NotSerialisableError):
        durable_value_json("v", value)
    with pytest.raises(NotSerialisableError):
        durable_text_json("v", strict_text(value))


def test_many_small_containers_are_written_without_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    value = [[[n, [n]]] for n in range(20_000)]
    expected = _walked(value)
    monkeypatch.setattr(codec, "encode_value", lambda value: pytest.fail("walked"))
    assert durable_value_json("v", value) == expected
    assert durable_text_json("v", strict_text(value)) == expected


def _durable(make: Any, value: Any) -> str | type[Exception]:
    try:
        return str(make("v", value))
    except (DurableSizeError, NotSerialisableError) as exc:
        return type(exc)


@settings(max_examples=300, deadline=None)
@given(item=JSON_VALUES, copies=st.sampled_from([1, 3, 2_000]))
def test_a_value_given_as_its_json_text_is_recorded_as_the_value_is(item: Any, copies: int) -> None:
    value = [item] * copies
    assert _durable(durable_text_json, strict_text(value)) == _durable(durable_value_json, value)


def test_a_text_over_the_limit_is_refused_by_its_length() -> None:
    text = strict_text([{"$bytes": "x"}] * 20)
    with pytest.raises(DurableSizeError) as refused:
        durable_text_json("The result", text, limit=len(text) - 1)
    assert refused.value.chars == len(text)

"""The quick argument check says exactly what jsonschema says, for the schemas it takes on,
and takes on nothing else."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import validators

from codemode import ToolDef
from codemode.argcheck import compile_quick
from codemode.errors import ToolArgumentsError
from codemode.tooldefs import validate_arguments

TYPES = ["string", "integer", "number", "boolean", "null", "array", "object"]
NAMES = st.sampled_from(["a", "b", "n", "tags", "mode"])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from([1.0, 2.5, -0.0, 1e300])
    | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(["x", "a", "b", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=4),
    max_leaves=12)


def _schemas(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    typed = st.one_of(st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), min_size=1,
                                                       max_size=3, unique=True))
    return st.fixed_dictionaries({}, optional={
        "type": typed,
        "properties": st.dictionaries(NAMES, inner, max_size=3),
        "required": st.lists(NAMES, max_size=3, unique=True),
        "additionalProperties": st.booleans(),
        "items": inner,
        "enum": st.lists(st.sampled_from(["x", "a", "b", ""]), min_size=1, max_size=3),
        "description": st.just("annotations change nothing"),
    })


schemas = st.recursive(st.just({}) | st.just(True) | _schemas(st.just({})), _schemas,
                       max_leaves=6)


@settings(max_examples=600, deadline=None)
@given(schema=schemas, value=json_values)
def test_a_simple_schema_is_answered_as_jsonschema_answers_it(schema: Any, value: Any) -> None:
    quick = compile_quick(schema)
    assert quick is not None, schema
    assert quick(value) == validators.Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("value, valid", [
    (1, True), (1.0, True), (-0.0, True), (1e300, True), (1.5, False), (True, False),
    (math.nan, False), (math.inf, False), ("1", False), (None, False)])
def test_integers_are_what_draft_2020_12_calls_integers(value: Any, valid: bool) -> None:
    quick = compile_quick({"type": "object", "properties": {"n": {"type": "integer"}}})
    assert quick is not None
    assert quick({"n": value}) is valid


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^a"}}},
    {"type": "object", "properties": {"s": {"type": "string", "format": "email"}}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    {"type": "object", "properties": {"x": {"$ref": "#/$defs/x"}}, "$defs": {"x": {}}},
    {"type": "object", "properties": {"n": {"enum": [1, 2]}}},
    {"type": "object", "properties": {"n": False}},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": "object", "properties": {"n": {"type": "decimal"}}},
    {"type": []},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
])
def test_anything_else_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert compile_quick(schema) is None


def test_too_deep_a_schema_is_left_to_jsonschema() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(12):
        schema = {"type": "array", "items": schema}
    assert compile_quick(schema) is None


def test_a_call_the_quick_check_cannot_pass_still_gets_every_error_from_jsonschema() -> None:
    tool = ToolDef(name="echo", url="http://127.0.0.1:1", input_schema={
        "type": "object", "properties": {"n": {"type": "integer"}, "tags": {
            "type": "array", "items": {"type": "string"}}}, "required": ["n"]})
    assert tool._quick is not None
    validate_arguments(tool, {"n": 1, "tags": ["a"]})
    with pytest.raises(ToolArgumentsError) as raised:
        validate_arguments(tool, {"tags": ["a", 2]})
    assert [e["path"] for e in raised.value.problems] == ["", "tags[1]"]

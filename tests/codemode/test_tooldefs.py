"""Tool definitions: validation on creation, argument validation, toolsets, callables."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Annotated, Any, Literal, NotRequired, Optional, TypedDict

import pytest

from codemode.errors import NameCollisionError, ToolArgumentsError, ToolDefinitionError
from codemode.callables import tool_from_callable
from codemode.docstrings import parse_docstring
from codemode.tooldefs import (
    DEFAULT_TIMEOUT_MS,
    ToolDef,
    Toolset,
    KeptByText,
    inline_tool,
    requires_approval,
    stored_toolset,
    validate_arguments,
)

WEATHER = {
    "name": "get-weather",
    "description": "Current weather for a city.",
    "input_schema": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1},
            "units": {"enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
        },
        "required": ["city"],
        "additionalProperties": False,
    },
    "url": "https://agent.example/tools/weather",
}


def _problems(exc: pytest.ExceptionInfo[ToolDefinitionError]) -> str:
    return " | ".join(exc.value.problems)


# --- definitions -------------------------------------------------------------------------


def test_json_definition_round_trips_with_defaults() -> None:
    tool = ToolDef.from_dict(WEATHER)
    assert tool.timeout_ms == DEFAULT_TIMEOUT_MS == 30_000
    assert tool.identifier == "get_weather"
    assert tool.has_implementation
    assert ToolDef.from_dict(tool.to_dict()) == tool
    assert tool.to_dict()["url"] == WEATHER["url"]
    assert "headers" not in tool.to_dict()


def test_an_inline_tool_is_parsed_once_per_distinct_json_text() -> None:
    import copy
    import json

    first = inline_tool(copy.deepcopy(WEATHER))
    assert inline_tool(json.loads(json.dumps(WEATHER))) is first  # equal JSON: the same tool
    assert first == ToolDef.from_dict(WEATHER)
    described = inline_tool({**WEATHER, "description": "Another text."})
    assert described is not first and described.description == "Another text."
    # Key order is part of the text: it orders the tool's parameters in its declaration.
    properties = WEATHER["input_schema"]["properties"]  # type: ignore[index]
    flipped = {**WEATHER, "input_schema": {**WEATHER["input_schema"],  # type: ignore[dict-item]
                                           "properties": dict(reversed(list(properties.items())))}}
    assert list(inline_tool(flipped).input_schema["properties"]) == ["days", "units", "city"]
    assert list(first.input_schema["properties"]) == ["city", "units", "days"]


def test_an_invalid_inline_tool_is_refused_every_time() -> None:
    broken = {"name": "x", "input_schema": {"type": "array"}}
    for _ in range(2):
        with pytest.raises(ToolDefinitionError):
            inline_tool(broken)
    with pytest.raises(ToolDefinitionError):
        inline_tool(["not", "an", "object"])
    with pytest.raises(ToolDefinitionError, match="timeout_ms"):  # no JSON text: parsed as is
        inline_tool({**WEATHER, "timeout_ms": float("nan")})


def test_a_stored_toolset_is_parsed_once_per_distinct_text() -> None:
    import json

    text = json.dumps(Toolset.from_dict({"name": "weather", "tools": [WEATHER]}).to_dict(
        include_secret=True))
    assert stored_toolset(text) is stored_toolset(text)
    assert stored_toolset(text).tools[0].name == "get-weather"


def test_kept_texts_are_bounded_by_their_characters() -> None:
    parsed: list[str] = []

    def parse(text: str) -> str:
        parsed.append(text)
        return text.upper()

    kept = KeptByText(parse, max_chars=80)
    texts = [f"text-{n:04d}" for n in range(9)]  # 9 characters each: 8 fit in 80, 9 do not
    for text in texts:
        assert kept.get(text) == text.upper()
    assert kept.chars <= 80
    kept.get(texts[-1])
    assert parsed.count(texts[-1]) == 1  # the newest is kept
    kept.get(texts[0])
    assert parsed.count(texts[0]) == 2  # the oldest went to make room
    big = "x" * 11  # over an eighth of 80: parsed each time, never kept
    kept.get(big)
    kept.get(big)
    assert parsed.count(big) == 2 and kept.chars <= 80


def test_all_optional_fields_are_accepted_and_stored() -> None:
    data = {
        **WEATHER,
        "output_schema": {"type": "object", "properties": {"temp": {"type": "number"}}},
        "headers": {"X-Api-Key": "k"},
        "timeout_ms": 500,
        "approval": {"mode": "durable", "summary": "Send it", "risk": "high"},
        "permissions": ["weather:read"],
        "idempotency_key": "weather-1",
        "revert_url": "https://agent.example/tools/weather/undo",
    }
    tool = ToolDef.from_dict(data)
    assert tool.permissions == ("weather:read",)
    assert tool.to_dict() == data


def test_invalid_input_schema_is_rejected_by_the_metaschema() -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        ToolDef(name="t", input_schema={"type": "object", "properties": {"a": {"type": "strng"}}})
    assert "input_schema" in _problems(caught)
    assert "not valid JSON Schema" in _problems(caught)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        ToolDef.from_dict(
            {
                "name": "t",
                "url": "ftp://nope",
                "timeout_ms": "10",
                "approval": {"mode": "later"},
                "headers": {"X-Sandbox-Signature": "forged"},
            }
        )
    problems = _problems(caught)
    for expected in ("url must be", "timeout_ms", "approval.mode", "cannot be overridden"):
        assert expected in problems
    assert len(caught.value.problems) == 4


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string"},
        {"type": ["array", "null"]},
        [1, 2],
        True,
    ],
)
def test_input_schema_must_describe_an_object(schema: Any) -> None:
    with pytest.raises(ToolDefinitionError):
        ToolDef(name="t", input_schema=schema)


def test_remote_refs_are_refused_so_the_service_never_fetches_schemas() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "http://169.254.169.254/x.json"}}}
    with pytest.raises(ToolDefinitionError) as caught:
        ToolDef(name="t", input_schema=schema)
    assert "non-local $ref" in _problems(caught)


def test_dangling_local_ref_is_refused() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}
    with pytest.raises(ToolDefinitionError, match="points at nothing"):
        ToolDef(name="t", input_schema=schema)


def test_local_refs_to_defs_and_definitions_are_fine_and_validate() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/definitions/B"}},
        "$defs": {"A": {"type": "integer"}},
        "definitions": {"B": {"type": "string"}},
    }
    tool = ToolDef(name="t", input_schema=schema)
    validate_arguments(tool, {"a": 1, "b": "x"})
    with pytest.raises(ToolArgumentsError):
        validate_arguments(tool, {"a": "1"})


def test_unknown_dollar_schema_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="unknown \\$schema"):
        ToolDef(name="t", input_schema={"$schema": "https://example.com/mine", "type": "object"})


def test_dollar_schema_selects_the_draft_for_metaschema_and_validation() -> None:
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"n": {"type": "number", "maximum": 5, "exclusiveMaximum": True}},
    }
    tool = ToolDef(name="t", input_schema=draft4)
    validate_arguments(tool, {"n": 4.9})
    with pytest.raises(ToolArgumentsError):
        validate_arguments(tool, {"n": 5})
    # The same keyword is a number in 2020-12, so the boolean form is invalid there.
    without = {k: v for k, v in draft4.items() if k != "$schema"}
    with pytest.raises(ToolDefinitionError):
        ToolDef(name="t", input_schema=without)


def test_non_json_values_in_schema_are_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="not JSON"):
        ToolDef(name="t", input_schema={"type": "object", "default": {1, 2}})


def test_absurdly_deep_schema_is_refused_cleanly() -> None:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(200):
        schema = {"type": "object", "properties": {"a": schema}}
    with pytest.raises(ToolDefinitionError, match="nests deeper"):
        ToolDef(name="t", input_schema=schema)


def test_definition_is_isolated_from_later_mutation_of_the_callers_dict() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    tool = ToolDef(name="t", input_schema=schema)
    schema["properties"]["a"]["type"] = "integer"
    validate_arguments(tool, {"a": "still a string"})


def test_unknown_keys_in_json_are_reported() -> None:
    with pytest.raises(ToolDefinitionError, match="unknown key 'inputSchema'"):
        ToolDef.from_dict({"name": "t", "inputSchema": {}})


@pytest.mark.parametrize("bad", [None, "", "   ", 5])
def test_name_is_required(bad: Any) -> None:
    with pytest.raises(ToolDefinitionError):
        ToolDef(name=bad)


def test_timeout_rejects_booleans_and_allows_disabling() -> None:
    with pytest.raises(ToolDefinitionError):
        ToolDef(name="t", timeout_ms=True)
    assert ToolDef(name="t", timeout_ms=0).timeout_ms == 0


@pytest.mark.parametrize(
    ("approval", "fragment"),
    [
        ({"mode": "inline", "risk": "extreme"}, "approval.risk"),
        ({"mode": "inline", "colour": "red"}, "unknown key"),
        ({"mode": "durable", "when": {"type": "nope"}}, "approval.when"),
        ({"mode": "durable", "summary": 3}, "approval.summary"),
        ("always", "approval must be an object"),
    ],
)
def test_approval_shape_is_checked(approval: Any, fragment: str) -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        ToolDef(name="t", approval=approval)
    assert fragment in _problems(caught)


def test_approval_when_schema_decides_per_call() -> None:
    tool = ToolDef(
        name="pay",
        input_schema={"type": "object", "properties": {"amount": {"type": "number"}}},
        approval={
            "mode": "durable",
            "when": {"properties": {"amount": {"minimum": 100}}},
            "risk": "medium",
        },
    )
    assert requires_approval(tool)
    assert requires_approval(tool, {"amount": 500})
    assert not requires_approval(tool, {"amount": 5})
    assert not requires_approval(ToolDef(name="free"), {"amount": 500})


# --- argument validation -------------------------------------------------------------------


def test_valid_arguments_pass() -> None:
    validate_arguments(ToolDef.from_dict(WEATHER), {"city": "Paris", "days": 3})


def test_invalid_arguments_list_every_problem_with_its_path() -> None:
    tool = ToolDef.from_dict(WEATHER)
    with pytest.raises(ToolArgumentsError) as caught:
        validate_arguments(tool, {"units": "k", "days": 9, "extra": 1})
    paths = [p["path"] for p in caught.value.problems]
    assert paths == ["", "", "days", "units"]
    text = str(caught.value)
    assert "'city' is a required property" in text
    assert "'extra' was unexpected" in text
    assert "nothing was sent" in text
    assert caught.value.tool == "get-weather"


def test_nested_problem_paths_use_dots_and_indexes() -> None:
    tool = ToolDef(
        name="t",
        input_schema={
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                }
            },
        },
    )
    with pytest.raises(ToolArgumentsError) as caught:
        validate_arguments(tool, {"items": [{"name": "ok"}, {"name": 5}]})
    assert caught.value.problems[0]["path"] == "items[1].name"


@pytest.mark.parametrize("args", [None, [], "city=Paris", 3])
def test_arguments_must_be_an_object(args: Any) -> None:
    with pytest.raises(ToolArgumentsError, match="must be an object"):
        validate_arguments(ToolDef.from_dict(WEATHER), args)


def test_huge_argument_values_are_truncated_in_messages() -> None:
    tool = ToolDef.from_dict(WEATHER)
    with pytest.raises(ToolArgumentsError) as caught:
        validate_arguments(tool, {"city": 1, "days": "x" * 100_000})
    assert len(str(caught.value)) < 1_000


# --- toolsets ------------------------------------------------------------------------------


def test_toolset_creation_generates_a_hidden_secret() -> None:
    toolset = Toolset.create("github", [ToolDef.from_dict(WEATHER)])
    assert len(toolset.secret) >= 32
    assert toolset.secret not in repr(toolset)
    assert "secret" not in toolset.to_dict()
    assert toolset.to_dict(include_secret=True)["secret"] == toolset.secret
    assert Toolset.create("github", []).secret != toolset.secret


def test_toolset_finds_tools_by_given_or_sanitised_name() -> None:
    toolset = Toolset.create("weather-tools", [ToolDef.from_dict(WEATHER)])
    assert toolset.namespace == "weather_tools"
    assert toolset.get("get-weather") is toolset.get("get_weather") is toolset.tools[0]
    assert toolset.get("nope") is None


def test_toolset_with_two_tools_mapping_to_one_name_is_refused() -> None:
    with pytest.raises(NameCollisionError, match='"foo-bar" and "foo_bar" both map to "foo_bar"'):
        Toolset.create("x", [ToolDef(name="foo-bar"), ToolDef(name="foo_bar")])


@pytest.mark.parametrize(
    "name", ["", "has space", "state", "codemode", "9lives", "a" * 65, "x/y", "list", "print"]
)
def test_toolset_names_must_be_safe_and_not_reserved(name: str) -> None:
    with pytest.raises(ToolDefinitionError):
        Toolset.create(name, [])


def test_toolset_secret_must_be_long_enough() -> None:
    with pytest.raises(ToolDefinitionError, match="secret"):
        Toolset(name="x", tools=(), secret="short")


# --- tools from callables --------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Address(TypedDict):
    """A postal address."""

    street: str
    zip: NotRequired[int]


class TreeNode(TypedDict):
    value: int
    children: list[TreeNode]


@dataclasses.dataclass
class Point:
    """A point on the plane.

    Args:
        x: Horizontal position.
        y: Vertical position.
    """

    x: float
    y: float = 0.0


def _schema_of(hint: Any) -> dict[str, Any]:
    def fn(value: Any) -> None: ...

    fn.__annotations__ = {"value": hint, "return": None}
    return dict(tool_from_callable(fn).input_schema["properties"]["value"])


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (None, {"type": "null"}),
        (Any, {}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (Sequence[str], {"type": "array", "items": {"type": "string"}}),
        (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (
            tuple[int, str],
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "items": False,
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}}),
        (Optional[int], {"type": ["integer", "null"]}),
        (int | str, {"type": ["integer", "string"]}),
        (
            list[int] | None,
            {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
        ),
        (Literal["a", "b"], {"enum": ["a", "b"]}),
        (Literal[3], {"const": 3}),
        (Annotated[int, "How many"], {"type": "integer", "description": "How many"}),
    ],
)
def test_type_hints_map_to_json_schema(hint: Any, expected: dict[str, Any]) -> None:
    assert _schema_of(hint) == expected


def test_named_types_go_to_defs_with_their_docs() -> None:
    def place(colour: Colour, address: Address, at: Point, tree: TreeNode) -> None:
        """Place things."""

    schema = tool_from_callable(place).input_schema
    defs = schema["$defs"]
    assert schema["properties"]["colour"] == {"$ref": "#/$defs/Colour"}
    assert defs["Colour"] == {"enum": ["red", "blue"]}
    assert defs["Address"]["required"] == ["street"]
    assert defs["Address"]["description"] == "A postal address."
    assert defs["Point"]["required"] == ["x"]
    assert defs["Point"]["properties"]["y"] == {
        "type": "number",
        "description": "Vertical position.",
        "default": 0.0,
    }
    assert defs["TreeNode"]["properties"]["children"]["items"] == {"$ref": "#/$defs/TreeNode"}


def test_derived_schema_validates_calls() -> None:
    def book(room: Literal["a", "b"], nights: int = 1, guests: list[Address] | None = None) -> str:
        """Book a room."""
        return room

    tool = tool_from_callable(book)
    validate_arguments(tool, {"room": "a", "guests": [{"street": "Main"}]})
    with pytest.raises(ToolArgumentsError) as caught:
        validate_arguments(tool, {"room": "c", "nights": "2", "guests": [{"zip": 1}], "x": 1})
    assert len(caught.value.problems) == 4


def test_signature_gives_required_defaults_and_output_schema() -> None:
    def search(query: str, limit: int = 10, *, exact: bool = False) -> list[str]:
        """Search the index."""
        return []

    tool = tool_from_callable(search)
    assert tool.name == "search"
    assert tool.description == "Search the index."
    assert tool.input_schema["required"] == ["query"]
    assert tool.input_schema["properties"]["limit"] == {"type": "integer", "default": 10}
    assert tool.input_schema["additionalProperties"] is False
    assert tool.output_schema == {"type": "array", "items": {"type": "string"}}
    assert tool.func is search
    assert tool.has_implementation
    assert tool.url is None


def test_var_keyword_allows_extra_properties_of_its_type() -> None:
    def tag(name: str, **labels: str) -> None:
        """Tag."""

    assert tool_from_callable(tag).input_schema["additionalProperties"] == {"type": "string"}


def test_positional_only_and_var_positional_parameters_are_refused() -> None:
    def positional(a: int, /) -> None: ...

    def star(*items: int) -> None: ...

    for fn in (positional, star):
        with pytest.raises(ToolDefinitionError, match="cannot be passed by keyword"):
            tool_from_callable(fn)


def test_unsupported_annotations_are_refused_with_the_parameter_named() -> None:
    def bad(when: complex) -> None: ...

    def keys(m: dict[int, str]) -> None: ...

    with pytest.raises(ToolDefinitionError, match="parameter 'when'"):
        tool_from_callable(bad)
    with pytest.raises(ToolDefinitionError, match="keys are strings"):
        tool_from_callable(keys)


def test_name_and_description_can_be_overridden_and_async_functions_work() -> None:
    async def fetch(url: str) -> str:
        """Fetch it."""
        return url

    tool = tool_from_callable(fetch, name="fetch-page", description="Download a page.")
    assert (tool.name, tool.identifier, tool.description) == (
        "fetch-page",
        "fetch_page",
        "Download a page.",
    )


def test_google_docstring_gives_description_and_parameter_texts() -> None:
    def weather(city: str, units: str = "c") -> dict[str, float]:
        """Current weather for a city.

        Uses the nearest station.

        Args:
            city: The city name,
                in English.
            units (str): "c" or "f".

        Returns:
            Temperatures by hour.

        Raises:
            KeyError: never.
        """
        return {}

    tool = tool_from_callable(weather)
    assert tool.description == "Current weather for a city.\n\nUses the nearest station."
    props = tool.input_schema["properties"]
    assert props["city"]["description"] == "The city name, in English."
    assert props["units"]["description"] == '"c" or "f".'
    assert isinstance(tool.output_schema, dict)
    assert tool.output_schema["description"] == "Temperatures by hour."


def test_numpy_docstring_parameters() -> None:
    parsed = parse_docstring(
        """Summary.

        Parameters
        ----------
        a : int
            The first.
        b : str, optional
            The second,
            on two lines.

        Returns
        -------
        int
        """
    )
    assert parsed.description == "Summary."
    assert parsed.params == {"a": "The first.", "b": "The second, on two lines."}


def test_rest_docstring_parameters() -> None:
    parsed = parse_docstring(
        """Summary line.

        :param a: The first
            continued.
        :param int b: The second.
        :type b: int
        :returns: Something.
        """
    )
    assert parsed.description == "Summary line."
    assert parsed.params == {"a": "The first continued.", "b": "The second."}
    assert parsed.returns == "Something."


def test_callable_without_docstring_has_empty_description() -> None:
    def bare(x: int) -> int:
        return x

    tool = tool_from_callable(bare)
    assert tool.description == ""
    assert "description" not in tool.input_schema["properties"]["x"]


# --- binding JSON arguments back to the callable's types -------------------------------------


def test_bind_arguments_rebuilds_enums_dataclasses_and_containers() -> None:
    from codemode.callables import bind_arguments

    seen: dict[str, Any] = {}

    def place(
        colour: Colour,
        at: Point,
        path: list[Point],
        spots: dict[str, Colour],
        pair: tuple[int, Colour],
        tags: set[str],
        maybe: Optional[Point] = None,
        address: Address | None = None,
        **extra: Colour,
    ) -> None:
        """Place."""
        seen.update(locals())

    tool = tool_from_callable(place)
    args = {
        "colour": "red",
        "at": {"x": 1.5},
        "path": [{"x": 1, "y": 2}],
        "spots": {"home": "blue"},
        "pair": [3, "red"],
        "tags": ["a", "b"],
        "maybe": None,
        "address": {"street": "Main"},
        "bonus": "blue",
    }
    validate_arguments(tool, args)
    assert tool.func is not None
    tool.func(**bind_arguments(tool, args))
    assert seen["colour"] is Colour.RED
    assert seen["at"] == Point(1.5, 0.0)
    assert seen["path"] == [Point(1, 2)]
    assert seen["spots"] == {"home": Colour.BLUE}
    assert seen["pair"] == (3, Colour.RED)
    assert seen["tags"] == {"a", "b"}
    assert seen["maybe"] is None
    assert seen["address"] == {"street": "Main"}
    assert seen["extra"] == {"bonus": Colour.BLUE}


def test_bind_arguments_reports_values_that_do_not_convert() -> None:
    from codemode.callables import bind_arguments

    def paint(colour: Colour) -> None: ...

    with pytest.raises(ToolArgumentsError, match="colour"):
        bind_arguments(tool_from_callable(paint), {"colour": "green"})


def test_bind_arguments_needs_a_callable() -> None:
    from codemode.callables import bind_arguments

    with pytest.raises(ToolArgumentsError, match="no callable"):
        bind_arguments(ToolDef(name="remote", url="https://x.example/t"), {})


def test_unresolvable_forward_reference_is_a_definition_error() -> None:
    def later(x: "NotDefinedAnywhere") -> None:  # type: ignore[name-defined]  # noqa: F821
        """Uses a name that does not exist."""

    with pytest.raises(ToolDefinitionError, match="cannot read the signature"):
        tool_from_callable(later)


def test_non_callable_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="callable"):
        tool_from_callable(42)  # type: ignore[arg-type]


def test_refs_inside_schemas_with_nested_ids_are_not_second_guessed() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {
                "$id": "https://example.com/a",
                "$ref": "#/$defs/x",
                "$defs": {"x": {"type": "string"}},
            }
        },
    }
    tool = ToolDef(name="t", input_schema=schema)
    validate_arguments(tool, {"a": "resolved inside the embedded resource, offline"})
    with pytest.raises(ToolArgumentsError):
        validate_arguments(tool, {"a": 1})


def test_toolset_from_json_keeps_or_generates_the_secret() -> None:
    data = {"name": "weather", "tools": [WEATHER]}
    fresh = Toolset.from_dict(data)
    assert len(fresh.secret) >= 32
    stored = Toolset.from_dict({**data, "secret": fresh.secret})
    assert stored.secret == fresh.secret
    assert stored.tools == fresh.tools
    assert Toolset.from_dict(stored.to_dict(include_secret=True)) == stored


def test_toolset_from_json_reports_every_bad_tool_by_index() -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        Toolset.from_dict(
            {"name": "w", "tools": [WEATHER, {"name": "a", "url": "nope"}, {"nameless": 1}]}
        )
    problems = _problems(caught)
    assert "tools[1]: url must be" in problems
    assert "tools[2]: name is required" in problems


@pytest.mark.parametrize(
    "data", [[], {"name": "w", "tools": {}}, {"name": "w", "tools": [], "colour": 1}]
)
def test_toolset_from_json_rejects_wrong_shapes(data: Any) -> None:
    with pytest.raises(ToolDefinitionError):
        Toolset.from_dict(data)


def test_a_url_that_does_not_parse_is_a_definition_problem_not_a_crash() -> None:
    # urlsplit raises ValueError for an unclosed IPv6 literal (found by schemathesis: a 500).
    with pytest.raises(ToolDefinitionError, match="url is not a URL"):
        ToolDef.from_dict({"name": "t", "url": "http://["})

"""Declarations rendered from JSON Schema: readable, valid Python, and mypy --strict clean."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mypy import api as mypy_api

from codemode.declarations import render_declarations, render_namespace, render_schema, render_tool
from codemode.errors import NameCollisionError
from codemode.tooldefs import ToolDef

URL = "https://agent.example/tool"


def tool(name: str, input_schema: dict[str, Any] | None = None, **extra: Any) -> ToolDef:
    extra.setdefault("url", URL)
    return ToolDef(
        name=name,
        description=extra.pop("description", f"The {name} tool."),
        input_schema=input_schema if input_schema is not None else {"type": "object"},
        **extra,
    )


WEATHER = tool(
    "get-weather",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name, in English."},
            "units": {"enum": ["c", "f"], "default": "c"},
            "days": {"type": "integer"},
        },
        "required": ["city"],
    },
    description="Current weather for a city.",
    output_schema={
        "type": "object",
        "description": "Temperatures.",
        "properties": {
            "temp": {"type": "number", "description": "Degrees."},
            "hourly": {"type": "array", "items": {"type": "number"}},
        },
        "required": ["temp"],
    },
)

HOSTILE_TEXT = [
    'He said """hi""" and left',
    "ends with a quote\"",
    'ends with many quotes"""""',
    "back\\slash and \\N{BULLET} and trailing backslash\\",
    "line one\nline two\r\nline three\rfour",
    "nul\x00 bell\x07 esc\x1b del\x7f",
    "lone surrogate \ud800 and emoji \U0001f600",
    "unicode separators \u2028 \u2029 \x85 \x0c",
    "'''single triple''' and `backticks` and # hash",
    "\"\"\"\n\"\"\"\n",
    "    leading indentation\n\ttabs",
]

NASTY_SCHEMAS: dict[str, dict[str, Any]] = {
    "recursive": {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["value"],
            }
        },
    },
    "self_ref_root": {
        "type": "object",
        "properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}},
    },
    "definitions_draft7": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"$ref": "#/definitions/A"}, "t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}},
        "definitions": {"A": {"type": "string", "enum": ["x", "y"]}},
    },
    "huge_enum": {
        "type": "object",
        "properties": {
            "code": {"enum": [f"c{i}" for i in range(1000)]},
            "mid": {"enum": [f"m{i}" for i in range(200)]},
        },
    },
    "odd_names": {
        "type": "object",
        "properties": {
            "odd-name": {"type": "string", "description": "hyphenated"},
            "class": {"type": "integer"},
            "with space": {"type": "boolean"},
            "quote'\"": {"type": "null"},
            "": {"type": "string"},
            "__init__": {"type": "string"},
            "ünïcode": {"type": "string"},
        },
        "required": ["class"],
    },
    "keyword_and_builtin_props": {
        "type": "object",
        "properties": {
            "str": {"type": "string"},
            "list": {"type": "array", "items": {"type": "string"}},
            "Any": {"type": "object", "properties": {"str": {"type": "string"}, "int": {"type": "integer"}}},
            "match": {"type": "string"},
            "kwargs": {"type": "string"},
        },
        "additionalProperties": {"type": "integer"},
    },
    "unions": {
        "type": "object",
        "properties": {
            "any_of": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            "one_of": {
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "a"}, "a": {"type": "string"}}},
                    {"type": "object", "properties": {"kind": {"const": "b"}, "b": {"type": "number"}}},
                ]
            },
            "nullable": {"type": "string", "nullable": True},
            "type_list": {"type": ["string", "integer", "null"]},
            "all_of": {
                "allOf": [
                    {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
                    {"type": "object", "properties": {"y": {"type": "integer"}}},
                ]
            },
            "mixed_enum": {"enum": ["a", 1, True, None, 1.5, {"k": 1}, [1]]},
            "empty_enum": {"enum": []},
            "const_obj": {"const": {"a": 1}},
            "negative": {"const": -3},
            "bool_schema": True,
            "false_schema": False,
        },
    },
    "maps": {
        "type": "object",
        "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "free": {"type": "object"},
            "patterns": {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
            "closed": {"type": "object", "additionalProperties": False},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]},
        },
    },
    "deep": {},  # filled below
    "no_properties_open": {"type": "object"},
    "no_properties_closed": {"type": "object", "properties": {}, "additionalProperties": False},
    "root_ref": {"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}},
}


def _deep_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for i in range(levels):
        schema = {"type": "object", "properties": {f"level{i}": schema}}
    return schema


NASTY_SCHEMAS["deep"] = _deep_schema(30)


def _nasty_tools() -> list[ToolDef]:
    tools = [WEATHER]
    for name, schema in NASTY_SCHEMAS.items():
        tools.append(tool(name, schema, output_schema=schema if "properties" in schema else None))
    for i, text in enumerate(HOSTILE_TEXT):
        tools.append(
            tool(
                f"hostile{i}",
                {
                    "type": "object",
                    "description": text,
                    "properties": {
                        "field": {"type": "string", "description": text},
                        "obj": {
                            "type": "object",
                            "description": text,
                            "properties": {"inner": {"type": "string", "description": text}},
                        },
                    },
                },
                description=text,
                output_schema={"type": "string", "description": text},
            )
        )
    for name in ["class", "list", "str", "Any", "Literal", "staticmethod", "builtins", "typing",
                 "Protocol", "TypedDict", "__init__", "3d", "@@", "None", "int", "float", "dict"]:
        tools.append(tool(name, {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "integer"}}, "d": {"type": "object", "additionalProperties": {"type": "string"}}}},
                          output_schema={"type": "object", "properties": {"v": {"type": "integer"}}}))
    tools.append(tool("approved", approval={"mode": "durable", "risk": "high"}))
    return tools


def _render_all() -> str:
    return render_declarations(
        {
            "tools": _nasty_tools(),
            "github": [WEATHER],
            "list": [tool("str", {"type": "object", "properties": {"a": {"type": "string"}}})],
            "Any": [tool("x")],
            "typing": [tool("int")],
        }
    )


USAGE = """

def _use() -> None:
    weather = tools.get_weather(city="Paris", units="f")
    temp: float = weather["temp"]
    hourly = weather.get("hourly")
    odd: OddNamesArgs = {"class": 1, "odd-name": "x"}
    tools.odd_names(**odd)
    github.get_weather(city="Oslo")
    print(temp, hourly)
"""

MISUSE = """

def _misuse() -> None:
    tools.get_weather(city=3)
    tools.get_weather(units="c")
    tools.get_weather(city="x", units="kelvin")
    tools.get_weather(city="x", colour="red")
"""


def _mypy(tmp_path: Path, files: dict[str, str]) -> tuple[str, int]:
    paths = []
    for name, source in files.items():
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    stdout, stderr, status = mypy_api.run(
        [
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "--python-version",
            "3.11",
            *paths,
        ]
    )
    return stdout + stderr, status


@pytest.fixture(scope="module")
def rendered() -> str:
    return _render_all()


def test_rendered_declarations_type_check_under_mypy_strict(
    rendered: str, tmp_path: Path
) -> None:
    output, status = _mypy(
        tmp_path,
        {"decls.py": rendered + USAGE, "decls_misuse.py": rendered + MISUSE},
    )
    errors = [line for line in output.splitlines() if ": error:" in line]
    clean = [e for e in errors if "decls.py" in e and "decls_misuse.py" not in e]
    assert clean == [], output
    misuse_lines = {int(e.split(":")[1]) for e in errors if "decls_misuse.py" in e}
    first_misuse = rendered.count("\n") + 4
    # Each of the four bad calls is caught, and nothing else in that file is flagged.
    assert misuse_lines == {first_misuse + i for i in range(4)}, output
    assert status == 1


def test_rendered_declarations_parse_compile_and_execute(rendered: str) -> None:
    ast.parse(rendered)
    namespace: dict[str, Any] = {}
    exec(compile(rendered, "<declarations>", "exec"), namespace)
    assert namespace["tools"].get_weather.__doc__.startswith("Current weather for a city.")


def test_hostile_descriptions_survive_verbatim_in_docstrings(rendered: str) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(rendered, "<declarations>", "exec"), namespace)
    for i, text in enumerate(HOSTILE_TEXT):
        doc = getattr(namespace["tools"], f"hostile{i}").__doc__
        # Kept verbatim up to indentation, and lone surrogates (not text) shown as U+FFFD.
        expected = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
        assert " ".join(expected.split()) in " ".join(doc.split())


def test_weather_declaration_reads_like_python() -> None:
    source = render_declarations({"tools": [WEATHER]})
    assert "class tools(Protocol):" in source
    assert "    @staticmethod\n    def get_weather(" in source
    assert "city: str," in source
    assert "units: Literal['c', 'f'] = ...," in source
    assert "days: int = ...," in source
    assert ") -> GetWeatherOutput:" in source
    assert "class GetWeatherOutput(TypedDict):" in source
    assert '    """Temperatures."""' in source
    assert "    # Degrees.\n    temp: float" in source
    assert "    hourly: NotRequired[list[float]]" in source
    assert "            city: City name, in English." in source
    assert "            units: (default: 'c')" in source
    assert "        Returns:\n            Temperatures." in source


def test_required_and_optional_arguments() -> None:
    source = render_tool(WEATHER)
    signature = source[source.index("def get_weather(") : source.index(") ->")]
    assert "city: str," in signature and "city: str = ..." not in signature
    assert "units: Literal['c', 'f'] = ..." in signature


def _decl(schema: dict[str, Any], **extra: Any) -> str:
    return render_tool(tool("t", schema, **extra))


def test_recursive_refs_become_any_at_the_cycle() -> None:
    source = _decl(NASTY_SCHEMAS["recursive"])
    assert "class Node(TypedDict):" in source
    assert "children: NotRequired[list[Any]]" in source
    assert "root: Node = ..." in source


def test_nesting_deeper_than_twenty_becomes_any() -> None:
    source = _decl(_deep_schema(30))
    assert "Any" in source.split("class tools")[0]
    shallow = _decl(_deep_schema(5))
    assert "Any]" not in shallow.split("class tools")[0]


def test_refs_to_definitions_and_draft7_tuples() -> None:
    source = _decl(NASTY_SCHEMAS["definitions_draft7"])
    assert "a: Literal['x', 'y'] = ..." in source
    assert "t: list[str | int] = ..." in source


def test_root_ref_is_followed_for_the_signature() -> None:
    assert "def t(*, q: str) -> Any:" in _decl(NASTY_SCHEMAS["root_ref"])


def test_unions_nullable_and_literals() -> None:
    source = _decl(NASTY_SCHEMAS["unions"])
    assert "any_of: str | int | None = ..." in source
    assert "one_of: TOneOfOption1 | TOneOfOption2 = ..." in source
    assert "kind: NotRequired[Literal['a']]" in source
    assert "nullable: str | None = ..." in source
    assert "type_list: str | int | None = ..." in source
    assert "mixed_enum: Literal['a', 1, True] | float | dict[str, Any] | list[Any] | None = ..." in source
    assert "empty_enum: Any = ..." in source
    assert "negative: Literal[-3] = ..." in source
    assert "class TAllOf(TypedDict):\n    x: int\n    y: NotRequired[int]" in source


def test_maps_and_tuples() -> None:
    source = _decl(NASTY_SCHEMAS["maps"])
    assert "counts: dict[str, int] = ..." in source
    assert "free: dict[str, Any] = ..." in source
    assert "patterns: dict[str, str] = ..." in source
    assert "tuple: list[str | float] = ..." in source


def test_huge_enums_fall_back_to_the_base_type() -> None:
    source = _decl(NASTY_SCHEMAS["huge_enum"])
    assert "code: str = ..." in source
    assert "mid: Literal['m0', 'm1'," in source


def test_odd_property_names_use_unpack_over_functional_typeddict() -> None:
    source = _decl(NASTY_SCHEMAS["odd_names"])
    assert "def t(**kwargs: Unpack[TArgs]) -> Any:" in source
    assert "TArgs = TypedDict(" in source
    assert "        'odd-name': NotRequired[str]," in source
    assert "        'class': int," in source
    assert "        # hyphenated\n" in source


def test_additional_properties_at_top_level_become_var_keywords() -> None:
    source = _decl(NASTY_SCHEMAS["keyword_and_builtin_props"])
    assert "**kwargs_: int" in source
    assert "kwargs: str = ..." in source


def test_open_and_closed_empty_inputs() -> None:
    assert "def t(**kwargs: Any) -> Any:" in _decl({"type": "object"})
    assert "def t() -> Any:" in _decl(NASTY_SCHEMAS["no_properties_closed"])


def test_tool_names_shadowing_builtins_qualify_annotations() -> None:
    source = render_declarations(
        {"tools": [tool("list", {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string"}}}})]}
    )
    assert "def list(*, x: builtins.list[str] = ...) -> Any:" in source
    assert "import builtins" in source


def test_approval_is_stated_in_the_docstring() -> None:
    source = render_tool(tool("pay", approval={"mode": "durable", "risk": "high"}))
    assert "Requires human approval before it runs (risk: high)." in source


def test_tools_without_implementation_are_left_out_unless_asked_for() -> None:
    local_only = ToolDef(name="client_side", description="Resolved by the client.")
    source = render_declarations({"tools": [WEATHER, local_only]})
    assert "def client_side" not in source
    assert "def get_weather" in source
    with_flag = render_declarations({"tools": [WEATHER, local_only]}, include_unimplemented=True)
    assert "def client_side() -> Any:" in with_flag


def test_callable_tools_count_as_implemented() -> None:
    from codemode.callables import tool_from_callable

    def add(a: int, b: int = 0) -> int:
        """Add numbers."""
        return a + b

    source = render_declarations({"tools": [tool_from_callable(add)]})
    assert "def add(*, a: int, b: int = ...) -> int:" in source


def test_colliding_tool_or_namespace_names_are_refused() -> None:
    with pytest.raises(NameCollisionError):
        render_declarations({"tools": [tool("foo-bar"), tool("foo_bar")]})
    with pytest.raises(NameCollisionError):
        render_declarations({"my-tools": [], "my_tools": []})


def test_rendering_is_deterministic() -> None:
    assert _render_all() == _render_all()


def test_namespace_and_schema_renderers() -> None:
    ns = render_namespace("github", [WEATHER])
    assert "class github(Protocol):" in ns
    assert '"""Typed declarations' not in ns
    alias = render_schema({"type": "array", "items": {"type": "integer"}}, "SnippetInput")
    assert "SnippetInput = list[int]" in alias
    ast.parse(alias)


def test_long_descriptions_are_clipped() -> None:
    source = render_tool(tool("t", description="x" * 50_000))
    assert len(source) < 12_000


# --- fuzz: any schema hypothesis can build renders to parseable Python --------------------

_names = st.text(min_size=0, max_size=12)
_leaf = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {},
        {"$ref": "#"},
        {"$ref": "#/$defs/missing"},
        {"type": "string", "nullable": True},
    ]
) | st.builds(lambda values: {"enum": values}, st.lists(st.one_of(st.text(max_size=5), st.integers(), st.none(), st.booleans(), st.floats(allow_nan=False)), max_size=5))


def _compound(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.builds(lambda items: {"type": "array", "items": items}, children),
        st.builds(
            lambda props, desc: {"type": "object", "properties": props, "description": desc},
            st.dictionaries(_names, children, max_size=4),
            st.text(max_size=20),
        ),
        st.builds(lambda opts: {"anyOf": opts}, st.lists(children, min_size=1, max_size=3)),
        st.builds(lambda v: {"type": "object", "additionalProperties": v}, children),
    )


_schemas = st.recursive(_leaf, _compound, max_leaves=12)


@pytest.mark.fuzz
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    props=st.dictionaries(_names, _schemas, max_size=5),
    name=_names,
    description=st.text(max_size=40),
    output=_schemas,
)
def test_any_schema_renders_to_python_that_parses(
    props: dict[str, Any], name: str, description: str, output: dict[str, Any]
) -> None:
    try:
        definition = ToolDef(
            name=name or "x",
            description=description,
            input_schema={"type": "object", "properties": props},
            output_schema=output,
            url=URL,
        )
    except Exception:
        return  # some generated schemas are invalid JSON Schema, which is not this test's topic
    source = render_declarations({"tools": [definition]})
    ast.parse(source)
    exec(compile(source, "<fuzz>", "exec"), {})


def test_module_header_explains_calling_convention() -> None:
    source = render_declarations({"tools": [WEATHER]})
    header = ast.get_docstring(ast.parse(source))
    assert header is not None
    assert "keyword arguments" in header and "= ..." in header
    assert textwrap.dedent(source).startswith('"""')


@pytest.mark.parametrize("name", ["true", "false", "none", "True", "None"])
def test_a_type_named_after_a_capitalised_keyword_still_renders_valid_python(name: str) -> None:
    # Found by the declarations fuzzer: a schema named "true" rendered `class True(TypedDict)`.
    for schema in ({"type": "object", "properties": {"x": {"type": "string"}}},
                   {"type": "object", "properties": {name: {"type": "object", "properties": {"y": {"type": "integer"}}}}}):
        source = render_schema(schema, name)
        namespace: dict[str, Any] = {}
        exec(compile(source, "<schema>", "exec"), namespace)
        assert [n for n in namespace if n.lower().startswith(name.lower())]

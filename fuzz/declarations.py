"""Target ``declarations``: arbitrary JSON as a tool's input and output JSON Schema, rendered
as the typed Python declarations a model reads (``codemode.render_declarations``,
``codemode.render_schema``). Bytes that are not JSON are made into a schema structurally
(keys and values drawn from the bytes), so every input reaches the renderer.

A finding: anything but ``ToolDefinitionError`` / ``NameCollisionError`` while defining the
tool, any exception while rendering an accepted definition, and rendered source that
``ast.parse`` / ``compile`` refuses (the declarations promise to be valid Python).
"""

from __future__ import annotations

import ast
import json
from typing import Any

from codemode import NameCollisionError, ToolDef, ToolDefinitionError, render_declarations
from codemode import render_schema

from ._harness import Finding, allow, text

MAX_LEN = 4096
_KEYS = ("type", "properties", "items", "enum", "const", "anyOf", "oneOf", "allOf", "$ref",
         "$defs", "required", "additionalProperties", "description", "nullable", "default",
         "title", "format", "prefixItems", "definitions", "not")
_TYPES = ("object", "string", "integer", "number", "boolean", "array", "null")


def _build(data: bytes, at: list[int], depth: int) -> Any:
    """A JSON value drawn from ``data`` (position in ``at``), shaped like a schema."""
    def byte() -> int:
        at[0] += 1
        return data[at[0] - 1] if at[0] <= len(data) else 0

    kind = byte() % 8
    if depth > 6 or kind == 0:
        return _TYPES[byte() % len(_TYPES)]
    if kind == 1:
        return [_build(data, at, depth + 1) for _ in range(byte() % 4)]
    if kind == 2:
        return text(data[at[0]:at[0] + byte() % 12])
    if kind == 3:
        return byte() - 128
    schema: dict[str, Any] = {}
    for _ in range(byte() % 5 + 1):
        key = _KEYS[byte() % len(_KEYS)]
        if key == "properties" or key.startswith("$defs") or key == "definitions":
            schema[key] = {text(data[at[0]:at[0] + 6]) or "p": _build(data, at, depth + 1)
                           for _ in range(byte() % 3 + 1)}
        elif key == "type":
            schema[key] = _TYPES[byte() % len(_TYPES)]
        elif key == "$ref":
            schema[key] = "#/$defs/" + text(data[at[0]:at[0] + 4])
        else:
            schema[key] = _build(data, at, depth + 1)
    return schema


def _schema(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return {"type": "object", "properties": {"arg": _build(data, [0], 0)}}


def _valid_python(source: str, what: str) -> None:
    try:
        compile(ast.parse(source), f"<{what}>", "exec")
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Finding(f"{what} is not valid Python ({exc}):\n{source[:2000]}") from exc


def one_input(data: bytes) -> None:
    schema = _schema(data)
    name = text(data[:24]) or "tool"
    documented = (ToolDefinitionError, NameCollisionError)
    tool = allow(lambda: ToolDef(name=name, description=text(data[-40:]), input_schema=schema,
                                 output_schema=schema, url="https://tools.invalid/x"), documented)
    if tool is not None:
        source = allow(lambda: render_declarations({"tools": [tool]}), ())
        _valid_python(source, "render_declarations")
    if isinstance(schema, (dict, bool)):
        _valid_python(allow(lambda: render_schema(schema, name), ()), "render_schema")

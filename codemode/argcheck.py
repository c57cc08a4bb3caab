"""A quick check of a tool call's arguments against the simple input schemas most tools have.

``validate_arguments`` asks jsonschema for every error, which costs about 25 us for one
integer argument on the 2-core machine: a tenth of a webhook call's own overhead. Most tool
schemas use only ``type``, ``properties``, ``required``, ``additionalProperties``, ``items``,
string ``enum`` and annotations; :func:`compile_quick` turns such a schema, once per tool,
into a predicate that answers exactly what jsonschema's Draft 2020-12 would (is this value
valid?) in a few microseconds. Any other keyword, or a ``$schema`` of its own, makes it
return None, and jsonschema checks every call of that tool. A False from the predicate is
not an answer either: jsonschema is asked again, for the errors it lists.

JSON types as jsonschema's Draft 2020-12 type checker has them: ``integer`` includes floats
with no fractional part (``1.0``), and booleans are neither integers nor numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Quick", "compile_quick"]

Quick = Callable[[Any], bool]
"""True when the value is valid under the schema it was compiled from; False: it may not be."""

_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment",
                          "deprecated", "readOnly", "writeOnly"})
_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "items",
                       "enum"}) | _ANNOTATIONS
_MAX_DEPTH = 8
"""Deeper schemas are left to jsonschema: a predicate's nesting is the schema's."""


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES: dict[str, Quick] = {
    "string": lambda value: isinstance(value, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def compile_quick(schema: Any) -> Quick | None:
    """A predicate for ``schema`` (a tool's input schema), or None if it is not simple."""
    if isinstance(schema, Mapping) and "$schema" in schema:
        return None  # another draft's rules: jsonschema knows them
    return _compile(schema, 0)


def _compile(schema: Any, depth: int) -> Quick | None:
    if schema is True:
        return lambda value: True
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH or not set(schema) <= _KEYWORDS:
        return None
    checks: list[Quick] = []
    for build in (_type_check, _enum_check, _object_check, _items_check):
        check = build(schema, depth)
        if check is None:
            return None
        if check is not _ANYTHING:
            checks.append(check)
    if not checks:
        return _ANYTHING
    if len(checks) == 1:
        return checks[0]
    return lambda value: all(check(value) for check in checks)


def _anything(value: Any) -> bool:
    return True


_ANYTHING: Quick = _anything


def _type_check(schema: Mapping[str, Any], depth: int) -> Quick | None:
    if "type" not in schema:
        return _ANYTHING
    named = schema["type"]
    names = [named] if isinstance(named, str) else named
    if not isinstance(names, list) or not names or not all(n in _TYPES for n in names):
        return None
    if len(names) == 1:
        return _TYPES[names[0]]
    tests = [_TYPES[n] for n in names]
    return lambda value: any(test(value) for test in tests)


def _enum_check(schema: Mapping[str, Any], depth: int) -> Quick | None:
    if "enum" not in schema:
        return _ANYTHING
    allowed = schema["enum"]
    # Strings only: jsonschema's equality treats 1, 1.0 and True apart in ways a set would not.
    if not isinstance(allowed, list) or not all(isinstance(v, str) for v in allowed):
        return None
    members = frozenset(allowed)
    return lambda value: isinstance(value, str) and value in members


def _object_check(schema: Mapping[str, Any], depth: int) -> Quick | None:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if (not isinstance(properties, Mapping) or not isinstance(required, list)
            or not all(isinstance(name, str) for name in required) or not isinstance(extra, bool)):
        return None
    if not properties and not required and extra:
        return _ANYTHING
    inner: dict[str, Quick] = {}
    for name, subschema in properties.items():
        check = _compile(subschema, depth + 1)
        if check is None:
            return None
        if check is not _ANYTHING:
            inner[name] = check
    names, needed = frozenset(properties), tuple(required)

    def check_object(value: Any) -> bool:
        if not isinstance(value, dict):
            return True  # these keywords say nothing about other types
        for name in needed:
            if name not in value:
                return False
        if not extra and not names.issuperset(value):
            return False
        for name, check in inner.items():
            if name in value and not check(value[name]):
                return False
        return True
    return check_object


def _items_check(schema: Mapping[str, Any], depth: int) -> Quick | None:
    if "items" not in schema:
        return _ANYTHING
    check = _compile(schema["items"], depth + 1)
    if check is None:
        return None
    if check is _ANYTHING:
        return _ANYTHING
    item_check = check
    return lambda value: not isinstance(value, list) or all(item_check(v) for v in value)

"""Tools from plain Python callables: a JSON Schema derived from type hints and the
docstring, and a call's JSON arguments bound back to Python values.

``tool_from_callable`` reads the signature (scalars, lists, dicts, ``Literal``, enums,
dataclasses, ``TypedDict``, ``NamedTuple``, optional and union types) and the docstring
(:mod:`codemode.docstrings`) into a :class:`~codemode.tooldefs.ToolDef` whose ``func`` is
the callable; ``bind_arguments`` turns the validated JSON arguments of a call into the
Python values the callable's hints ask for.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import types
import typing
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from codemode.docstrings import parse_docstring
from codemode.errors import ToolArgumentsError, ToolDefinitionError
from codemode.tooldefs import DEFAULT_TIMEOUT_MS, ToolDef

__all__ = [
    "bind_arguments",
    "tool_from_callable",
]


_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_SEQUENCE_ORIGINS = {list, set, frozenset, Sequence, typing.Sequence, typing.List}
_MAPPING_ORIGINS = {dict, Mapping, typing.Mapping, typing.Dict}


class _SchemaBuilder:
    """Derives JSON Schema from type hints, collecting named types under ``$defs``."""

    def __init__(self, subject: str) -> None:
        self.subject = subject
        self.defs: dict[str, Any] = {}
        self._names: dict[Any, str] = {}

    def fail(self, message: str) -> ToolDefinitionError:
        return ToolDefinitionError(self.subject, [message])

    def schema(self, hint: Any, where: str) -> dict[str, Any]:
        if hint is inspect.Parameter.empty or hint is Any or hint is object:
            return {}
        if hint is None or hint is type(None):
            return {"type": "null"}
        if hint in _SCALARS:
            return {"type": _SCALARS[hint]}
        supertype = getattr(hint, "__supertype__", None)
        if supertype is not None:  # typing.NewType
            return self.schema(supertype, where)
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Annotated:
            inner = self.schema(args[0], where)
            notes = [a for a in args[1:] if isinstance(a, str)]
            if notes:
                inner = {**inner, "description": notes[0]}
            return inner
        if origin in (typing.Required, typing.NotRequired):
            return self.schema(args[0], where)
        if origin is Literal:
            return self._literal(args, where)
        if origin is typing.Union or origin is types.UnionType:
            return self._union(args, where)
        if hint in _SEQUENCE_ORIGINS or origin in _SEQUENCE_ORIGINS:
            out: dict[str, Any] = {"type": "array"}
            if args:
                out["items"] = self.schema(args[0], where)
            if set in (hint, origin) or frozenset in (hint, origin):
                out["uniqueItems"] = True
            return out
        if hint is tuple or origin is tuple:
            return self._tuple(args, where)
        if hint in _MAPPING_ORIGINS or origin in _MAPPING_ORIGINS:
            if args and args[0] is not str:
                raise self.fail(f"{where}: JSON object keys are strings, not {args[0]!r}")
            out = {"type": "object"}
            if args:
                out["additionalProperties"] = self.schema(args[1], where)
            return out
        if isinstance(hint, type):
            if issubclass(hint, enum.Enum):
                return self._named(hint, where, self._enum)
            if typing.is_typeddict(hint):
                return self._named(hint, where, self._typeddict)
            if dataclasses.is_dataclass(hint):
                return self._named(hint, where, self._dataclass)
        raise self.fail(f"{where}: cannot derive a JSON Schema from the annotation {hint!r}")

    def _literal(self, values: Sequence[Any], where: str) -> dict[str, Any]:
        plain = [v.value if isinstance(v, enum.Enum) else v for v in values]
        for value in plain:
            if value is not None and not isinstance(value, (str, int, bool)):
                raise self.fail(f"{where}: Literal value {value!r} is not JSON")
        return {"const": plain[0]} if len(plain) == 1 else {"enum": plain}

    def _union(self, members: Sequence[Any], where: str) -> dict[str, Any]:
        schemas = [self.schema(m, where) for m in members]
        if any(s == {} for s in schemas):
            return {}
        if all(set(s) == {"type"} and isinstance(s["type"], str) for s in schemas):
            return {"type": [s["type"] for s in schemas]}
        return {"anyOf": schemas}

    def _tuple(self, args: Sequence[Any], where: str) -> dict[str, Any]:
        if not args:
            return {"type": "array"}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.schema(args[0], where)}
        if args == ((),):  # tuple[()]
            return {"type": "array", "maxItems": 0}
        prefix = [self.schema(a, where) for a in args]
        return {
            "type": "array",
            "prefixItems": prefix,
            "items": False,
            "minItems": len(prefix),
            "maxItems": len(prefix),
        }

    def _named(
        self, cls: type, where: str, build: Callable[[type, str], dict[str, Any]]
    ) -> dict[str, Any]:
        name = self._names.get(cls)
        if name is None:
            name = cls.__name__
            counter = 2
            while name in self.defs:
                name = f"{cls.__name__}{counter}"
                counter += 1
            self._names[cls] = name
            self.defs[name] = {}  # placeholder: a recursive reference finds the name taken
            self.defs[name] = build(cls, where)
        return {"$ref": f"#/$defs/{name}"}

    def _enum(self, cls: type, where: str) -> dict[str, Any]:
        values = [member.value for member in cast(type[enum.Enum], cls)]
        for value in values:
            if value is not None and not isinstance(value, (str, int, float, bool)):
                raise self.fail(f"{where}: enum {cls.__name__} has a non-JSON value {value!r}")
        out: dict[str, Any] = {"enum": values}
        doc = _own_doc(cls)
        if doc:
            out["description"] = doc
        return out

    def _typeddict(self, cls: type, where: str) -> dict[str, Any]:
        hints = typing.get_type_hints(cls, include_extras=True)
        # __required_keys__ is wrong for string annotations on 3.11, so Required and
        # NotRequired are read from the resolved hints and the rest follow __total__.
        required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
        required: list[str] = []
        for key, hint in hints.items():
            origin = typing.get_origin(hint)
            if origin is typing.Required or (
                origin is not typing.NotRequired and key in required_keys
            ):
                required.append(key)
        props = {key: self.schema(hint, f"{where}.{key}") for key, hint in hints.items()}
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
        }
        doc = _own_doc(cls)
        if doc:
            out["description"] = doc
        return out

    def _dataclass(self, cls: type, where: str) -> dict[str, Any]:
        hints = typing.get_type_hints(cls, include_extras=True)
        parsed = parse_docstring(_own_doc(cls) or "")
        props: dict[str, Any] = {}
        required: list[str] = []
        for f in dataclasses.fields(cast(Any, cls)):
            if not f.init:
                continue
            prop = self.schema(hints.get(f.name, Any), f"{where}.{f.name}")
            if f.name in parsed.params and "description" not in prop:
                prop = {**prop, "description": parsed.params[f.name]}
            if f.default is not dataclasses.MISSING and _is_json(f.default):
                prop = {**prop, "default": f.default}
            props[f.name] = prop
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
        }
        if parsed.description:
            out["description"] = parsed.description
        return out


def _own_doc(cls: type) -> str:
    """The class's own docstring, ignoring ones generated by dataclass/TypedDict/Enum."""
    doc = cls.__dict__.get("__doc__") or ""
    generated = (f"{cls.__name__}(", "An enumeration.", "Create a collection of name/value")
    if not doc or doc.startswith(generated):
        return ""
    return inspect.cleandoc(doc)


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def tool_from_callable(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    approval: Mapping[str, Any] | None = None,
    permissions: Sequence[str] | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    idempotency_key: str | None = None,
) -> ToolDef:
    """A :class:`ToolDef` whose schemas come from ``fn``'s type hints and docstring.

    Every parameter becomes a property of the input object; parameters with defaults are
    optional (JSON defaults are recorded). The docstring's prose is the description and its
    Google, NumPy or reST parameter entries become per-property descriptions. The return
    annotation, when present, becomes the output schema. Positional-only parameters and
    ``*args`` cannot be passed as keyword arguments and are refused; ``**kwargs`` allows
    extra properties of its annotated type.
    """
    tool_name = name if name is not None else getattr(fn, "__name__", "")
    subject = f'tool "{tool_name}"'
    if not callable(fn):
        raise ToolDefinitionError(subject, ["fn must be callable"])
    try:
        signature = inspect.signature(fn)
        hints = typing.get_type_hints(fn, include_extras=True)
    except (TypeError, ValueError, NameError) as exc:
        raise ToolDefinitionError(subject, [f"cannot read the signature: {exc}"]) from exc
    doc = parse_docstring(inspect.getdoc(fn) or "")
    builder = _SchemaBuilder(subject)
    properties: dict[str, Any] = {}
    required: list[str] = []
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    for param in signature.parameters.values():
        if param.kind in (param.POSITIONAL_ONLY, param.VAR_POSITIONAL):
            raise ToolDefinitionError(
                subject,
                [f"parameter {param.name!r} cannot be passed by keyword; tools take keywords"],
            )
        hint = hints.get(param.name, inspect.Parameter.empty)
        where = f"parameter {param.name!r}"
        if param.kind is param.VAR_KEYWORD:
            schema["additionalProperties"] = builder.schema(hint, where)
            continue
        prop = builder.schema(hint, where)
        if param.name in doc.params and "description" not in prop:
            prop = {**prop, "description": doc.params[param.name]}
        if param.default is param.empty:
            required.append(param.name)
        elif _is_json(param.default) and "$ref" not in prop:
            prop = {**prop, "default": param.default}
        properties[param.name] = prop
    if required:
        schema["required"] = required
    schema.setdefault("additionalProperties", False)
    output_schema: dict[str, Any] | None = None
    if "return" in hints:
        output_schema = builder.schema(hints["return"], "return value")
        if doc.returns and "description" not in output_schema:
            output_schema = {**output_schema, "description": doc.returns}
    if builder.defs:
        schema["$defs"] = builder.defs
        if output_schema is not None:
            output_schema = {**output_schema, "$defs": builder.defs}
    return ToolDef(
        name=tool_name,
        description=description if description is not None else doc.description,
        input_schema=schema,
        output_schema=output_schema,
        approval=approval,
        permissions=tuple(permissions) if permissions is not None else None,
        timeout_ms=timeout_ms,
        idempotency_key=idempotency_key,
        func=fn,
    )


def bind_arguments(tool: ToolDef, args: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``tool.func`` built from validated JSON ``args``.

    JSON carries an ``Enum`` as its value and a dataclass as an object; this turns them
    (also inside lists, tuples, sets, dicts, TypedDicts and Optionals) back into the types
    the function's hints name, so ``tool.func(**bind_arguments(tool, args))`` receives what
    its signature promises. Validate first: a value that does not convert raises
    :class:`ToolArgumentsError`.
    """
    if tool.func is None:
        raise ToolArgumentsError(tool.name, [{"path": "", "message": "tool has no callable"}])
    introspected = _introspect(tool.func)
    if introspected is None:
        return dict(args)
    hints, params = introspected
    var_keyword = next(
        (p.name for p in params.values() if p.kind is inspect.Parameter.VAR_KEYWORD), None
    )
    bound: dict[str, Any] = {}
    for key, value in args.items():
        name = key if key in params and key != var_keyword else var_keyword
        hint = hints.get(name, Any) if name is not None else Any
        try:
            bound[key] = _from_json(value, hint)
        except (TypeError, ValueError, KeyError) as exc:
            raise ToolArgumentsError(
                tool.name, [{"path": key, "message": f"cannot convert: {exc}"}]
            ) from exc
    return bound


_INTROSPECTED: "weakref.WeakKeyDictionary[Any, tuple[dict[str, Any], Mapping[str, inspect.Parameter]] | None]" = (
    weakref.WeakKeyDictionary())


def _introspect(func: Callable[..., Any]) -> tuple[dict[str, Any], Mapping[str, inspect.Parameter]] | None:
    """A callable's type hints and parameters, computed once per callable: both are
    costly (about 0.1-0.4 ms), and a tool's function does not change between calls."""
    try:
        return _INTROSPECTED[func]
    except (KeyError, TypeError):
        pass
    try:
        found: tuple[dict[str, Any], Mapping[str, inspect.Parameter]] | None = (
            typing.get_type_hints(func, include_extras=True), inspect.signature(func).parameters)
    except (TypeError, ValueError, NameError):
        found = None
    try:
        _INTROSPECTED[func] = found
    except TypeError:  # not weak-referenceable (some builtins): just not cached
        pass
    return found


def _from_json(value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Annotated, typing.Required, typing.NotRequired):
        return _from_json(value, args[0])
    if origin is typing.Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        errors = []
        for member in args:
            if member is type(None):
                continue
            try:
                return _from_json(value, member)
            except (TypeError, ValueError, KeyError) as exc:
                errors.append(str(exc))
        raise ValueError("; ".join(errors) or f"{value!r} matches no member of {hint!r}")
    if isinstance(hint, type):
        if issubclass(hint, enum.Enum):
            return value if isinstance(value, hint) else hint(value)
        if dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
            field_hints = typing.get_type_hints(hint, include_extras=True)
            return hint(**{k: _from_json(v, field_hints.get(k, Any)) for k, v in value.items()})
        if typing.is_typeddict(hint) and isinstance(value, Mapping):
            field_hints = typing.get_type_hints(hint, include_extras=True)
            return {k: _from_json(v, field_hints.get(k, Any)) for k, v in value.items()}
    if isinstance(value, list):
        if origin in (tuple,) and args and not (len(args) == 2 and args[1] is Ellipsis):
            return tuple(_from_json(v, h) for v, h in zip(value, args, strict=True))
        item = args[0] if args else Any
        items = [_from_json(v, item) for v in value]
        if hint in (set, frozenset) or origin in (set, frozenset):
            return (frozenset if frozenset in (hint, origin) else set)(items)
        if hint is tuple or origin is tuple:
            return tuple(items)
        return items
    if isinstance(value, Mapping) and (hint in _MAPPING_ORIGINS or origin in _MAPPING_ORIGINS):
        value_hint = args[1] if len(args) == 2 else Any
        return {k: _from_json(v, value_hint) for k, v in value.items()}
    return value



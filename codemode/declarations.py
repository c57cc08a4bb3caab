"""Rendering tools' JSON Schemas as the Python declarations a model reads before writing code.

One ``Protocol`` class per namespace, one ``@staticmethod`` per tool::

    class tools(Protocol):
        @staticmethod
        def get_weather(*, city: str, units: Literal["c", "f"] = ...) -> GetWeatherOutput:
            \"\"\"Current weather for a city. ...\"\"\"

Decisions, and why:

- **Protocol + staticmethods.** It reads like a module of functions (no ``self``), it is
  checked by mypy in strict mode with docstring-only bodies (a plain class would be flagged
  for empty bodies), and ``tools.get_weather(...)`` type-checks against it.
- **Keyword-only arguments.** Tools take a JSON object, so every argument is a keyword;
  optional ones are shown ``= ...`` (omit them; the docstring states any default). ``= None``
  would claim that ``None`` is accepted when the schema may not allow null. When an input
  property is not a usable identifier (``odd-name``, ``class``) the signature becomes
  ``**kwargs: Unpack[XArgs]`` over a functional ``TypedDict``, which keeps the exact keys.
- **Nested objects** become ``TypedDict`` classes, optional keys ``NotRequired[...]``,
  per-field descriptions as comments; ``enum``/``const`` become ``Literal`` (over 256
  members fall back to the base type); ``anyOf``/``oneOf`` unions; ``additionalProperties``
  alone ``dict[str, T]``; ``nullable`` and ``"null"`` add ``| None``; local ``$ref``
  (``#/$defs/..``, ``#/definitions/..``, any ``#/`` pointer) is resolved; a reference
  cycle or nesting deeper than 20 renders as ``Any``, as in the reference.
- **Names are safe by construction.** Tool names go through ``sanitise_name``. A tool or
  namespace named like a builtin or typing name (``list``, ``Any``, ``staticmethod``)
  would shadow it inside its class, so annotations there are written ``builtins.list``
  (``typing.Any``) only where that happens. Descriptions are escaped so that ``\"\"\"``,
  backslashes, control characters and lone surrogates cannot break out of a docstring.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from codemode.names import ensure_unique, sanitise_name
from codemode.tooldefs import ToolDef, requires_approval

__all__ = ["render_declarations", "render_namespace", "render_schema", "render_tool"]

MAX_DEPTH = 20
MAX_LITERAL_MEMBERS = 256
MAX_TOOL_DESCRIPTION = 8_000
MAX_FIELD_DESCRIPTION = 2_000

_BUILTIN_NAMES = frozenset({"str", "int", "float", "bool", "list", "dict", "staticmethod"})
_TYPING_NAMES = frozenset({"Any", "Literal", "NotRequired", "Protocol", "TypedDict", "Unpack"})
# Names written through this marker are qualified at emission time if something shadows
# them in the scope where the annotation appears.
_MARK = "\x00"
_MARKED = re.compile(_MARK + r"(\w+)" + _MARK)
_WORD = re.compile(r"[A-Za-z_]\w*")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def _n(name: str) -> str:
    return f"{_MARK}{name}{_MARK}"


_ANY = _n("Any")


# --- escaping --------------------------------------------------------------------------


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _docstring_body(text: str) -> str:
    """``text`` escaped to sit between triple double quotes in a non-raw string."""
    out: list[str] = []
    quotes = 0
    for ch in text:
        if ch == '"':
            quotes += 1
            if quotes == 3:
                out.append('\\"')
                quotes = 0
            else:
                out.append('"')
            continue
        quotes = 0
        if ch == "\\":
            out.append("\\\\")
        elif "\ud800" <= ch <= "\udfff":
            # A lone surrogate is not text; in a class docstring it even breaks class
            # creation (CPython encodes tp_doc as UTF-8), so show the replacement character.
            out.append("\ufffd")
        elif ch in "\n\t " or ch.isprintable():
            out.append(ch)
        else:
            out.append(_escape_char(ch))
    # A quote just before the closing """ would end the string early.
    index = len(out)
    while index > 0 and out[index - 1] == '"':
        index -= 1
        out[index] = '\\"'
    return "".join(out)


def _docstring(text: str, indent: str) -> list[str]:
    body = _docstring_body(text.strip("\n"))
    lines = body.split("\n")
    rendered = [f'{indent}"""{lines[0]}']
    rendered.extend(f"{indent}{line}" if line.strip() else "" for line in lines[1:])
    if len(lines) == 1:
        return [rendered[0] + '"""']
    rendered.append(f'{indent}"""')
    return rendered


def _one_line(text: str, limit: int) -> str:
    cleaned = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 3] + "..."


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _pascal(text: str) -> str:
    parts = re.split(r"[^A-Za-z0-9]+", text)
    name = "".join(p[:1].upper() + p[1:] for p in parts if p)
    if not name or name[0].isdigit():
        name = "T" + name
    # Three keywords are capitalised already: a property named "true" would make `class True`.
    return name + "_" if keyword.iskeyword(name) else name


def _literal_repr(value: Any) -> str | None:
    """Source text of ``value`` inside ``Literal[...]``; None when Literal cannot hold it."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "".join(c if c.isprintable() or c == " " else _escape_char(c) for c in repr(value))
    return None


# --- types -------------------------------------------------------------------------------


@dataclass
class _Type:
    """A rendered type: plain members plus literal values, so unions can merge Literals."""

    members: list[str] = field(default_factory=list)
    literals: list[str] = field(default_factory=list)

    @staticmethod
    def of(text: str) -> _Type:
        return _Type(members=[text])

    def text(self) -> str:
        members = [m for m in dict.fromkeys(self.members)]
        if _ANY in members:
            return _ANY
        parts = []
        literals = list(dict.fromkeys(self.literals))
        if literals:
            parts.append(f"{_n('Literal')}[{', '.join(literals)}]")
        has_none = "None" in members
        parts.extend(m for m in members if m != "None")
        if has_none:
            parts.append("None")
        return " | ".join(parts) if parts else _ANY


def _union(types: Sequence[_Type]) -> _Type:
    out = _Type()
    for t in types:
        out.members.extend(t.members)
        out.literals.extend(t.literals)
    return out


@dataclass
class _Field:
    key: str
    type_text: str
    required: bool
    description: str


@dataclass
class _TypedDictSpec:
    name: str
    fields: list[_Field]
    description: str


class _Module:
    """Everything rendered into one declarations module."""

    def __init__(self, reserved: set[str]) -> None:
        self.taken = set(reserved) | _BUILTIN_NAMES | _TYPING_NAMES | {"builtins", "typing"}
        self.typeddicts: list[_TypedDictSpec] = []
        self.memo: dict[int, str] = {}
        # Keep memoised schemas alive so their ids cannot be reused by other objects.
        self.pinned: list[Any] = []

    def claim(self, base: str) -> str:
        name = base
        counter = 2
        while name in self.taken:
            name = f"{base}{counter}"
            counter += 1
        self.taken.add(name)
        return name


class _SchemaRenderer:
    """Renders the schemas of one tool (one ``$ref`` root) into ``_Module``."""

    def __init__(self, module: _Module, root: Any) -> None:
        self.module = module
        self.root = root
        self.stack: list[int] = []

    def resolve(self, ref: str) -> tuple[Any, str] | None:
        if ref == "#":
            return self.root, "Root"
        if not ref.startswith("#/"):
            return None
        current = self.root
        last = "Ref"
        for raw in ref[2:].split("/"):
            part = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(current, Mapping) and part in current:
                current = current[part]
            elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
                current = current[int(part)]
            else:
                return None
            last = part
        return current, last

    def type_of(self, schema: Any, hint: str, depth: int) -> _Type:
        if not isinstance(schema, Mapping) or depth > MAX_DEPTH or id(schema) in self.stack:
            return _Type.of(_ANY)
        self.stack.append(id(schema))
        try:
            result = self._type_of(schema, hint, depth)
        finally:
            self.stack.pop()
        if schema.get("nullable") is True and _ANY not in result.members:
            result.members.append("None")
        return result

    def _type_of(self, schema: Mapping[str, Any], hint: str, depth: int) -> _Type:
        ref = schema.get("$ref")
        if isinstance(ref, str):
            resolved = self.resolve(ref)
            if resolved is None:
                return _Type.of(_ANY)
            target, name = resolved
            return self.type_of(target, _pascal(name), depth + 1)
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                return _union(
                    [
                        self.type_of(option, f"{hint}Option{i + 1}", depth + 1)
                        for i, option in enumerate(options)
                    ]
                )
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            return self._all_of(schema, all_of, hint, depth)
        if isinstance(schema.get("enum"), list):
            return self._enum(schema["enum"], schema, hint)
        if "const" in schema:
            return self._enum([schema["const"]], schema, hint)
        declared = schema.get("type")
        if isinstance(declared, list):
            return _union(
                [
                    self._by_type(schema, t, hint, depth)
                    for t in declared
                    if isinstance(t, str)
                ]
            )
        if isinstance(declared, str):
            return self._by_type(schema, declared, hint, depth)
        if any(k in schema for k in ("properties", "additionalProperties", "patternProperties")):
            return self._object(schema, hint, depth)
        if "items" in schema or "prefixItems" in schema:
            return self._array(schema, hint, depth)
        return _Type.of(_ANY)

    def _all_of(
        self, schema: Mapping[str, Any], parts: list[Any], hint: str, depth: int
    ) -> _Type:
        resolved = []
        for part in parts:
            while isinstance(part, Mapping) and isinstance(part.get("$ref"), str):
                found = self.resolve(part["$ref"])
                part = found[0] if found else None
            resolved.append(part)
        if all(isinstance(p, Mapping) and "properties" in p for p in resolved):
            merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
            for part in resolved:
                merged["properties"].update(part.get("properties") or {})
                merged["required"].extend(part.get("required") or [])
            if "description" in schema:
                merged["description"] = schema["description"]
            # The merged schema is new, so pin it: the memo is keyed by object id.
            self.module.pinned.append(merged)
            return self.type_of(merged, hint, depth + 1)
        return self.type_of(parts[0], hint, depth + 1)

    def _enum(self, values: list[Any], schema: Mapping[str, Any], hint: str) -> _Type:
        if not values:
            return _Type.of(_ANY)
        if len(values) > MAX_LITERAL_MEMBERS:
            return _union([_Type.of(_python_type_of_value(v)) for v in values])
        out = _Type()
        for value in values:
            literal = _literal_repr(value)
            if value is None:
                out.members.append("None")
            elif literal is not None:
                out.literals.append(literal)
            else:
                out.members.append(_python_type_of_value(value))
        return out

    def _by_type(self, schema: Mapping[str, Any], name: str, hint: str, depth: int) -> _Type:
        simple = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
        if name in simple:
            return _Type.of(_n(simple[name]))
        if name == "null":
            return _Type.of("None")
        if name == "array":
            return self._array(schema, hint, depth)
        if name == "object":
            return self._object(schema, hint, depth)
        return _Type.of(_ANY)

    def _array(self, schema: Mapping[str, Any], hint: str, depth: int) -> _Type:
        item_types: list[_Type] = []
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if isinstance(prefix, list):
            item_types.extend(
                self.type_of(p, f"{hint}Item{i + 1}", depth + 1) for i, p in enumerate(prefix)
            )
            if isinstance(items, Mapping):
                item_types.append(self.type_of(items, f"{hint}Item", depth + 1))
        elif isinstance(items, list):  # draft 4-7 tuple form
            item_types.extend(
                self.type_of(p, f"{hint}Item{i + 1}", depth + 1) for i, p in enumerate(items)
            )
        elif isinstance(items, Mapping):
            item_types.append(self.type_of(items, f"{hint}Item", depth + 1))
        inner = _union(item_types).text() if item_types else _ANY
        return _Type.of(f"{_n('list')}[{inner}]")

    def _object(self, schema: Mapping[str, Any], hint: str, depth: int) -> _Type:
        props = schema.get("properties")
        if isinstance(props, Mapping) and props:
            return _Type.of(self.typeddict(schema, hint, depth))
        extra = schema.get("additionalProperties")
        value_types: list[_Type] = []
        if isinstance(extra, Mapping):
            value_types.append(self.type_of(extra, f"{hint}Value", depth + 1))
        patterns = schema.get("patternProperties")
        if isinstance(patterns, Mapping):
            value_types.extend(
                self.type_of(p, f"{hint}Value", depth + 1) for p in patterns.values()
            )
        value = _union(value_types).text() if value_types else _ANY
        return _Type.of(f"{_n('dict')}[{_n('str')}, {value}]")

    def typeddict(self, schema: Mapping[str, Any], hint: str, depth: int) -> str:
        known = self.module.memo.get(id(schema))
        if known is not None:
            return known
        name = self.module.claim(hint)
        self.module.memo[id(schema)] = name
        self.module.pinned.append(schema)
        props = schema.get("properties") or {}
        required = set(_strings(schema.get("required")))
        fields = []
        # On the stack while its fields render: a reference back to it is a cycle (Any),
        # never a use of a class that is not defined yet.
        self.stack.append(id(schema))
        try:
            for key, prop in props.items():
                type_text = self.type_of(prop, f"{name}{_pascal(str(key))}", depth + 1).text()
                fields.append(_Field(str(key), type_text, key in required, _description(prop)))
        finally:
            self.stack.pop()
        self.module.typeddicts.append(
            _TypedDictSpec(name, fields, _description(schema, MAX_TOOL_DESCRIPTION))
        )
        return name


def _python_type_of_value(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return _n("bool")
    if isinstance(value, int):
        return _n("int")
    if isinstance(value, float):
        return _n("float")
    if isinstance(value, str):
        return _n("str")
    if isinstance(value, list):
        return f"{_n('list')}[{_ANY}]"
    return f"{_n('dict')}[{_n('str')}, {_ANY}]"


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _description(schema: Any, limit: int = MAX_FIELD_DESCRIPTION) -> str:
    if isinstance(schema, Mapping) and isinstance(schema.get("description"), str):
        return _clip(schema["description"].strip(), limit)
    return ""


# --- signatures ----------------------------------------------------------------------------


@dataclass
class _Method:
    name: str
    params: list[str]
    returns: str
    doc: str


def _render_method(tool: ToolDef, renderer: _SchemaRenderer, module: _Module) -> _Method:
    base = _pascal(tool.identifier)
    schema: Any = tool.input_schema
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 20:
        found = renderer.resolve(schema["$ref"])
        schema = found[0] if found else {}
        seen += 1
    schema = schema if isinstance(schema, Mapping) else {}
    props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    required = set(_strings(schema.get("required")))
    extra = schema.get("additionalProperties")
    params: list[str] = []
    arg_docs: list[str] = []
    plain_keys = all(isinstance(k, str) and _usable_param(k) for k in props)
    if props and not plain_keys:
        args_name = renderer.typeddict(schema, f"{base}Args", 0)
        params.append(f"**kwargs: {_n('Unpack')}[{args_name}]")
    else:
        if props:
            params.append("*")
        for key, prop in props.items():
            type_text = renderer.type_of(prop, f"{base}{_pascal(key)}", 1).text()
            params.append(f"{key}: {type_text}" + ("" if key in required else " = ..."))
        if isinstance(extra, Mapping) or extra is True or ("properties" not in schema and extra is None):
            extra_type = (
                renderer.type_of(extra, f"{base}Extra", 1).text()
                if isinstance(extra, Mapping)
                else _ANY
            )
            extra_name = "kwargs"
            while extra_name in props:
                extra_name += "_"
            params.append(f"**{extra_name}: {extra_type}")
    for key, prop in props.items():
        text = _description(prop)
        if isinstance(prop, Mapping) and "default" in prop:
            default = f"(default: {_clip(repr(prop['default']), 200)})"
            text = f"{text} {default}" if text else default
        if text:
            arg_docs.append(f"    {key}: {text}")
    returns = _ANY
    output_doc = ""
    if tool.output_schema is not None:
        out_renderer = _SchemaRenderer(module, tool.output_schema)
        returns = out_renderer.type_of(tool.output_schema, f"{base}Output", 0).text()
        output_doc = _description(tool.output_schema)
    doc_parts = [_clip(tool.description.strip(), MAX_TOOL_DESCRIPTION) or tool.name]
    if requires_approval(tool):
        approval = tool.approval or {}
        risk = f" (risk: {approval['risk']})" if "risk" in approval else ""
        when = " for some inputs" if "when" in approval else ""
        doc_parts.append(f"Requires human approval{when} before it runs{risk}.")
    if arg_docs:
        doc_parts.append("Args:\n" + "\n".join(arg_docs))
    if output_doc:
        doc_parts.append("Returns:\n    " + output_doc)
    return _Method(tool.identifier, params, returns, "\n\n".join(doc_parts))


def _usable_param(key: str) -> bool:
    return key.isidentifier() and not keyword.iskeyword(key) and not (
        key.startswith("__") and key.endswith("__")
    )


# --- emission ------------------------------------------------------------------------------


class _Emitter:
    def __init__(self, shadow_module: set[str], taken: set[str]) -> None:
        self.module_shadow = shadow_module
        self.taken = taken
        self.aliases: dict[str, str] = {}

    def alias(self, module: str) -> str:
        if module not in self.aliases:
            name = module
            while name in self.taken:
                name += "_"
            self.taken.add(name)
            self.aliases[module] = name
        return self.aliases[module]

    def qualify(self, text: str, shadow: set[str]) -> str:
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in shadow:
                return name
            module = "builtins" if name in _BUILTIN_NAMES else "typing"
            return f"{self.alias(module)}.{name}"

        return _MARKED.sub(replace, text)

    def typeddict(self, spec: _TypedDictSpec) -> list[str]:
        shadow = self.module_shadow
        base = self.qualify(_n("TypedDict"), shadow)
        rendered = [
            (f, self.qualify(f.type_text, shadow)) for f in spec.fields
        ]
        annotation_words = {w for _, t in rendered for w in _WORD.findall(_STRING.sub("", t))}
        class_syntax = all(
            _usable_param(f.key) and f.key not in annotation_words for f in spec.fields
        )
        not_required = self.qualify(_n("NotRequired"), shadow)
        lines: list[str] = []
        if class_syntax:
            lines.append(f"class {spec.name}({base}):")
            if spec.description:
                lines.extend(_docstring(spec.description, "    "))
            for f, text in rendered:
                if f.description:
                    lines.append(f"    # {_one_line(f.description, 300)}")
                lines.append(f"    {f.key}: {text if f.required else f'{not_required}[{text}]'}")
            if not spec.fields and not spec.description:
                lines.append("    pass")
            return lines
        if spec.description:
            lines.append(f"# {spec.name}: {_one_line(spec.description, 300)}")
        lines.append(f"{spec.name} = {base}(")
        lines.append(f"    {spec.name!r},")
        lines.append("    {")
        for f, text in rendered:
            if f.description:
                lines.append(f"        # {_one_line(f.description, 300)}")
            key = _literal_repr(f.key)
            lines.append(f"        {key}: {text if f.required else f'{not_required}[{text}]'},")
        lines.append("    },")
        lines.append(")")
        return lines

    def namespace(self, name: str, methods: list[_Method], doc: str) -> list[str]:
        shadow = self.module_shadow | {m.name for m in methods}
        protocol = self.qualify(_n("Protocol"), self.module_shadow)
        lines = [f"class {name}({protocol}):"]
        lines.extend(_docstring(doc, "    "))
        decorator = self.qualify(_n("staticmethod"), shadow)
        for method in methods:
            params = ", ".join(self.qualify(p, shadow) for p in method.params)
            returns = self.qualify(method.returns, shadow)
            lines.append("")
            lines.append(f"    @{decorator}")
            signature = f"    def {method.name}({params}) -> {returns}:"
            if len(signature) <= 99:
                lines.append(signature)
            else:
                lines.append(f"    def {method.name}(")
                lines.extend(f"        {self.qualify(p, shadow)}," for p in method.params)
                lines.append(f"    ) -> {returns}:")
            lines.extend(_docstring(method.doc, "        "))
        return lines


_HEADER = (
    "Typed declarations of the tools this code can call (generated, read-only).\n\n"
    "Call a tool with keyword arguments, e.g. tools.get_weather(city=\"Paris\"). Arguments\n"
    "shown with `= ...` are optional and may be left out. A tool's failure is raised as\n"
    "ToolError; invalid arguments are rejected before the tool runs."
)


def render_declarations(
    namespaces: Mapping[str, Sequence[ToolDef]],
    *,
    include_unimplemented: bool = False,
    header: bool = True,
) -> str:
    """Python source declaring every namespace's tools; ``ast.parse``-able and mypy-clean.

    ``namespaces`` maps a namespace name (``"tools"``, a toolset's name) to its tools.
    Tools without an implementation (no ``url`` and no callable) are left out unless
    ``include_unimplemented`` is set, for tools the caller resolves itself.
    """
    ensure_unique(namespaces, kind="namespaces")
    chosen: dict[str, list[ToolDef]] = {}
    for raw_name, tools in namespaces.items():
        ensure_unique((t.name for t in tools), kind="tools")
        kept = [t for t in tools if include_unimplemented or t.has_implementation]
        chosen[sanitise_name(raw_name)] = kept
    method_names = {t.identifier for tools in chosen.values() for t in tools}
    module = _Module(set(chosen) | method_names)
    rendered: dict[str, list[_Method]] = {}
    for ns, tools in chosen.items():
        methods = []
        for tool in tools:
            renderer = _SchemaRenderer(module, tool.input_schema)
            methods.append(_render_method(tool, renderer, module))
        rendered[ns] = methods
    if set(rendered) - {TOOLS_NAMESPACE}:
        rendered.setdefault(TOOLS_NAMESPACE, [])
    note = tools_note({ns: [t.identifier for t in tools] for ns, tools in chosen.items()})
    return _assemble(module, rendered, [], header=header, tools_note=note)


TOOLS_NAMESPACE = "tools"


def tools_view(namespaces: Mapping[str, Sequence[str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """What ``tools`` holds besides its own tools, by the rule the guest applies
    (``wasm/guest/namespaces.py``): ``(lent, ambiguous)``. ``lent`` maps each tool name
    defined by exactly one other namespace to it; ``ambiguous`` maps a name more than one
    namespace defines (``tools`` first when it is one) to them: only reachable through them.
    """
    owners: dict[str, list[str]] = {}
    for namespace, names in namespaces.items():
        for name in names:
            owners.setdefault(name, []).append(namespace)
    lent: dict[str, str] = {}
    ambiguous: dict[str, list[str]] = {}
    for name, where in owners.items():
        if len(where) > 1:
            ambiguous[name] = sorted(where, key=lambda ns: (ns != TOOLS_NAMESPACE, ns))
        elif where[0] != TOOLS_NAMESPACE:
            lent[name] = where[0]
    return lent, ambiguous


def tools_note(namespaces: Mapping[str, Sequence[str]]) -> str:
    """The sentences the ``tools`` namespace's declaration adds about the other namespaces."""
    others = sorted(ns for ns in namespaces if ns != TOOLS_NAMESPACE)
    if not others:
        return ""
    lent, ambiguous = tools_view(namespaces)
    lines = [f"tools also holds every tool of {', '.join(others)}: tools.<tool>(...) calls "
             f"<namespace>.<tool>(...)."]
    elsewhere = [name for name, where in sorted(ambiguous.items()) if TOOLS_NAMESPACE not in where]
    if elsewhere:
        lines.append("Defined by more than one namespace, so only reachable through its "
                     "namespace: " + "; ".join(
                         f"{name} ({', '.join(ambiguous[name])})" for name in elsewhere) + ".")
    shadowed = [name for name, where in sorted(ambiguous.items()) if TOOLS_NAMESPACE in where]
    if shadowed:
        lines.append("tools' own tools keep their names; the other namespaces' tools of those "
                     "names are only reachable through them: " + "; ".join(
                         f"{name} ({', '.join(ambiguous[name][1:])})" for name in shadowed) + ".")
    return "\n".join(lines) if lent or ambiguous else lines[0]


def _assemble(
    module: _Module,
    namespaces: Mapping[str, list[_Method]],
    aliases: list[tuple[str, str]],
    *,
    header: bool,
    tools_note: str = "",
) -> str:
    defined = (
        set(namespaces)
        | {m.name for methods in namespaces.values() for m in methods}
        | {spec.name for spec in module.typeddicts}
        | {name for name, _ in aliases}
    )
    emitter = _Emitter(set(namespaces), defined)
    body: list[str] = []
    for spec in module.typeddicts:
        body.extend(["", ""])
        body.extend(emitter.typeddict(spec))
    for name, type_text in aliases:
        body.extend(["", ""])
        body.append(f"{name} = {emitter.qualify(type_text, emitter.module_shadow)}")
    for ns, methods in namespaces.items():
        body.extend(["", ""])
        doc = f'Namespace "{ns}": call its tools as {ns}.<tool>(...).'
        if ns == TOOLS_NAMESPACE and tools_note:
            doc += "\n\n" + tools_note
        body.extend(emitter.namespace(ns, methods, doc))
    lines: list[str] = []
    if header:
        lines.extend(_docstring(_HEADER, ""))
        lines.append("")
    lines.append("from __future__ import annotations")
    lines.append("")
    imports = sorted(n for n in _TYPING_NAMES if n not in emitter.module_shadow)
    lines.append(f"from typing import {', '.join(imports)}")
    for module_name, alias in sorted(emitter.aliases.items()):
        lines.append(f"import {module_name}" + (f" as {alias}" if alias != module_name else ""))
    return "\n".join(lines + body) + "\n"


def render_schema(schema: Any, name: str) -> str:
    """Python source declaring one JSON Schema as the type ``name`` (a TypedDict or alias)."""
    type_name = _pascal(sanitise_name(name))
    module = _Module({type_name})
    module.taken.discard(type_name)
    text = _SchemaRenderer(module, schema).type_of(schema, type_name, 0).text()
    aliases = [] if text == type_name else [(module.claim(type_name), text)]
    return _assemble(module, {}, aliases, header=False)


def render_namespace(
    name: str, tools: Sequence[ToolDef], *, include_unimplemented: bool = False
) -> str:
    """The declarations of one namespace (what ``codemode.describe("github")`` shows)."""
    return render_declarations(
        {name: tools}, include_unimplemented=include_unimplemented, header=False
    )


def render_tool(tool: ToolDef, namespace: str = "tools") -> str:
    """The declarations one tool needs: its types and its method in its namespace."""
    return render_declarations({namespace: [tool]}, include_unimplemented=True, header=False)

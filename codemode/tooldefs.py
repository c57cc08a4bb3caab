"""Tool and toolset definitions: what a tool is, checked once when it is defined.

A tool is JSON (``ToolDef.from_dict``) or a plain Python callable (``tool_from_callable``).
Every definition is validated on creation and the whole list of problems is reported in one
:class:`~codemode.errors.ToolDefinitionError`:

- ``input_schema`` (and ``output_schema``, ``approval.when``) must be valid JSON Schema
  under their ``$schema`` (Draft 2020-12 when absent), checked against the metaschema;
- ``$ref`` must be local (``#...``): the service never fetches schemas from the network,
  so a definition cannot make it issue requests to arbitrary URLs;
- ``url`` and ``revert_url`` are absolute ``http``/``https`` URLs; ``headers`` are strings
  and may not set the signing headers;
- ``timeout_ms`` is an integer; ``<= 0`` disables the per-tool timeout as in the reference
  (the execution deadline still applies).

:func:`validate_arguments` checks a call's arguments against the input schema before
anything runs and lists every problem in one :class:`~codemode.errors.ToolArgumentsError`.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import enum
import functools
import inspect
import json
import math
import re
import secrets
import types
import typing
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, cast
from urllib.parse import urlsplit

import referencing
import referencing.exceptions
from jsonschema import validators

from codemode.errors import ToolArgumentsError, ToolDefinitionError
from codemode.names import ensure_unique, sanitise_name

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "ParsedDocstring",
    "ToolDef",
    "Toolset",
    "bind_arguments",
    "new_toolset_secret",
    "parse_docstring",
    "requires_approval",
    "schema_problems",
    "tool_from_callable",
    "validate_arguments",
]

DEFAULT_TIMEOUT_MS = 30_000
MAX_SCHEMA_DEPTH = 64
_CACHEABLE_SCHEMA_CHARS = 50_000
RESERVED_NAMESPACES = frozenset({"state", "codemode"})
# Headers the signing scheme owns; a tool's own headers must not be able to forge them.
SIGNING_HEADERS = frozenset(
    {"x-sandbox-signature", "x-sandbox-timestamp", "content-type", "content-length", "host"}
)

_PYTHON_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))
_APPROVAL_KEYS = frozenset({"mode", "when", "summary", "risk"})
_RISKS = ("low", "medium", "high")
_TOOLSET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")


def _refuse_retrieval(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


# Remote $refs are refused at definition time; this registry makes sure that a reference
# that slips past that check still cannot trigger a network fetch during validation.
_OFFLINE_REGISTRY: referencing.Registry[Any] = referencing.Registry(
    retrieve=_refuse_retrieval  # type: ignore[call-arg]  # attrs alias mypy cannot see
)
_UNKNOWN = object()


def _validator_class(schema: Any) -> Any:
    """The jsonschema validator class ``$schema`` names, Draft 2020-12 if absent; None if unknown."""
    if not isinstance(schema, Mapping) or "$schema" not in schema:
        return validators.Draft202012Validator
    found = validators.validator_for(schema, default=_UNKNOWN)
    if found is _UNKNOWN:
        return None
    return found


@functools.cache
def _meta_validator(cls: Any) -> Any:
    """A validator for ``cls``'s metaschema; built once, since building one is costly."""
    return cls(cls.META_SCHEMA)


def _json_problems(value: Any, where: str, depth: int = 0) -> Iterator[str]:
    """Yield why ``value`` is not plain JSON data (or nests deeper than MAX_SCHEMA_DEPTH)."""
    if depth > MAX_SCHEMA_DEPTH:
        yield f"{where} nests deeper than {MAX_SCHEMA_DEPTH} levels"
        return
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            yield f"{where} contains a non-finite number ({value})"
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                yield f"{where} has a non-string key {key!r}"
                continue
            yield from _json_problems(item, f"{where}.{key}", depth + 1)
        return
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _json_problems(item, f"{where}[{index}]", depth + 1)
        return
    yield f"{where} contains a {type(value).__name__}, which is not JSON"


def _walk_refs(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        ref = value.get("$ref")
        if isinstance(ref, str):
            yield ref
        for item in value.values():
            yield from _walk_refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk_refs(item)


def _resolve_pointer(root: Any, ref: str) -> bool:
    """True when the local JSON pointer ``ref`` (``#/a/b``) names something inside ``root``."""
    current = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return False
    return True


def schema_problems(schema: Any, label: str, *, require_object: bool = False) -> list[str]:
    """Every reason ``schema`` is not a usable JSON Schema; empty when it is fine."""
    if isinstance(schema, bool) and not require_object:
        return []
    if not isinstance(schema, Mapping):
        return [f"{label} must be a JSON Schema object, not {type(schema).__name__}"]
    problems = list(_json_problems(schema, label))
    if problems:
        return problems
    # Checking against the 2020-12 metaschema costs milliseconds ($dynamicRef), and stored
    # toolsets are re-validated every time they are loaded, so results are cached by text.
    text = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    if len(text) > _CACHEABLE_SCHEMA_CHARS:  # keep the cache's memory bounded
        return _uncached_schema_problems(schema, label, require_object)
    return list(_cached_schema_problems(text, label, require_object))


@functools.lru_cache(maxsize=4096)
def _cached_schema_problems(text: str, label: str, require_object: bool) -> tuple[str, ...]:
    return tuple(_uncached_schema_problems(json.loads(text), label, require_object))


def _uncached_schema_problems(
    schema: Mapping[str, Any], label: str, require_object: bool
) -> list[str]:
    problems: list[str] = []
    cls = _validator_class(schema)
    if cls is None:
        return [f"{label} names an unknown $schema {schema.get('$schema')!r}"]
    try:
        meta = _meta_validator(cls)
        for error in sorted(meta.iter_errors(schema), key=lambda e: list(map(str, e.path))):
            where = "".join(f"[{p!r}]" for p in error.path)
            problems.append(f"{label}{where} is not valid JSON Schema: {_short(error.message)}")
    except RecursionError:
        return [f"{label} nests too deeply to check"]
    has_nested_ids = any(
        isinstance(sub, Mapping) and "$id" in sub for sub in _subschemas(schema)
    )
    for ref in _walk_refs(schema):
        if not ref.startswith("#"):
            problems.append(
                f"{label} has a non-local $ref {ref!r}; only references inside the schema "
                "(#/$defs/...) are supported"
            )
        elif ref.startswith("#/") and not has_nested_ids and not _resolve_pointer(schema, ref):
            problems.append(f"{label} has a $ref {ref!r} that points at nothing")
    if require_object and not problems:
        declared = schema.get("type")
        types_ = [declared] if isinstance(declared, str) else declared
        if isinstance(types_, list) and "object" not in types_:
            problems.append(
                f"{label} must describe an object (tools are called with keyword arguments), "
                f"not type {declared!r}"
            )
    return problems


def _subschemas(value: Any) -> Iterator[Any]:
    if isinstance(value, Mapping):
        for item in value.values():
            if isinstance(item, Mapping):
                yield item
            yield from _subschemas(item)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                yield item
            yield from _subschemas(item)


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _compile(schema: Any) -> Any:
    cls = _validator_class(schema)
    return cls(schema, registry=_OFFLINE_REGISTRY)


def _url_problem(value: Any, label: str) -> str | None:
    if not isinstance(value, str):
        return f"{label} must be a string URL"
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"{label} must be an absolute http(s) URL, got {_short(value, 200)!r}"
    return None


def _approval_problems(approval: Any) -> list[str]:
    if not isinstance(approval, Mapping):
        return ["approval must be an object {mode, when?, summary?, risk?}"]
    problems = [f"approval has an unknown key {k!r}" for k in approval if k not in _APPROVAL_KEYS]
    if approval.get("mode") not in ("inline", "durable"):
        problems.append('approval.mode must be "inline" or "durable"')
    if "when" in approval:
        problems.extend(schema_problems(approval["when"], "approval.when"))
    if "summary" in approval and not isinstance(approval["summary"], str):
        problems.append("approval.summary must be a string")
    if "risk" in approval and approval["risk"] not in _RISKS:
        problems.append("approval.risk must be one of low, medium, high")
    return problems


@dataclass(frozen=True)
class ToolDef:
    """One tool the model may call, as JSON plus an optional in-process implementation."""

    name: str
    """The tool's name as given; the model calls it by ``sanitise_name(name)``."""
    description: str = ""
    """What the tool does, shown to the model as the method's docstring."""
    input_schema: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}}, hash=False
    )
    """JSON Schema of the keyword arguments (an object schema)."""
    output_schema: Mapping[str, Any] | bool | None = field(default=None, hash=False)
    """JSON Schema of the return value, used for the declared return type."""
    url: str | None = None
    """Where the service POSTs calls (see ``codemode.remote``); None for in-process tools."""
    headers: Mapping[str, str] | None = field(default=None, hash=False)
    """Extra HTTP headers sent with each call (for example an API key for the agent host)."""
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    """Per-call timeout; ``<= 0`` disables it (the execution deadline still applies)."""
    approval: Mapping[str, Any] | None = field(default=None, hash=False)
    """``{"mode": "inline"|"durable", "when"?: schema, "summary"?, "risk"?}``; None: no approval."""
    permissions: tuple[str, ...] | None = None
    """Permissions the caller must hold (checked by the durable runtime)."""
    idempotency_key: str | None = None
    """An explicit idempotency key for the action ledger (see reference section 4)."""
    revert_url: str | None = None
    """Where rollback POSTs to undo an applied call; None when the tool cannot be reverted."""
    func: Callable[..., Any] | None = field(default=None, compare=False, hash=False, repr=False)
    """The Python implementation when the tool came from ``tool_from_callable``."""
    _validator: Any = field(default=None, init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.name, str) or not self.name.strip():
            problems.append("name must be a non-empty string")
        elif len(self.name) > 256:
            problems.append("name must be at most 256 characters")
        if not isinstance(self.description, str):
            problems.append("description must be a string")
        problems.extend(schema_problems(self.input_schema, "input_schema", require_object=True))
        if self.output_schema is not None:
            problems.extend(schema_problems(self.output_schema, "output_schema"))
        for label, value in (("url", self.url), ("revert_url", self.revert_url)):
            if value is not None and (problem := _url_problem(value, label)):
                problems.append(problem)
        problems.extend(self._header_problems())
        if isinstance(self.timeout_ms, bool) or not isinstance(self.timeout_ms, int):
            problems.append("timeout_ms must be an integer number of milliseconds")
        if self.approval is not None:
            problems.extend(_approval_problems(self.approval))
        if self.permissions is not None:
            if isinstance(self.permissions, str) or not isinstance(
                self.permissions, (list, tuple)
            ):
                problems.append("permissions must be a list of strings")
            elif not all(isinstance(p, str) and p for p in self.permissions):
                problems.append("permissions must be non-empty strings")
        if self.idempotency_key is not None and (
            not isinstance(self.idempotency_key, str) or not self.idempotency_key
        ):
            problems.append("idempotency_key must be a non-empty string")
        if self.func is not None and not callable(self.func):
            problems.append("func must be callable")
        if problems:
            name = self.name if isinstance(self.name, str) else repr(self.name)
            raise ToolDefinitionError(f'tool "{name}"', problems)
        # Own deep copies, so later mutation of the caller's dicts cannot change a
        # validated definition behind its back.
        set_ = object.__setattr__
        set_(self, "input_schema", copy.deepcopy(dict(self.input_schema)))
        if isinstance(self.output_schema, Mapping):
            set_(self, "output_schema", copy.deepcopy(dict(self.output_schema)))
        if self.headers is not None:
            set_(self, "headers", dict(self.headers))
        if self.approval is not None:
            set_(self, "approval", copy.deepcopy(dict(self.approval)))
        if self.permissions is not None:
            set_(self, "permissions", tuple(self.permissions))
        set_(self, "_validator", _compile(self.input_schema))

    def _header_problems(self) -> list[str]:
        if self.headers is None:
            return []
        if not isinstance(self.headers, Mapping):
            return ["headers must be an object of string values"]
        problems = []
        for key, value in self.headers.items():
            if not isinstance(key, str) or not isinstance(value, str):
                problems.append("headers must map strings to strings")
            elif not key or any(c in key + value for c in "\r\n\x00"):
                problems.append(f"header {key!r} is empty or contains a line break")
            elif key.lower() in SIGNING_HEADERS:
                problems.append(f"header {key!r} is set by the service and cannot be overridden")
        return problems

    @property
    def identifier(self) -> str:
        """The Python name the model calls this tool by."""
        return sanitise_name(self.name)

    @property
    def has_implementation(self) -> bool:
        """True when the service itself can run the tool (it has a url or a callable)."""
        return self.url is not None or self.func is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form accepted by :meth:`from_dict`; ``func`` is not serialisable and dropped."""
        data: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "input_schema": copy.deepcopy(self.input_schema),
            "timeout_ms": self.timeout_ms,
        }
        optional: dict[str, Any] = {
            "output_schema": self.output_schema,
            "url": self.url,
            "headers": self.headers,
            "approval": self.approval,
            "permissions": list(self.permissions) if self.permissions is not None else None,
            "idempotency_key": self.idempotency_key,
            "revert_url": self.revert_url,
        }
        data.update({k: copy.deepcopy(v) for k, v in optional.items() if v is not None})
        return data

    @classmethod
    def from_dict(cls, data: Any) -> ToolDef:
        """Parse the JSON form, reporting unknown keys and wrong types together."""
        if not isinstance(data, Mapping):
            raise ToolDefinitionError("tool", ["a tool definition must be a JSON object"])
        known = {f.name for f in dataclasses.fields(cls) if f.init and f.name != "func"}
        unknown = sorted(str(k) for k in data if k not in known)
        if "name" not in data:
            raise ToolDefinitionError("tool", ["name is required", *_unknown(unknown)])
        if unknown:
            raise ToolDefinitionError(f'tool "{data["name"]}"', _unknown(unknown))
        kwargs = dict(data)
        if isinstance(kwargs.get("permissions"), list):
            kwargs["permissions"] = tuple(kwargs["permissions"])
        return cls(**kwargs)


def _unknown(keys: Sequence[str]) -> list[str]:
    return [f"unknown key {k!r}" for k in keys]


def validate_arguments(tool: ToolDef, args: Any) -> None:
    """Raise :class:`ToolArgumentsError` listing every way ``args`` fails the input schema."""
    if not isinstance(args, Mapping):
        raise ToolArgumentsError(
            tool.name,
            [{"path": "", "message": f"arguments must be an object, not {type(args).__name__}"}],
        )
    try:
        errors = list(tool._validator.iter_errors(args))
    except referencing.exceptions.Unresolvable as exc:
        raise ToolDefinitionError(
            f'tool "{tool.name}"', [f"input_schema has an unresolvable $ref: {exc}"]
        ) from exc
    except RecursionError as exc:
        raise ToolArgumentsError(
            tool.name, [{"path": "", "message": "arguments nest too deeply to validate"}]
        ) from exc
    if errors:
        errors.sort(key=lambda e: (_path(e.absolute_path), e.message))
        raise ToolArgumentsError(
            tool.name,
            [{"path": _path(e.absolute_path), "message": _short(e.message)} for e in errors],
        )


def _path(parts: Sequence[Any] | Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def requires_approval(tool: ToolDef, args: Mapping[str, Any] | None = None) -> bool:
    """Whether a call needs approval; without ``args``, whether any call may need it."""
    if tool.approval is None:
        return False
    when = tool.approval.get("when")
    if when is None or args is None:
        return True
    return bool(_compile(when).is_valid(args))


def new_toolset_secret() -> str:
    """A fresh signing secret for a toolset (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Toolset:
    """A named group of tools sharing one signing secret; the model sees it as a namespace."""

    name: str
    """Stored name (``PUT /v1/toolsets/{name}``); the namespace is ``sanitise_name(name)``."""
    tools: tuple[ToolDef, ...]
    """The tools, in the order they were given; their sanitised names are unique."""
    secret: str = field(repr=False)
    """Key for the HMAC that signs every remote call of this toolset's tools."""

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.name, str) or not _TOOLSET_NAME.match(self.name):
            problems.append(
                "name must start with a letter or _ and contain only letters, digits, _ "
                "and -, at most 64 characters"
            )
        elif sanitise_name(self.name) in RESERVED_NAMESPACES:
            problems.append(f"name {self.name!r} is reserved for a built-in namespace")
        elif sanitise_name(self.name) in _PYTHON_BUILTINS:
            # The namespace is a global of the model's code; "list" would hide list().
            problems.append(f"name {self.name!r} would hide the Python builtin of that name")
        if not isinstance(self.secret, str) or len(self.secret) < 16:
            problems.append("secret must be a string of at least 16 characters")
        tools = tuple(self.tools)
        if not all(isinstance(t, ToolDef) for t in tools):
            problems.append("tools must be ToolDef instances")
        if problems:
            raise ToolDefinitionError(f"toolset {self.name!r}", problems)
        ensure_unique((t.name for t in tools), kind="tools")
        object.__setattr__(self, "tools", tools)

    @classmethod
    def create(cls, name: str, tools: Sequence[ToolDef]) -> Toolset:
        """A new toolset with a freshly generated secret."""
        return cls(name=name, tools=tuple(tools), secret=new_toolset_secret())

    @classmethod
    def from_dict(cls, data: Any, *, secret: str | None = None) -> Toolset:
        """Parse ``{"name", "tools": [...], "secret"?}``; without a secret, generate one.

        Every invalid tool is reported in one error, not just the first.
        """
        if not isinstance(data, Mapping):
            raise ToolDefinitionError("toolset", ["a toolset must be a JSON object"])
        unknown = sorted(str(k) for k in data if k not in ("name", "tools", "secret"))
        raw_tools = data.get("tools", [])
        if unknown or not isinstance(raw_tools, list):
            problems = _unknown(unknown)
            if not isinstance(raw_tools, list):
                problems.append("tools must be a list of tool definitions")
            raise ToolDefinitionError(f"toolset {data.get('name')!r}", problems)
        tools: list[ToolDef] = []
        problems = []
        for index, raw in enumerate(raw_tools):
            try:
                tools.append(ToolDef.from_dict(raw))
            except ToolDefinitionError as exc:
                problems.extend(f"tools[{index}]: {p}" for p in exc.problems)
        if problems:
            raise ToolDefinitionError(f"toolset {data.get('name')!r}", problems)
        chosen = secret if secret is not None else data.get("secret") or new_toolset_secret()
        return cls(name=data.get("name", ""), tools=tuple(tools), secret=chosen)

    @property
    def namespace(self) -> str:
        """The identifier the model reaches this toolset's tools through."""
        return sanitise_name(self.name)

    def get(self, name: str) -> ToolDef | None:
        """The tool called ``name`` (as given or as sanitised), or None."""
        for tool in self.tools:
            if tool.name == name or tool.identifier == name:
                return tool
        return None

    def to_dict(self, *, include_secret: bool = False) -> dict[str, Any]:
        """JSON form; the secret only when asked for (it is shown once, on creation)."""
        data: dict[str, Any] = {"name": self.name, "tools": [t.to_dict() for t in self.tools]}
        if include_secret:
            data["secret"] = self.secret
        return data


# --- tools from Python callables ---------------------------------------------------------

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


# --- docstrings ----------------------------------------------------------------------------


class ParsedDocstring(NamedTuple):
    """What a tool's docstring says: prose, per-parameter text and the return value."""

    description: str
    params: dict[str, str]
    returns: str


_GOOGLE_HEADER = re.compile(r"^([A-Z][A-Za-z ]*):\s*$")
_GOOGLE_PARAM_SECTIONS = {
    "args", "arguments", "parameters", "params", "keyword args", "keyword arguments",
    "other parameters",
}
_GOOGLE_RETURN_SECTIONS = {"returns", "return", "yields"}
_GOOGLE_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_NUMPY_RULE = re.compile(r"^-{3,}\s*$")
_NUMPY_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(?::.*)?$")
_REST_FIELD = re.compile(r"^:(\w+)((?:\s+[^:]+)?):\s*(.*)$")


def parse_docstring(doc: str) -> ParsedDocstring:
    """Split a Google, NumPy or reST docstring into prose, parameter texts and returns."""
    lines = inspect.cleandoc(doc).splitlines() if doc else []
    prose: list[str] = []
    params: dict[str, str] = {}
    returns: list[str] = []
    i = 0
    in_prose = True
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and not line.startswith(" ") and _NUMPY_RULE.match(nxt):
            in_prose = False
            section = stripped.lower()
            i, entries, body = _numpy_section(lines, i + 2)
            if section in _GOOGLE_PARAM_SECTIONS:
                params.update(entries)
            elif section in _GOOGLE_RETURN_SECTIONS:
                returns.append(body)
            continue
        header = _GOOGLE_HEADER.match(line)
        if header and not line.startswith(" "):
            in_prose = False
            section = header.group(1).lower()
            i, entries, body = _google_section(lines, i + 1)
            if section in _GOOGLE_PARAM_SECTIONS:
                params.update(entries)
            elif section in _GOOGLE_RETURN_SECTIONS:
                returns.append(body)
            continue
        field_match = _REST_FIELD.match(stripped)
        if field_match:
            in_prose = False
            kind, arg, text = field_match.groups()
            i += 1
            while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
                text += " " + lines[i].strip()
                i += 1
            words = arg.split()
            if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and words:
                params[words[-1]] = text.strip()
            elif kind in ("returns", "return"):
                returns.append(text.strip())
            continue
        if in_prose:
            prose.append(line)
        i += 1
    description = "\n".join(prose).strip()
    return ParsedDocstring(description, params, " ".join(r for r in returns if r).strip())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _google_section(lines: list[str], i: int) -> tuple[int, dict[str, str], str]:
    entries: dict[str, str] = {}
    body: list[str] = []
    base: int | None = None
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        if line.strip() and not line.startswith(" "):
            break
        if not line.strip():
            i += 1
            continue
        indent = _indent(line)
        base = indent if base is None else base
        entry = _GOOGLE_ENTRY.match(line.strip())
        if indent == base and entry:
            current = entry.group(1)
            entries[current] = entry.group(3).strip()
        elif current is not None and indent > base:
            entries[current] = (entries[current] + " " + line.strip()).strip()
        body.append(line.strip())
        i += 1
    return i, entries, " ".join(body)


def _numpy_section(lines: list[str], i: int) -> tuple[int, dict[str, str], str]:
    entries: dict[str, str] = {}
    body: list[str] = []
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.strip() and not line.startswith(" ") and _NUMPY_RULE.match(nxt):
            break
        if not line.strip():
            i += 1
            continue
        if not line.startswith(" "):
            entry = _NUMPY_ENTRY.match(line.strip())
            current = entry.group(1) if entry else None
            if current is not None:
                entries[current] = ""
            body.append(line.strip())
        else:
            if current is not None:
                entries[current] = (entries[current] + " " + line.strip()).strip()
            body.append(line.strip())
        i += 1
    return i, entries, " ".join(body)

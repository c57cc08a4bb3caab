"""Tool and toolset definitions: what a tool is, checked once when it is defined.

A tool is JSON (``ToolDef.from_dict``) or a plain Python callable (``tool_from_callable``, in
:mod:`codemode.callables`).
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
import functools
import json
import math
import re
import secrets
import types
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

import referencing
import referencing.exceptions
from jsonschema import validators

from codemode.argcheck import Quick, compile_quick
from codemode.errors import ToolArgumentsError, ToolDefinitionError
from codemode.names import ensure_unique, sanitise_name

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "ToolDef",
    "Toolset",
    "inline_tool",
    "new_toolset_secret",
    "requires_approval",
    "schema_problems",
    "stored_toolset",
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
_TOOLSET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}\Z")


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
    try:
        parts = urlsplit(value)
    except ValueError as exc:  # "http://[" is an unclosed IPv6 literal
        return f"{label} is not a URL ({exc}): {_short(value, 200)!r}"
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
    _quick: Quick | None = field(default=None, init=False, compare=False, hash=False, repr=False)

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
        set_(self, "_quick", compile_quick(self.input_schema))

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
    if tool._quick is not None and tool._quick(args):
        return  # valid, said without jsonschema (codemode.argcheck); errors still come from it
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



_T = TypeVar("_T")


class KeptByText(Generic[_T]):
    """Values parsed from JSON texts, kept by text, the most recently used first, up to
    ``max_chars`` of text in all; a text over an eighth of that is parsed and not kept. The
    bound is on characters, not entries: requests may carry up to 16 MiB, and a client
    sending big distinct definitions must not grow the service's memory past it."""

    def __init__(self, parse: Callable[[str], _T], max_chars: int) -> None:
        self._parse = parse
        self.max_chars = max_chars
        self._kept: OrderedDict[str, _T] = OrderedDict()
        self.chars = 0

    def get(self, text: str) -> _T:
        kept = self._kept.get(text)
        if kept is not None:
            self._kept.move_to_end(text)
            return kept
        value = self._parse(text)  # raises for an invalid one: nothing is kept
        if len(text) <= self.max_chars // 8:
            self._kept[text] = value
            self.chars += len(text)
            while self.chars > self.max_chars:
                dropped, _ = self._kept.popitem(last=False)
                self.chars -= len(dropped)
        return value


_STORED_TOOLSETS = KeptByText(lambda text: Toolset.from_dict(json.loads(text)), 4_000_000)
_INLINE_TOOLS = KeptByText(lambda text: ToolDef.from_dict(json.loads(text)), 4_000_000)


def stored_toolset(definition: str) -> Toolset:
    """A toolset from its stored JSON (secret included), parsed once per distinct text.

    Every execute that names a toolset reads its row, and parsing it (each tool's schema
    checked and compiled) cost 0.04 ms of the service's CPU for one tool and 26 ms for 200.
    The row's text is the key, so a toolset changed by any process is parsed anew, and while
    it is unchanged the same (frozen) objects come back, so the namespace's rendered
    declarations are kept too (``codemode.calls``)."""
    return _STORED_TOOLSETS.get(definition)


def inline_tool(data: Any) -> ToolDef:
    """An inline tool (one an execute request carries) from its JSON, parsed once per
    distinct text, like :func:`stored_toolset`: an agent host sends the same tools with every
    execute, and each one's parse and declarations cost about 0.2 ms of the service's CPU.
    The text keeps the keys' order, which orders the tool's parameters in its declaration."""
    if not isinstance(data, Mapping):
        return ToolDef.from_dict(data)
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):  # not plain JSON: parsed as it is, every time
        return ToolDef.from_dict(data)
    return _INLINE_TOOLS.get(text)

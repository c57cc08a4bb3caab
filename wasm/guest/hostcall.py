"""The guest's one way out: ``call(name, payload)`` over the WIT ``host.call`` import.

Every host call carries a JSON payload and returns a JSON value. A failure comes back as
``{"name", "message", ...}`` and is raised here as a ``ToolError`` whose class also derives
from the matching builtin exception when there is one, so ``except ValueError`` works for a
tool that raised ``ValueError`` on the host and ``except ToolError`` catches every tool
failure. Limits and parking are not errors the guest can see: the host raises those out of
the import, which unwinds the whole isolate.
"""

from __future__ import annotations

import base64
import builtins
import json
from typing import Any, Callable

_loads = json.loads
_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
"""Taken at import, before user code runs: code that replaces ``json.dumps`` changes what it
prints, not how its host calls are encoded (the host checks every payload either way). One
encoder, made once: ``json.dumps`` with options makes one per call."""

LOGS_KEY = "$logs"
"""The payload field that carries the lines printed since the previous host call (the host
takes it out before any handler sees the payload)."""

RawCall = Callable[[str, str], str]
"""The WIT import: ``(name, payload_json) -> result_json``, raising ``Err(error_json)``."""


class ToolError(Exception):
    """A host tool failed. ``name`` is the error's type name on the host side."""

    def __init__(self, name: str, message: str, tool: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.message = message
        self.tool = tool

    def __str__(self) -> str:
        return self.message


_typed_errors: dict[str, type[ToolError]] = {}


def error_class(name: str) -> type[ToolError]:
    """A ToolError subclass named ``name``; also a subclass of the builtin of that name."""
    cached = _typed_errors.get(name)
    if cached is not None:
        return cached
    builtin = getattr(builtins, name, None)
    cls: type[ToolError] = ToolError
    if (
        isinstance(builtin, type)
        and issubclass(builtin, Exception)
        and builtin is not Exception
    ):
        try:
            cls = type(name, (ToolError, builtin), {"__init__": ToolError.__init__,
                                                   "__str__": ToolError.__str__})
        except TypeError:  # builtins with their own C layout (OSError family) cannot mix in
            cls = ToolError
    elif name != "ToolError" and name.isidentifier():
        cls = type(name, (ToolError,), {})
    _typed_errors[name] = cls
    return cls


def encode_value(value: Any) -> Any:
    """Bytes travel as ``{"$bytes": base64}``; everything else must already be JSON."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dict):
        return {k: encode_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    return value


def _encode_payload(payload: dict[str, Any]) -> str:
    """The payload's JSON; bytes tagged. Encoded as it is first: only a payload the encoder
    refuses (bytes among them) is walked, and then encoded again."""
    try:
        return _encode(payload)
    except TypeError:
        return _encode(encode_value(payload))


def decode_value(value: Any) -> Any:
    """The inverse of ``encode_value``."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("$bytes"), str):
            return base64.b64decode(value["$bytes"])
        return {k: decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


_RESERVED_DETAILS = frozenset({"name", "message", "tool", "args", "with_traceback", "add_note"})
"""Attributes a host's ``details`` may not set: the error's own and the exception protocol's."""


def make_error(name: str, message: str, tool: str | None = None,
               details: dict[str, Any] | None = None) -> BaseException:
    """The guest-side exception for a host failure called ``name``.

    Filesystem errors (the ``OSError`` family: ``FileNotFoundError``...) are raised as the
    builtin itself, so ``except FileNotFoundError`` works for ``state.*``; every other
    failure is a ``ToolError`` (see ``error_class``), with each of ``details`` as an
    attribute (``e.status``, ``e.body`` of an HTTP status error).
    """
    builtin = getattr(builtins, name, None)
    if isinstance(builtin, type) and issubclass(builtin, OSError):
        return builtin(message)
    error = error_class(name)(name, message, tool)
    for key, value in (details or {}).items():
        if isinstance(key, str) and key.isidentifier() and not key.startswith("_") \
                and key not in _RESERVED_DETAILS:
            setattr(error, key, decode_value(value))
    return error


class HostChannel:
    """Encodes calls for the WIT import and decodes answers and failures."""

    def __init__(self, raw_call: RawCall, err_type: type[BaseException],
                 new_logs: Callable[[], list[str]] = list) -> None:
        self._raw_call = raw_call
        self._err_type = err_type
        self._new_logs = new_logs

    def call(self, name: str, payload: dict[str, Any]) -> Any:
        logs = self._new_logs()
        if logs:
            payload = {**payload, LOGS_KEY: logs}
        try:
            encoded = _encode_payload(payload)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"arguments for {name!r} are not JSON-serialisable: {exc}") from None
        try:
            answer = self._raw_call(name, encoded)
        except self._err_type as err:
            info = _decode_error(getattr(err, "value", str(err)))
            raise make_error(info["name"], info["message"], info.get("tool"),
                             info.get("details")) from None
        value = _loads(answer)
        # Only text naming the tag (or escaping a character, which could spell it) can hold
        # bytes: the walk is skipped for the rest, two scans in C instead of a Python walk.
        return decode_value(value) if "$bytes" in answer or "\\u" in answer else value


def _decode_error(raw: object) -> dict[str, Any]:
    try:
        info = _loads(str(raw))
    except ValueError:
        info = None
    if not isinstance(info, dict):
        return {"name": "ToolError", "message": str(raw)}
    name = info.get("name") if isinstance(info.get("name"), str) else "ToolError"
    details = info.get("details")
    return {"name": name or "ToolError", "message": str(info.get("message", "")),
            "tool": info.get("tool"), "details": details if isinstance(details, dict) else None}


class Namespace:
    """``tools.<name>(...)``: one attribute per host tool, each a host call."""

    def __init__(self, label: str, channel: HostChannel, tools: list[dict[str, Any]],
                 doc: str = "") -> None:
        self._label = label
        self._functions: dict[str, Callable[..., Any]] = {}
        self.__doc__ = doc or f"Namespace {label}: " + ", ".join(t["name"] for t in tools)
        for spec in tools:
            self._functions[spec["name"]] = _tool_function(label, channel, spec)

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        functions: dict[str, Callable[..., Any]] = self.__dict__.get("_functions", {})
        if attr in functions:
            return functions[attr]
        available = ", ".join(sorted(functions)) or "none"
        raise AttributeError(f"{self._label} has no tool {attr!r}. Available: {available}")

    def __dir__(self) -> list[str]:
        return sorted(self._functions)

    def __repr__(self) -> str:
        return f"<namespace {self._label}: {', '.join(sorted(self._functions))}>"


def _tool_function(namespace: str, channel: HostChannel, spec: dict[str, Any]) -> Callable[..., Any]:
    name = spec["name"]

    keyword_only = bool(spec.get("keyword_only"))

    def tool(*args: Any, **kwargs: Any) -> Any:
        if keyword_only and args:
            raise TypeError(f"{namespace}.{name}() takes keyword arguments only, "
                            f"e.g. {namespace}.{name}(name=value)")
        return channel.call("tool", {"namespace": namespace, "tool": name,
                                     "args": list(args), "kwargs": kwargs})

    tool.__name__ = name
    tool.__qualname__ = f"{namespace}.{name}"
    tool.__doc__ = spec.get("doc") or spec.get("description") or None
    return tool


class StateNamespace:
    """``state.*``: the workspace, one host call per operation."""

    def __init__(self, channel: HostChannel, methods: list[str], doc: str = "") -> None:
        self._channel = channel
        self._methods = frozenset(methods)
        self.__doc__ = doc or "The workspace: " + ", ".join(sorted(methods))

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        methods = self.__dict__.get("_methods", frozenset())
        if attr not in methods:
            raise AttributeError(f"state has no method {attr!r}. Available: {', '.join(sorted(methods))}")
        channel = self.__dict__["_channel"]

        def method(*args: Any, **kwargs: Any) -> Any:
            return channel.call("state", {"method": attr, "args": list(args), "kwargs": kwargs})

        method.__name__ = attr
        method.__qualname__ = f"state.{attr}"
        return method

    def __dir__(self) -> list[str]:
        return sorted(self._methods)

    def __repr__(self) -> str:
        return "<namespace state: the workspace>"


class CodeModeNamespace:
    """``codemode.*``: search and describe the tools, make values replay-safe, run snippets."""

    def __init__(self, channel: HostChannel, run_snippet: Callable[[str, Any], Any]) -> None:
        self._channel = channel
        self._run_snippet = run_snippet

    def search(self, query: str) -> Any:
        """Find tools and snippets matching ``query``: {results, total, truncated}."""
        return self._channel.call("codemode", {"method": "search", "query": query})

    def describe(self, target: str) -> Any:
        """Describe a namespace, ``namespace.method`` or snippet, with its typed declaration."""
        return self._channel.call("codemode", {"method": "describe", "target": target})

    def step(self, name: str, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` once and record its value; a resumed run gets the recorded value back."""
        if not isinstance(name, str) or not callable(fn):
            raise TypeError("codemode.step(name, fn) takes a name and a zero-argument function")
        recorded = self._channel.call("codemode", {"method": "step_lookup", "name": name})
        if isinstance(recorded, dict) and recorded.get("recorded"):
            return recorded.get("value")
        try:
            value = fn()
        except Exception as exc:
            # Recorded too, so a resumed run fails at the same step the same way.
            self._channel.call("codemode", {"method": "step", "name": name, "error": {
                "name": type(exc).__name__, "message": str(exc)}})
            raise
        self._channel.call("codemode", {"method": "step", "name": name, "value": value})
        return value

    def run(self, name: str, input: Any = None) -> Any:
        """Run the saved snippet ``name`` with ``input``; its calls join this execution."""
        found = self._channel.call("codemode", {"method": "snippet", "name": name})
        if isinstance(found, dict) and "code" in found:
            return self._run_snippet(found["code"], input)
        return found

    def __repr__(self) -> str:
        return "<namespace codemode: search, describe, step, run>"

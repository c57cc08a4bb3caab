"""The guest's one way out: ``call(name, payload)`` over the WIT ``host.call`` import.

Every host call carries a JSON payload and returns a JSON value. A failure comes back as
``{"name", "message", ...}`` and is raised here as a ``ToolError`` whose class also derives
from the matching builtin exception when there is one, so ``except ValueError`` works for a
tool that raised ``ValueError`` on the host and ``except ToolError`` catches every tool
failure. Limits and parking are not errors the guest can see: the host raises those out of
the import, which unwinds the whole isolate.
"""

from __future__ import annotations

import builtins
import json
from typing import Any, Callable

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


class HostChannel:
    """Encodes calls for the WIT import and decodes answers and failures."""

    def __init__(self, raw_call: RawCall, err_type: type[BaseException]) -> None:
        self._raw_call = raw_call
        self._err_type = err_type

    def call(self, name: str, payload: dict[str, Any]) -> Any:
        try:
            encoded = json.dumps(payload, separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"arguments for {name!r} are not JSON-serialisable: {exc}") from None
        try:
            answer = self._raw_call(name, encoded)
        except self._err_type as err:
            info = _decode_error(getattr(err, "value", str(err)))
            raise error_class(info["name"])(info["name"], info["message"], info.get("tool")) from None
        return json.loads(answer)


def _decode_error(raw: object) -> dict[str, Any]:
    try:
        info = json.loads(str(raw))
    except ValueError:
        info = None
    if not isinstance(info, dict):
        return {"name": "ToolError", "message": str(raw)}
    name = info.get("name") if isinstance(info.get("name"), str) else "ToolError"
    return {"name": name or "ToolError", "message": str(info.get("message", "")),
            "tool": info.get("tool")}


class Namespace:
    """``tools.<name>(...)``: one attribute per host tool, each a host call."""

    def __init__(self, label: str, channel: HostChannel, tools: list[dict[str, Any]]) -> None:
        self._label = label
        self._functions: dict[str, Callable[..., Any]] = {}
        for spec in tools:
            self._functions[spec["name"]] = _tool_function(label, channel, spec)

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        functions = self.__dict__.get("_functions", {})
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

    def tool(*args: Any, **kwargs: Any) -> Any:
        return channel.call("tool", {"namespace": namespace, "tool": name,
                                     "args": list(args), "kwargs": kwargs})

    tool.__name__ = name
    tool.__qualname__ = f"{namespace}.{name}"
    tool.__doc__ = spec.get("doc") or spec.get("description") or None
    return tool

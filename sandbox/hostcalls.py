"""Host calls: the small protocol between the isolate layer and whoever answers the guest.

The isolate core knows nothing of tools, journals or approvals. It hands every call the
guest makes to a ``HostCallHandler``: an async callable taking the call's name and decoded
JSON payload and returning a JSON-able value. To answer with an error the guest can catch,
raise ``HostCallError``; to stop the whole run (a park, a policy violation), raise
``HostAbort``, which the guest cannot catch.

``CallableTools`` is the handler the Python embedding API uses: plain Python callables,
sync or async, exposed to the guest as ``tools.<name>(...)``. Sync callables run on the
event loop (keep them quick, or pass an async function).
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol


class HostCallError(Exception):
    """Answer the guest with a typed error: it is raised there as ``ToolError`` (``name``)."""

    def __init__(self, name: str, message: str, tool: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.message = message
        self.tool = tool

    def to_json(self) -> str:
        return json.dumps({"name": self.name, "message": self.message, "tool": self.tool})


class HostAbort(BaseException):
    """Stop the run now. The guest is unwound from the host side and cannot catch this.

    A BaseException so that a stray ``except Exception`` in a tool adapter cannot swallow it.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message

    def to_trap(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}


class HostCallHandler(Protocol):
    async def __call__(self, name: str, payload: Any) -> Any: ...


@dataclass(frozen=True)
class ToolSpec:
    """What the guest is told about one tool: its name and its documentation."""

    name: str
    doc: str = ""
    keyword_only: bool = False
    """Schema-described tools take keyword arguments only; plain callables take both."""

    def to_guest(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "keyword_only": self.keyword_only}


class CallableTools:
    """A host-call handler over plain Python callables, keyed by tool name."""

    def __init__(self, tools: Mapping[str, Callable[..., Any]] | None = None) -> None:
        self.tools: dict[str, Callable[..., Any]] = dict(tools or {})
        for name in self.tools:
            if not name.isidentifier():
                raise ValueError(f"tool name {name!r} is not a Python identifier")

    def specs(self) -> list[ToolSpec]:
        return [ToolSpec(name, inspect.getdoc(fn) or "") for name, fn in sorted(self.tools.items())]

    async def __call__(self, name: str, payload: Any) -> Any:
        if name != "tool" or not isinstance(payload, dict):
            raise HostCallError("ToolError", f"unknown host call {name!r}")
        tool_name = payload.get("tool")
        function = self.tools.get(tool_name) if isinstance(tool_name, str) else None
        if function is None:
            raise HostCallError("ToolError", f"no tool named {tool_name!r}", tool_name)
        args = payload.get("args") or []
        kwargs = payload.get("kwargs") or {}
        try:
            value = function(*args, **kwargs)
            if inspect.isawaitable(value):
                value = await value
        except HostAbort:
            raise
        except Exception as exc:
            raise HostCallError(type(exc).__name__, str(exc), tool_name) from exc
        return value



"""The globals a run's code sees: ``tools`` and every other namespace, built from the request.

Kept apart from ``pyexec`` so any interpreter that speaks the same request (this guest, a
second engine) builds the same namespaces the same way.

The rule for ``tools`` is general over namespaces: it holds its own tools (the request's
``tools`` namespace: inline tools) and every tool of every other namespace (toolsets,
connectors), called through the namespace that defines it. A name defined by more than one
namespace, or by ``tools`` itself and another, is reachable only through its namespace
(``github.search``); ``tools.search`` then says which namespaces define it. The host
renders the same rule into the declarations (``codemode.declarations``).
"""

from __future__ import annotations

from typing import Any, Callable

from hostcall import CodeModeNamespace, HostChannel, Namespace, StateNamespace

TOOLS = "tools"


def tools_view(namespaces: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``(aliases, ambiguous)`` for ``tools``: ``aliases`` maps a tool name ``tools`` lends
    from another namespace to that namespace; ``ambiguous`` maps each name defined by more
    than one namespace to the namespaces that define it (``tools`` first when it is one)."""
    owners: dict[str, list[str]] = {}
    for label, names in namespaces.items():
        for name in names:
            owners.setdefault(name, []).append(label)
    aliases: dict[str, str] = {}
    ambiguous: dict[str, list[str]] = {}
    for name, labels in owners.items():
        if len(labels) > 1:
            ambiguous[name] = sorted(labels, key=lambda label: (label != TOOLS, label))
        elif labels[0] != TOOLS:
            aliases[name] = labels[0]
    return aliases, ambiguous


class ToolsNamespace(Namespace):
    """``tools``: its own tools plus every other namespace's tools that no second one defines."""

    def __init__(self, channel: HostChannel, own: list[dict[str, Any]],
                 others: dict[str, Namespace], doc: str = "") -> None:
        names = {TOOLS: [spec["name"] for spec in own]}
        names.update({label: sorted(ns.__dir__()) for label, ns in others.items()})
        aliases, ambiguous = tools_view(names)
        super().__init__(TOOLS, channel, own, doc)
        for name, label in aliases.items():
            self._functions[name] = getattr(others[label], name)
        self._ambiguous = ambiguous
        if not doc:
            self.__doc__ = "Namespace tools: " + ", ".join(sorted(self._functions))

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        ambiguous: dict[str, list[str]] = self.__dict__.get("_ambiguous", {})
        functions: dict[str, Callable[..., Any]] = self.__dict__.get("_functions", {})
        if attr in ambiguous and attr not in functions:
            where = " or ".join(f"{label}.{attr}(...)" for label in ambiguous[attr])
            raise AttributeError(f"tools.{attr} is defined by {', '.join(ambiguous[attr])}: "
                                 f"call {where}")
        return super().__getattr__(attr)


def build(request: dict[str, Any], channel: HostChannel,
          run_snippet: Callable[[dict[str, Any], str, Any], Any]) -> dict[str, Any]:
    """Every namespace of ``request`` by global name (``tools`` always among them).

    ``run_snippet(namespaces, code, input)`` runs a saved snippet with these same globals.
    """
    docs = request.get("docs", {})
    specs: dict[str, list[dict[str, Any]]] = dict(request.get("namespaces", {}))
    others = {label: Namespace(label, channel, tools, docs.get(label, ""))
              for label, tools in specs.items() if label != TOOLS}
    namespaces: dict[str, Any] = dict(others)
    namespaces[TOOLS] = ToolsNamespace(channel, specs.get(TOOLS, []), others, docs.get(TOOLS, ""))
    if "state_methods" in request:
        namespaces["state"] = StateNamespace(channel, request["state_methods"], docs.get("state", ""))
    if request.get("codemode"):
        namespaces["codemode"] = CodeModeNamespace(
            channel, lambda code, value: run_snippet(namespaces, code, value))
    return namespaces

"""Connectors: an MCP server or an OpenAPI service stored by name, seen by the code as one
namespace of typed methods (``github.create_issue(...)``), like a toolset.

Two kinds, each a JSON body of ``PUT /v1/connectors/{name}``:

``{"type": "mcp", "url", "headers"?, "approval"?, "timeout_ms"?}``
    every tool of the MCP server at ``url`` (Streamable HTTP) is a method with the tool's
    input schema (:mod:`codemode.connector_mcp`).
``{"type": "openapi", "spec" | "spec_url", "base_url"?, "headers"?, "approval"?, "timeout_ms"?}``
    every operation of the OpenAPI 3.0/3.1 document (JSON or YAML: ``spec`` as an object or
    as text, or fetched from ``spec_url``) is a method, and ``request`` sends any request
    (:mod:`codemode.connector_openapi`); ``base_url`` defaults to the document's first
    absolute ``servers`` URL.

``approval`` maps a tool's name (or ``"*"``, every tool) to a policy: ``"durable"``,
``"inline"``, ``"never"``, or a tool definition's approval object (``{"mode", "when"?,
"summary"?, "risk"?}``). ``headers`` are sent with every call; their values are sealed at
rest or given as ``env:NAME`` (:mod:`codemode.connector_secrets`) and never shown back. An
operator's allowlist (:mod:`codemode.connector_hosts`) bounds the hosts they may name: checked
before anything is fetched and again at every call.

:class:`Connectors` stores them (per tenant, :mod:`codemode.connector_store`), fetches their
tools when one is stored or refreshed (nothing is stored when that fails), and binds them to
an execution: each method becomes a :class:`ToolDef` whose call goes through the connector,
so validation, approval, the journal, replay and the idempotency key (``<execution>:<seq>``,
the same on every retry and replay) are those of every host call. Each call is a client span
(``codemode.connector``) whose W3C trace context the peer receives (MCP: ``_meta``;
OpenAPI: headers), as a webhook's does.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

import httpx

from sandbox import tracing

from .connector_mcp import McpSessions, list_mcp_tools
from .peer_http import PeerHTTP
from .connector_openapi import call_operation, fetch_document, is_read, operations_of, parse_document
from .connector_secrets import (
    SecretBox,
    env_reference_problem,
    masked_headers,
    resolve_headers,
)
from .connector_store import ConnectorRow, delete_row, list_rows, read_row, read_stamp, write_row
from .connector_hosts import HostAllowlist
from .errors import (
    ConnectorHostRefused,
    ConnectorNotFound,
    ConnectorUnavailable,
    ToolDefinitionError,
)
from .names import ensure_unique, sanitise_name
from .records import now
from .tooldefs import ToolDef, Toolset

if TYPE_CHECKING:
    from .store import CodeModeStore

__all__ = [
    "CONNECTOR_TYPES",
    "BoundConnector",
    "ConnectorCall",
    "ConnectorReads",
    "Connectors",
]

CONNECTOR_TYPES = ("mcp", "openapi")
DEFAULT_CONNECTOR_TIMEOUT_MS = 30_000
MAX_CONNECTOR_TIMEOUT_MS = 300_000
_RESERVED = {"tools"}
"""Namespaces a connector may not take beyond a toolset's: ``tools`` holds the inline tools."""
_KEYS = {"mcp": {"type", "url", "headers", "approval", "timeout_ms"},
         "openapi": {"type", "spec", "spec_url", "base_url", "headers", "approval", "timeout_ms"}}

ConnectorCall = Callable[[ToolDef, Mapping[str, Any], str], Awaitable[Any]]
"""How a bound connector runs one method: ``(tool, args, idempotency_key) -> value``."""
ConnectorReads = Callable[[ToolDef, Mapping[str, Any]], bool]
"""Whether a call of a bound connector's method with these arguments only reads: an MCP tool
annotated ``readOnlyHint``, an OpenAPI operation with a safe method (GET, HEAD, OPTIONS). A
read is journaled once, after it ran (no ``executing`` row first): run again after a crash,
it changes nothing, and it carries the same idempotency key."""


def _name_problem(name: str) -> str | None:
    try:
        Toolset(name=name, tools=(), secret="x" * 16)
    except ToolDefinitionError as exc:
        return "; ".join(exc.problems)
    if sanitise_name(name) in _RESERVED:
        return f"name {name!r} is reserved for the inline tools' namespace"
    return None


def _policy(value: Any) -> Mapping[str, Any] | None:
    """One approval policy as a tool definition's ``approval`` (None: no approval)."""
    if value is None or value is False or value == "never":
        return None
    if value is True:
        return {"mode": "durable"}
    if value in ("durable", "inline"):
        return {"mode": value}
    if isinstance(value, Mapping):
        return dict(value)
    raise ToolDefinitionError("approval", [
        f'a policy is "durable", "inline", "never" or an approval object, not {value!r}'])


@dataclass(frozen=True)
class ConnectorSpec:
    """What a connector is, as given (headers in plain text: only in memory)."""

    name: str
    type: str
    definition: dict[str, Any]
    """Every field but the headers (``url`` / ``spec`` / ``spec_url`` / ``base_url``,
    ``approval``, ``timeout_ms``)."""
    headers: dict[str, str]

    @classmethod
    def from_body(cls, name: str, body: Mapping[str, Any]) -> "ConnectorSpec":
        """Check a PUT body; every problem at once, as :class:`ToolDefinitionError`."""
        problems: list[str] = []
        if (problem := _name_problem(name)) is not None:
            problems.append(problem)
        kind = body.get("type")
        if kind not in CONNECTOR_TYPES:
            raise ToolDefinitionError(f'connector "{name}"', [
                *problems, 'type must be "mcp" or "openapi"'])
        problems += [f"unknown key {k!r}" for k in sorted(body) if k not in _KEYS[str(kind)]]
        headers = body.get("headers") or {}
        if not isinstance(headers, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
            problems.append("headers must map strings to strings")
            headers = {}
        for key, value in headers.items():
            if not key or any(c in key + value for c in "\r\n\x00"):
                problems.append(f"header {key!r} is empty or contains a line break")
            elif (problem := env_reference_problem(key, value)) is not None:
                problems.append(problem)
        definition = {k: copy.deepcopy(v) for k, v in body.items() if k != "headers"}
        problems += _definition_problems(str(kind), definition)
        if problems:
            raise ToolDefinitionError(f'connector "{name}"', problems)
        definition.setdefault("timeout_ms", DEFAULT_CONNECTOR_TIMEOUT_MS)
        definition.setdefault("approval", {})
        return cls(name=name, type=str(kind), definition=definition, headers=dict(headers))


def _url_problem(value: Any, label: str) -> str | None:
    if value is None:
        return None
    try:
        url = httpx.URL(value) if isinstance(value, str) else None
    except (httpx.InvalidURL, ValueError, TypeError):
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        return f"{label} must be an absolute http(s) URL"
    return None


def _definition_problems(kind: str, definition: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    if kind == "mcp":
        if "url" not in definition:
            problems.append("url is required (the MCP server's Streamable HTTP endpoint)")
        elif (problem := _url_problem(definition["url"], "url")) is not None:
            problems.append(problem)
    else:
        if ("spec" in definition) == ("spec_url" in definition):
            problems.append("give exactly one of spec (the document) and spec_url")
        if "spec" in definition and not isinstance(definition["spec"], (Mapping, str)):
            problems.append("spec must be the OpenAPI document: a JSON object, or its JSON or "
                            "YAML text")
        for label in ("spec_url", "base_url"):
            if (problem := _url_problem(definition.get(label), label)) is not None:
                problems.append(problem)
    timeout = definition.get("timeout_ms", DEFAULT_CONNECTOR_TIMEOUT_MS)
    if isinstance(timeout, bool) or not isinstance(timeout, int) \
            or not 1 <= timeout <= MAX_CONNECTOR_TIMEOUT_MS:
        problems.append(f"timeout_ms must be an integer from 1 to {MAX_CONNECTOR_TIMEOUT_MS}")
    approval = definition.get("approval", {})
    if not isinstance(approval, Mapping):
        problems.append("approval must map tool names (or \"*\") to policies")
    else:
        for tool, policy in approval.items():
            try:
                _policy(policy)
            except ToolDefinitionError as exc:
                problems += [f"approval[{tool!r}]: {p}" for p in exc.problems]
    return problems


@dataclass(frozen=True)
class BoundConnector:
    """A connector ready for one execution: its namespace, its methods and how to call them."""

    name: str
    namespace: str
    tools: tuple[ToolDef, ...]
    call: ConnectorCall
    reads: ConnectorReads | None = None


def _endpoint(row: ConnectorRow) -> str:
    return str(row.definition["url"] if row.type == "mcp" else row.definition["base_url"])


def tool_defs(row: ConnectorRow) -> list[ToolDef]:
    """The methods of a stored connector, as tool definitions (approval policies applied)."""
    approval: Mapping[str, Any] = row.definition.get("approval") or {}
    timeout_ms = int(row.definition.get("timeout_ms", DEFAULT_CONNECTOR_TIMEOUT_MS))
    defs: list[ToolDef] = []
    problems: list[str] = []
    for tool in row.tools:
        name = str(tool["name"])
        policy = approval.get(name, approval.get(sanitise_name(name), approval.get("*")))
        try:
            defs.append(ToolDef(name=name, description=str(tool.get("description") or ""),
                                input_schema=tool.get("input_schema") or {"type": "object"},
                                output_schema=tool.get("output_schema"), url=_endpoint(row),
                                timeout_ms=timeout_ms, approval=_policy(policy)))
        except ToolDefinitionError as exc:
            problems += [f"{name}: {p}" for p in exc.problems]
    if problems:
        raise ConnectorUnavailable(row.name, "its tools cannot be used: " + "; ".join(problems[:20]))
    ensure_unique((d.name for d in defs), kind=f'methods of connector "{row.name}"')
    return defs


class Connectors:
    """Stored connectors of every tenant: store, fetch, bind to executions, call."""

    def __init__(self, store: "CodeModeStore", key_dir: Path, http: httpx.AsyncClient,
                 allowed_hosts: HostAllowlist | None = None) -> None:
        self.store = store
        self.http = http
        self.box = SecretBox(key_dir)
        self.peers = PeerHTTP()
        """Kept-alive connections for OpenAPI calls (:mod:`codemode.peer_http`); ``http``
        fetches documents."""
        self.sessions = McpSessions(self.peers)
        self.allowed_hosts = allowed_hosts or HostAllowlist(None)
        self._bound: dict[tuple[str, str], tuple[tuple[float, float], BoundConnector]] = {}

    # --- storing ----------------------------------------------------------------------

    async def put(self, tenant: str, name: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        """Check, fetch the tools of, and store a connector; ``(its view, created)``."""
        spec = ConnectorSpec.from_body(name, body)
        tools, definition = await self._fetch(spec.name, spec.type, spec.definition, spec.headers)
        stamp = now()
        existing = await self._row(tenant, name)
        row = ConnectorRow(tenant=tenant, name=name, type=spec.type, definition=definition,
                           sealed_headers=self.box.seal(spec.headers) if spec.headers else "",
                           tools=tools, created_at=existing.created_at if existing else stamp,
                           updated_at=stamp, refreshed_at=stamp)
        tool_defs(row)  # every method usable, names distinct: else nothing is stored
        _check_approval_names(row)
        async with self.store.transaction() as tx:
            created = await write_row(tx.connection, row)
        await self.sessions.forget(_owner(tenant, name))
        return self.view(row, spec.headers), created

    async def refresh(self, tenant: str, name: str) -> dict[str, Any]:
        """Fetch a stored connector's tools again and keep them; its new view."""
        row = await self._row(tenant, name)
        if row is None:
            raise ConnectorNotFound(name)
        headers = self.box.open(row.sealed_headers, name)
        tools, definition = await self._fetch(name, row.type, row.definition, headers)
        fresh = ConnectorRow(**{**row.__dict__, "tools": tools, "definition": definition,
                                "refreshed_at": now()})
        tool_defs(fresh)
        _check_approval_names(fresh)
        async with self.store.transaction() as tx:
            await write_row(tx.connection, fresh)
        await self.sessions.forget(_owner(tenant, name))
        return self.view(fresh, headers)

    def _check_hosts(self, name: str, definition: Mapping[str, Any],
                     labels: Sequence[str] = ("url", "spec_url", "base_url")) -> None:
        """Refuse a definition whose ``labels`` URLs name a host outside the allowlist."""
        problems = [problem for label in labels
                    if isinstance(definition.get(label), str)
                    and (problem := self.allowed_hosts.problem(str(definition[label]), label))]
        if problems:
            raise ConnectorHostRefused(name, problems)

    async def _fetch(self, name: str, kind: str, definition: dict[str, Any],
                     headers: Mapping[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        self._check_hosts(name, definition)
        timeout_s = min(int(definition["timeout_ms"]), 30_000) / 1000
        sent = resolve_headers(headers, name)
        if kind == "mcp":
            return await list_mcp_tools(name, str(definition["url"]), sent, timeout_s), definition
        if isinstance(definition.get("spec"), str):
            document = parse_document(name, str(definition["spec"]), "the spec given")
        elif "spec" in definition:
            document = dict(definition["spec"])
        else:
            document = await fetch_document(name, str(definition["spec_url"]), self.http,
                                            sent, timeout_s)
        operations = operations_of(name, document)
        definition = dict(definition)
        if "base_url" not in definition:
            definition["base_url"] = _base_url(name, document, definition.get("spec_url"))
            self._check_hosts(name, definition)  # the document's own server, too
        return operations, definition

    async def _row(self, tenant: str, name: str) -> ConnectorRow | None:
        async with self.store.reading() as conn:
            return await read_row(conn, tenant, name)

    async def get(self, tenant: str, name: str) -> dict[str, Any] | None:
        row = await self._row(tenant, name)
        return None if row is None else self.view(row, self.box.open(row.sealed_headers, name))

    async def list_all(self, tenant: str) -> list[dict[str, Any]]:
        async with self.store.reading() as conn:
            rows = await list_rows(conn, tenant)
        return [self.summary(row) for row in rows]

    async def delete(self, tenant: str, name: str) -> bool:
        async with self.store.transaction() as tx:
            deleted = await delete_row(tx.connection, tenant, name)
        await self.sessions.forget(_owner(tenant, name))
        return deleted

    async def declarations_of(self, tenant: str, name: str) -> dict[str, list[ToolDef]]:
        row = await self._row(tenant, name)
        if row is None:
            raise ConnectorNotFound(name)
        return {sanitise_name(name): tool_defs(row)}

    def summary(self, row: ConnectorRow) -> dict[str, Any]:
        return {"name": row.name, "type": row.type, "namespace": sanitise_name(row.name),
                "tool_count": len(row.tools), "created_at": row.created_at,
                "updated_at": row.updated_at, "refreshed_at": row.refreshed_at}

    def view(self, row: ConnectorRow, headers: Mapping[str, str]) -> dict[str, Any]:
        """What GET shows: the definition, header names with their values hidden, the tools."""
        definition = {k: v for k, v in row.definition.items() if k != "spec"}
        return {**self.summary(row), **definition, "headers": masked_headers(headers),
                "tools": [{"name": t["name"], "method": sanitise_name(str(t["name"])),
                           "description": t.get("description", "")} for t in row.tools]}

    # --- executions -------------------------------------------------------------------

    async def bind(self, tenant: str, names: Sequence[str]) -> list[BoundConnector]:
        """The named connectors ready for an execution; :class:`ConnectorNotFound` for one
        that is not stored."""
        return [await self._bind_one(tenant, name) for name in names]

    async def _bind_one(self, tenant: str, name: str) -> BoundConnector:
        # Binding is most of what naming a connector costs an execute (its row, its
        # headers opened, a ToolDef per method, each schema checked): a bound connector is
        # kept while its row's stamps say it is unchanged, which any writer (this process
        # or another on the same database) moves.
        key = (tenant, name)
        async with self.store.reading() as conn:
            stamp = await read_stamp(conn, tenant, name)
            kept = self._bound.get(key)
            if stamp is not None and kept is not None and kept[0] == stamp:
                return kept[1]
            row = await read_row(conn, tenant, name) if stamp is not None else None
        if row is None:
            self._bound.pop(key, None)
            raise ConnectorNotFound(name)
        one = BoundConnector(name=name, namespace=sanitise_name(name), tools=tuple(tool_defs(row)),
                             call=self._caller(row), reads=_reads_of(row))
        self._bound[key] = ((row.updated_at, row.refreshed_at), one)
        return one

    def _caller(self, row: ConnectorRow) -> ConnectorCall:
        headers = self.box.open(row.sealed_headers, row.name)
        owner = _owner(row.tenant, row.name)
        timeout_s = int(row.definition.get("timeout_ms", DEFAULT_CONNECTOR_TIMEOUT_MS)) / 1000
        by_name = {str(t["name"]): t for t in row.tools}

        async def call(tool: ToolDef, args: Mapping[str, Any], idempotency_key: str) -> Any:
            # The setting may be newer than the row: the peer is checked again, each call.
            self._check_hosts(row.name, row.definition, ("url", "base_url"))
            sent = resolve_headers(headers, row.name)
            with tracing.span("codemode.connector", {"codemode.connector": row.name,
                                                     "codemode.connector.type": row.type,
                                                     "codemode.tool": tool.name}, kind="client"):
                # The peer's own spans for this call nest under ours: MCP carries the trace
                # context in the request's _meta (the session's HTTP requests are sent by
                # the SDK's own task, not this one), OpenAPI in the request's headers.
                trace = tracing.outgoing_headers()
                if row.type == "mcp":
                    return await self.sessions.call(
                        owner, str(row.definition["url"]), sent, tool.name, tool.identifier,
                        args, idempotency_key=idempotency_key, timeout_s=timeout_s, meta=trace)
                return await call_operation(by_name[tool.name], args,
                                            base_url=str(row.definition["base_url"]),
                                            headers={**sent, **trace},
                                            idempotency_key=idempotency_key, http=self.peers,
                                            timeout_s=timeout_s)
        return call

    async def close(self) -> None:
        await self.sessions.close()
        await self.peers.aclose()


def _reads_of(row: ConnectorRow) -> ConnectorReads:
    by_name = {str(t["name"]): t for t in row.tools}
    if row.type == "mcp":
        return lambda tool, args: by_name.get(tool.name, {}).get("read_only") is True
    return lambda tool, args: tool.name in by_name and is_read(by_name[tool.name], args)


def _owner(tenant: str, name: str) -> str:
    return f"{tenant}\x00{name}"


def _check_approval_names(row: ConnectorRow) -> None:
    names = {str(t["name"]) for t in row.tools} | {sanitise_name(str(t["name"])) for t in row.tools}
    unknown = sorted(k for k in (row.definition.get("approval") or {}) if k != "*" and k not in names)
    if unknown:
        raise ToolDefinitionError(f'connector "{row.name}"', [
            f"approval names {k!r}, which is not one of its tools" for k in unknown])


def _base_url(name: str, document: Mapping[str, Any], spec_url: Any) -> str:
    """The first ``servers`` URL of ``document``, made absolute against ``spec_url``."""
    servers = document.get("servers")
    first = servers[0].get("url") if isinstance(servers, list) and servers \
        and isinstance(servers[0], Mapping) else None
    candidate = urljoin(str(spec_url), str(first)) if spec_url and isinstance(first, str) else first
    if isinstance(candidate, str) and _url_problem(candidate, "base_url") is None:
        return candidate.rstrip("/")
    if isinstance(spec_url, str) and first is None:
        parts = urlsplit(spec_url)
        return f"{parts.scheme}://{parts.netloc}"
    raise ToolDefinitionError(f'connector "{name}"', [
        "base_url is required: the document names no absolute server URL"])

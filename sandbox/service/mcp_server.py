"""The service as an MCP server, the SDK's side: its tools over the Model Context Protocol,
served by the official SDK (``mcp``) at ``/mcp`` (Streamable HTTP, routed by :mod:`.mcp`,
which imports this module on the first request) and over stdio (``sandbox mcp``).

Tools: ``execute`` (described by the complete execute description for every stored toolset),
``bash``, and the workspace tools (``read``, ``write``, ``edit``, ``list``, ``find``, ``grep``,
``delete``, each with a ``workspace`` argument). Each calls what its HTTP route calls
(:func:`.routes.execute.start_execution`, :func:`.routes.bash.run_bash_request`,
``workspace.call_tool``), so the caps, the disabled tools and the validation are the HTTP
API's own; input schemas are the HTTP request bodies' JSON Schemas.

A result is structured content (the body the HTTP route would send) plus a text rendering
for the model. An error is an ``isError`` result whose structured content is the one error
shape, ``{"error": {"code", "message", "details"?}}``, chosen by the one error map; an
execution that failed, and a workspace tool's own ``{"error"}``, are ``isError`` too. A paused
execution is not an error: its text says it awaits approval, lists the approval ids and how to
continue.

Over HTTP, ``/mcp`` passes the same guard as ``/v1`` (the bearer token, the body cap) and the
SDK's Host and Origin checks against DNS rebinding (loopback names, and the hosts and
origins the settings add: :func:`transport_security`); the
SDK's session manager (:func:`session_manager`) runs stateless with JSON responses (no
session to keep, no stream to hold open) until the app's lifespan ends. Over stdio, the
process embeds its own service state: the app's lifespan runs without an HTTP server in
front of it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, ValidationError

from codemode import cap_model_text, plain_outcome
from workspace import TOOL_DEFINITIONS, TOOL_NAMES, call_tool

from .. import __version__
from . import state
from .errors import error_body, rule_for
from .identity import LOCAL, PRINCIPAL_KEY, Principal, current_principal, requires
from .mcp import MCP_PATH
from .routes.bash import BashRequest, run_bash_request
from .routes.execute import ExecuteRequest, describe_execute, start_execution
from .routes.params import WORKSPACE_NAME
from .routes.workspaces import READ_ONLY_TOOLS
from .telemetry import mcp_tool_span
from .settings import Settings

__all__ = ["mcp_server", "serve_stdio", "session_manager", "transport_security"]

log = logging.getLogger("sandbox.service")

TEXT_LIMIT = 24_000
"""Most characters of a text rendering; the structured content is always whole."""

BASH_DESCRIPTION = (
    "Run a bash script in a fresh sandbox over a snapshot of a workspace (mounted at `/`); the "
    "files it creates, changes and deletes are written back to the workspace. GNU bash syntax "
    "with the usual commands (ls, cat, grep, sed, awk, jq, find, sort, wc, ...); no network, "
    "no other programs. Returns stdout, stderr, the exit code and the files changed.")

WORKSPACE_ARGUMENT: dict[str, Any] = {
    "type": "string", "minLength": 1, "maxLength": 128, "pattern": WORKSPACE_NAME,
    "default": "default", "description": "The workspace to work in."}

INSTRUCTIONS = (
    "A sandboxed code-execution service. `execute` runs Python (with stored toolsets and the "
    "workspace as `state`), `bash` runs a shell script over a workspace, and the workspace "
    "tools read and change its files directly.")


class _ToolFailure(Exception):
    """A workspace tool answered with its own ``{"error": ...}``: an ``isError`` result."""


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


def _workspace_schema(tool: str) -> dict[str, Any]:
    schema = json.loads(json.dumps(TOOL_DEFINITIONS[tool]["input_schema"]))
    schema["properties"] = {**schema.get("properties", {}), "workspace": WORKSPACE_ARGUMENT}
    return dict(schema)


class _Tools:
    """The tools of one app, listed and called against what that app holds (``app.state``)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self._execute_schema = _schema(ExecuteRequest)
        self._bash_schema = _schema(BashRequest)
        self._workspace_tools = [
            types.Tool(name=name, description=TOOL_DEFINITIONS[name]["description"],
                       input_schema=_workspace_schema(name)) for name in TOOL_NAMES]

    def _request(self, who: Principal) -> Request:
        # The routes' helpers read the app's state through a request; this one carries the
        # app and the principal the guard resolved for the HTTP request (stdio: the local user).
        return Request({"type": "http", "app": self.app, "method": "POST", "path": MCP_PATH,
                        "headers": [], "query_string": b"", PRINCIPAL_KEY: who})

    async def list(self, who: Principal) -> list[types.Tool]:
        """The tools this principal's scopes allow."""
        request = self._request(who)
        disabled = state.settings(request).disabled_tools
        tools: list[types.Tool] = []
        if "execute" not in disabled and who.allows("execute"):
            tools.append(types.Tool(name="execute",
                                    description=await self._execute_description(request, who),
                                    input_schema=self._execute_schema))
        if "bash" not in disabled and who.allows("bash"):
            tools.append(types.Tool(name="bash", description=BASH_DESCRIPTION,
                                    input_schema=self._bash_schema))
        return tools + [t for t in self._workspace_tools if who.allows(_tool_scope(t.name))]

    async def _execute_description(self, request: Request, who: Principal) -> str:
        stored = await state.codemode_store(request).list_toolsets(who.tenant)
        connectors = await state.connectors(request).list_all(who.tenant)
        return await describe_execute(request, [str(t["name"]) for t in stored], who,
                                      [str(c["name"]) for c in connectors])

    async def call(self, name: str, arguments: dict[str, Any] | None,
                   who: Principal) -> types.CallToolResult:
        """The tool's result, or an ``isError`` result in the one error shape; never raises
        (but for cancellation)."""
        try:
            return await self._call(name, dict(arguments or {}), who)
        except ValidationError as exc:
            return _error_result(*_invalid(exc))
        except _ToolFailure as exc:
            return _result({"error": str(exc)}, f"Error: {exc}", is_error=True)
        except Exception as exc:
            return _error_result(*_mapped(exc))

    async def _call(self, name: str, arguments: dict[str, Any],
                    who: Principal) -> types.CallToolResult:
        request = self._request(who)
        if name == "execute":
            requires("execute").check(request)
            outcome = plain_outcome(
                await start_execution(request, ExecuteRequest.model_validate(arguments), who))
            rendered = _result(outcome, _render_execution(outcome),
                               is_error=outcome.get("status") in ("error", "rejected"))
            rendered.content.extend(_images(outcome))
            return rendered
        if name == "bash":
            requires("bash").check(request)
            result = await run_bash_request(request, BashRequest.model_validate(arguments), who)
            return _result(result, _render_bash(result))
        if name in TOOL_DEFINITIONS:
            requires(_tool_scope(name)).check(request)
            return await self._workspace_tool(request, name, arguments, who)
        raise _UnknownTool(name)

    async def _workspace_tool(self, request: Request, name: str, arguments: dict[str, Any],
                              who: Principal) -> types.CallToolResult:
        ws_name = arguments.pop("workspace", "default")
        if not isinstance(ws_name, str):
            raise _InvalidWorkspace(ws_name)
        workspace = state.workspaces(request).workspace(ws_name, tenant=who.tenant)
        output = await call_tool(workspace, name, arguments)
        if "error" in output and len(output) == 1:
            raise _ToolFailure(str(output["error"]))
        if output.get("kind") == "image":
            image = types.ImageContent(type="image", data=str(output["data"]),
                                       mime_type=str(output["media_type"]))
            described = {k: v for k, v in output.items() if k != "data"}
            return types.CallToolResult(content=[image, _text(_json(described))],
                                        structured_content=output)
        text = output["content"] if name == "read" and "content" in output else _json(output)
        return _result(output, str(text))


class _UnknownTool(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class _InvalidWorkspace(ValueError):
    pass


def _images(outcome: dict[str, Any]) -> list[types.ImageContent]:
    """The figures an execution made (the science engine's plots), as images for the model."""
    return [types.ImageContent(type="image", data=a["data"], mime_type=a["media_type"])
            for a in outcome.get("attachments") or []
            if isinstance(a, dict) and a.get("type") == "image"
            and isinstance(a.get("data"), str) and isinstance(a.get("media_type"), str)]


def _text(text: str) -> types.TextContent:
    # The reference's cap on what the model reads (codemode.cap_model_text, ~24,000
    # characters and a --- TRUNCATED --- note); the structured content stays whole.
    return types.TextContent(type="text", text=cap_model_text(text, TEXT_LIMIT))


def _result(structured: dict[str, Any], text: str, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[_text(text)], structured_content=structured,
                                is_error=is_error)


def _error_result(status: int, code: str, message: str, details: Any = None) -> types.CallToolResult:
    body = error_body(code, message, details)
    body["error"]["status"] = status
    return _result(body, f"Error ({code}): {message}", is_error=True)


def _invalid(exc: ValidationError) -> tuple[int, str, str, Any]:
    """A tool's arguments that do not fit its schema: ``invalid_request``, as HTTP's 422."""
    problems = [{"loc": ["arguments", *e["loc"]], "msg": e["msg"], "type": e["type"]}
                for e in exc.errors(include_url=False, include_context=False, include_input=False)]
    message = "; ".join(".".join(str(p) for p in d["loc"]) + f": {d['msg']}" for d in problems)
    return 422, "invalid_request", message or "invalid arguments", problems


def _mapped(exc: Exception) -> tuple[int, str, str, Any]:
    """What the one error map says of ``exc`` (an unknown type is logged: a bug)."""
    if isinstance(exc, _UnknownTool):
        return 404, "not_found", f"unknown tool {exc.name!r}", None
    if isinstance(exc, _InvalidWorkspace):
        return 422, "invalid_request", "arguments.workspace: must be a string", None
    rule = rule_for(type(exc))
    if rule is None:
        log.error("unexpected error reached the MCP edge", exc_info=exc)
        return 500, "internal_error", "internal error; the service log has the cause", None
    status, code, details = rule.answer(exc)
    return status, code, str(exc), details


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


# --- text renderings --------------------------------------------------------------------

def _render_execution(outcome: dict[str, Any]) -> str:
    """An execution's outcome as the model reads it."""
    status = outcome.get("status")
    parts: list[str] = []
    logs = outcome.get("logs") or []
    if logs:
        parts.append("Logs:\n" + "\n".join(str(line) for line in logs))
    if status == "completed" and isinstance(outcome.get("result_text"), str):
        parts.append("Result:\n" + outcome["result_text"])
    elif status == "completed":
        parts.append("Result: " + _json(outcome.get("result")))
    elif status == "paused":
        parts.append(_render_paused(outcome))
    elif status == "awaiting_tool":
        parts.append(_render_awaiting(outcome))
    else:
        parts.append(_render_failure(outcome))
    return "\n\n".join(parts)


def _call_line(pending: dict[str, Any]) -> str:
    args = json.dumps(pending.get("args"), ensure_ascii=False, default=str)
    return f"{pending.get('namespace')}.{pending.get('method')}({args})"


def _render_paused(outcome: dict[str, Any]) -> str:
    execution_id = outcome.get("execution_id")
    pending = [p for p in outcome.get("pending") or [] if p.get("approval_id")]
    lines = [f"Execution {execution_id} is paused: it awaits approval of "
             f"{len(pending)} tool call{'s' if len(pending) != 1 else ''}."]
    for p in pending:
        descriptor = p.get("descriptor") or {}
        about = " ".join(str(x) for x in (descriptor.get("summary"),
                                           descriptor.get("risk") and f"(risk {descriptor['risk']})")
                         if x)
        lines.append(f"- approval {p['approval_id']}: {_call_line(p)}" + (f" - {about}" if about else ""))
    first = pending[0]["approval_id"] if pending else "APPROVAL_ID"
    lines += [
        "",
        "How to continue: a person approves (or rejects) each approval on this service, with "
        f"`POST /v1/approvals/{first}/approve` (or `/reject`) or `sandbox approvals approve {first}`. "
        "The execution then resumes where it stopped: the approve call answers with its outcome, "
        f"and `GET /v1/executions/{execution_id}` shows it at any time. Do not run the code again "
        "to continue: that would start a new execution.",
    ]
    return "\n".join(lines)


def _render_awaiting(outcome: dict[str, Any]) -> str:
    execution_id = outcome.get("execution_id")
    lines = [f"Execution {execution_id} is waiting for the client to resolve a tool call."]
    for p in outcome.get("pending") or []:
        lines.append(f"- call {p.get('seq')}: {_call_line(p)}: post {{\"output\": ...}} or "
                     f"{{\"error\": ...}} to POST /v1/executions/{execution_id}/calls/{p.get('seq')}"
                     "/result; that call answers with the outcome.")
    return "\n".join(lines)


def _render_failure(outcome: dict[str, Any]) -> str:
    error = outcome.get("error") or {}
    trap = outcome.get("trap") or {}
    lines = [f"Execution {outcome.get('execution_id')} ended {outcome.get('status')}."]
    if error:
        lines.append(f"{error.get('name', 'Error')}: {error.get('message', '')}")
        if error.get("traceback"):
            lines.append(str(error["traceback"]).rstrip())
    if trap:
        lines.append(f"Limit hit ({trap.get('kind')}): {trap.get('message', '')}")
    if outcome.get("message"):
        lines.append(str(outcome["message"]))
    return "\n".join(lines)


def _render_bash(result: dict[str, Any]) -> str:
    """A bash result as the model reads it: output, exit status, what changed."""
    parts = [str(result.get("stdout", ""))]
    if result.get("stderr"):
        parts.append("[stderr]\n" + str(result["stderr"]))
    status = f"[exit code {result.get('exit_code')}"
    status += ", timed out]" if result.get("timed_out") else "]"
    parts.append(status)
    changed = {k: v for k, v in (result.get("changed_files") or {}).items() if v}
    if changed:
        parts.append("[changed files] " + json.dumps(changed, ensure_ascii=False))
    for error in result.get("errors") or []:
        parts.append(f"[write-back] {error}")
    return "\n".join(p for p in parts if p)


# --- the server and its transports ------------------------------------------------------

def mcp_server(app: FastAPI) -> Server[Any]:
    """The SDK's low-level server with this app's tools."""
    tools = _Tools(app)

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await tools.list(_principal(ctx)))

    async def call_tool(ctx: ServerRequestContext[Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        with mcp_tool_span(params.name, params.meta):
            return await tools.call(params.name, params.arguments, _principal(ctx))

    return Server("wasm-sandbox", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _principal(ctx: ServerRequestContext[Any]) -> Principal:
    """The guard's principal of the HTTP request carrying this message; over stdio (no HTTP
    request), the local user."""
    request = ctx.request
    return current_principal(request) if isinstance(request, Request) else LOCAL


def _tool_scope(name: str) -> str:
    return "workspaces:read" if name in READ_ONLY_TOOLS else "workspaces:write"


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """The SDK's Host and Origin checks for ``/mcp``: loopback names (any port) and what the
    settings add; ``*`` among the hosts turns the checks off (a proxy in front checks)."""
    if "*" in settings.mcp_allowed_hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    hosts = [*LOOPBACK_HOSTS, *(f"{h}:*" for h in LOOPBACK_HOSTS), *settings.mcp_allowed_hosts]
    origins = [f"{scheme}://{h}{port}" for scheme in ("http", "https") for h in LOOPBACK_HOSTS
               for port in ("", ":*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=[*origins, *settings.mcp_allowed_origins])


def session_manager(app: FastAPI, settings: Settings) -> StreamableHTTPSessionManager:
    """The SDK's session manager serving ``app``'s tools over Streamable HTTP: stateless,
    answering in JSON, bounded by the request body cap, checking Host and Origin."""
    return StreamableHTTPSessionManager(
        mcp_server(app), stateless=True, json_response=True,
        max_request_body_size=settings.max_request_bytes,
        security_settings=transport_security(settings))


async def serve_stdio(app: FastAPI) -> None:
    """Serve ``app``'s MCP tools over stdin/stdout until stdin ends, running the app's
    lifespan (isolates, stores) in this process. Stdout is the protocol's alone: the SDK
    points the process's own stdout at stderr before the workers start."""
    server = mcp_server(app)
    async with stdio_server() as (read_stream, write_stream):
        async with app.router.lifespan_context(app):
            await server.run(read_stream, write_stream, server.create_initialization_options())

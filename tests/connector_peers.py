"""Real peers for connector tests: an MCP server built with the SDK (Streamable HTTP) and a
FastAPI service with its own ``/openapi.json`` (and the same as YAML, ``/openapi.yaml``). Each records what it was sent, so a test can
say what reached the peer and how often."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import yaml

from fastapi import FastAPI, Header, Response
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel


class McpPeer:
    """An issue tracker as an MCP server: ``calls`` holds (tool, arguments, _meta) of each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self.headers: list[dict[str, str]] = []
        self.probe: Callable[[str], Any] | None = None
        """Called with each call's idempotency key while the call runs (what the caller's
        journal holds then); its answers are kept in ``probed``."""
        self.probed: list[Any] = []
        self.server = MCPServer("tracker")
        self._register()

    def _seen(self, ctx: Context, tool: str, args: dict[str, Any]) -> None:
        meta = ctx.request_context.meta or {}
        self.calls.append((tool, args, dict(meta)))
        if self.probe is not None:
            self.probed.append(self.probe(str(meta.get("idempotency_key"))))
        request = getattr(ctx.request_context, "request", None)
        if request is not None:
            self.headers.append({k.lower(): v for k, v in request.headers.items()})

    def _register(self) -> None:
        tool = self.server.tool

        @tool()
        def create_issue(title: str, ctx: Context, labels: list[str] | None = None) -> dict[str, Any]:
            """Open an issue in the tracker."""
            self._seen(ctx, "create_issue", {"title": title, "labels": labels})
            return {"number": len(self.calls), "title": title}

        @tool(structured_output=False, annotations=ToolAnnotations(read_only_hint=True))
        def issue_json(number: int, ctx: Context) -> str:
            """An issue as JSON text (no structured content)."""
            self._seen(ctx, "issue_json", {"number": number})
            return '{"number": %d, "state": "open"}' % number

        @tool(structured_output=False)
        def greeting(name: str, ctx: Context) -> str:
            """A plain-text greeting."""
            self._seen(ctx, "greeting", {"name": name})
            return f"hello, {name}"

        @tool()
        def close_issue(number: int, ctx: Context) -> str:
            """Close an issue; issue 13 cannot be closed."""
            self._seen(ctx, "close_issue", {"number": number})
            if number == 13:
                raise ToolError("issue 13 is locked")
            return "closed"

        @tool()
        async def slow(seconds: float, ctx: Context) -> str:
            """Wait, then answer."""
            self._seen(ctx, "slow", {"seconds": seconds})
            await asyncio.sleep(seconds)
            return "done"

    def app(self) -> Any:
        return self.server.streamable_http_app()


def bad_schema_peer() -> Any:
    """An MCP server (the SDK's low-level server) whose one tool has an input schema that is
    not a JSON Schema."""
    from mcp import types
    from mcp.server import Server

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(
            name="broken", description="Its schema is not a schema.",
            input_schema={"type": "object", "properties": {"x": {"type": "nonsense"}}})])

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        return types.CallToolResult(content=[])

    return Server("broken", on_list_tools=list_tools, on_call_tool=call_tool).streamable_http_app()


def wrong_output_peer() -> Any:
    """An MCP server (the SDK's low-level server) whose tool ``count`` declares an integer
    ``total`` and answers with a string there: a peer that breaks its own schema."""
    from mcp import types
    from mcp.server import Server

    tool = types.Tool(name="count", description="Count things.", input_schema={"type": "object"},
                      output_schema={"type": "object", "required": ["total"],
                                     "properties": {"total": {"type": "integer"}}})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(text='{"total": "many"}')],
                                    structured_content={"total": "many"})

    return Server("wrong", on_list_tools=list_tools, on_call_tool=call_tool).streamable_http_app()


class Issue(BaseModel):
    title: str
    body: str = ""


class Repo(BaseModel):
    owner: str
    name: str
    page: int


def openapi_peer() -> tuple[FastAPI, list[dict[str, Any]]]:
    """A small code-hosting API; the list records every request it served."""
    app = FastAPI(title="hosting", version="1.0")
    seen: list[dict[str, Any]] = []

    @app.get("/repos/{owner}/{repo}", operation_id="getRepo", response_model=Repo)
    async def get_repo(owner: str, repo: str, page: int = 1,
                       idempotency_key: str | None = Header(None),
                       traceparent: str | None = Header(None)) -> Repo:
        seen.append({"op": "getRepo", "owner": owner, "repo": repo, "page": page,
                     "idempotency_key": idempotency_key, "traceparent": traceparent})
        return Repo(owner=owner, name=repo, page=page)

    @app.post("/repos/{owner}/{repo}/issues", operation_id="createIssue", status_code=201)
    async def create_issue(owner: str, repo: str, issue: Issue,
                           idempotency_key: str | None = Header(None),
                           authorization: str | None = Header(None)) -> dict[str, Any]:
        seen.append({"op": "createIssue", "owner": owner, "repo": repo, "issue": issue.model_dump(),
                     "idempotency_key": idempotency_key, "authorization": authorization})
        return {"number": len(seen), "title": issue.title}

    @app.delete("/repos/{owner}/{repo}", operation_id="deleteRepo")
    async def delete_repo(owner: str, repo: str) -> Response:
        seen.append({"op": "deleteRepo", "owner": owner, "repo": repo})
        return Response(status_code=403, content='{"detail": "archived repositories cannot be deleted"}',
                        media_type="application/json")

    @app.get("/openapi.yaml", include_in_schema=False)
    async def openapi_yaml() -> Response:
        return Response(yaml.safe_dump(app.openapi(), sort_keys=False), media_type="application/yaml")

    return app, seen

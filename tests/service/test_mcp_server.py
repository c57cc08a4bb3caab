"""The service as an MCP server, driven by the official SDK's client over real HTTP: the
handshake, the tool list and its schemas, execute and bash, the workspace tools, errors as
``isError`` results, the bearer token, and a paused execution approved over HTTP."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterator

import httpx
import httpx2
import pytest
from mcp import Client, ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from live_server import ServerThread, read_body, send_json, serve_lifespan
from sandbox import CompiledGuest
from sandbox.service import Caps, Settings, create_app

TOKEN = "mcp-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
WORKSPACE_TOOLS = {"read", "write", "edit", "list", "find", "grep", "delete"}

class RefundEndpoint:
    """The agent host's endpoint for the ``billing.refund`` tool: records each call."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        call = json.loads(await read_body(receive))
        self.calls.append(call)
        await send_json(send, 200, {"output": {"refunded": call["input"]["invoice"]}})


def gated_toolset(url: str) -> dict[str, Any]:
    """One webhook tool that needs a person's approval (durable) before it is called."""
    return {"description": "Invoices.", "tools": [{
        "name": "refund", "description": "Refund an invoice.", "url": url,
        "input_schema": {"type": "object", "properties": {"invoice": {"type": "string"}},
                         "required": ["invoice"]},
        "approval": {"mode": "durable", "summary": "Refund money", "risk": "high"}}]}


@pytest.fixture(scope="module")
def refunds() -> Iterator[tuple[RefundEndpoint, str]]:
    endpoint = RefundEndpoint()
    with ServerThread(endpoint) as live:
        yield endpoint, live.url


@pytest.fixture(scope="module")
def server(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=2, guest=compiled_guest,
                        token=TOKEN)
    with ServerThread(create_app(settings)) as live:
        yield live


@pytest.fixture(scope="module")
def http(server: ServerThread, refunds: tuple[RefundEndpoint, str]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, headers=AUTH, timeout=60) as client:
        client.put("/v1/toolsets/billing", json=gated_toolset(refunds[1])).raise_for_status()
        yield client


@asynccontextmanager
async def mcp_session(server: ServerThread, headers: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    """An SDK session over Streamable HTTP to ``/mcp``, initialised (the handshake)."""
    async with httpx2.AsyncClient(headers=AUTH if headers is None else headers,
                                  timeout=60) as client:
        async with streamable_http_client(f"{server.url}/mcp", http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def test_initialize_names_the_service_and_offers_tools(server: ServerThread, http: httpx.Client) -> None:
    async with httpx2.AsyncClient(headers=AUTH, timeout=60) as client:
        async with streamable_http_client(f"{server.url}/mcp", http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
    assert init.server_info.name == "wasm-sandbox"
    assert init.capabilities.tools is not None


async def test_tools_are_execute_bash_and_the_workspace_tools_with_schemas(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == {"execute", "bash"} | WORKSPACE_TOOLS
    assert tools["execute"].input_schema["required"] == ["code"]
    assert {"code", "workspace", "toolsets"} <= set(tools["execute"].input_schema["properties"])
    assert {"script", "workspace", "cwd", "timeout_ms"} <= set(tools["bash"].input_schema["properties"])
    assert tools["read"].input_schema["required"] == ["path"]
    assert "workspace" in tools["grep"].input_schema["properties"]
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"


async def test_execute_description_is_the_http_description_for_every_stored_toolset(
        server: ServerThread, http: httpx.Client) -> None:
    described = http.get("/v1/execute/description", params={"toolsets": "billing"}).text
    async with mcp_session(server) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert tools["execute"].description == described
    assert "billing" in described and "refund(" in described


async def test_execute_returns_structured_outcome_and_a_text_rendering(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "print('hi')\n6 * 7"})
    assert result.is_error is False
    outcome = result.structured_content
    assert outcome is not None
    assert outcome["status"] == "completed" and outcome["result"] == 42 and outcome["logs"] == ["hi"]
    assert outcome["execution_id"].startswith("exec_")
    assert "hi" in text_of(result) and "Result: 42" in text_of(result)
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert record["status"] == "completed"


async def test_a_large_result_is_structured_content_as_the_value_it_is(server: ServerThread) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "[[i, str(i)] for i in range(20_000)]"})
    assert result.is_error is False and result.structured_content is not None
    assert result.structured_content["result"] == [[i, str(i)] for i in range(20_000)]


async def test_a_failing_execution_is_an_error_result_with_the_traceback(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "1 / 0"})
    assert result.is_error is True
    assert result.structured_content is not None
    assert result.structured_content["error"]["name"] == "ZeroDivisionError"
    assert "ZeroDivisionError" in text_of(result)


async def test_bash_runs_over_the_workspace_that_the_workspace_tools_see(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        ran = await session.call_tool("bash", {"script": "mkdir -p notes && echo hello > notes/a.txt"
                                                         " && wc -c notes/a.txt", "workspace": "mcp-bash"})
        read = await session.call_tool("read", {"path": "/notes/a.txt", "workspace": "mcp-bash"})
        grep = await session.call_tool("grep", {"query": "hel+o", "workspace": "mcp-bash"})
    assert ran.is_error is False and ran.structured_content is not None
    assert ran.structured_content["stdout"] == "6 notes/a.txt\n"
    assert ran.structured_content["exit_code"] == 0
    assert "/notes/a.txt" in ran.structured_content["changed_files"]["created"]
    assert "6 notes/a.txt" in text_of(ran) and "[exit code 0]" in text_of(ran)
    assert read.is_error is False and text_of(read) == "1\thello"
    assert grep.structured_content is not None and "/notes/a.txt" in json.dumps(grep.structured_content)
    assert http.get("/v1/workspaces/mcp-bash/files/notes/a.txt").text == "hello\n"


async def test_workspace_tools_write_edit_list_find_delete(server: ServerThread, http: httpx.Client) -> None:
    ws = {"workspace": "mcp-tools"}
    async with mcp_session(server) as session:
        wrote = await session.call_tool("write", {"path": "/a.md", "content": "one two\n", **ws})
        edited = await session.call_tool("edit", {"path": "/a.md", "old_string": "two",
                                                  "new_string": "three", **ws})
        listed = await session.call_tool("list", {"path": "/", **ws})
        found = await session.call_tool("find", {"pattern": "*.md", **ws})
        deleted = await session.call_tool("delete", {"path": "/a.md", **ws})
    assert not any(r.is_error for r in (wrote, edited, listed, found, deleted))
    assert wrote.structured_content == {"path": "/a.md", "bytes_written": 8, "lines": 1}
    assert "a.md" in text_of(listed) and "a.md" in text_of(found)
    assert deleted.structured_content == {"deleted": "/a.md"}
    assert http.get("/v1/workspaces/mcp-tools/files/a.md").status_code == 404


async def test_a_workspace_tools_own_failure_is_an_error_result(server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("read", {"path": "/missing.txt", "workspace": "mcp-none"})
    assert result.is_error is True
    assert result.structured_content == {"error": "File not found: /missing.txt"}


async def test_invalid_arguments_are_an_error_result_in_the_one_error_shape(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        missing = await session.call_tool("execute", {"timeout_ms": 10})
        over_cap = await session.call_tool("bash", {"script": "true", "timeout_ms": 10**9})
        bad_ws_args = await session.call_tool("write", {"path": "/x"})
        unknown = await session.call_tool("launch", {})
    assert missing.is_error is True and missing.structured_content is not None
    error = missing.structured_content["error"]
    assert error["code"] == "invalid_request" and error["details"][0]["loc"] == ["arguments", "code"]
    assert "arguments.code" in text_of(missing)
    assert over_cap.is_error is True and over_cap.structured_content is not None
    assert over_cap.structured_content["error"]["code"] == "invalid_request"
    assert bad_ws_args.is_error is True and bad_ws_args.structured_content is not None
    assert bad_ws_args.structured_content["error"]["code"] == "EINVAL"
    assert unknown.is_error is True and unknown.structured_content is not None
    assert unknown.structured_content["error"]["code"] == "not_found"


async def test_an_unknown_toolset_is_the_same_not_found_as_over_http(
        server: ServerThread, http: httpx.Client) -> None:
    over_http = http.post("/v1/execute", json={"code": "1", "toolsets": ["nope"]}).json()
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "1", "toolsets": ["nope"]})
    assert result.is_error is True and result.structured_content is not None
    got = result.structured_content["error"]
    assert (got["code"], got["message"], got["status"]) == (
        over_http["error"]["code"], over_http["error"]["message"], 404)


async def test_a_paused_execution_says_it_awaits_approval_and_how_to_continue(
        server: ServerThread, http: httpx.Client, refunds: tuple[RefundEndpoint, str]) -> None:
    endpoint, _ = refunds
    code = "r = billing.refund(invoice='inv_1')\nprint('refunded')\nr"
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": code, "toolsets": ["billing"]})
    assert result.is_error is False and result.structured_content is not None
    outcome = result.structured_content
    assert outcome["status"] == "paused" and endpoint.calls == []
    approval_id = outcome["pending"][0]["approval_id"]
    text = text_of(result)
    assert "awaits approval" in text and approval_id in text
    assert 'billing.refund({"invoice": "inv_1"})' in text and "Refund money" in text
    assert f"POST /v1/approvals/{approval_id}/approve" in text
    assert f"sandbox approvals approve {approval_id}" in text
    assert f"GET /v1/executions/{outcome['execution_id']}" in text

    # A person approves over HTTP: the execution continues, the tool is called once, and
    # the approve call answers with the outcome, as the record then shows.
    resumed = http.post(f"/v1/approvals/{approval_id}/approve", json={"by": "alice"}).json()
    assert resumed["execution_id"] == outcome["execution_id"]
    assert resumed["status"] == "completed" and resumed["result"] == {"refunded": "inv_1"}
    assert resumed["logs"] == ["refunded"] and len(endpoint.calls) == 1
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert record["status"] == "completed"


async def test_without_the_token_mcp_is_refused_like_v1(server: ServerThread, http: httpx.Client) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        response = httpx.post(f"{server.url}/mcp", headers=headers, json={
            "jsonrpc": "2.0", "id": 1, "method": "tools/list"}, timeout=30)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["error"]["code"] == "unauthorized"
    with pytest.raises(ExceptionGroup) as refused:
        async with mcp_session(server, headers={}):
            pass
    assert refused.group_contains(MCPError)


async def test_the_sdk_client_in_its_default_mode_calls_execute(server: ServerThread, http: httpx.Client) -> None:
    async with httpx2.AsyncClient(headers=AUTH, timeout=60) as client:
        async with Client(streamable_http_client(f"{server.url}/mcp", http_client=client)) as mcp:
            names = {t.name for t in (await mcp.list_tools()).tools}
            result = await mcp.call_tool("execute", {"code": "sum(range(10))"})
    assert "execute" in names
    assert result.structured_content is not None and result.structured_content["result"] == 45


MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


@pytest.mark.parametrize("extra, status", [
    ({}, 200),
    ({"Host": "localhost:8123"}, 200),
    ({"Origin": "http://localhost:3000"}, 200),
    # A page on a name pointed at this machine (DNS rebinding) sends its own Host and Origin.
    ({"Host": "attacker.example:8000"}, 421),
    ({"Origin": "http://attacker.example"}, 403),
])
def test_mcp_answers_loopback_hosts_and_origins_only(server: ServerThread, http: httpx.Client,
                                                    extra: dict[str, str], status: int) -> None:
    response = httpx.post(f"{server.url}/mcp", headers={**AUTH, **MCP_HEADERS, **extra},
                          json=LIST_TOOLS, timeout=30)
    assert response.status_code == status, response.text


@pytest.mark.parametrize("extra, status", [
    ({"Host": "sandbox.internal"}, 200),
    ({"Host": "sandbox.internal:9000"}, 421),
    ({"Origin": "https://agent.example"}, 200),
    ({"Origin": "https://other.example"}, 403),
])
def test_the_settings_add_hosts_and_origins_mcp_answers(limited: ServerThread, extra: dict[str, str],
                                                        status: int) -> None:
    response = httpx.post(f"{limited.url}/mcp", headers={**MCP_HEADERS, **extra}, json=LIST_TOOLS,
                          timeout=30)
    assert response.status_code == status, response.text


def test_mcp_is_not_in_the_openapi_document(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert not any(path.startswith("/mcp") for path in paths)


@pytest.fixture(scope="module")
def limited(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("limited"), workers=1, guest=compiled_guest,
                        disabled_tools=frozenset({"bash"}), caps=Caps(timeout_ms=2_000),
                        mcp_allowed_hosts=("sandbox.internal",),
                        mcp_allowed_origins=("https://agent.example",))
    with ServerThread(create_app(settings)) as live:
        yield live


async def test_a_disabled_tool_is_not_listed_and_a_call_is_an_error(limited: ServerThread) -> None:
    async with mcp_session(limited, headers={}) as session:
        names = {t.name for t in (await session.list_tools()).tools}
        result = await session.call_tool("bash", {"script": "echo hi"})
    assert "bash" not in names and "execute" in names
    assert result.is_error is True and result.structured_content is not None
    assert result.structured_content["error"]["code"] == "tool_disabled"


async def test_the_services_caps_hold_for_mcp_as_for_http(limited: ServerThread) -> None:
    over_http = httpx.post(f"{limited.url}/v1/execute", json={"code": "1", "timeout_ms": 5_000},
                           timeout=60).json()
    async with mcp_session(limited, headers={}) as session:
        refused = await session.call_tool("execute", {"code": "1", "timeout_ms": 5_000})
        allowed = await session.call_tool("execute", {"code": "1", "timeout_ms": 1_000})
    assert refused.is_error is True and refused.structured_content is not None
    error = refused.structured_content["error"]
    assert (error["code"], error["message"]) == (over_http["error"]["code"], over_http["error"]["message"])
    assert "cap of 2000" in error["message"]
    assert allowed.is_error is False


async def test_a_long_result_is_whole_in_structured_content_and_cut_in_the_text(
        server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "'x' * 50_000"})
    assert result.structured_content is not None and result.structured_content["result"] == "x" * 50_000
    text = text_of(result)
    assert len(text) < 25_000 and "--- TRUNCATED ---" in text


async def test_a_call_the_client_resolves_says_where_to_post_its_result(
        server: ServerThread, http: httpx.Client) -> None:
    http.put("/v1/toolsets/desk", json={"tools": [{"name": "ask", "input_schema": {
        "type": "object", "properties": {"q": {"type": "string"}}}}]}).raise_for_status()
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "desk.ask(q='why')", "toolsets": ["desk"]})
    assert result.is_error is False and result.structured_content is not None
    outcome = result.structured_content
    assert outcome["status"] == "awaiting_tool"
    seq = outcome["pending"][0]["seq"]
    assert f"POST /v1/executions/{outcome['execution_id']}/calls/{seq}/result" in text_of(result)
    finished = http.post(f"/v1/executions/{outcome['execution_id']}/calls/{seq}/result",
                         json={"output": "because"}).json()
    assert finished["status"] == "completed" and finished["result"] == "because"


async def test_a_limit_hit_is_an_error_result_naming_the_limit(server: ServerThread, http: httpx.Client) -> None:
    async with mcp_session(server) as session:
        result = await session.call_tool("execute", {"code": "while True: pass", "timeout_ms": 300})
    assert result.is_error is True and result.structured_content is not None
    assert result.structured_content["trap"]["kind"] == "deadline"
    assert "Limit hit (deadline)" in text_of(result)

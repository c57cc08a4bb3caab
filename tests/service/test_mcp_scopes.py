"""Over MCP a token sees and calls only what its scopes allow, in its own tenant."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import httpx2
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

OPERATOR = "mcp-scopes-operator"


@pytest.fixture(scope="module")
def tokens(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[str, dict[str, str]]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=1, guest=compiled_guest,
                        token=OPERATOR)
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, headers={"Authorization": f"Bearer {OPERATOR}"}) as op:
        op.post("/v1/admin/tenants", json={"name": "acme"}).raise_for_status()
        made = {}
        for name, scopes in (("runner", ["execute"]), ("reader", ["workspaces:read"])):
            answer = op.post("/v1/admin/tokens", json={"tenant": "acme", "name": name,
                                                       "scopes": scopes})
            made[name] = answer.json()["token"]
        op.put("/v1/workspaces/notes/files/a.txt", content=b"the default tenant's").raise_for_status()
        yield live.url, made


async def _session_call(url: str, token: str, tool: str | None,
                        arguments: dict[str, object]) -> tuple[set[str], types.CallToolResult | None]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
        async with streamable_http_client(f"{url}/mcp", http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                result = await session.call_tool(tool, arguments) if tool else None
    return names, result


async def test_an_execute_token_lists_and_runs_execute_only(tokens: tuple[str, dict[str, str]]) -> None:
    url, made = tokens
    names, result = await _session_call(url, made["runner"], "execute", {"code": "6 * 7"})
    assert names == {"execute"}
    assert result is not None and not result.is_error
    assert result.structured_content is not None and result.structured_content["result"] == 42
    _, refused = await _session_call(url, made["runner"], "bash", {"script": "echo hi"})
    assert refused is not None and refused.is_error
    assert refused.structured_content is not None
    assert refused.structured_content["error"]["code"] == "forbidden"


async def test_a_read_token_reads_its_own_tenant_only(tokens: tuple[str, dict[str, str]]) -> None:
    url, made = tokens
    names, result = await _session_call(url, made["reader"], "read",
                                        {"workspace": "notes", "path": "/a.txt"})
    assert names == {"read", "list", "find", "grep"}
    assert result is not None and result.is_error  # acme has no workspace "notes"
    assert "the default tenant's" not in str(result.model_dump())

"""``sandbox mcp``: the MCP server over stdio, started as a subprocess by the official SDK's
client, with its own service state in the data directory it is given."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

from sandbox import CompiledGuest


def _params(data_dir: Path, cache: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "sandbox.cli", "mcp", "--data-dir", str(data_dir), "--workers", "1", *extra],
        env={"SANDBOX_CACHE_DIR": str(cache), "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
             "SANDBOX_SWEEP_INTERVAL_S": "0"},
        cwd=str(Path(__file__).resolve().parents[2]))


async def test_the_sdk_client_drives_sandbox_mcp_over_stdio(compiled_guest: CompiledGuest,
                                                            tmp_path: Path) -> None:
    params = _params(tmp_path / "data", compiled_guest.path.parent)
    with open(tmp_path / "stderr.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                executed = await session.call_tool("execute", {"code": "print('hi')\n6 * 7"})
                ran = await session.call_tool("bash", {"script": "echo stdio > out.txt; cat out.txt"})
                read_back = await session.call_tool("read", {"path": "/out.txt"})
    assert init.server_info.name == "wasm-sandbox"
    assert {"execute", "bash", "read", "write", "grep"} <= names
    assert executed.structured_content is not None
    assert executed.structured_content["result"] == 42 and executed.structured_content["logs"] == ["hi"]
    assert ran.structured_content is not None and ran.structured_content["stdout"] == "stdio\n"
    assert isinstance(read_back.content[0], types.TextContent)
    assert read_back.content[0].text == "1\tstdio"
    # The state is the data directory's: the workspace file is in its database.
    assert (tmp_path / "data" / "sandbox.db").exists()


async def test_sandbox_mcp_honours_disabled_tools(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    params = _params(tmp_path / "data", compiled_guest.path.parent, "--disable", "execute")
    with open(tmp_path / "stderr.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                refused = await session.call_tool("execute", {"code": "1"})
    assert "execute" not in names and "bash" in names
    assert refused.is_error is True and refused.structured_content is not None
    assert refused.structured_content["error"]["code"] == "tool_disabled"

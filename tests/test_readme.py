"""Every example in the README runs, as written, and prints what the README says it prints.

Each code block of README.md is claimed by one test below (a new block without a test fails
``test_every_block_is_run``). Shell blocks run in a real bash against a real service, with
``localhost:8000`` pointed at it and ``…`` placeholders (ids) filled in; a ``# {...}`` comment
after a command is the expected output: ``…`` stands for anything, a decimal number for any
number (durations), everything else must match exactly, key order included.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from live_server import ServerThread, free_port
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


@dataclass(frozen=True)
class Block:
    language: str
    text: str
    line: int


def _blocks() -> list[Block]:
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", README, re.S | re.M):
        found.append(Block(match.group(1), match.group(2), README.count("\n", 0, match.start()) + 1))
    return found


def _block(marker: str) -> Block:
    matching = [b for b in _blocks() if marker in b.text]
    assert len(matching) == 1, f"one README block should contain {marker!r}"
    return matching[0]


CLAIMED = ("./scripts/serve", "/v1/execute -H", "from sandbox import Sandbox", "/v1/approvals?",
           '"mcpServers"', "└─ codemode.execution", "/v1/connectors/tracker",
           "SANDBOX_SHARED_BLOB_DIR=/mnt")
"""A marker of each block the tests below run (the span tree's test is in
``tests/service/test_telemetry.py``, beside the traced service it compares with)."""


def test_every_block_is_run() -> None:
    unclaimed = [b.line for b in _blocks() if not any(marker in b.text for marker in CLAIMED)]
    assert not unclaimed, f"README blocks at lines {unclaimed} are run by no test"


def _commands(block: Block) -> list[tuple[str, str | None]]:
    """(command, expected output or None), joining backslash-continued lines."""
    commands: list[tuple[str, str | None]] = []
    pending = ""
    for line in block.text.splitlines():
        if line.startswith("# ") and commands:
            command, _ = commands[-1]
            commands[-1] = (command, line[2:])
            continue
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        if pending.strip():
            commands.append((pending, None))
        pending = ""
    return commands


def _pattern(expected: str) -> str:
    pieces = re.split(r"(…|-?\d+\.\d+)", expected)
    return "".join(".*?" if p == "…" else r"-?\d+(?:\.\d+)?" if re.fullmatch(r"-?\d+\.\d+", p)
                   else re.escape(p) for p in pieces)


def _run(command: str, url: str, fill: dict[str, str] | None = None) -> str:
    command = command.replace("localhost:8000", url.removeprefix("http://"))
    for placeholder, value in (fill or {}).items():
        command = command.replace(placeholder, value)
    command = command.split("  # ")[0]  # a trailing remark is not part of the command
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout


@pytest.fixture(scope="module")
def service(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("readme"), workers=2, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live:
        yield live


def test_the_30_second_example(service: ServerThread) -> None:
    commands = _commands(_block("/v1/execute -H"))
    assert len(commands) == 2 and all(expected for _, expected in commands)
    for command, expected in commands:
        assert expected is not None
        actual = _run(command, service.url).strip()
        assert re.fullmatch(_pattern(expected), actual), f"README says {expected}\nservice sent {actual}"


def test_the_python_example(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    code = _block("from sandbox import Sandbox").text
    expected = re.search(r"#\s*(.+)$", code.strip().splitlines()[-1])
    assert expected is not None
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(compiled_guest.path.parent)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected.group(1).strip()


def test_the_connector_examples(service: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both connectors of the block, against real peers started here: an MCP server built
    with the SDK and a FastAPI service (its own /openapi.json) in place of localhost:9000/1."""
    from connector_peers import McpPeer, openapi_peer

    peer = McpPeer()
    app, seen = openapi_peer()
    monkeypatch.setenv("TRACKER_TOKEN", "Bearer from-the-environment")
    commands = _commands(_block("/v1/connectors/tracker"))
    assert [expected is not None for _, expected in commands] == [False, False, True]
    with ServerThread(peer.app()) as mcp_live, ServerThread(app) as api_live:
        fill = {"localhost:9000": mcp_live.url.removeprefix("http://"),
                "localhost:9001": api_live.url.removeprefix("http://")}
        for command, expected in commands:
            actual = _run(command, service.url, fill).strip()
            if expected is not None:
                assert re.fullmatch(_pattern(expected), actual), f"README says {expected}\nservice sent {actual}"
    assert peer.headers[-1]["authorization"] == "Bearer from-the-environment"
    assert seen[-1]["op"] == "getRepo" and seen[-1]["page"] == 2


def _paused(url: str) -> tuple[str, str]:
    """A fresh execution parked on a durable approval: (execution id, approval id)."""
    tool = {"name": "send_invoice", "input_schema": {"type": "object"},
            "approval": {"mode": "durable", "summary": "Send an invoice"}}
    outcome = httpx.post(f"{url}/v1/execute", timeout=60, json={
        "code": "tools.send_invoice(amount=5)", "tools": [tool]}).json()
    assert outcome["status"] == "paused", outcome
    return outcome["execution_id"], outcome["pending"][0]["approval_id"]


def test_the_approval_examples(service: ServerThread) -> None:
    commands = [command for command, _ in _commands(_block("/v1/approvals?"))]
    listing, approve, reject, events = commands
    execution, approval = _paused(service.url)
    pending = json.loads(_run(listing, service.url))["approvals"]
    assert approval in [a["approval_id"] for a in pending]
    resumed = json.loads(_run(approve, service.url, {"actpause_…": approval}))
    assert resumed["execution_id"] == execution and resumed["status"] != "paused"
    _, second = _paused(service.url)
    refused = json.loads(_run(reject, service.url, {"actpause_…": second}))
    assert refused["status"] == "rejected", refused
    # The stream stays open while the execution waits (here, for its tool's result): 5 s of it.
    events = events.split("  # ")[0].replace("curl -N", "curl -N --max-time 5") + " || true"
    stream = _run(events, service.url, {"exec_…": execution})
    assert "event: " in stream and "id: " in stream


def test_the_serve_command_starts_the_service(tmp_path: Path, compiled_guest: CompiledGuest) -> None:
    # The other command of that block, ./scripts/test, is what runs this test.
    line = next(c for c, _ in _commands(_block("./scripts/serve")) if "scripts/serve" in c)
    assert line.split("#")[0].strip() == "./scripts/serve"
    port = free_port()
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(compiled_guest.path.parent)}
    server = subprocess.Popen([str(ROOT / "scripts" / "serve"), "--port", str(port), "--data-dir",
                               str(tmp_path), "--workers", "1"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.3)
        assert health["status"] == "ok"
    finally:
        server.terminate()
        server.wait(timeout=60)


async def test_the_mcp_configuration_connects_both_ways(compiled_guest: CompiledGuest,
                                                        tmp_path: Path) -> None:
    """Both entries of the MCP block, as an agent host reads them: the URL with its token
    header, and the stdio command (``sandbox`` from this environment) with its arguments."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    servers = json.loads(_block('"mcpServers"').text)["mcpServers"]
    remote, local = servers["sandbox"], servers["sandbox-local"]
    settings = Settings(data_dir=tmp_path / "http", workers=1, guest=compiled_guest, token="tok")
    with ServerThread(create_app(settings)) as live:
        url = remote["url"].replace("http://127.0.0.1:8000", live.url)
        headers = {k: v.replace("<token>", "tok") for k, v in remote["headers"].items()}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as client:
            async with streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    over_http = await session.call_tool("execute", {"code": "6 * 7"})
    params = StdioServerParameters(
        command=str(Path(sys.executable).with_name(local["command"])),
        args=[arg.replace("/path/to/data", str(tmp_path / "stdio")) for arg in local["args"]],
        env={"SANDBOX_CACHE_DIR": str(compiled_guest.path.parent),
             "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    with open(tmp_path / "stderr.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                over_stdio = await session.call_tool("execute", {"code": "6 * 7"})
    for result in (over_http, over_stdio):
        assert result.structured_content is not None and result.structured_content["result"] == 42


@pytest.mark.postgres
@pytest.mark.slow
def test_the_scale_out_recipe_runs_two_processes_that_share_one_database(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    import shlex

    from service_processes import services, shared_environment

    block = _block("SANDBOX_SHARED_BLOB_DIR=/mnt")
    env = dict(re.findall(r"^export (\w+)=(\S+)$", block.text, re.M))
    # The recipe names exactly the settings the multi-process tests share.
    assert set(env) == set(shared_environment(postgres_url, tmp_path))
    env.update(SANDBOX_DATABASE_URL=postgres_url, SANDBOX_SHARED_BLOB_DIR=str(tmp_path / "blobs"),
               SANDBOX_AUDIT_KEY=str(tmp_path / "keys" / "audit-ed25519.key"))
    serve = shlex.split(next(line for line in block.text.splitlines() if line.startswith("sandbox serve")))
    placed = {"--host", "--port", "--data-dir"}  # each process's own, set by the helper
    options = serve[2:]
    args = [a for i, a in enumerate(options) if a not in placed and (i == 0 or options[i - 1] not in placed)]
    with services(2, postgres_url, tmp_path, env=env, args=args, forked=False) as (one, two):
        with one.client(env["SANDBOX_TOKEN"]) as first, two.client(env["SANDBOX_TOKEN"]) as second:
            assert first.put("/v1/workspaces/w/files/a.txt", content=b"through one").status_code == 201
            assert second.get("/v1/workspaces/w/files/a.txt").content == b"through one"

"""``/mcp``'s server starts with the first request to it, not with the service: the service
and the command line start without importing the MCP SDK, a server that cannot start
answers 503 and is tried again by the next request, and requests wait for a start under way."""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
from typing import Iterator

import httpx
import pytest

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app
from sandbox.service import mcp as mcp_route

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def server(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=1, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live:
        yield live


def test_the_service_and_the_command_line_start_without_the_mcp_sdk() -> None:
    probe = ("import sys, sandbox.service, sandbox.cli.main, codemode\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_the_first_request_starts_the_server(server: ServerThread) -> None:
    answer = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=HEADERS, timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["serverInfo"]["name"] == "wasm-sandbox"


def test_a_server_that_cannot_start_answers_503_and_the_next_request_tries_again(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcp_route, "SERVER_MODULE", "sandbox.service.no_such_module")
    refused = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=HEADERS, timeout=60)
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "unavailable"
    assert "could not start" in refused.json()["error"]["message"]
    monkeypatch.undo()
    answer = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=HEADERS, timeout=60)
    assert answer.status_code == 200, answer.text


def test_requests_arriving_while_it_starts_all_wait_for_the_one_start(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    callers_count = 6
    starts = 0
    arrived = 0
    all_arrived = threading.Event()
    real_import = importlib.import_module
    real_manager = mcp_route._Server.manager

    async def counted_manager(self: mcp_route._Server) -> object:
        nonlocal arrived
        arrived += 1  # on the app's event loop: no lock needed
        if arrived == callers_count:
            all_arrived.set()
        return await real_manager(self)

    def held_import(name: str, package: str | None = None) -> object:
        nonlocal starts
        if name == mcp_route.SERVER_MODULE:  # only the server's import: others pass through
            starts += 1
            # The start (in the import's thread) ends only once every request is waiting
            # for it, however slowly they arrive.
            assert all_arrived.wait(timeout=60), f"only {arrived} requests arrived"
        return real_import(name, package)

    monkeypatch.setattr(mcp_route._Server, "manager", counted_manager)
    monkeypatch.setattr(importlib, "import_module", held_import)  # what the route calls
    statuses: list[int] = []

    def initialize() -> None:
        answer = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=HEADERS, timeout=60)
        statuses.append(answer.status_code)

    callers = [threading.Thread(target=initialize) for _ in range(callers_count)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=90)
    assert statuses == [200] * callers_count
    assert starts == 1

"""``/mcp``'s server starts with the first request to it, not with the service: the service
and the command line start without importing the MCP SDK, a server that cannot start
answers 503 and is tried again by the next request, and requests wait for a start under way."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
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
    starts = 0
    real = mcp_route.importlib.import_module

    def counted(name: str, package: str | None = None) -> object:
        nonlocal starts
        if name == mcp_route.SERVER_MODULE:  # only the server's import: others pass through
            starts += 1
            time.sleep(0.5)  # a slow start (in the import's thread): all six arrive during it
        return real(name, package)

    monkeypatch.setattr(mcp_route.importlib, "import_module", counted)
    statuses: list[int] = []

    def initialize() -> None:
        answer = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=HEADERS, timeout=60)
        statuses.append(answer.status_code)

    callers = [threading.Thread(target=initialize) for _ in range(6)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=90)
    assert statuses == [200] * 6
    assert starts == 1

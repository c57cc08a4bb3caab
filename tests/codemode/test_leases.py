"""A live run keeps its lease however long it lasts: the lease is renewed while it runs, so
no sweep (here, a second service on the same database) takes it over. The run below waits
on two inline approvals; each wait is given back to the guest, so it outlives the lease it
was claimed with (deadline + one wait + margin) and, without renewal, would be run twice."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from agent_host import AgentHost, ServerThread
from codemode import DurableSettings
from codemode.leases import renewal_interval
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

pytestmark = pytest.mark.slow

WAIT_S = 2.5
"""How long each approval is left waiting (under the run's ``approval_wait_ms``)."""


def _settings(database: str, tmp_path: Path, name: str, guest: CompiledGuest) -> Settings:
    on_postgres = database.startswith("postgresql://")
    return Settings(
        data_dir=tmp_path / name if on_postgres else tmp_path / "shared",
        database_url=database if on_postgres else None, workers=1, guest=guest,
        sweep_interval_s=0.2, inline_tool_secret="inline-secret-of-the-lease-test",
        durable=DurableSettings(lease_margin_s=0.6))


def _approve_when_asked(client: httpx.Client, title: str) -> int:
    """Approve the call making ``title`` once it has waited ``WAIT_S``; the run's attempts
    just before (1: started once, never taken over by a sweep)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = client.get("/v1/approvals").json()["approvals"]
        found = next((a for a in listed if a["args"] == {"title": title}), None)
        if found is not None:
            time.sleep(WAIT_S)
            record = client.get(f"/v1/executions/{found['execution_id']}").json()
            assert client.post(f"/v1/approvals/{found['approval_id']}/approve",
                               json={}).status_code == 200
            return int(record["attempts"])
        time.sleep(0.05)
    raise AssertionError(f"the approval of {title} was never asked for")


def test_a_run_outliving_its_first_lease_is_not_taken_over_while_it_runs(
    database: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    assert renewal_interval(0.6) == 0.5
    host = AgentHost(["inline-secret-of-the-lease-test"])
    code = "a = tools.create_item(title='first')\nb = tools.create_item(title='second')\n[a['title'], b['title']]"
    with ServerThread(host) as endpoint, \
            ServerThread(create_app(_settings(database, tmp_path, "a", compiled_guest))) as a, \
            ServerThread(create_app(_settings(database, tmp_path, "b", compiled_guest))) as b, \
            httpx.Client(base_url=a.url, timeout=60) as on_a, \
            httpx.Client(base_url=b.url, timeout=60) as on_b:
        tools = host.tools(endpoint.url, create_item={"approval": {"mode": "inline"}})
        with ThreadPoolExecutor(1) as pool:
            running = pool.submit(lambda: on_a.post("/v1/execute", json={
                "code": code, "tools": tools, "timeout_ms": 1000,
                "approval_wait_ms": 3000}).json())
            # By the second decision the run is past the lease it was claimed with
            # (1 + 3 + 0.6 s; two waits of 2.5 s), yet it is still on its first attempt.
            attempts = [_approve_when_asked(on_b, title) for title in ("first", "second")]
            done: dict[str, Any] = running.result()
        assert done["status"] == "completed" and done["result"] == ["first", "second"], done
    assert attempts == [1, 1]
    titles = [c["input"]["title"] for c in host.calls if c.get("tool") == "create_item"]
    assert sorted(titles) == ["first", "second"]

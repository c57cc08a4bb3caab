"""What Code Mode and the service write to the audit log, read back as an operator does
(``GET /v1/audit``): a real service, real isolates and a signed agent host.

Every execution's start and end, every call with a side effect, every approval requested,
decided or refused (late or duplicate), cancellations, deletions and retention; the
entries outlive the executions they describe, and the chain verifies throughout."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any, Iterator

import httpx
import pytest

from agent_host import AgentHost, ServerThread
from codemode import DurableSettings
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

GATED = {"approval": {"mode": "durable", "summary": "Create an item", "risk": "low"}}


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory,
           host: tuple[AgentHost, str], module_database_url: str | None) -> Iterator[httpx.Client]:
    agent, url = host
    settings = Settings(data_dir=tmp_path_factory.mktemp("audit"), workers=2,
                        guest=compiled_guest, sweep_interval_s=0,
                        durable=replace(DurableSettings(), keep_executions=2),
                        database_url=module_database_url)
    with ServerThread(create_app(settings)) as live, \
            httpx.Client(base_url=live.url, timeout=120) as http:
        for name, tools in {"gated": agent.tools(url, create_item=GATED),
                            "keyed": agent.tools(url, create_item={"idempotency_key": "item:{title}"}),
                            "plain": agent.tools(url)}.items():
            created = http.put(f"/v1/toolsets/{name}", json={"tools": tools})
            assert created.status_code == 201, created.text
            agent.secrets.append(created.json()["secret"])
        yield http


def _run(client: httpx.Client, code: str, toolset: str = "plain", **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/execute", json={"code": code, "toolsets": [toolset], **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _trail(client: httpx.Client, **subject: str) -> list[dict[str, Any]]:
    params = [("subject", f"{k}={v}") for k, v in subject.items()]
    response = client.get("/v1/audit", params=[*params, ("limit", "1000")])
    assert response.status_code == 200, response.text
    return list(response.json()["entries"])


def _events(entries: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in entries]


def _verified(client: httpx.Client) -> dict[str, Any]:
    report = client.get("/v1/audit/verify").json()
    assert report["ok"], report
    return dict(report)


def test_an_execution_records_its_start_its_side_effects_and_its_end(client: httpx.Client) -> None:
    code = "plain.create_item(title='audited')\nstate.write_file('/a.txt', 'x')\nstate.read_file('/a.txt')"
    done = _run(client, code, workspace="trail")
    assert done["status"] == "completed"
    entries = _trail(client, execution_id=done["execution_id"])
    assert _events(entries) == ["execution.started", "call.completed", "call.completed",
                                "execution.finished"]
    started, tool, write, finished = entries
    assert started["body"]["code_sha256"] == hashlib.sha256(code.encode()).hexdigest()
    assert started["body"]["namespaces"]["plain"][:2] == ["create_item", "list_items"]
    assert started["subject"] == {"execution_id": done["execution_id"], "workspace": "trail"}
    assert (tool["body"]["namespace"], tool["body"]["method"], tool["body"]["outcome"]) == (
        "plain", "create_item", "applied")
    assert tool["body"]["idempotency_key"] == f"{done['execution_id']}:0"
    assert tool["body"]["args_sha256"] == hashlib.sha256(b'{"title":"audited"}').hexdigest()
    assert (write["body"]["namespace"], write["body"]["method"]) == ("state", "write_file")
    assert finished["body"] == {"status": "completed", "error": None, "calls": 3}
    assert started["tenant"] == "default"
    assert [e["seq"] for e in entries] == sorted(e["seq"] for e in entries)


def test_a_failed_call_and_a_failed_execution_are_recorded_with_their_error_names(
        client: httpx.Client) -> None:
    done = _run(client, "plain.fail()", workspace="trail-errors")
    assert done["status"] == "error"
    entries = _trail(client, execution_id=done["execution_id"])
    assert _events(entries) == ["execution.started", "call.completed", "execution.finished"]
    assert entries[1]["body"]["outcome"] == "error" and entries[1]["body"]["error"]
    assert entries[2]["body"]["status"] == "error" and entries[2]["body"]["error"]


def test_an_explicit_idempotency_key_is_the_one_recorded(client: httpx.Client) -> None:
    done = _run(client, "keyed.create_item(title='k1')", "keyed", workspace="trail-keys")
    [call] = [e for e in _trail(client, execution_id=done["execution_id"])
              if e["event"] == "call.completed"]
    assert call["body"]["idempotency_key"] == "item:k1"


def test_approvals_requested_decided_and_a_duplicate_refused(client: httpx.Client) -> None:
    paused = _run(client, "gated.create_item(title='needs-ok')", "gated", workspace="trail-ok")
    [pending] = paused["pending"]
    approval_id = pending["approval_id"]
    assert client.post(f"/v1/approvals/{approval_id}/approve",
                       json={"note": "looks right"}).status_code == 200
    again = client.post(f"/v1/approvals/{approval_id}/reject", json={"note": "too late"})
    assert again.status_code == 409
    entries = _trail(client, execution_id=paused["execution_id"])
    assert _events(entries) == ["execution.started", "approval.requested", "approval.decided",
                                "call.completed", "execution.finished", "approval.refused"]
    requested, decided, refused = (next(e for e in entries if e["event"] == name) for name in
                                   ("approval.requested", "approval.decided", "approval.refused"))
    assert requested["subject"]["approval_id"] == approval_id
    # No token configured: the single local user decides, and is the entry's principal.
    assert decided["principal"] == "local"
    assert decided["body"] == {"decision": "approved", "by_tenant": "default",
                               "note": "looks right"}
    assert refused["principal"] == "local"
    assert refused["body"] == {"attempted": "rejected", "by_tenant": "default",
                               "found": "approved", "decided_by": "local"}


def test_a_cancelled_execution_and_a_late_decision_on_it(client: httpx.Client) -> None:
    paused = _run(client, "gated.create_item(title='never')", "gated", workspace="trail-cancel")
    approval_id = paused["pending"][0]["approval_id"]
    cancel = client.post(f"/v1/executions/{paused['execution_id']}/cancel",
                         json={"reason": "not today"})
    assert cancel.status_code == 200, cancel.text
    late = client.post(f"/v1/approvals/{approval_id}/approve", json={})
    assert late.status_code == 409
    entries = _trail(client, execution_id=paused["execution_id"])
    assert _events(entries)[-2:] == ["execution.cancelled", "approval.refused"]
    assert entries[-2]["body"]["approvals_cancelled"] == [approval_id]
    assert entries[-1]["body"]["found"] == "cancelled"


def test_entries_outlive_deleted_and_pruned_executions(client: httpx.Client) -> None:
    gone = _run(client, "1", workspace="trail-retention")
    assert client.delete(f"/v1/executions/{gone['execution_id']}").status_code == 200
    assert client.get(f"/v1/executions/{gone['execution_id']}").status_code == 404
    assert _events(_trail(client, execution_id=gone["execution_id"])) == [
        "execution.started", "execution.finished", "execution.deleted"]
    runs = [_run(client, str(n), workspace="trail-retention")["execution_id"] for n in range(3)]
    # keep_executions=2, kept as each run starts: the first two and the third are here...
    assert [client.get(f"/v1/executions/{run}").status_code for run in runs] == [200] * 3
    runs.append(_run(client, "3", workspace="trail-retention")["execution_id"])
    # ... and the fourth run's start pruned the first.
    assert [client.get(f"/v1/executions/{run}").status_code for run in runs] == [404] + [200] * 3
    assert _events(_trail(client, execution_id=runs[0])) == [
        "execution.started", "execution.finished", "execution.pruned"]
    _verified(client)


def test_service_events_toolsets_workspaces_and_bash_write_backs(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    agent, url = host
    assert client.put("/v1/toolsets/temp", json={"tools": agent.tools(url)}).status_code == 201
    assert client.delete("/v1/toolsets/temp").status_code == 200
    assert _events(_trail(client, toolset="temp")) == ["toolset.put", "toolset.deleted"]
    bash = client.post("/v1/bash", json={"script": "echo hi > /new.txt", "workspace": "trail-bash"})
    assert bash.status_code == 200, bash.text
    [written] = _trail(client, workspace="trail-bash")
    assert written["event"] == "bash.write_back"
    assert written["body"]["counts"] == {"created": 1, "updated": 0, "deleted": 0}
    assert written["body"]["paths"]["created"] == ["/new.txt"]
    assert client.delete("/v1/workspaces/trail-bash").status_code == 200
    assert _events(_trail(client, workspace="trail-bash"))[-1] == "workspace.deleted"
    report = _verified(client)
    assert report["count"] >= 20
    assert json.dumps(report)  # the report is plain JSON

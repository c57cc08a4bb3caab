"""Durable executions over HTTP, as an agent host and an operator use them: pause on a gated
call, approve or reject from another request, resume by replay, roll back, expire; actions
run at most once through the idempotency ledger, only when authorised; client-resolved tools;
attachments. A real service, real isolates, a real signed agent host counting side effects.

Acceptance cases 45-46, 48-56, 60-69, 75, 78-79 and 81 (reference sections 4 and 5)."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

import httpx
import pytest

from sandbox.service import create_app
from sandbox.engine import CompiledGuest
from sandbox.service import Settings

from agent_host import AgentHost, ServerThread
from service_tables import tables

GATED = {"approval": {"mode": "durable", "summary": "Create an item", "risk": "low"}}


@pytest.fixture(scope="module")
def service(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory,
            host: tuple[AgentHost, str],
            module_database_url: str | None) -> Iterator[tuple[httpx.Client, Settings]]:
    agent, url = host
    settings = Settings(data_dir=tmp_path_factory.mktemp("durable"), workers=2,
                        guest=compiled_guest, sweep_interval_s=0,
                        database_url=module_database_url)
    with ServerThread(create_app(settings)) as live, \
            httpx.Client(base_url=live.url, timeout=120) as http:
        toolsets = {
            "gated": agent.tools(url, create_item=GATED),
            "plain": agent.tools(url),
            "keyed": agent.tools(url, create_item={"idempotency_key": "item:{title}"},
                                 fail={"idempotency_key": "fail:always"}),
            "guarded": agent.tools(url, create_item={**GATED, "permissions": ["items:write"]},
                                   list_items={"permissions": ["items:read"]}),
            "inline": agent.tools(url, create_item={"approval": {"mode": "inline"}}),
            "partly": agent.tools(url, create_item={"approval": {
                "mode": "durable", "when": {"properties": {"title": {"pattern": "^prod"}}}}}),
            "quick": agent.tools(url, slow={"timeout_ms": 50}),
            "gatedslow": agent.tools(url, slow={"approval": {"mode": "durable"}}),
        }
        for name, tools in toolsets.items():
            created = http.put(f"/v1/toolsets/{name}", json={"tools": tools})
            assert created.status_code == 201, created.text
            agent.secrets.append(created.json()["secret"])
        yield http, settings


@pytest.fixture
def client(service: tuple[httpx.Client, Settings]) -> httpx.Client:
    return service[0]


_counter = iter(range(1_000_000))


def _title(prefix: str = "item") -> str:
    return f"{prefix}-{next(_counter)}-{time.monotonic_ns()}"


def _run(client: httpx.Client, code: str, toolset: str = "gated", **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/execute", json={"code": code, "toolsets": [toolset], **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _approve(client: httpx.Client, approval_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/v1/approvals/{approval_id}/approve", json=body)


def _record(client: httpx.Client, execution_id: str) -> dict[str, Any]:
    response = client.get(f"/v1/executions/{execution_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def _effects(agent: AgentHost, title: str) -> int:
    return sum(1 for c in agent.calls if c.get("tool") == "create_item"
               and c["input"].get("title") == title and c.get("action") != "revert")


# --- approvals: pause, approve, reject (cases 60-66, 69, 81) --------------------------------

def test_a_gated_call_pauses_with_one_pending_call_and_no_side_effect(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    paused = _run(client, f"tools_result = gated.create_item(title={title!r})\ntools_result['title']")
    assert paused["status"] == "paused"
    [pending] = paused["pending"]
    assert (pending["namespace"], pending["method"], pending["args"]) == (
        "gated", "create_item", {"title": title})
    assert pending["approval_id"].startswith("actpause_")
    assert pending["descriptor"]["kind"] == "durable-pause"
    assert _effects(host[0], title) == 0
    assert _record(client, paused["execution_id"])["status"] == "paused"

    done = _approve(client, pending["approval_id"], by="alice")
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "completed"
    assert done.json()["result"] == title
    assert _effects(host[0], title) == 1
    record = _record(client, paused["execution_id"])
    assert [(e["method"], e["state"]) for e in record["journal"]] == [("create_item", "applied")]
    [decision] = record["approvals"]
    # The identity is the token's (here the local user's); "by" is kept as a note beside it.
    assert (decision["status"], decision["decided_by"], decision["reason"]) == (
        "approved", "local", "by alice")
    assert decision["decided_at"] >= decision["created_at"]
    one = client.get(f"/v1/approvals/{pending['approval_id']}").json()
    assert one["status"] == "approved" and one["execution_id"] == paused["execution_id"]


def test_the_read_before_a_gated_write_is_applied_and_replayed_not_repeated(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    agent = host[0]
    title = _title()
    code = f"before = gated.list_items()\nmade = gated.create_item(title={title!r})\n[before, made]"
    paused = _run(client, code)
    assert [(c["method"], c["state"]) for c in paused["calls"]] == [
        ("list_items", "applied"), ("create_item", "pending")]
    # The workspace of items changes while the run waits: the replayed read must not see it.
    other = _title("meanwhile")
    assert _run(client, f"plain.create_item(title={other!r})", "plain")["status"] == "completed"
    reads_before = sum(1 for c in agent.calls if c["tool"] == "list_items")

    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed"
    before, made = done["result"]
    assert other not in before
    assert made["title"] == title
    assert sum(1 for c in agent.calls if c["tool"] == "list_items") == reads_before
    assert [c.get("replayed", False) for c in done["calls"]] == [True, False]


def test_an_approval_can_lead_to_the_next_pause(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    first, second = _title(), _title()
    code = (f"a = gated.create_item(title={first!r})\n"
            f"b = gated.create_item(title={second!r})\n[a['title'], b['title']]")
    paused = _run(client, code)
    again = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert again["status"] == "paused"
    assert again["pending"][0]["args"] == {"title": second}
    assert again["pending"][0]["seq"] == 1
    assert _effects(host[0], first) == 1 and _effects(host[0], second) == 0
    done = _approve(client, again["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed" and done["result"] == [first, second]
    assert _effects(host[0], first) == 1 and _effects(host[0], second) == 1


def test_reject_ends_the_execution_and_a_later_approve_is_refused(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    paused = _run(client, f"gated.create_item(title={title!r})")
    approval_id = paused["pending"][0]["approval_id"]
    rejected = client.post(f"/v1/approvals/{approval_id}/reject", json={"reason": "not today"})
    assert rejected.status_code == 200, rejected.text
    assert rejected.json()["status"] == "rejected"
    record = _record(client, paused["execution_id"])
    assert record["status"] == "rejected"
    assert "rejected by user" in record["error"]["message"]
    assert [e["state"] for e in record["journal"]] == ["reverted"]

    late = _approve(client, approval_id)
    assert late.status_code == 409
    assert "not paused" in late.json()["error"]["message"]
    assert _effects(host[0], title) == 0


def test_code_that_catches_the_pause_cannot_make_another_call(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    first, second = _title(), _title()
    code = (f"try:\n    gated.create_item(title={first!r})\n"
            f"except BaseException:\n    gated.create_item(title={second!r})\n")
    paused = _run(client, code)
    assert paused["status"] == "paused"
    assert len(paused["pending"]) == 1
    journal = _record(client, paused["execution_id"])["journal"]
    assert [(e["args"], e["state"]) for e in journal] == [({"title": first}, "pending")]
    assert _effects(host[0], first) == _effects(host[0], second) == 0


def test_pending_approvals_of_two_runs_are_listed_oldest_first(client: httpx.Client) -> None:
    workspace = f"w{next(_counter)}"
    one = _run(client, f"gated.create_item(title={_title()!r})", workspace=workspace)
    two = _run(client, f"gated.create_item(title={_title()!r})", workspace=workspace)
    listed = client.get("/v1/approvals", params={"workspace": workspace}).json()["approvals"]
    assert [a["execution_id"] for a in listed] == [one["execution_id"], two["execution_id"]]
    assert all(a["status"] == "pending" for a in listed)
    descriptor = listed[0]["descriptor"]
    assert descriptor["summary"] == "Create an item" and descriptor["risk"] == "low"
    assert descriptor["action"] == "gated.create_item"
    assert descriptor["tool_call_id"] == f"{one['execution_id']}:0"


def test_twenty_racing_decisions_have_exactly_one_winner(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    paused = _run(client, f"gated.create_item(title={title!r})")
    approval_id = paused["pending"][0]["approval_id"]
    barrier = threading.Barrier(20)

    def decide(n: int) -> int:
        barrier.wait()
        if n % 2:
            return _approve(client, approval_id, by=f"approver-{n}").status_code
        return client.post(f"/v1/approvals/{approval_id}/reject",
                           json={"by": f"rejecter-{n}"}).status_code

    with ThreadPoolExecutor(20) as pool:
        codes = list(pool.map(decide, range(20)))
    assert sorted(codes) == [200] + [409] * 19
    [approval] = [a for a in client.get("/v1/approvals", params={"status": "approved"}).json()[
        "approvals"] + client.get("/v1/approvals", params={"status": "rejected"}).json()[
        "approvals"] if a["approval_id"] == approval_id]
    assert approval["decided_by"] is not None and approval["decided_at"] is not None
    expected_effects = 1 if approval["status"] == "approved" else 0
    assert _effects(host[0], title) == expected_effects


def test_a_reject_racing_an_approved_call_that_is_running_loses(client: httpx.Client) -> None:
    paused = _run(client, "gatedslow.slow(seconds=1.0)", "gatedslow")
    approval_id = paused["pending"][0]["approval_id"]
    with ThreadPoolExecutor(1) as pool:
        approving = pool.submit(_approve, client, approval_id)
        time.sleep(0.4)  # the approved call is executing now
        rejected = client.post(f"/v1/approvals/{approval_id}/reject")
        assert rejected.status_code == 409
        done = approving.result()
    assert done.json()["status"] == "completed"
    journal = _record(client, paused["execution_id"])["journal"]
    assert [e["state"] for e in journal] == ["applied"]


def test_approving_after_its_toolset_was_deleted_names_it_and_stays_paused(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    agent, url = host
    name = f"temp{next(_counter)}"
    created = client.put(f"/v1/toolsets/{name}", json={"tools": agent.tools(url, create_item=GATED)})
    agent.secrets.append(created.json()["secret"])
    title = _title()
    paused = _run(client, f"{name}.create_item(title={title!r})", name)
    assert client.delete(f"/v1/toolsets/{name}").status_code == 200
    refused = _approve(client, paused["pending"][0]["approval_id"])
    assert refused.status_code == 409
    assert name in refused.json()["error"]["message"]
    assert "no longer registered" in refused.json()["error"]["message"]
    assert _record(client, paused["execution_id"])["status"] == "paused"
    # Restored (a new secret), the same approval still works: nothing was used up.
    restored = client.put(f"/v1/toolsets/{name}", json={"tools": agent.tools(url, create_item=GATED)})
    agent.secrets.append(restored.json()["secret"])
    done = _approve(client, paused["pending"][0]["approval_id"])
    assert done.json()["status"] == "completed"
    assert _effects(agent, title) == 1


def test_an_unknown_approval_is_a_404(client: httpx.Client) -> None:
    response = _approve(client, "actpause_nope")
    assert response.status_code == 404
    assert "actpause_nope" in response.json()["error"]["message"]


def test_a_when_schema_that_does_not_match_runs_the_call_at_once(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title("test")
    done = _run(client, f"partly.create_item(title={title!r})['title']", "partly")
    assert done["status"] == "completed" and done["result"] == title
    gated = _run(client, f"partly.create_item(title={_title('prod')!r})", "partly")
    assert gated["status"] == "paused"


# --- nondeterminism and divergence (cases 67-68) --------------------------------------------

def test_a_random_value_in_a_gated_call_is_caught_as_divergence_on_approve(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    code = "import random\ngated.create_item(title=f'rnd-{random.random()}')"
    paused = _run(client, code)
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "error"
    message = done["error"]["message"]
    assert "replay divergence at step 0" in message and paused["execution_id"] in message
    assert "codemode.step" in message
    assert done["error"]["name"] == "ActionApprovalInputError"
    record = _record(client, paused["execution_id"])
    assert [e["state"] for e in record["journal"]] == ["reverted"]
    assert not [c for c in host[0].calls if str(c["input"].get("title", "")).startswith("rnd-")]
    pending = client.get("/v1/approvals", params={"status": "pending"}).json()["approvals"]
    assert paused["execution_id"] not in {a["execution_id"] for a in pending}


def test_the_same_random_value_wrapped_in_step_is_replayed_and_the_item_made_once(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    code = ("import random\nsuffix = codemode.step('suffix', lambda: random.random())\n"
            "gated.create_item(title=f'stepped-{suffix}')['title']")
    paused = _run(client, code)
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed"
    title = done["result"]
    assert _effects(host[0], title) == 1


def _snippet(client: httpx.Client, name: str, code: str) -> None:
    ran = _run(client, code, "plain")
    assert ran["status"] == "completed", ran
    saved = client.put(f"/v1/snippets/{name}", json={"execution_id": ran["execution_id"]})
    assert saved.status_code in (200, 201), saved.text


@pytest.mark.parametrize(("later", "expected"), [
    ("try:\n    plain.fail()\nexcept Exception:\n    pass", "expected plain.list_items, got plain.fail"),
    ("plain.slow(seconds=0.01)", "expected plain.list_items, got plain.slow"),
    ("plain.list_items()\nplain.list_items()", "expected gated.create_item, got plain.list_items"),
    ("pass", "expected plain.list_items, got gated.create_item"),
])
def test_a_resumed_run_that_calls_something_else_stops_with_divergence(
        client: httpx.Client, later: str, expected: str) -> None:
    name = f"step{next(_counter)}"
    _snippet(client, name, "plain.list_items()")
    code = f"codemode.run({name!r})\ngated.create_item(title={_title()!r})"
    paused = client.post("/v1/execute", json={"code": code, "toolsets": ["gated", "plain"]}).json()
    assert paused["status"] == "paused", paused
    _snippet(client, name, later)  # the snippet changed while the run waited
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "error"
    assert expected in done["error"]["message"]


def test_changed_arguments_are_divergence_naming_both(client: httpx.Client) -> None:
    name = f"args{next(_counter)}"
    _snippet(client, name, "plain.slow(seconds=0.01)")
    code = f"codemode.run({name!r})\ngated.create_item(title={_title()!r})"
    paused = client.post("/v1/execute", json={"code": code, "toolsets": ["gated", "plain"]}).json()
    _snippet(client, name, "plain.slow(seconds=0.02)")
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    message = done["error"]["message"]
    assert "different arguments" in message and "0.01" in message and "0.02" in message


def test_recorded_calls_left_unconsumed_at_the_end_are_divergence(client: httpx.Client) -> None:
    name = f"tail{next(_counter)}"
    _snippet(client, name, "plain.list_items()\nplain.list_items()")
    code = f"gated.create_item(title={_title()!r})\ncodemode.run({name!r})"
    paused = client.post("/v1/execute", json={"code": code, "toolsets": ["gated", "plain"]}).json()
    first = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert first["status"] == "completed"
    # Completed runs are not resumed; make a resumable one whose tail shrinks instead.
    code = (f"codemode.run({name!r})\ngated.create_item(title={_title()!r})\n")
    paused = client.post("/v1/execute", json={"code": code, "toolsets": ["gated", "plain"]}).json()
    _snippet(client, name, "plain.list_items()")
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "error"
    assert "replay divergence at step 1" in done["error"]["message"]


def test_bytes_read_before_a_pause_are_still_bytes_after_replay(client: httpx.Client) -> None:
    workspace = f"b{next(_counter)}"
    code = ("state.write_bytes('/blob.bin', bytes(range(256)))\n"
            "data = state.read_bytes('/blob.bin')\n"
            f"gated.create_item(title={_title()!r})\n"
            "[type(data).__name__, len(data), data[:3] == bytes([0, 1, 2])]")
    paused = _run(client, code, workspace=workspace)
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["result"] == ["bytes", 256, True]


# --- rollback (case 64) ---------------------------------------------------------------------

def test_rollback_reverts_applied_calls_newest_first(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    agent = host[0]
    first, second = _title(), _title()
    code = (f"plain_one = plain.create_item(title={first!r})\n"
            f"gated.create_item(title={second!r})")
    paused = client.post("/v1/execute", json={"code": code, "toolsets": ["plain", "gated"]}).json()
    done = _approve(client, paused["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed"
    before = len(agent.reverts)
    rolled = client.post(f"/v1/executions/{paused['execution_id']}/rollback")
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["status"] == "rolled_back"
    assert [r["seq"] for r in rolled.json()["reverted"]] == [1, 0]
    reverts = agent.reverts[before:]
    assert [r["input"]["title"] for r in reverts] == [second, first]
    record = _record(client, paused["execution_id"])
    assert record["status"] == "rolled_back"
    assert [e["state"] for e in record["journal"]] == ["reverted", "reverted"]
    again = client.post(f"/v1/executions/{paused['execution_id']}/rollback")
    assert again.status_code == 409


# --- expiry (cases 78-79) -------------------------------------------------------------------

def test_the_sweep_expires_old_pauses_only(client: httpx.Client) -> None:
    paused = _run(client, f"gated.create_item(title={_title()!r})")
    swept = client.post("/v1/executions/sweep", json={"paused_ttl_s": 60}).json()
    assert paused["execution_id"] not in swept["expired_parked"]
    assert _record(client, paused["execution_id"])["status"] == "paused"
    swept = client.post("/v1/executions/sweep", json={"paused_ttl_s": 0}).json()
    assert paused["execution_id"] in swept["expired_parked"]
    record = _record(client, paused["execution_id"])
    assert record["status"] == "rejected"
    assert record["error"]["message"] == "Expired awaiting approval"
    late = _approve(client, paused["pending"][0]["approval_id"])
    assert late.status_code == 409 and "expired" in late.json()["error"]["message"]


def test_a_run_left_running_by_a_dead_service_is_expired_once(
        client: httpx.Client, service: tuple[httpx.Client, Settings]) -> None:
    done = _run(client, "1 + 1", "plain")
    with tables(service[1]) as db:
        db.execute("UPDATE codemode_executions SET status = 'running', owner = ?, lease_until = 0"
                   " WHERE id = ?", ("nohost:999999:dead", done["execution_id"]))
    swept = client.post("/v1/executions/sweep", json={"recover_running": False}).json()
    assert swept["expired_running"] == [done["execution_id"]]
    record = _record(client, done["execution_id"])
    assert (record["status"], record["error"]["message"]) == ("error", "Expired while running")
    assert client.post("/v1/executions/sweep", json={"recover_running": False}).json()[
        "expired_running"] == []


def test_an_abandoned_run_is_recovered_by_replay(
        client: httpx.Client, service: tuple[httpx.Client, Settings],
        host: tuple[AgentHost, str]) -> None:
    title = _title()
    done = _run(client, f"plain.create_item(title={title!r})['title']", "plain")
    with tables(service[1]) as db:
        db.execute("UPDATE codemode_executions SET status = 'running', owner = ?, lease_until = 0,"
                   " result = NULL WHERE id = ?", ("nohost:999999:dead", done["execution_id"]))
        # As if killed after the tool's side effect, before anything was settled.
        db.execute("UPDATE codemode_journal SET state = 'executing', result = NULL"
                   " WHERE execution_id = ?", (done["execution_id"],))
        db.execute("UPDATE codemode_ledger SET status = 'pending', result = NULL"
                   " WHERE execution_id = ?", (done["execution_id"],))
    swept = client.post("/v1/executions/sweep").json()
    assert swept["recovered"] == [done["execution_id"]]
    for _ in range(200):
        record = _record(client, done["execution_id"])
        if record["status"] != "running":
            break
        time.sleep(0.05)
    assert record["status"] == "completed" and record["result"] == title
    assert record["journal"][0]["state"] == "applied"
    assert _effects(host[0], title) == 2  # re-sent under the same key...
    assert host[0].effects[f"{done['execution_id']}:0"] == 1  # ...so one real effect


# --- actions: authorization, ledger, attachments (cases 45-46, 48-56) -----------------------

def test_a_missing_permission_fails_the_call_without_asking_or_running(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    code = (f"try:\n    guarded.create_item(title={title!r})\n"
            "except Exception as e:\n    out = [type(e).__name__, str(e)]\nout")
    done = _run(client, code, "guarded", granted_permissions=[])
    assert done["status"] == "completed"
    name, message = done["result"]
    assert "ActionAuthorizationError" in (name + message)
    assert "Missing required permission: items:write" in message
    assert _effects(host[0], title) == 0
    assert not client.get("/v1/approvals", params={"status": "pending"}).json()["approvals"] or \
        done["execution_id"] not in {a["execution_id"] for a in client.get(
            "/v1/approvals").json()["approvals"]}


def test_a_granted_gated_call_shows_its_permissions_in_the_descriptor(client: httpx.Client) -> None:
    paused = _run(client, f"guarded.create_item(title={_title()!r})", "guarded",
                  granted_permissions=["items:write"])
    descriptor = paused["pending"][0]["descriptor"]
    assert descriptor["permissions"] == ["items:write"]
    assert (descriptor["risk"], descriptor["kind"]) == ("low", "durable-pause")


def test_permissions_revoked_before_approval_are_checked_when_the_call_runs(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    code = (f"try:\n    guarded.create_item(title={title!r})\n"
            "except Exception as e:\n    out = str(e)\nout")
    paused = _run(client, code, "guarded", granted_permissions=["items:write"])
    done = _approve(client, paused["pending"][0]["approval_id"], granted_permissions=[]).json()
    assert done["status"] == "completed"
    assert "Missing required permission: items:write" in done["result"]
    assert _effects(host[0], title) == 0


def test_a_failing_action_and_a_timed_out_one_give_the_code_clear_errors(client: httpx.Client) -> None:
    code = ("out = []\nfor call in (lambda: quick.fail(), lambda: quick.slow(seconds=2)):\n"
            "    try:\n        call()\n    except Exception as e:\n        out.append(str(e))\nout")
    done = _run(client, code, "quick")
    failed, timed_out = done["result"]
    assert "action failed" in failed
    assert "timed out" in timed_out


def test_one_idempotency_key_executes_once_and_other_input_conflicts(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    first = _run(client, f"keyed.create_item(title={title!r})", "keyed")
    second = _run(client, f"keyed.create_item(title={title!r})", "keyed")
    assert first["status"] == second["status"] == "completed"
    assert first["result"] == second["result"]
    assert second["calls"][0].get("ledger_replayed") is True
    assert host[0].effects[f"item:{title}"] == 1
    # The key template only reads the title: other input with that key is a conflict.
    conflict = _run(client, f"""
try:
    keyed.create_item(title={title!r}, extra=1)
except Exception as e:
    out = str(e)
out""", "keyed")
    assert "reused with different input" in str(conflict.get("result")) or \
        conflict["status"] == "error"


def test_a_keyed_action_that_fails_runs_again_each_time(
        client: httpx.Client, host: tuple[AgentHost, str],
        service: tuple[httpx.Client, Settings]) -> None:
    before = sum(1 for c in host[0].calls if c["tool"] == "fail")
    for _ in range(2):
        done = _run(client, "try:\n    keyed.fail()\nexcept Exception as e:\n    out = str(e)\nout",
                    "keyed")
        assert "action failed" in done["result"]
    assert sum(1 for c in host[0].calls if c["tool"] == "fail") == before + 2
    with tables(service[1]) as db:
        assert db.execute("SELECT COUNT(*) FROM codemode_ledger WHERE key = ?",
                          ("action:fail:fail:always",)).fetchone()[0] == 0


def test_two_concurrent_runs_with_one_key_execute_it_once(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: _run(client, f"keyed.create_item(title={title!r})",
                                               "keyed"), range(2)))
    assert all(r["status"] == "completed" for r in results)
    assert results[0]["result"] == results[1]["result"]
    assert host[0].effects[f"item:{title}"] == 1


def test_attachments_come_back_beside_an_unchanged_result(client: httpx.Client) -> None:
    done = _run(client, "plain.attach(count=2)", "plain")
    assert done["result"] == {"attached": 2}
    assert done["attachments"] == [{"type": "image", "n": 0}, {"type": "image", "n": 1}]
    record = _record(client, done["execution_id"])
    assert record["attachments"] == done["attachments"]
    invalid = _run(client, "plain.attach(count=3, valid=False)", "plain")
    assert invalid["result"] == {"attached": 3} and "attachments" not in invalid
    many = _run(client, "plain.attach(count=20)\nplain.attach(count=20)", "plain")
    assert len(many["attachments"]) == 32


def test_a_rejected_call_leaves_no_ledger_row(
        client: httpx.Client, service: tuple[httpx.Client, Settings]) -> None:
    paused = _run(client, f"gated.create_item(title={_title()!r})")
    client.post(f"/v1/approvals/{paused['pending'][0]['approval_id']}/reject")
    with tables(service[1]) as db:
        rows = db.execute("SELECT COUNT(*) FROM codemode_ledger WHERE execution_id = ?",
                          (paused["execution_id"],)).fetchone()[0]
    assert rows == 0


# --- client-resolved tools -----------------------------------------------------------------

def _client_tool(client: httpx.Client) -> dict[str, Any]:
    return {"name": "ask_user", "description": "Ask the user (answered by the agent host).",
            "input_schema": {"type": "object", "properties": {"question": {"type": "string"}},
                             "required": ["question"]}}


def test_a_tool_without_url_parks_until_the_host_posts_its_result(client: httpx.Client) -> None:
    code = "answer = tools.ask_user(question='colour?')\nf'user said {answer}'"
    parked = client.post("/v1/execute", json={"code": code, "tools": [_client_tool(client)]}).json()
    assert parked["status"] == "awaiting_tool"
    [pending] = parked["pending"]
    assert (pending["method"], pending["args"], pending["seq"]) == (
        "ask_user", {"question": "colour?"}, 0)
    execution_id = parked["execution_id"]
    wrong = client.post(f"/v1/executions/{execution_id}/calls/5/result", json={"output": "x"})
    assert wrong.status_code == 409
    done = client.post(f"/v1/executions/{execution_id}/calls/0/result", json={"output": "blue"})
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "completed" and done.json()["result"] == "user said blue"
    again = client.post(f"/v1/executions/{execution_id}/calls/0/result", json={"output": "red"})
    assert again.status_code == 409


def test_a_client_error_result_is_raised_in_the_code(client: httpx.Client) -> None:
    code = ("try:\n    tools.ask_user(question='q')\nexcept Exception as e:\n"
            "    out = [type(e).__name__, str(e)]\nout")
    parked = client.post("/v1/execute", json={"code": code, "tools": [_client_tool(client)]}).json()
    done = client.post(f"/v1/executions/{parked['execution_id']}/calls/0/result",
                       json={"error": {"name": "UserDeclined", "message": "no answer"}}).json()
    assert done["status"] == "completed"
    assert "no answer" in done["result"][1]
    bad = client.post(f"/v1/executions/{parked['execution_id']}/calls/0/result",
                      json={"output": 1, "error": {"message": "both"}})
    assert bad.status_code == 422


# --- inline approvals ---------------------------------------------------------------------

def test_an_inline_approval_from_another_request_completes_the_waiting_one(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(_run, client, f"inline.create_item(title={title!r})['title']",
                              "inline", approval_wait_ms=20_000, timeout_ms=2_000)
        approval = None
        for _ in range(200):
            listed = client.get("/v1/approvals").json()["approvals"]
            approval = next((a for a in listed if a["args"] == {"title": title}), None)
            if approval:
                break
            time.sleep(0.05)
        assert approval is not None and approval["descriptor"]["kind"] == "approval-gated"
        time.sleep(2.5)  # longer than the run's deadline: waiting is not charged to it
        decided = _approve(client, approval["approval_id"])
        done = waiting.result()
    assert done["status"] == "completed" and done["result"] == title
    assert decided.json()["status"] == "completed"
    assert _effects(host[0], title) == 1


def test_an_inline_approval_without_a_decision_in_time_becomes_a_durable_pause(
        client: httpx.Client) -> None:
    parked = _run(client, f"inline.create_item(title={_title()!r})['id'] > 0", "inline",
                  approval_wait_ms=200)
    assert parked["status"] == "paused"
    done = _approve(client, parked["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed" and done["result"] is True


# --- events -------------------------------------------------------------------------------

def _events(lines: list[str]) -> list[tuple[str, dict[str, Any]]]:
    out, kind = [], ""
    for line in lines:
        if line.startswith("event:"):
            kind = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            out.append((kind, json.loads(line.split(":", 1)[1])))
    return out


def test_a_watcher_sees_the_approval_and_the_outcome_of_a_paused_run(client: httpx.Client) -> None:
    paused = _run(client, f"gated.list_items()\ngated.create_item(title={_title()!r})\n'ok'")
    lines: list[str] = []

    def watch() -> None:
        with client.stream("GET", f"/v1/executions/{paused['execution_id']}/events") as stream:
            for line in stream.iter_lines():
                lines.append(line)
                if line.startswith("data:") and '"status":"completed"' in line.replace(" ", ""):
                    return

    with ThreadPoolExecutor(1) as pool:
        watching = pool.submit(watch)
        time.sleep(0.5)
        _approve(client, paused["pending"][0]["approval_id"], by="op")
        watching.result(timeout=60)
    kinds = [k for k, _ in _events(lines)]
    assert "tool_call" in kinds and "approval_decided" in kinds
    assert kinds[-1] == "completed"
    decided = next(d for k, d in _events(lines) if k == "approval_decided")
    assert decided["by"] == "local" and decided["decision"] == "approved"


Message = tuple[str, str, dict[str, Any]]
"""One SSE message: its id, its event name and its data."""


def _messages(client: httpx.Client, execution_id: str, count: int, last_event_id: str | None = None,
              out: list[Message] | None = None) -> list[Message]:
    """The stream's messages (into ``out`` as they come) until ``count`` or its end; then hang up."""
    headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
    out = [] if out is None else out
    fields: dict[str, str] = {}
    with client.stream("GET", f"/v1/executions/{execution_id}/events", headers=headers) as stream:
        for line in stream.iter_lines():
            name, _, value = line.partition(": ")
            if name in ("id", "event"):
                fields[name] = value
            elif name == "data":
                out.append((fields.pop("id", ""), fields.pop("event", ""), json.loads(value)))
                if len(out) == count:
                    break
    return out


def test_a_watcher_reconnecting_with_last_event_id_resumes_exactly_after_the_last_event_seen(
        client: httpx.Client) -> None:
    paused = _run(client, f"gated.list_items()\ngated.create_item(title={_title()!r})\n'ok'")
    execution_id = paused["execution_id"]
    whole = _messages(client, execution_id, 5)
    assert [event for _, event, _ in whole] == ["status", "tool_call", "tool_call", "approval_requested",
                                                "paused"]
    assert whole[-1][2]["status"] == "paused", "the outcome is named after what happened"
    ids = [event_id for event_id, _, _ in whole]
    assert ids[-1].isdigit() and ids[:4] == [f"{ids[-1]}-{k}" for k in (4, 3, 2, 1)], "distinct, counting up"

    seen = _messages(client, execution_id, 2)
    assert [m[1:] for m in seen] == [m[1:] for m in whole[:2]], "nothing happened: the same picture"
    mark = seen[-1][0].split("-")[0]  # the bus position it reflects (others may have moved the bus)
    rest: list[Message] = []
    with ThreadPoolExecutor(1) as pool:
        watching = pool.submit(_messages, client, execution_id, 100, seen[-1][0], rest)
        deadline = time.monotonic() + 60  # a bound on a hang, not a measure of speed
        while len(rest) < 3:
            assert time.monotonic() < deadline and not watching.done(), rest
            time.sleep(0.02)
        _approve(client, paused["pending"][0]["approval_id"], by="op")
        watching.result(timeout=60)
    assert [m[1:] for m in rest[:3]] == [m[1:] for m in whole[2:]], "the rest of the picture, nothing twice"
    assert [m[0] for m in rest[:3]] == [f"{mark}-2", f"{mark}-1", mark], "with the ids it had"
    events = [event for _, event, _ in rest[3:]]
    assert events[0] == "approval_decided" and events[-1] == "completed", events
    assert "paused" not in events and rest[-1][2]["result"] == "ok"
    live_ids = [int(event_id) for event_id, _, _ in rest[3:]]
    assert live_ids == sorted(set(live_ids)) and live_ids[0] > int(mark)


def test_a_watcher_after_a_chatty_run_is_sent_every_line_once_then_the_outcome(
        client: httpx.Client) -> None:
    # Nobody watched while it ran: only the lines its buffer keeps became events, and a
    # watcher now is sent the record's picture, every line in it, nothing twice.
    body = _run(client, "for n in range(1_000):\n    print(f'line {n}')\n'done'")
    assert body["status"] == "completed" and len(body["logs"]) == 1_000
    seen = _messages(client, body["execution_id"], 1_002)
    assert [event for _, event, _ in seen] == ["status"] + ["log"] * 1_000 + ["completed"]
    assert [data["line"] for _, _, data in seen[1:-1]] == [f"line {n}" for n in range(1_000)]


def test_events_of_an_unknown_execution_say_so(client: httpx.Client) -> None:
    with client.stream("GET", "/v1/executions/exec_nope/events") as stream:
        text = "".join(stream.iter_text())
    assert "not found" in text


# --- state.* writes across a crash --------------------------------------------------------

def _interrupt(settings: Settings, execution_id: str, seq: int) -> None:
    """Leave the execution as a crash right after step ``seq`` started would: running, owner
    dead, the step ``executing`` and nothing after it."""
    with tables(settings) as db:
        db.execute("UPDATE codemode_executions SET status = 'running', owner = ?, lease_until = 0,"
                   " result = NULL WHERE id = ?", ("nohost:999999:dead", execution_id))
        db.execute("UPDATE codemode_journal SET state = 'executing', result = NULL"
                   " WHERE execution_id = ? AND seq = ?", (execution_id, seq))
        db.execute("DELETE FROM codemode_journal WHERE execution_id = ? AND seq > ?",
                   (execution_id, seq))


def _recovered(client: httpx.Client, execution_id: str) -> dict[str, Any]:
    assert execution_id in client.post("/v1/executions/sweep").json()["recovered"]
    for _ in range(200):
        record = _record(client, execution_id)
        if record["status"] != "running":
            return record
        time.sleep(0.05)
    raise AssertionError("the recovered execution never finished")


def test_a_state_write_that_committed_before_a_crash_is_not_repeated(
        client: httpx.Client, service: tuple[httpx.Client, Settings]) -> None:
    workspace = f"crash{next(_counter)}"
    code = "state.append_file('/log.txt', 'one,')\nstate.read_file('/log.txt')"
    done = _run(client, code, "plain", workspace=workspace)
    assert done["result"] == "one,"
    _interrupt(service[1], done["execution_id"], 0)
    record = _recovered(client, done["execution_id"])
    assert (record["status"], record["result"]) == ("completed", "one,")
    assert record["journal"][0]["state"] == "applied"
    assert record["journal"][0]["result"]["size"] == 4  # the stat of the committed append


def test_a_state_write_that_never_committed_runs_on_recovery(
        client: httpx.Client, service: tuple[httpx.Client, Settings]) -> None:
    workspace = f"crash{next(_counter)}"
    code = "state.append_file('/log.txt', 'one,')\nstate.read_file('/log.txt')"
    done = _run(client, code, "plain", workspace=workspace)
    _interrupt(service[1], done["execution_id"], 0)
    with tables(service[1]) as db:  # as if the write never committed
        db.execute("DELETE FROM workspace_operations WHERE key = ?", (f"{done['execution_id']}:0",))
    assert client.post(f"/v1/workspaces/{workspace}/tools/delete",
                       json={"path": "/log.txt"}).status_code == 200
    record = _recovered(client, done["execution_id"])
    assert (record["status"], record["result"]) == ("completed", "one,")


def test_approving_a_call_whose_waiting_process_died_continues_it_at_once(
        client: httpx.Client, service: tuple[httpx.Client, Settings],
        host: tuple[AgentHost, str]) -> None:
    title = _title()
    parked = _run(client, f"inline.create_item(title={title!r})['title']", "inline",
                  approval_wait_ms=100)
    gone = subprocess.Popen(["true"])
    gone.wait()
    with tables(service[1]) as db:  # as if it died while waiting inline
        db.execute("UPDATE codemode_executions SET status = 'running', owner = ?,"
                   " lease_until = ? WHERE id = ?",
                   (f"{socket.gethostname()}:{gone.pid}:x", time.time() + 3600,
                    parked["execution_id"]))
    done = _approve(client, parked["pending"][0]["approval_id"]).json()
    assert done["status"] == "completed" and done["result"] == title
    assert _effects(host[0], title) == 1


def test_a_running_execution_cannot_be_deleted(
        client: httpx.Client, service: tuple[httpx.Client, Settings]) -> None:
    done = _run(client, "1", "plain")
    with tables(service[1]) as db:
        db.execute("UPDATE codemode_executions SET status = 'running' WHERE id = ?",
                   (done["execution_id"],))
    assert client.delete(f"/v1/executions/{done['execution_id']}").status_code == 409
    with tables(service[1]) as db:
        db.execute("UPDATE codemode_executions SET status = 'completed' WHERE id = ?",
                   (done["execution_id"],))
    assert client.delete(f"/v1/executions/{done['execution_id']}").status_code == 200


def test_cancelling_a_paused_execution_refuses_its_approval_later(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    paused = _run(client, f"gated.create_item(title={title!r})")
    execution_id = paused["execution_id"]
    cancelled = client.post(f"/v1/executions/{execution_id}/cancel",
                            json={"by": "op", "reason": "customer withdrew"})
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    late = _approve(client, paused["pending"][0]["approval_id"])
    assert late.status_code == 409 and "cancelled by local" in late.json()["error"]["message"]
    record = _record(client, execution_id)
    assert record["status"] == "cancelled"
    assert record["error"]["message"] == "Cancelled by local: op: customer withdrew"
    assert [(a["status"], a["decided_by"], a["reason"]) for a in record["approvals"]] == [
        ("cancelled", "local", "op: customer withdrew")]
    assert [e["state"] for e in record["journal"]] == ["reverted"]
    assert client.post(f"/v1/executions/{execution_id}/cancel").status_code == 409
    assert _effects(host[0], title) == 0


def test_cancelling_an_execution_waiting_inline_ends_the_waiting_request(
        client: httpx.Client, host: tuple[AgentHost, str]) -> None:
    title = _title()
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(_run, client, f"inline.create_item(title={title!r})", "inline",
                              approval_wait_ms=20_000)
        for _ in range(200):
            listed = client.get("/v1/approvals").json()["approvals"]
            found = next((a for a in listed if a["args"] == {"title": title}), None)
            if found:
                break
            time.sleep(0.05)
        assert found is not None
        started = time.monotonic()
        assert client.post(f"/v1/executions/{found['execution_id']}/cancel").status_code == 200
        done = waiting.result(timeout=30)
    assert done["status"] == "cancelled"
    assert time.monotonic() - started < 5
    assert _effects(host[0], title) == 0

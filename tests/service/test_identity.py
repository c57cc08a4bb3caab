"""Who a request acts as: the local user with nothing configured, tokens with scopes once any
exist, an operator acting in another tenant, and the identity recorded on decisions (an
approver may narrow the run's permissions, never widen them)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from live_server import ServerThread, read_body, send_json, serve_lifespan
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app


class Hook:
    """A tool endpoint that records the calls it gets."""

    def __init__(self) -> None:
        self.calls: list[bytes] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        self.calls.append(await read_body(receive))
        await send_json(send, 200, {"output": "shipped"})


@pytest.fixture
def service(compiled_guest: CompiledGuest, tmp_path: Any) -> Iterator[tuple[str, Settings]]:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live:
        yield live.url, settings


@pytest.fixture(scope="module")
def hook() -> Iterator[tuple[Hook, str]]:
    endpoint = Hook()
    with ServerThread(endpoint) as live:
        yield endpoint, live.url


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def operator(service: tuple[str, Settings]) -> Iterator[httpx.Client]:
    """A client holding an operator token, made while the service is still token-less."""
    url, _ = service
    made = httpx.post(f"{url}/v1/admin/tokens", json={"name": "op", "scopes": ["operator"]})
    assert made.status_code == 201, made.text
    with httpx.Client(base_url=url, headers=_bearer(made.json()["token"]), timeout=60) as client:
        yield client


def _token(op: httpx.Client, **body: Any) -> str:
    made = op.post("/v1/admin/tokens", json=body)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def test_with_no_token_anywhere_the_caller_is_the_local_operator(service: tuple[str, Settings]) -> None:
    url, _ = service
    me = httpx.get(f"{url}/v1/admin/whoami").json()
    assert me == {"tenant": "default", "name": "local", "scopes": ["operator"], "token_id": None}


def test_the_first_token_ends_the_token_less_mode(service: tuple[str, Settings]) -> None:
    url, settings = service
    made = httpx.post(f"{url}/v1/admin/tokens", json={"name": "ci", "scopes": ["execute"]})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    assert token.startswith("sbx_") and len(token) >= 43
    missing = httpx.get(f"{url}/v1/workspaces")
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert httpx.get(f"{url}/v1/workspaces", headers=_bearer("sbx_wrong")).status_code == 401
    me = httpx.get(f"{url}/v1/admin/whoami", headers=_bearer(token)).json()
    assert (me["tenant"], me["name"], me["scopes"]) == ("default", "ci", ["execute"])
    forbidden = httpx.get(f"{url}/v1/workspaces", headers=_bearer(token))
    assert forbidden.status_code == 403
    assert forbidden.json()["error"]["details"] == {"required": ["workspaces:read"],
                                                    "granted": ["execute"]}
    # Only the hash is stored: the secret is nowhere in the database file.
    with sqlite3.connect(settings.database_path) as db:
        dump = "\n".join(db.iterdump())
    assert token not in dump and made.json()["id"] in dump


def test_an_admin_hands_out_only_scopes_it_holds_and_only_in_its_tenant(
        service: tuple[str, Settings], operator: httpx.Client) -> None:
    url, _ = service
    assert operator.post("/v1/admin/tenants", json={"name": "acme"}).status_code == 201
    admin = _token(operator, tenant="acme", name="boss", scopes=["admin"])
    with httpx.Client(base_url=url, headers=_bearer(admin)) as boss:
        assert boss.post("/v1/admin/tokens", json={"name": "ops", "scopes": ["operator"]}
                         ).status_code == 403
        assert boss.post("/v1/admin/tokens", json={"name": "x", "scopes": ["execute"],
                                                   "tenant": "default"}).status_code == 404
        assert boss.get("/v1/admin/tenants").status_code == 403
        made = boss.post("/v1/admin/tokens", json={"name": "bot", "scopes": ["execute", "bash"]})
        assert made.status_code == 201 and made.json()["tenant"] == "acme"
        again = boss.post("/v1/admin/tokens", json={"name": "bot", "scopes": ["bash"]})
        assert again.status_code == 409
        assert boss.delete(f"/v1/admin/tokens/{made.json()['id']}").status_code == 200
        assert boss.delete(f"/v1/admin/tokens/{made.json()['id']}").status_code == 409
        listed = boss.get("/v1/admin/tokens").json()["tokens"]
        assert {t["name"] for t in listed} == {"boss", "bot"}
        assert all("token" not in t and "hash" not in t for t in listed)
    revoked = httpx.get(f"{url}/v1/admin/whoami", headers=_bearer(made.json()["token"]))
    assert revoked.status_code == 401 and "revoked" in revoked.json()["error"]["message"]


def test_an_operator_acts_in_another_tenant_by_header_and_no_one_else_may(
        service: tuple[str, Settings], operator: httpx.Client) -> None:
    url, _ = service
    operator.post("/v1/admin/tenants", json={"name": "acme"}).raise_for_status()
    op = operator.headers["authorization"].removeprefix("Bearer ")
    admin = _token(operator, name="adm", scopes=["admin"])
    into_acme = {**_bearer(op), "Sandbox-Tenant": "acme"}
    httpx.put(f"{url}/v1/workspaces/w/files/a.txt", content=b"acme's",
              headers=into_acme).raise_for_status()
    me = httpx.get(f"{url}/v1/admin/whoami", headers=into_acme).json()
    assert (me["tenant"], me["home_tenant"]) == ("acme", "default")
    assert httpx.get(f"{url}/v1/workspaces/w/files/a.txt", headers=_bearer(op)).status_code == 404
    assert httpx.get(f"{url}/v1/workspaces/w/files/a.txt", headers=into_acme).text == "acme's"
    refused = httpx.get(f"{url}/v1/workspaces", headers={**_bearer(admin), "Sandbox-Tenant": "acme"})
    assert refused.status_code == 403
    unknown = httpx.get(f"{url}/v1/workspaces", headers={**_bearer(op), "Sandbox-Tenant": "zeta"})
    assert unknown.status_code == 404


def _paused(client: httpx.Client, hook_url: str, granted: list[str] | None) -> dict[str, Any]:
    tool = {"name": "ship", "url": hook_url, "input_schema": {"type": "object"},
            "permissions": ["ship:write"], "approval": {"mode": "durable"}}
    client.put("/v1/toolsets/deploy", json={"tools": [tool]}).raise_for_status()
    body: dict[str, Any] = {"code": "deploy.ship()", "toolsets": ["deploy"]}
    if granted is not None:
        body["granted_permissions"] = granted
    paused = client.post("/v1/execute", json=body).json()
    assert paused["status"] == "paused", paused
    return paused


def test_a_decision_records_the_token_and_may_narrow_but_never_widen(
        service: tuple[str, Settings], operator: httpx.Client, hook: tuple[Hook, str]) -> None:
    url, _ = service
    operator.post("/v1/admin/tenants", json={"name": "acme"}).raise_for_status()
    admin = _token(operator, tenant="acme", name="admin", scopes=["admin"])
    approver = _token(operator, tenant="acme", name="alice", scopes=["approvals:decide"])
    with httpx.Client(base_url=url, headers=_bearer(admin), timeout=60) as acme, \
            httpx.Client(base_url=url, headers=_bearer(approver), timeout=60) as alice:
        paused = _paused(acme, hook[1], ["ship:write", "read"])
        approval_id = paused["pending"][0]["approval_id"]
        wider = alice.post(f"/v1/approvals/{approval_id}/approve",
                           json={"granted_permissions": ["ship:write", "admin:all"]})
        assert wider.status_code == 403 and "admin:all" in wider.json()["error"]["message"]
        assert acme.get(f"/v1/approvals/{approval_id}").json()["status"] == "pending"
        refusals = operator.get("/v1/audit", params={"event": "approval.refused"}).json()
        (entry,) = [e for e in refusals["entries"] if e["subject"].get("approval_id") == approval_id]
        assert entry["principal"] == "alice" and entry["body"]["attempted"] == "approved"
        assert "admin:all" in entry["body"]["reason"] and entry["tenant"] == "acme"
        done = alice.post(f"/v1/approvals/{approval_id}/approve",
                          json={"granted_permissions": ["ship:write"], "note": "ticket 7"})
        assert done.status_code == 200 and done.json()["status"] == "completed", done.text
        decided = acme.get(f"/v1/approvals/{approval_id}").json()
        assert (decided["decided_by"], decided["decided_tenant"], decided["reason"]) == (
            "alice", "acme", "ticket 7")
        # Narrowed below what the tool needs: the resumed run is refused the call.
        second = _paused(acme, hook[1], ["ship:write"])
        refused = alice.post(f"/v1/approvals/{second['pending'][0]['approval_id']}/approve",
                             json={"granted_permissions": []}).json()
        assert refused["status"] == "error" and "ship:write" in refused["error"]["message"]


def test_a_parked_execution_cannot_be_deleted_with_its_approval(
        service: tuple[str, Settings], hook: tuple[Hook, str]) -> None:
    url, _ = service
    with httpx.Client(base_url=url, timeout=60) as local:
        paused = _paused(local, hook[1], None)
        execution_id = paused["execution_id"]
        refused = local.delete(f"/v1/executions/{execution_id}")
        assert refused.status_code == 409 and "cancel it first" in refused.json()["error"]["message"]
        approval_id = paused["pending"][0]["approval_id"]
        assert local.get(f"/v1/approvals/{approval_id}").json()["status"] == "pending"
        assert local.post(f"/v1/executions/{execution_id}/cancel").status_code == 200
        assert local.delete(f"/v1/executions/{execution_id}").status_code == 200

"""Tenant isolation, generated from the route table: every ``/v1`` route is tried with a revoked
token, an expired one, one without the scope it needs, another tenant's, and (reads) its own.

A route that names no scope fails the first test, and a route this file knows no request body
for fails the matrix, so a new route cannot be left out. Tenant ``acme`` holds one of
everything (a workspace with a file, a toolset, a connector, a snippet, a completed and a parked
execution); tenant ``beta``'s admin must find none of it: a lookup by id or name is a 404, a
listing leaves it out, and nothing of acme's changes whatever beta does. The guarded routes
outside ``/v1`` (the console's API, ``/metrics``, ``/mcp``), read from the app's own route
table, meet the same revoked, expired and unscoped tokens, and beta's console sees none of
acme's approvals.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

from live_server import ServerThread, read_body, send_json, serve_lifespan
from sandbox.engine import CompiledGuest
from sandbox.service import IdentityStore, Settings, create_app
from sandbox.service.identity import Requires
from sandbox.service.app import CONSOLE_API
from sandbox.service.mcp import MCP_PATH
from sandbox.service.routes import ROUTERS
from sandbox.service.telemetry import METRICS_PATH

OPERATOR = "tenancy-operator-token"
SECRET = "acme-secret-contents-4b1d"
"""The text of acme's file: no answer to beta may contain it."""


def _required(route: APIRoute) -> tuple[str, ...]:
    found: list[str] = []
    stack = list(route.dependant.dependencies)
    while stack:
        dependency = stack.pop()
        if isinstance(dependency.call, Requires):
            found.extend(dependency.call.scopes)
        stack.extend(dependency.dependencies)
    return tuple(found)


V1_ROUTES = sorted(((method, route.path, route) for router in ROUTERS for route in router.routes
                    if isinstance(route, APIRoute) and route.path.startswith("/v1")
                    for method in route.methods), key=lambda r: (r[1], r[0]))
IDS = [f"{method} {path}" for method, path, _ in V1_ROUTES]

BODIES: dict[str, Any] = {
    "POST /v1/execute": {"code": "1 + 1", "workspace": "w"},
    "POST /v1/bash": {"script": "echo hi", "workspace": "w"},
    "POST /v1/executions/sweep": {},
    "POST /v1/executions/{execution_id}/calls/{seq}/result": {"output": 1},
    "POST /v1/executions/{execution_id}/cancel": {},
    "POST /v1/executions/{execution_id}/rollback": None,
    "POST /v1/approvals/{approval_id}/approve": {},
    "POST /v1/approvals/{approval_id}/reject": {},
    "PUT /v1/toolsets/{name}": {"tools": []},
    "PUT /v1/connectors/{name}": {"type": "openapi", "base_url": "http://127.0.0.1:9", "spec": {
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/ping": {"get": {"operationId": "ping"}}}}},
    "PUT /v1/snippets/{name}": {"execution_id": "<completed>"},
    "POST /v1/workspaces/{ws}/tools/read": {"path": "/f.txt"},
    "POST /v1/workspaces/{ws}/tools/write": {"path": "/f.txt", "content": "overwritten"},
    "POST /v1/workspaces/{ws}/tools/edit": {"path": "/f.txt", "old_string": SECRET,
                                            "new_string": "edited"},
    "POST /v1/workspaces/{ws}/tools/list": {"path": "/"},
    "POST /v1/workspaces/{ws}/tools/find": {"pattern": "*"},
    "POST /v1/workspaces/{ws}/tools/grep": {"pattern": "acme"},
    "POST /v1/workspaces/{ws}/tools/delete": {"path": "/f.txt"},
    "PUT /v1/workspaces/{ws}/files/{path}": b"overwritten",
    "POST /v1/admin/tenants": {"name": "gamma"},
    "POST /v1/admin/tokens": {"name": "made-in-matrix", "scopes": ["execute"]},
}
"""A valid body for each route that takes one (None: the route takes none)."""

BY_ID = re.compile(r"\{(execution_id|approval_id|token_id)\}|^/v1/(toolsets|snippets|connectors)/\{name\}")
"""Routes that look a resource up by id or name: another tenant's is exactly a 404."""


@dataclass
class World:
    url: str
    tokens: dict[str, str]
    ids: dict[str, str]
    db: Path
    outside_v1: list[tuple[str, str, APIRoute | None]] = field(default_factory=list)
    """The guarded routes the app serves outside ``/v1`` (console API, metrics, MCP)."""

    def client(self, token: str) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60,
                            headers={"Authorization": f"Bearer {self.tokens[token]}"})

    def url_of(self, path: str) -> str:
        values = {"ws": "w", "seq": "0", "path": "f.txt", "execution_id": self.ids["completed"],
                  "approval_id": self.ids["approval"], "token_id": self.ids["acme_token"],
                  "name": "ts" if path.startswith("/v1/toolsets")
                  else "cn" if path.startswith("/v1/connectors") else "sn"}
        if path.startswith("/v1/executions/{execution_id}/calls"):
            values["execution_id"] = self.ids["paused"]
        return re.sub(r"\{(\w+)(?::path)?\}", lambda m: values[m.group(1)], path)


class Webhook:
    """The agent host's endpoint for acme's gated tool (it is never reached in these tests)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        await send_json(send, 200, {"output": "done"})


def _token(admin: httpx.Client, **body: Any) -> tuple[str, str]:
    made = admin.post("/v1/admin/tokens", json=body)
    assert made.status_code == 201, made.text
    return made.json()["token"], made.json()["id"]


def _populate(world: World, hook_url: str) -> None:
    with world.client("operator") as op:
        for tenant in ("acme", "beta"):
            assert op.post("/v1/admin/tenants", json={"name": tenant}).status_code == 201
        for tenant in ("acme", "beta"):
            token, token_id = _token(op, tenant=tenant, name="admin", scopes=["admin"])
            world.tokens[f"{tenant}_admin"] = token
            world.ids[f"{tenant}_token"] = token_id
        for scope in ("bash", "audit:read"):
            world.tokens[scope] = _token(op, tenant="acme", name=f"only-{scope.replace(':', '-')}",
                                        scopes=[scope])[0]
        revoked, revoked_id = _token(op, tenant="acme", name="revoked", scopes=["admin"])
        assert op.delete(f"/v1/admin/tokens/{revoked_id}").status_code == 200
        world.tokens["revoked"] = revoked

    async def expired() -> str:
        async with await IdentityStore.open(world.db) as store:
            token, _ = await store.create_token(tenant="acme", name="expired",
                                                scopes=["admin"], expires_at=1.0)
            return token
    world.tokens["expired"] = asyncio.run(expired())

    with world.client("acme_admin") as acme:
        assert acme.put("/v1/workspaces/w/files/f.txt", content=SECRET).status_code == 201
        gated = {"name": "ship", "url": hook_url, "description": "Ship it.",
                 "input_schema": {"type": "object", "properties": {}},
                 "approval": {"mode": "durable"}}
        assert acme.put("/v1/toolsets/ts", json={"tools": [gated]}).status_code == 201
        assert acme.put("/v1/connectors/cn", json=BODIES["PUT /v1/connectors/{name}"]).status_code == 201
        done = acme.post("/v1/execute", json={"code": f"'{SECRET}'", "workspace": "w"}).json()
        assert done["status"] == "completed", done
        paused = acme.post("/v1/execute", json={"code": "ts.ship()", "workspace": "w",
                                                "toolsets": ["ts"]}).json()
        assert paused["status"] == "paused", paused
        assert acme.put("/v1/snippets/sn", json={"execution_id": done["execution_id"]}
                        ).status_code == 201
    world.ids.update(completed=done["execution_id"], paused=paused["execution_id"],
                     approval=paused["pending"][0]["approval_id"])


@pytest.fixture(scope="module")
def world(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("tenancy")
    settings = Settings(data_dir=data, workers=2, guest=compiled_guest, token=OPERATOR,
                        metrics=True)
    app = create_app(settings)
    with ServerThread(Webhook()) as hook, ServerThread(app) as live:
        world = World(live.url, {"operator": OPERATOR}, {}, settings.database_path,
                      _guarded_outside_v1(app.routes))
        _populate(world, hook.url)
        yield world


def _flattened(routes: list[Any]) -> Iterator[Any]:
    """The app's routes with each included router opened (FastAPI keeps those whole)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _flattened(inner.routes)
        else:
            yield route


def _guarded_outside_v1(routes: list[Any]) -> list[tuple[str, str, APIRoute | None]]:
    """Every route of the app the guard holds to a token besides ``/v1``: read from the
    app's own route table, so a console or metrics route added later is tried too."""
    found: list[tuple[str, str, APIRoute | None]] = []
    for route in _flattened(routes):
        path = getattr(route, "path", "")
        if isinstance(route, APIRoute) and (path.startswith(CONSOLE_API) or path == METRICS_PATH):
            found += [(method, path, route) for method in sorted(route.methods)]
        elif path == MCP_PATH and not isinstance(route, APIRoute):
            found.append(("POST", path, None))
    return found


def _send(client: httpx.Client, world: World, method: str, path: str) -> httpx.Response:
    key = f"{method} {path.replace(':path', '')}"
    body = BODIES.get(key)
    if body == {"execution_id": "<completed>"}:
        body = {"execution_id": world.ids["completed"]}
    url = world.url_of(path)
    if isinstance(body, bytes):
        return client.request(method, url, content=body)
    return client.request(method, url, json=body) if body is not None else client.request(method, url)


def test_every_v1_route_names_the_scopes_it_needs() -> None:
    unguarded = [f"{m} {p}" for m, p, route in V1_ROUTES if not _required(route)]
    assert not unguarded, f"routes without requires(...): {unguarded}"


def test_every_route_that_takes_a_body_has_one_here() -> None:
    missing = [f"{m} {p}" for m, p, route in V1_ROUTES
               if route.body_field is not None and f"{m} {p.replace(':path', '')}" not in BODIES]
    missing += [f"{m} {p}" for m, p, _ in V1_ROUTES if m in ("PUT",) and "files" in p
                and f"{m} {p.replace(':path', '')}" not in BODIES]
    assert not missing, f"give these routes a valid body in BODIES: {missing}"


@pytest.mark.parametrize(("method", "path", "route"), V1_ROUTES, ids=IDS)
@pytest.mark.parametrize("token", ["revoked", "expired"])
def test_a_revoked_or_expired_token_is_refused_everywhere(world: World, method: str, path: str,
                                                          route: APIRoute, token: str) -> None:
    with world.client(token) as client:
        answer = _send(client, world, method, path)
    assert answer.status_code == 401, answer.text
    assert answer.json()["error"]["code"] == "unauthorized"
    assert token in answer.json()["error"]["message"]


@pytest.mark.parametrize(("method", "path", "route"), V1_ROUTES, ids=IDS)
def test_a_token_without_the_scope_is_forbidden(world: World, method: str, path: str,
                                                route: APIRoute) -> None:
    scope = "bash" if "audit:read" in _required(route) else "audit:read"
    if scope in _required(route):
        pytest.skip("every single scope opens this route")
    with world.client(scope) as client:
        answer = _send(client, world, method, path)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == "forbidden"


def _acme_is_intact(world: World) -> None:
    with world.client("acme_admin") as acme:
        assert acme.get("/v1/workspaces/w/files/f.txt").text == SECRET
        assert acme.get("/v1/toolsets/ts").json()["tool_count"] == 1
        assert acme.get("/v1/connectors/cn").json()["tool_count"] == 2  # ping and request
        assert acme.get("/v1/snippets/sn").status_code == 200
        assert acme.get(f"/v1/executions/{world.ids['completed']}").json()["status"] == "completed"
        assert acme.get(f"/v1/executions/{world.ids['paused']}").json()["status"] == "paused"
        assert acme.get(f"/v1/approvals/{world.ids['approval']}").json()["status"] == "pending"
    with world.client("operator") as op:
        tokens = op.get("/v1/admin/tokens", params={"tenant": "acme"}).json()["tokens"]
        assert any(t["id"] == world.ids["acme_token"] and t["revoked_at"] is None for t in tokens)


@pytest.mark.parametrize(("method", "path", "route"), V1_ROUTES, ids=IDS)
def test_another_tenants_admin_finds_nothing_and_changes_nothing(
        world: World, method: str, path: str, route: APIRoute) -> None:
    if "operator" in _required(route):
        pytest.skip("operator routes span tenants by design")
    creates_own = method == "PUT" and path in ("/v1/toolsets/{name}", "/v1/connectors/{name}")
    with world.client("beta_admin") as beta:
        answer = _send(beta, world, method, path)
        if creates_own:  # one of beta's own, named like acme's: made, then taken away
            assert answer.status_code == 201
            assert beta.delete(world.url_of(path)).status_code == 200
    if BY_ID.search(path) and not creates_own:
        assert answer.status_code == 404, answer.text
    assert answer.status_code < 500, answer.text
    assert SECRET not in answer.text
    for found in (world.ids["completed"], world.ids["paused"], world.ids["approval"]):
        assert found not in answer.text or answer.status_code == 404
    _acme_is_intact(world)


@pytest.mark.parametrize(("method", "path", "route"),
                         [r for r in V1_ROUTES if r[0] == "GET" and not r[1].endswith("/events")],
                         ids=[i for i, r in zip(IDS, V1_ROUTES)
                              if r[0] == "GET" and not r[1].endswith("/events")])
def test_the_owning_tenant_reads_what_it_holds(world: World, method: str, path: str,
                                               route: APIRoute) -> None:
    token = "operator" if "operator" in _required(route) else "acme_admin"
    with world.client(token) as client:
        answer = _send(client, world, method, path)
    assert answer.status_code == 200, answer.text


def test_listings_hold_only_the_callers_tenant(world: World) -> None:
    with world.client("beta_admin") as beta, world.client("acme_admin") as acme:
        for path, key in (("/v1/workspaces", "workspaces"), ("/v1/toolsets", "toolsets"),
                          ("/v1/connectors", "connectors"),
                          ("/v1/snippets", "snippets"), ("/v1/executions", "executions"),
                          ("/v1/admin/tokens", "tokens")):
            mine = acme.get(path).json()[key]
            theirs = beta.get(path).json()[key]
            assert mine, path
            assert not set(json.dumps(x, sort_keys=True) for x in mine) & set(
                json.dumps(x, sort_keys=True) for x in theirs), path
        assert [a["approval_id"] for a in acme.get("/v1/approvals").json()["approvals"]] == [
            world.ids["approval"]]
        assert beta.get("/v1/approvals").json()["approvals"] == []
        assert all(t["tenant"] == "beta" for t in beta.get("/v1/admin/tokens").json()["tokens"])
        assert beta.get("/v1/admin/tokens", params={"tenant": "acme"}).status_code == 404


def test_the_guarded_routes_outside_v1_hold_to_the_same_tokens_and_tenants(world: World) -> None:
    paths = {path for _, path, _ in world.outside_v1}
    assert {"/console/api/session", "/console/api/approvals/events", METRICS_PATH,
            MCP_PATH} <= paths, paths
    for method, path, route in world.outside_v1:
        for token in ("revoked", "expired"):
            with world.client(token) as client:
                refused = client.request(method, path, json={})
            assert refused.status_code == 401, (method, path, token, refused.text)
            assert refused.json()["error"]["code"] == "unauthorized"
        needs = _required(route) if route is not None else ()
        if needs and "bash" not in needs:
            with world.client("bash") as client:
                assert client.request(method, path).status_code == 403, (method, path)
    with world.client("beta_admin") as beta:
        assert beta.get("/console/api/session").json()["principal"]["tenant"] == "beta"
        with beta.stream("GET", "/console/api/approvals/events") as events:
            first = next(line for line in events.iter_lines() if line.startswith("data:"))
        assert json.loads(first[5:]) == {"approvals": []}  # acme's parked approval is not there
        assert beta.get(METRICS_PATH).status_code == 403  # metrics are the operator's
    with world.client("acme_admin") as acme, acme.stream(
            "GET", "/console/api/approvals/events") as events:
        first = next(line for line in events.iter_lines() if line.startswith("data:"))
    assert world.ids["approval"] in first

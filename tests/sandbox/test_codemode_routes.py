"""HTTP routes of sandbox.codemode_routes, against a real CodeModeStore mounted in a small app."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from codemode.journal import make_entry
from codemode.records import ExecutionRecord, new_execution_id
from codemode.store import CodeModeStore
from sandbox.codemode_routes import codemode_router


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[CodeModeStore]:
    opened = await CodeModeStore.open(tmp_path / "sandbox.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def client(store: CodeModeStore) -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    app.include_router(codemode_router())
    app.state.codemode = store
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        yield c


def _tool(name: str = "create_issue", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Open an issue.",
        "url": "http://127.0.0.1:9/tools",
        "input_schema": {
            "type": "object",
            "properties": {"title": {"type": "string", "description": "Issue title"},
                           "labels": {"type": "array", "items": {"enum": ["bug", "docs"]}}},
            "required": ["title"],
        },
        **extra,
    }


async def _execution(store: CodeModeStore, status: str = "completed", workspace: str = "default",
                     created_at: float | None = None) -> str:
    record = ExecutionRecord(id=new_execution_id(), workspace=workspace, code="tools.create_issue(title='x')")
    if created_at is not None:
        record.created_at = created_at
    await store.create_execution(record)
    await store.append_entry(make_entry(record.id, 0, "github", "create_issue", {"title": "x"}))
    await store.settle_entry(record.id, 0, state="applied", result={"id": 7, "raw": b"\x00"})
    await store.finish_execution(record.id, status=status, result={"ok": True}, logs=["done"])
    return record.id


def _error(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return dict(body["error"])


# --- toolsets ----------------------------------------------------------------------------------


async def test_creating_a_toolset_returns_201_with_its_secret_once(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/toolsets/github", json={"tools": [_tool()], "description": "GitHub"})
    assert r.status_code == 201
    created = r.json()
    assert len(created["secret"]) >= 16
    assert created["name"] == "github" and created["description"] == "GitHub"
    assert [t["name"] for t in created["tools"]] == ["create_issue"]

    r = await client.get("/v1/toolsets/github")
    assert r.status_code == 200
    assert "secret" not in r.json()
    assert r.json()["tools"] == created["tools"]


async def test_updating_a_toolset_returns_200_without_the_secret_and_keeps_it(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    r = await client.put("/v1/toolsets/github", json={"tools": [_tool()]})
    secret = r.json()["secret"]
    r = await client.put("/v1/toolsets/github", json={"tools": [_tool(), _tool("close_issue")]})
    assert r.status_code == 200
    assert "secret" not in r.json()
    assert r.json()["tool_count"] == 2
    stored = await store.get_toolset("github")
    assert stored is not None and stored.secret == secret


async def test_invalid_tool_definitions_are_422_listing_every_problem(client: httpx.AsyncClient) -> None:
    bad = [
        _tool("a", url="ftp://nowhere"),
        {"name": "b", "input_schema": {"type": "string"}},
        _tool("c", timeout_ms="soon"),
    ]
    r = await client.put("/v1/toolsets/github", json={"tools": bad})
    assert r.status_code == 422
    error = _error(r)
    assert error["code"] == "invalid_toolset"
    problems = error["details"]
    assert any(p.startswith("tools[0]:") and "url" in p for p in problems)
    assert any(p.startswith("tools[1]:") and "object" in p for p in problems)
    assert any(p.startswith("tools[2]:") and "timeout_ms" in p for p in problems)
    assert (await client.get("/v1/toolsets/github")).status_code == 404


@pytest.mark.parametrize(
    "body",
    [{"tools": [], "secret": "x" * 32}, {"tool": []}, {"tools": "nope"}, {}],
    ids=["unknown-field", "misspelt", "wrong-type", "missing"],
)
async def test_malformed_toolset_bodies_are_422(client: httpx.AsyncClient, body: dict[str, Any]) -> None:
    r = await client.put("/v1/toolsets/github", json=body)
    assert r.status_code == 422
    assert _error(r)["code"] == "invalid_request"


async def test_reserved_or_invalid_toolset_names_are_422(client: httpx.AsyncClient) -> None:
    for name in ("state", "codemode", "bad name!", "list"):
        r = await client.put(f"/v1/toolsets/{name}", json={"tools": [_tool()]})
        assert r.status_code == 422, name
        assert _error(r)["code"] == "invalid_toolset"


async def test_list_and_delete_toolsets(client: httpx.AsyncClient) -> None:
    await client.put("/v1/toolsets/zeta", json={"tools": [_tool()]})
    await client.put("/v1/toolsets/alpha", json={"tools": [_tool(), _tool("b")], "description": "A"})
    r = await client.get("/v1/toolsets")
    assert [(t["name"], t["tool_count"], t["description"]) for t in r.json()["toolsets"]] == [
        ("alpha", 2, "A"), ("zeta", 1, None)
    ]
    assert (await client.delete("/v1/toolsets/alpha")).json() == {"deleted": "alpha"}
    r = await client.delete("/v1/toolsets/alpha")
    assert r.status_code == 404 and _error(r)["code"] == "not_found"
    assert [t["name"] for t in (await client.get("/v1/toolsets")).json()["toolsets"]] == ["zeta"]


async def test_toolset_types_are_python_declarations(client: httpx.AsyncClient) -> None:
    await client.put("/v1/toolsets/github", json={"tools": [_tool()]})
    r = await client.get("/v1/toolsets/github/types")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/x-python")
    ast.parse(r.text)
    assert "class github(Protocol)" in r.text
    assert "def create_issue(" in r.text and "Literal['bug', 'docs']" in r.text.replace('"', "'")


async def test_types_of_a_missing_toolset_is_404(client: httpx.AsyncClient) -> None:
    r = await client.get("/v1/toolsets/nope/types")
    assert r.status_code == 404 and _error(r)["code"] == "not_found"


# --- executions ----------------------------------------------------------------------------------


async def test_get_execution_includes_its_journal_with_tagged_bytes(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await _execution(store)
    r = await client.get(f"/v1/executions/{execution_id}")
    assert r.status_code == 200
    body = r.json()
    assert body["id"] == execution_id and body["status"] == "completed"
    assert body["result"] == {"ok": True} and body["logs"] == ["done"]
    (entry,) = body["journal"]
    assert entry["seq"] == 0 and entry["namespace"] == "github" and entry["method"] == "create_issue"
    assert entry["args"] == {"title": "x"} and entry["state"] == "applied"
    assert entry["result"] == {"id": 7, "raw": {"$bytes": "AA=="}}


async def test_list_executions_filters_and_omits_journals(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    old = await _execution(store, "completed", "a", created_at=1.0)
    new = await _execution(store, "error", "a", created_at=2.0)
    elsewhere = await _execution(store, "paused", "b", created_at=3.0)
    r = await client.get("/v1/executions")
    assert [e["id"] for e in r.json()["executions"]] == [elsewhere, new, old]
    assert all("journal" not in e for e in r.json()["executions"])
    r = await client.get("/v1/executions", params={"workspace": "a", "status": "completed"})
    assert [e["id"] for e in r.json()["executions"]] == [old]
    r = await client.get("/v1/executions", params={"limit": 1})
    assert [e["id"] for e in r.json()["executions"]] == [elsewhere]


@pytest.mark.parametrize(
    ("params", "status"),
    [({"status": "finished"}, 400), ({"limit": 0}, 422), ({"limit": "many"}, 422)],
)
async def test_bad_execution_queries_are_4xx_json_errors(
    client: httpx.AsyncClient, params: dict[str, Any], status: int
) -> None:
    r = await client.get("/v1/executions", params=params)
    assert r.status_code == status
    _error(r)


async def test_delete_execution_then_it_is_gone(client: httpx.AsyncClient, store: CodeModeStore) -> None:
    execution_id = await _execution(store)
    assert (await client.delete(f"/v1/executions/{execution_id}")).json() == {"deleted": execution_id}
    assert await store.entries(execution_id) == []
    for r in (await client.get(f"/v1/executions/{execution_id}"),
              await client.delete(f"/v1/executions/{execution_id}")):
        assert r.status_code == 404 and _error(r)["code"] == "not_found"


# --- snippets ------------------------------------------------------------------------------------


async def test_snippet_from_a_completed_execution_copies_code_and_tools_used(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await _execution(store)
    schema = {"type": "object", "properties": {"title": {"type": "string"}}}
    r = await client.put("/v1/snippets/open_issue", json={
        "execution_id": execution_id, "description": "Opens one", "input_schema": schema})
    assert r.status_code == 201
    body = r.json()
    assert body["code"] == "tools.create_issue(title='x')"
    assert body["namespaces"] == {"github": ["create_issue"]}
    assert body["input_schema"] == schema and body["description"] == "Opens one"
    assert (await client.get("/v1/snippets/open_issue")).json() == body
    r = await client.put("/v1/snippets/open_issue", json={"execution_id": execution_id})
    assert r.status_code == 200
    assert [s["name"] for s in (await client.get("/v1/snippets")).json()["snippets"]] == ["open_issue"]


async def test_snippet_from_a_missing_execution_is_404(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/snippets/s", json={"execution_id": "exec_missing"})
    assert r.status_code == 404 and _error(r)["code"] == "not_found"


@pytest.mark.parametrize("status", ["paused", "error", "running"])
async def test_snippet_only_from_a_completed_execution(
    client: httpx.AsyncClient, store: CodeModeStore, status: str
) -> None:
    execution_id = await _execution(store, status)
    r = await client.put("/v1/snippets/s", json={"execution_id": execution_id})
    assert r.status_code == 409 and status in _error(r)["message"]
    assert (await client.get("/v1/snippets/s")).status_code == 404


async def test_snippet_bad_name_schema_or_fields_are_422(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await _execution(store)
    r = await client.put("/v1/snippets/bad%20name", json={"execution_id": execution_id,
                                                          "input_schema": {"type": 5}})
    assert r.status_code == 422
    assert _error(r)["code"] == "invalid_snippet" and len(_error(r)["details"]) == 2
    r = await client.put("/v1/snippets/s", json={"execution_id": execution_id, "code": "1"})
    assert r.status_code == 422 and _error(r)["code"] == "invalid_request"


async def test_delete_snippet(client: httpx.AsyncClient, store: CodeModeStore) -> None:
    execution_id = await _execution(store)
    await client.put("/v1/snippets/s", json={"execution_id": execution_id})
    assert (await client.delete("/v1/snippets/s")).json() == {"deleted": "s"}
    for r in (await client.get("/v1/snippets/s"), await client.delete("/v1/snippets/s")):
        assert r.status_code == 404 and _error(r)["code"] == "not_found"


async def test_without_a_store_the_routes_answer_503() -> None:
    app = FastAPI()
    app.include_router(codemode_router())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        r = await c.get("/v1/toolsets")
    assert r.status_code == 503 and _error(r)["code"] == "unavailable"


async def test_recorded_lone_surrogates_are_served_as_escaped_json(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    record = ExecutionRecord(id=new_execution_id(), workspace="default", code="s = '\ud800'")
    await store.create_execution(record)
    await store.finish_execution(record.id, status="completed", result="\udcff", logs=["\ud800"])
    r = await client.get(f"/v1/executions/{record.id}")
    assert r.status_code == 200
    assert r.content.isascii()
    body = r.json()
    assert (body["code"], body["result"], body["logs"]) == ("s = '\ud800'", "\udcff", ["\ud800"])

"""``/v1/snippets``, against a real CodeModeStore mounted in a small app;
without a store, every route answers 503."""

from __future__ import annotations


import httpx
import pytest

from codemode import CodeModeStore
from route_helpers import error_of, route_client, stored_execution
from sandbox.service.routes import executions, snippets, toolsets


async def test_snippet_from_a_completed_execution_copies_code_and_tools_used(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await stored_execution(store)
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
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"


@pytest.mark.parametrize("status", ["paused", "error", "running"])
async def test_snippet_only_from_a_completed_execution(
    client: httpx.AsyncClient, store: CodeModeStore, status: str
) -> None:
    execution_id = await stored_execution(store, status)
    r = await client.put("/v1/snippets/s", json={"execution_id": execution_id})
    assert r.status_code == 409 and status in error_of(r)["message"]
    assert (await client.get("/v1/snippets/s")).status_code == 404


async def test_snippet_bad_name_schema_or_fields_are_422(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await stored_execution(store)
    r = await client.put("/v1/snippets/bad%20name", json={"execution_id": execution_id})
    assert r.status_code == 422 and error_of(r)["code"] == "invalid_request"
    assert error_of(r)["details"][0]["loc"] == ["path", "name"]
    r = await client.put("/v1/snippets/s", json={"execution_id": execution_id,
                                                 "input_schema": {"type": 5, "required": 1}})
    assert r.status_code == 422
    assert error_of(r)["code"] == "invalid_snippet" and len(error_of(r)["details"]) == 2
    r = await client.put("/v1/snippets/s", json={"execution_id": execution_id, "code": "1"})
    assert r.status_code == 422 and error_of(r)["code"] == "invalid_request"


async def test_delete_snippet(client: httpx.AsyncClient, store: CodeModeStore) -> None:
    execution_id = await stored_execution(store)
    await client.put("/v1/snippets/s", json={"execution_id": execution_id})
    assert (await client.delete("/v1/snippets/s")).json() == {"deleted": "s"}
    for r in (await client.get("/v1/snippets/s"), await client.delete("/v1/snippets/s")):
        assert r.status_code == 404 and error_of(r)["code"] == "not_found"




async def test_without_a_store_the_routes_answer_503() -> None:
    async with route_client(toolsets.router, snippets.router, executions.router) as c:
        r = await c.get("/v1/toolsets")
    assert r.status_code == 503 and error_of(r)["code"] == "unavailable"



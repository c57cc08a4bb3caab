"""``/v1/toolsets``, against a real CodeModeStore mounted in a small app."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from codemode import CodeModeStore
from route_helpers import error_of, tool_json
import ast


async def test_creating_a_toolset_returns_201_with_its_secret_once(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/toolsets/github", json={"tools": [tool_json()], "description": "GitHub"})
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
    r = await client.put("/v1/toolsets/github", json={"tools": [tool_json()]})
    secret = r.json()["secret"]
    r = await client.put("/v1/toolsets/github", json={"tools": [tool_json(), tool_json("close_issue")]})
    assert r.status_code == 200
    assert "secret" not in r.json()
    assert r.json()["tool_count"] == 2
    stored = await store.get_toolset("github")
    assert stored is not None and stored.secret == secret


async def test_invalid_tool_definitions_are_422_listing_every_problem(client: httpx.AsyncClient) -> None:
    bad = [
        tool_json("a", url="ftp://nowhere"),
        {"name": "b", "input_schema": {"type": "string"}},
        tool_json("c", timeout_ms="soon"),
    ]
    r = await client.put("/v1/toolsets/github", json={"tools": bad})
    assert r.status_code == 422
    error = error_of(r)
    assert error["code"] == "invalid_tools"
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
    assert error_of(r)["code"] == "invalid_request"


async def test_reserved_or_invalid_toolset_names_are_422(client: httpx.AsyncClient) -> None:
    for name in ("state", "codemode", "list"):
        r = await client.put(f"/v1/toolsets/{name}", json={"tools": [tool_json()]})
        assert r.status_code == 422, name
        assert error_of(r)["code"] == "invalid_tools"
    r = await client.put("/v1/toolsets/bad name!", json={"tools": [tool_json()]})
    assert r.status_code == 422 and error_of(r)["code"] == "invalid_request"


async def test_list_and_delete_toolsets(client: httpx.AsyncClient) -> None:
    await client.put("/v1/toolsets/zeta", json={"tools": [tool_json()]})
    await client.put("/v1/toolsets/alpha", json={"tools": [tool_json(), tool_json("b")], "description": "A"})
    r = await client.get("/v1/toolsets")
    assert [(t["name"], t["tool_count"], t["description"]) for t in r.json()["toolsets"]] == [
        ("alpha", 2, "A"), ("zeta", 1, None)
    ]
    assert (await client.delete("/v1/toolsets/alpha")).json() == {"deleted": "alpha"}
    r = await client.delete("/v1/toolsets/alpha")
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"
    assert [t["name"] for t in (await client.get("/v1/toolsets")).json()["toolsets"]] == ["zeta"]


async def test_toolset_types_are_python_declarations(client: httpx.AsyncClient) -> None:
    await client.put("/v1/toolsets/github", json={"tools": [tool_json()]})
    r = await client.get("/v1/toolsets/github/types")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/x-python")
    ast.parse(r.text)
    assert "class github(Protocol)" in r.text
    assert "def create_issue(" in r.text and "Literal['bug', 'docs']" in r.text.replace('"', "'")


async def test_types_of_a_missing_toolset_is_404(client: httpx.AsyncClient) -> None:
    r = await client.get("/v1/toolsets/nope/types")
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"



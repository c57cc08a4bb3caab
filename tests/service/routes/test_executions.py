"""``/v1/executions`` records (list, show, delete), against a real CodeModeStore in a small app."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from codemode import CodeModeStore, ExecutionRecord, new_execution_id
from codemode.journal import read
from route_helpers import error_of, stored_execution


async def test_get_execution_includes_its_journal_with_tagged_bytes(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await stored_execution(store)
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
    old = await stored_execution(store, "completed", "a", created_at=1.0)
    new = await stored_execution(store, "error", "a", created_at=2.0)
    elsewhere = await stored_execution(store, "paused", "b", created_at=3.0)
    r = await client.get("/v1/executions")
    assert [e["id"] for e in r.json()["executions"]] == [elsewhere, new, old]
    assert all("journal" not in e for e in r.json()["executions"])
    r = await client.get("/v1/executions", params={"workspace": "a", "status": "completed"})
    assert [e["id"] for e in r.json()["executions"]] == [old]
    r = await client.get("/v1/executions", params={"limit": 1})
    assert [e["id"] for e in r.json()["executions"]] == [elsewhere]


async def test_the_list_pages_on_with_next_before_keeping_its_filters(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    made = [await stored_execution(store, "completed", "a", created_at=10.0 + n) for n in range(5)]
    await stored_execution(store, "completed", "b", created_at=100.0)
    first = (await client.get("/v1/executions", params={"workspace": "a", "limit": 2})).json()
    assert [e["id"] for e in first["executions"]] == [made[4], made[3]]
    second = (await client.get("/v1/executions", params={
        "workspace": "a", "limit": 2, "before": first["next_before"]})).json()
    assert [e["id"] for e in second["executions"]] == [made[2], made[1]]
    last = (await client.get("/v1/executions", params={
        "workspace": "a", "limit": 2, "before": second["next_before"]})).json()
    assert [e["id"] for e in last["executions"]] == [made[0]] and last["next_before"] is None


async def test_without_tracing_the_trace_is_made_from_the_journal(
    client: httpx.AsyncClient, store: CodeModeStore
) -> None:
    execution_id = await stored_execution(store)
    record = await store.get_execution(execution_id)
    view = (await client.get(f"/v1/executions/{execution_id}/trace")).json()
    assert (view["source"], view["kept"]) == ("journal", False)
    root, call = view["spans"]
    assert (root["name"], root["parent_id"], root["start"]) == (
        "codemode.execution", None, record.created_at)
    assert root["attributes"]["codemode.status"] == "completed"
    assert (call["name"], call["parent_id"]) == ("codemode.host_call", root["span_id"])
    assert (call["attributes"]["codemode.namespace"], call["attributes"]["codemode.method"],
            call["attributes"]["codemode.state"]) == ("github", "create_issue", "applied")
    assert root["start"] <= call["start"] <= call["end"] <= root["end"]
    assert (await client.get("/v1/executions/exec_nope/trace")).status_code == 404


@pytest.mark.parametrize(
    ("params", "status"),
    [({"status": "finished"}, 422), ({"limit": 0}, 422), ({"limit": "many"}, 422),
     ({"before": "yesterday"}, 422), ({"before": "1e999~exec_x"}, 422),
     ({"before": "75+24~exec_x"}, 422), ({"before": "1.5~../x"}, 422)],
)
async def test_bad_execution_queries_are_4xx_json_errors(
    client: httpx.AsyncClient, params: dict[str, Any], status: int
) -> None:
    r = await client.get("/v1/executions", params=params)
    assert r.status_code == status
    error_of(r)


async def test_delete_execution_then_it_is_gone(client: httpx.AsyncClient, store: CodeModeStore) -> None:
    execution_id = await stored_execution(store)
    assert (await client.delete(f"/v1/executions/{execution_id}")).json() == {"deleted": execution_id}
    async with store.reading() as conn:
        assert await read(conn, execution_id) == []
    for r in (await client.get(f"/v1/executions/{execution_id}"),
              await client.delete(f"/v1/executions/{execution_id}")):
        assert r.status_code == 404 and error_of(r)["code"] == "not_found"




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

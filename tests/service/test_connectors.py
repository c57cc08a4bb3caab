"""Connectors against real peers: an MCP server built with the SDK and a FastAPI service
used through its own ``/openapi.json``, both started here, behind the running service."""

from __future__ import annotations

import sqlite3
import stat
from typing import Any, Iterator

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from connector_peers import McpPeer, bad_schema_peer, openapi_peer, wrong_output_peer
from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app

TOKEN = "connector-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def mcp_peer() -> Iterator[tuple[McpPeer, str]]:
    peer = McpPeer()
    with ServerThread(peer.app()) as live:
        yield peer, f"{live.url}/mcp"


@pytest.fixture(scope="module")
def api_peer() -> Iterator[tuple[list[dict[str, Any]], str]]:
    app, seen = openapi_peer()
    with ServerThread(app) as live:
        yield seen, live.url


@pytest.fixture(scope="module")
def service(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Settings]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=2, guest=compiled_guest,
                        token=TOKEN)
    with ServerThread(create_app(settings)) as live:
        yield live, settings


@pytest.fixture(scope="module")
def http(service: tuple[ServerThread, Settings]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service[0].url, headers=AUTH, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def tracker(http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> McpPeer:
    """The MCP peer stored as connector ``tracker``, closing issues gated by a person."""
    peer, url = mcp_peer
    response = http.put("/v1/connectors/tracker", json={
        "type": "mcp", "url": url, "headers": {"X-Api-Key": "tracker-secret-123"},
        "approval": {"close_issue": {"mode": "durable", "summary": "Close an issue", "risk": "medium"}}})
    assert response.status_code in (200, 201), response.text
    return peer


@pytest.fixture(scope="module")
def hosting(http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str]) -> list[dict[str, Any]]:
    seen, url = api_peer
    response = http.put("/v1/connectors/hosting", json={
        "type": "openapi", "spec_url": f"{url}/openapi.json",
        "headers": {"Authorization": "Bearer hosting-secret-456"}})
    assert response.status_code in (200, 201), response.text
    return seen


def run(http: httpx.Client, code: str, *connectors: str) -> dict[str, Any]:
    response = http.post("/v1/execute", json={"code": code, "connectors": list(connectors)})
    assert response.status_code == 200, response.text
    return dict(response.json())


# --- MCP -----------------------------------------------------------------------------------

def test_storing_an_mcp_connector_fetches_its_tools(http: httpx.Client, tracker: McpPeer) -> None:
    got = http.get("/v1/connectors/tracker").json()
    assert got["type"] == "mcp" and got["namespace"] == "tracker"
    assert {t["name"] for t in got["tools"]} == {"create_issue", "issue_json", "greeting",
                                                 "close_issue", "slow"}
    listed = http.get("/v1/connectors").json()["connectors"]
    assert [c["name"] for c in listed if c["name"] == "tracker"] == ["tracker"]
    types = http.get("/v1/connectors/tracker/types").text
    assert "def create_issue(" in types and "title: str" in types
    assert "Open an issue in the tracker." in types


def test_a_tool_call_returns_the_structured_content(http: httpx.Client, tracker: McpPeer) -> None:
    before = len(tracker.calls)
    outcome = run(http, "tracker.create_issue(title='Crash on start', labels=['bug'])", "tracker")
    assert outcome["status"] == "completed", outcome
    assert outcome["result"]["title"] == "Crash on start"
    assert tracker.calls[before][:2] == ("create_issue", {"title": "Crash on start", "labels": ["bug"]})
    assert outcome["calls"][0]["namespace"] == "tracker" and outcome["calls"][0]["state"] == "applied"


def test_text_content_is_parsed_as_json_else_returned_as_text(http: httpx.Client, tracker: McpPeer) -> None:
    outcome = run(http, "(tracker.issue_json(number=7), tracker.greeting(name='Ada'))", "tracker")
    assert outcome["result"] == [{"number": 7, "state": "open"}, "hello, Ada"]


def test_a_read_only_tool_is_journaled_once_after_it_ran_and_others_before_they_run(
        http: httpx.Client, tracker: McpPeer, service: tuple[ServerThread, Settings]) -> None:
    # Asked from inside each call: what the caller's journal holds while the call runs.
    with httpx.Client(base_url=service[0].url, headers=AUTH, timeout=60) as probe:
        tracker.probe = lambda key: [(e["method"], e["state"]) for e in probe.get(
            f"/v1/executions/{key.split(':')[0]}").json()["journal"]]
        tracker.probed.clear()
        try:
            outcome = run(http, "tracker.issue_json(number=1)\ntracker.greeting(name='p')", "tracker")
        finally:
            tracker.probe = None
    assert tracker.probed == [[], [("issue_json", "applied"), ("greeting", "executing")]]
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert [(e["method"], e["state"]) for e in record["journal"]] == [
        ("issue_json", "applied"), ("greeting", "applied")]
    with sqlite3.connect(service[1].database_path) as db:  # a read is audited like any call
        audited = db.execute("SELECT COUNT(*) FROM audit_log WHERE event = 'call.completed'"
                             " AND subject LIKE ?", (f"%{outcome['execution_id']}%",)).fetchone()
    assert audited == (2,)


def test_an_approved_read_runs_once_and_is_settled_from_its_pending_row(
        http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    peer, url = mcp_peer
    http.put("/v1/connectors/gated_read", json={"type": "mcp", "url": url,
                                                "approval": {"issue_json": "durable"}}).raise_for_status()
    try:
        before = len(peer.calls)
        paused = run(http, "tracker_issue = gated_read.issue_json(number=9)\ntracker_issue", "gated_read")
        assert paused["status"] == "paused" and len(peer.calls) == before
        resumed = http.post(f"/v1/approvals/{paused['pending'][0]['approval_id']}/approve",
                            json={}).json()
        assert resumed["status"] == "completed" and resumed["result"] == {"number": 9, "state": "open"}
        assert [c[0] for c in peer.calls[before:]] == ["issue_json"]
        record = http.get(f"/v1/executions/{paused['execution_id']}").json()
        assert [(e["method"], e["state"]) for e in record["journal"]] == [("issue_json", "applied")]
    finally:
        http.delete("/v1/connectors/gated_read")


def test_tools_holds_a_connectors_methods_as_it_holds_every_namespaces(
        http: httpx.Client, tracker: McpPeer) -> None:
    assert run(http, "tools.greeting(name='via tools')", "tracker")["result"] == "hello, via tools"


def test_the_idempotency_key_travels_in_meta_as_execution_and_step(http: httpx.Client, tracker: McpPeer) -> None:
    before = len(tracker.calls)
    outcome = run(http, "tracker.greeting(name='a')\ntracker.greeting(name='b')", "tracker")
    keys = [meta.get("idempotency_key") for _, _, meta in tracker.calls[before:]]
    assert keys == [f"{outcome['execution_id']}:0", f"{outcome['execution_id']}:1"]


def test_is_error_raises_tool_error_with_the_servers_text(http: httpx.Client, tracker: McpPeer) -> None:
    code = ("try:\n    tracker.close_issue(number=13)\nexcept ToolError as e:\n"
            "    out = (type(e).__name__, str(e))\nout")
    # close_issue is gated: approve it, and the resumed run meets the server's error.
    paused = run(http, code, "tracker")
    assert paused["status"] == "paused"
    resumed = http.post(f"/v1/approvals/{paused['pending'][0]['approval_id']}/approve",
                        json={"by": "test"}).json()
    assert resumed["status"] == "completed", resumed
    assert resumed["result"] == ["ToolError", "Error executing tool close_issue: issue 13 is locked"]
    record = http.get(f"/v1/executions/{paused['execution_id']}").json()
    assert [e["state"] for e in record["journal"]] == ["error"]


def test_a_durable_policy_pauses_and_the_call_runs_once_when_approved(
        http: httpx.Client, tracker: McpPeer) -> None:
    before = len(tracker.calls)
    paused = run(http, "r = tracker.close_issue(number=4)\nr", "tracker")
    assert paused["status"] == "paused" and len(tracker.calls) == before
    pending = paused["pending"][0]
    assert (pending["namespace"], pending["method"], pending["args"]) == ("tracker", "close_issue", {"number": 4})
    assert pending["descriptor"]["summary"] == "Close an issue"
    resumed = http.post(f"/v1/approvals/{pending['approval_id']}/approve", json={"by": "test"}).json()
    assert resumed["status"] == "completed" and resumed["result"] == {"result": "closed"}
    assert [c[0] for c in tracker.calls[before:]] == ["close_issue"]
    assert tracker.calls[-1][2]["idempotency_key"] == f"{paused['execution_id']}:0"


def test_search_and_describe_find_connector_methods(http: httpx.Client, tracker: McpPeer) -> None:
    outcome = run(http, "(codemode.search('close issue'), codemode.describe('tracker.close_issue'))",
                  "tracker")
    found, described = outcome["result"]
    first = found["results"][0]
    assert (first["connector"], first["method"], first["requires_approval"]) == ("tracker", "close_issue", True)
    assert described["path"] == "tracker.close_issue" and "def close_issue(" in described["types"]


def test_invalid_arguments_are_refused_before_the_server_is_called(
        http: httpx.Client, tracker: McpPeer) -> None:
    before = len(tracker.calls)
    outcome = run(http, "try:\n    tracker.greeting(name=3)\nexcept ToolError as e:\n    r = type(e).__name__\nr",
                  "tracker")
    assert outcome["result"] == "ToolArgumentsError" and len(tracker.calls) == before


def test_header_values_are_sent_never_shown_and_encrypted_at_rest(
        http: httpx.Client, tracker: McpPeer, service: tuple[ServerThread, Settings]) -> None:
    run(http, "tracker.greeting(name='x')", "tracker")
    assert tracker.headers[-1]["x-api-key"] == "tracker-secret-123"
    shown = http.get("/v1/connectors/tracker")
    assert shown.json()["headers"] == {"X-Api-Key": "<hidden>"}
    assert "tracker-secret-123" not in shown.text
    settings = service[1]
    with sqlite3.connect(settings.database_path) as db:
        rows = db.execute("SELECT definition, headers, tools FROM codemode_connectors").fetchall()
    assert rows and not any("tracker-secret-123" in "".join(r) for r in rows)
    with sqlite3.connect(settings.database_path) as db:
        audited = db.execute("SELECT subject, body FROM audit_log WHERE event = 'connector.put'"
                             " AND subject LIKE '%tracker%'").fetchall()
    assert audited and not any("tracker-secret-123" in "".join(r) for r in audited)
    key = settings.key_dir / "connectors.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_an_env_reference_is_read_when_the_call_is_made(
        http: httpx.Client, mcp_peer: tuple[McpPeer, str], monkeypatch: pytest.MonkeyPatch) -> None:
    peer, url = mcp_peer
    monkeypatch.setenv("TRACKER_TEST_KEY", "first")
    assert http.put("/v1/connectors/tracker_env", json={
        "type": "mcp", "url": url, "headers": {"X-Api-Key": "env:TRACKER_TEST_KEY"}}).status_code == 201
    assert http.get("/v1/connectors/tracker_env").json()["headers"] == {"X-Api-Key": "env:TRACKER_TEST_KEY"}
    monkeypatch.setenv("TRACKER_TEST_KEY", "second")
    http.post("/v1/connectors/tracker_env/refresh").raise_for_status()  # a fresh session
    run(http, "tracker_env.greeting(name='x')", "tracker_env")
    assert peer.headers[-1]["x-api-key"] == "second"
    monkeypatch.delenv("TRACKER_TEST_KEY")
    http.post("/v1/connectors/tracker_env/refresh")
    outcome = run(http, "tracker_env.greeting(name='x')", "tracker_env")
    assert outcome["status"] == "error" and "TRACKER_TEST_KEY" in outcome["error"]["message"]
    http.delete("/v1/connectors/tracker_env")


def test_refresh_picks_up_a_tool_the_server_added(http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    peer, url = mcp_peer
    http.put("/v1/connectors/growing", json={"type": "mcp", "url": url}).raise_for_status()

    @peer.server.tool()
    def added_later(x: int) -> int:
        """A tool the server gained after the connector was stored."""
        return x * 2

    try:
        assert "added_later" not in {t["name"] for t in http.get("/v1/connectors/growing").json()["tools"]}
        refreshed = http.post("/v1/connectors/growing/refresh").json()
        assert "added_later" in {t["name"] for t in refreshed["tools"]}
        assert run(http, "growing.added_later(x=21)", "growing")["result"] == {"result": 42}
    finally:
        peer.server.remove_tool("added_later")
        http.delete("/v1/connectors/growing")


def test_a_server_that_is_down_is_a_502_and_nothing_is_stored(http: httpx.Client) -> None:
    with ServerThread(McpPeer().app()) as gone:
        url = f"{gone.url}/mcp"
    response = http.put("/v1/connectors/down", json={"type": "mcp", "url": url})
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "connector_unavailable"
    assert http.get("/v1/connectors/down").status_code == 404


def test_a_tool_whose_schema_is_not_a_schema_is_a_502_and_nothing_is_stored(http: httpx.Client) -> None:
    with ServerThread(bad_schema_peer()) as live:
        response = http.put("/v1/connectors/broken", json={"type": "mcp", "url": f"{live.url}/mcp"})
    assert response.status_code == 502, response.text
    message = response.json()["error"]["message"]
    assert "broken" in message and "input_schema" in message
    assert http.get("/v1/connectors/broken").status_code == 404


def test_an_answer_that_breaks_the_tools_output_schema_is_a_schema_error(http: httpx.Client) -> None:
    with ServerThread(wrong_output_peer()) as live:
        http.put("/v1/connectors/wrong", json={"type": "mcp", "url": f"{live.url}/mcp"}).raise_for_status()
        outcome = run(http, "try:\n    wrong.count()\nexcept ToolError as e:\n"
                            "    r = (type(e).__name__, 'output schema' in str(e))\nr", "wrong")
    assert outcome["result"] == ["ToolResponseSchemaError", True], outcome
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert [(e["method"], e["state"]) for e in record["journal"]] == [("count", "error")]
    http.delete("/v1/connectors/wrong")


def test_a_server_gone_after_storing_is_a_connection_error_in_the_guest(http: httpx.Client) -> None:
    with ServerThread(McpPeer().app()) as live:
        http.put("/v1/connectors/flaky", json={"type": "mcp", "url": f"{live.url}/mcp"}).raise_for_status()
        assert run(http, "flaky.greeting(name='x')", "flaky")["result"] == "hello, x"
    code = ("try:\n    flaky.greeting(name='y')\nexcept ToolError as e:\n"
            "    r = (type(e).__name__, 'flaky' in str(e) or 'greeting' in str(e))\nr")
    outcome = run(http, code, "flaky")
    assert outcome["result"] == ["ToolConnectionError", True], outcome
    http.delete("/v1/connectors/flaky")


def test_a_call_past_the_connectors_timeout_is_a_timeout_error(
        http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    _, url = mcp_peer
    http.put("/v1/connectors/hurried", json={"type": "mcp", "url": url, "timeout_ms": 300}).raise_for_status()
    outcome = run(http, "try:\n    hurried.slow(seconds=3)\nexcept ToolError as e:\n"
                        "    r = (type(e).__name__, e.timeout_ms)\nr", "hurried")
    assert outcome["result"] == ["ToolTimeoutError", 300], outcome
    assert outcome["calls"][0]["state"] == "error"
    # The connector still works afterwards: a fresh session is opened.
    assert run(http, "hurried.greeting(name='z')", "hurried")["result"] == "hello, z"
    http.delete("/v1/connectors/hurried")


def test_approving_after_the_connector_was_deleted_keeps_the_run_paused(
        http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    _, url = mcp_peer
    http.put("/v1/connectors/doomed", json={"type": "mcp", "url": url,
                                            "approval": {"*": "durable"}}).raise_for_status()
    paused = run(http, "doomed.greeting(name='q')", "doomed")
    assert paused["status"] == "paused"
    http.delete("/v1/connectors/doomed").raise_for_status()
    refused = http.post(f"/v1/approvals/{paused['pending'][0]['approval_id']}/approve", json={})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "missing_connector"
    assert 'connector "doomed"' in refused.json()["error"]["message"]
    assert http.get(f"/v1/executions/{paused['execution_id']}").json()["status"] == "paused"


def test_an_unknown_connector_in_execute_is_a_404(http: httpx.Client) -> None:
    response = http.post("/v1/execute", json={"code": "1", "connectors": ["nope"]})
    assert response.status_code == 404 and 'connector "nope"' in response.json()["error"]["message"]


@pytest.mark.parametrize("body, problem", [
    ({"type": "smtp"}, "'mcp' or 'openapi'"),
    ({"type": "mcp"}, "url is required"),
    ({"type": "openapi", "base_url": "http://127.0.0.1:1"}, "exactly one of spec"),
    ({"type": "mcp", "url": "http://127.0.0.1:1/mcp", "approval": {"x": "sometimes"}}, "approval"),
    ({"type": "mcp", "url": "http://127.0.0.1:1/mcp", "headers": {"A": "env:1BAD"}}, "env:"),
])
def test_a_bad_definition_is_refused_with_its_problems(http: httpx.Client, body: dict[str, Any], problem: str) -> None:
    response = http.put("/v1/connectors/bad", json=body)
    assert response.status_code == 422, response.text
    assert problem in response.text


def test_an_approval_naming_no_tool_is_refused(http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    response = http.put("/v1/connectors/typo", json={"type": "mcp", "url": mcp_peer[1],
                                                     "approval": {"close_isue": "durable"}})
    assert response.status_code == 422 and "close_isue" in response.text
    assert http.get("/v1/connectors/typo").status_code == 404


# --- OpenAPI -------------------------------------------------------------------------------

def test_operations_become_methods_with_path_query_and_body(http: httpx.Client, hosting: list[dict[str, Any]]) -> None:
    code = ("repo = hosting.getRepo(owner='octo', repo='hello', page=2)\n"
            "issue = hosting.createIssue(owner='octo', repo='hello', body={'title': 'Bug'})\n"
            "(repo, issue)")
    outcome = run(http, code, "hosting")
    assert outcome["status"] == "completed", outcome
    repo, issue = outcome["result"]
    assert repo == {"owner": "octo", "name": "hello", "page": 2}
    assert issue["title"] == "Bug"
    get, post = hosting[-2:]
    assert (get["op"], get["owner"], get["repo"], get["page"]) == ("getRepo", "octo", "hello", 2)
    assert post["op"] == "createIssue" and post["issue"] == {"title": "Bug", "body": ""}
    assert post["authorization"] == "Bearer hosting-secret-456"
    eid = outcome["execution_id"]
    assert (get["idempotency_key"], post["idempotency_key"]) == (f"{eid}:0", f"{eid}:1")


def test_the_request_body_schema_is_resolved_from_its_ref(http: httpx.Client, hosting: list[dict[str, Any]]) -> None:
    types = http.get("/v1/connectors/hosting/types").text
    assert "def createIssue(" in types and "def getRepo(" in types and "def request(" in types
    assert "$ref" not in types and "title" in types


STATUS_ERROR_CODE = """
try:
    hosting.deleteRepo(owner='octo', repo='old')
except ToolError as e:
    seen = [type(e).__name__, e.status, e.body, str(e)]
"""


def test_a_status_outside_2xx_is_a_typed_error_with_status_and_body(
        http: httpx.Client, hosting: list[dict[str, Any]]) -> None:
    outcome = run(http, STATUS_ERROR_CODE + "seen", "hosting")
    name, status, body, message = outcome["result"]
    assert (name, status, body) == ("ToolHTTPStatusError", 403,
                                    {"detail": "archived repositories cannot be deleted"})
    assert "403" in message and "archived repositories cannot be deleted" in message
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert [(e["method"], e["state"]) for e in record["journal"]] == [("deleteRepo", "error")]


def test_a_replayed_status_error_has_the_same_status_and_body(
        http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str]) -> None:
    seen, url = api_peer
    http.put("/v1/connectors/hosting", json={
        "type": "openapi", "spec_url": f"{url}/openapi.json",
        "approval": {"createIssue": "durable"}}).raise_for_status()
    try:
        before = len(seen)
        paused = run(http, STATUS_ERROR_CODE + "hosting.createIssue(owner='o', repo='r', "
                           "body={'title': 't'})\nseen", "hosting")
        assert paused["status"] == "paused", paused
        resumed = http.post(f"/v1/approvals/{paused['pending'][0]['approval_id']}/approve",
                            json={}).json()
        assert resumed["status"] == "completed", resumed
        assert resumed["result"][:3] == ["ToolHTTPStatusError", 403,
                                         {"detail": "archived repositories cannot be deleted"}]
        # The resumed run got the error from the journal: the API saw one delete.
        assert [s["op"] for s in seen[before:]] == ["deleteRepo", "createIssue"]
    finally:
        http.put("/v1/connectors/hosting", json={
            "type": "openapi", "spec_url": f"{url}/openapi.json",
            "headers": {"Authorization": "Bearer hosting-secret-456"}}).raise_for_status()


def test_the_generic_request_reaches_any_path(http: httpx.Client, hosting: list[dict[str, Any]]) -> None:
    outcome = run(http, "hosting.request(method='GET', path='/repos/a/b', query={'page': 5})", "hosting")
    assert outcome["result"] == {"owner": "a", "name": "b", "page": 5}


def test_an_inline_30_document_with_refs_and_no_operation_ids(
        http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str]) -> None:
    _, url = api_peer
    spec = {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "components": {"parameters": {"Owner": {"name": "owner", "in": "path", "required": True,
                                                "schema": {"$ref": "#/components/schemas/Name"}}},
                       "schemas": {"Name": {"type": "string", "description": "An account."}}},
        "paths": {"/repos/{owner}/{repo}": {
            "parameters": [{"$ref": "#/components/parameters/Owner"}],
            "get": {"parameters": [{"name": "repo", "in": "path", "required": True, "schema": {"type": "string"}},
                                   {"name": "page", "in": "query", "schema": {"type": "integer"}}]}}},
    }
    response = http.put("/v1/connectors/hosting30", json={"type": "openapi", "spec": spec, "base_url": url})
    assert response.status_code == 201, response.text
    assert {t["method"] for t in response.json()["tools"]} == {"get_repos_owner_repo", "request"}
    outcome = run(http, "hosting30.get_repos_owner_repo(owner='x', repo='y', page=3)", "hosting30")
    assert outcome["result"] == {"owner": "x", "name": "y", "page": 3}
    refused = run(http, "try:\n    hosting30.get_repos_owner_repo(owner=1, repo='y')\n"
                        "except ToolError as e:\n    r = type(e).__name__\nr", "hosting30")
    assert refused["result"] == "ToolArgumentsError"
    http.delete("/v1/connectors/hosting30")


def test_a_yaml_document_is_read_from_its_url_or_given_as_text(
        http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str]) -> None:
    _, url = api_peer
    fetched = http.put("/v1/connectors/hosting_yaml", json={
        "type": "openapi", "spec_url": f"{url}/openapi.yaml"})
    assert fetched.status_code == 201, fetched.text
    assert {"getRepo", "createIssue", "deleteRepo", "request"} <= {t["name"] for t in fetched.json()["tools"]}
    outcome = run(http, "hosting_yaml.getRepo(owner='y', repo='z')", "hosting_yaml")
    assert outcome["result"] == {"owner": "y", "name": "z", "page": 1}
    text = f"""
openapi: 3.1.0
info: {{title: inline, version: "1"}}
servers: [{{url: "{url}"}}]
paths:
  /repos/{{owner}}/{{repo}}:
    get:
      operationId: fetchRepo
      parameters:
        - {{name: owner, in: path, required: true, schema: {{type: string}}}}
        - {{name: repo, in: path, required: true, schema: {{type: string}}}}
      responses:
        200: {{description: the repository}}
"""
    given = http.put("/v1/connectors/hosting_yaml", json={"type": "openapi", "spec": text})
    assert given.status_code == 200, given.text
    assert {t["name"] for t in given.json()["tools"]} == {"fetchRepo", "request"}
    assert run(http, "hosting_yaml.fetchRepo(owner='a', repo='b')['name']", "hosting_yaml")["result"] == "b"
    http.delete("/v1/connectors/hosting_yaml")


@pytest.mark.parametrize("text, problem", [
    ("openapi: 3.1.0\ninfo: &i {title: t, version: '1'}\nx: *i\npaths: {}\n", "aliases"),
    ("openapi: [3.1.0\n", "neither JSON nor YAML"),
    ("- just\n- a list\n", "not an object"),
])
def test_a_yaml_document_that_cannot_be_read_is_a_502_naming_why(
        http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str], text: str, problem: str) -> None:
    response = http.put("/v1/connectors/bad_yaml", json={"type": "openapi", "spec": text,
                                                        "base_url": api_peer[1]})
    assert response.status_code == 502, response.text
    assert problem in response.json()["error"]["message"]
    assert http.get("/v1/connectors/bad_yaml").status_code == 404


def test_a_document_that_is_not_openapi_3_is_a_502(http: httpx.Client, api_peer: tuple[list[dict[str, Any]], str]) -> None:
    response = http.put("/v1/connectors/swagger", json={
        "type": "openapi", "spec": {"swagger": "2.0", "paths": {}}, "base_url": api_peer[1]})
    assert response.status_code == 502 and "OpenAPI 3.0 or 3.1" in response.json()["error"]["message"]


def test_an_unreachable_api_is_a_connection_error_and_recorded_as_such(http: httpx.Client) -> None:
    with ServerThread(openapi_peer()[0]) as live:
        base = live.url
        http.put("/v1/connectors/gone_api", json={"type": "openapi", "spec_url": f"{base}/openapi.json"}
                 ).raise_for_status()
    outcome = run(http, "try:\n    gone_api.getRepo(owner='a', repo='b')\nexcept ToolError as e:\n"
                        "    r = type(e).__name__\nr", "gone_api")
    assert outcome["result"] == "ToolConnectionError"
    record = http.get(f"/v1/executions/{outcome['execution_id']}").json()
    assert [(e["method"], e["state"]) for e in record["journal"]] == [("getRepo", "error")]
    http.delete("/v1/connectors/gone_api")


def test_a_connector_name_that_would_hide_a_namespace_is_refused(http: httpx.Client) -> None:
    for name in ("tools", "state", "list"):
        response = http.put(f"/v1/connectors/{name}", json={"type": "mcp", "url": "http://127.0.0.1:1/mcp"})
        assert response.status_code == 422, (name, response.text)


def test_deleting_a_connector(http: httpx.Client, mcp_peer: tuple[McpPeer, str]) -> None:
    http.put("/v1/connectors/brief", json={"type": "mcp", "url": mcp_peer[1]}).raise_for_status()
    assert http.delete("/v1/connectors/brief").json() == {"deleted": "brief"}
    assert http.delete("/v1/connectors/brief").status_code == 404


# --- through the service's own MCP server --------------------------------------------------

async def test_an_mcp_agent_host_runs_code_against_a_connector(
        service: tuple[ServerThread, Settings], tracker: McpPeer) -> None:
    async with httpx2.AsyncClient(headers=AUTH, timeout=60) as client:
        async with Client(streamable_http_client(f"{service[0].url}/mcp", http_client=client)) as mcp:
            listed = {t.name: t for t in (await mcp.list_tools()).tools}
            result = await mcp.call_tool("execute", {"code": "tracker.greeting(name='MCP')",
                                                     "connectors": ["tracker"]})
    description = listed["execute"].description or ""
    assert "tracker" in description and "def create_issue(" in description
    assert result.structured_content is not None
    assert result.structured_content["result"] == "hello, MCP"

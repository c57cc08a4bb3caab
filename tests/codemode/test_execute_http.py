"""Code Mode end to end over HTTP: stored toolsets, a real signed tool server, the journal,
``state.*`` on the same workspace the HTTP tools see, search, describe and snippets."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

import httpx
import pytest

from codemode import verify_signature
from sandbox.service import create_app
from sandbox.engine import CompiledGuest
from sandbox.service import Settings

from live_server import ServerThread, read_body, serve_lifespan


class ToolServer:
    """An agent host's tool endpoint: verifies every signature and counts calls per tool."""

    def __init__(self) -> None:
        self.secret = ""
        self.calls: list[dict[str, Any]] = []
        self.bad_signatures = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = await read_body(receive)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        try:
            verify_signature(self.secret, headers["x-sandbox-timestamp"], body,
                             headers["x-sandbox-signature"])
        except Exception:
            self.bad_signatures += 1
            await self._send(send, 401, {"error": {"name": "Unauthorized", "message": "bad signature"}})
            return
        call = json.loads(body)
        self.calls.append(call)
        tool, data = call["tool"], call["input"]
        if tool == "get_item":
            answer: dict[str, Any] = {"output": {"id": data["id"], "name": f"item {data['id']}"}}
        elif tool == "boom":
            answer = {"error": {"name": "ConnectorError", "message": "connector boom"}}
        elif tool == "big":
            answer = {"output": "x" * 1_100_000}
        elif tool == "long":
            answer = {"output": "z" * 25_000}
        elif tool == "create_issue":
            answer = {"output": {"number": 1, "title": data["title"]}}
        elif tool == "whoami":
            answer = {"output": {"execution_id": call["execution_id"], "seq": call["seq"]}}
        else:
            answer = {"error": {"name": "NotFound", "message": f"no tool {tool}"}}
        await self._send(send, 200, answer)

    @staticmethod
    async def _send(send: Any, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})


def _tools(url: str) -> list[dict[str, Any]]:
    obj = {"type": "object"}
    return [
        {"name": "get_item", "description": "Fetch one item by id.", "url": url,
         "input_schema": {**obj, "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
        {"name": "boom", "description": "Always fails.", "url": url, "input_schema": obj},
        {"name": "big", "description": "Returns a huge string.", "url": url, "input_schema": obj},
        {"name": "long", "description": "Returns 25,000 characters.", "url": url, "input_schema": obj},
        {"name": "whoami", "description": "Echo the execution id.", "url": url, "input_schema": obj},
        {"name": "create_issue", "description": "Create an issue in a repository.", "url": url,
         "approval": {"mode": "durable", "risk": "low"},
         "input_schema": {**obj, "properties": {"title": {"type": "string"}}, "required": ["title"]}},
    ]


@pytest.fixture(scope="module")
def tool_server() -> Iterator[tuple[ToolServer, str]]:
    app = ToolServer()
    with ServerThread(app) as live:
        yield app, live.url


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory,
           tool_server: tuple[ToolServer, str]) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("codemode"), workers=2, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url, timeout=60) as http:
        server, url = tool_server
        created = http.put("/v1/toolsets/github", json={"tools": _tools(url)})
        assert created.status_code == 201, created.text
        server.secret = created.json()["secret"]
        yield http


def _run(client: httpx.Client, code: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/execute", json={"code": code, "toolsets": ["github"], **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_read_only_tool_call_completes_with_its_result(client: httpx.Client,
                                                       tool_server: tuple[ToolServer, str]) -> None:
    body = _run(client, "github.get_item(id=7)")
    assert body["status"] == "completed" and body["result"] == {"id": 7, "name": "item 7"}
    assert body["calls"][0]["namespace"] == "github" and body["calls"][0]["method"] == "get_item"
    assert tool_server[0].bad_signatures == 0


def test_unknown_global_lists_the_available_ones(client: httpx.Client) -> None:
    body = _run(client, "gitlab.get_item(id=1)")
    assert body["status"] == "error" and "gitlab" in body["error"]["message"]
    assert "github" in body["error"]["message"] and "state" in body["error"]["message"]


def test_a_failing_tool_fails_the_execution_with_its_message(client: httpx.Client) -> None:
    body = _run(client, "github.boom()")
    assert body["status"] == "error" and "connector boom" in body["error"]["message"]
    caught = _run(client, "try:\n    github.boom()\nexcept ToolError as e:\n    r = (e.name, e.message)\nr")
    assert caught["result"] == ["ConnectorError", "connector boom"]


def test_invalid_arguments_are_rejected_before_the_tool_runs(client: httpx.Client,
                                                             tool_server: tuple[ToolServer, str]) -> None:
    before = len(tool_server[0].calls)
    body = _run(client, "github.get_item(id='seven')")
    assert body["status"] == "error" and body["calls"] == []
    assert len(tool_server[0].calls) == before
    assert _run(client, "github.get_item(7)")["error"]["name"] == "TypeError"


def test_the_tool_sees_the_execution_id_it_runs_under(client: httpx.Client) -> None:
    body = _run(client, "github.whoami()")
    assert body["result"] == {"execution_id": body["execution_id"], "seq": 0}


def test_an_oversized_tool_result_cannot_be_recorded(client: httpx.Client) -> None:
    body = _run(client, "github.big()")
    assert body["status"] == "error"
    assert "too large to record durably" in body["error"]["message"]


def test_an_oversized_final_result_is_returned_whole_and_noted_in_the_record(client: httpx.Client) -> None:
    body = _run(client, "'y' * 1_100_000")
    assert body["status"] == "completed" and len(body["result"]) == 1_100_000
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    assert "omitted from the audit trail" in json.dumps(record["result"])


LARGE_RESULT = "[{'n': i, 's': str(i), 'l': [i, None, 'caf\u00e9']} for i in range(%d)]"


def _large(count: int) -> list[dict[str, Any]]:
    return [{"n": i, "s": str(i), "l": [i, None, "caf\u00e9"]} for i in range(count)]


def test_a_large_list_result_is_returned_and_recorded_as_the_value_it_is(client: httpx.Client) -> None:
    body = _run(client, LARGE_RESULT % 10_000)
    assert body["status"] == "completed" and body["result"] == _large(10_000)
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    assert record["result"] == _large(10_000) and record["result_recorded"] is True


def test_a_large_list_result_over_the_durable_limit_is_returned_whole_and_noted(client: httpx.Client) -> None:
    body = _run(client, LARGE_RESULT % 40_000)
    assert body["status"] == "completed" and body["result"] == _large(40_000)
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    chars = len(json.dumps(_large(40_000), ensure_ascii=False, separators=(",", ":")))
    assert record["result"] == {"note": f"result omitted from the audit trail: {chars} characters"}


def test_an_approved_run_answers_with_its_large_result(client: httpx.Client) -> None:
    paused = _run(client, "github.create_issue(title='t')\n" + LARGE_RESULT % 10_000)
    assert paused["status"] == "paused"
    approval_id = paused["pending"][0]["approval_id"]
    resumed = client.post(f"/v1/approvals/{approval_id}/approve", json={})
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["status"] == "completed", resumed.json().get("error")
    assert resumed.json()["result"] == _large(10_000)


def test_code_over_the_durable_limit_is_refused_and_not_recorded(client: httpx.Client) -> None:
    body = _run(client, "#" * 1_000_001)
    assert body["status"] == "error" and "too large to record durably" in body["error"]["message"]
    assert client.get(f"/v1/executions/{body['execution_id']}").status_code == 404


def test_every_call_is_journaled_in_the_execution_record(client: httpx.Client) -> None:
    body = _run(client, "a = github.get_item(id=1)\nb = github.get_item(id=2)\n[a['id'], b['id']]")
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    assert record["status"] == "completed" and record["code"].startswith("a = github")
    journal = record["journal"]
    assert [(e["seq"], e["method"], e["state"]) for e in journal] == [(0, "get_item", "applied"),
                                                                      (1, "get_item", "applied")]
    assert journal[1]["args"] == {"id": 2} and journal[1]["result"]["id"] == 2


def test_deleting_an_execution_removes_it_from_the_list(client: httpx.Client) -> None:
    body = _run(client, "1")
    listed = [e["id"] for e in client.get("/v1/executions", params={"workspace": "default"}).json()["executions"]]
    assert body["execution_id"] in listed
    assert client.delete(f"/v1/executions/{body['execution_id']}").status_code in (200, 204)
    listed = [e["id"] for e in client.get("/v1/executions").json()["executions"]]
    assert body["execution_id"] not in listed


def test_state_shares_the_workspace_with_the_http_tools(client: httpx.Client) -> None:
    client.post("/v1/workspaces/shared/tools/write", json={"path": "/in.txt", "content": "alpha beta"})
    code = ("text = state.read_file('/in.txt')\n"
            "state.write_json('/out.json', {'words': len(text.split())})\n"
            "state.write_bytes('/raw.bin', bytes([0, 255]))\n"
            "[text, state.read_bytes('/raw.bin'), state.exists('/nope')]")
    body = _run(client, code, workspace="shared")
    assert body["status"] == "completed", body.get("error")
    assert body["result"] == ["alpha beta", {"$bytes": "AP8="}, False]
    read = client.post("/v1/workspaces/shared/tools/read", json={"path": "/out.json"}).json()
    assert '"words": 2' in read["content"]


def test_state_errors_are_python_os_errors(client: httpx.Client) -> None:
    body = _run(client, "try:\n    state.mkdir('/a/b/c')\nexcept FileNotFoundError as e:\n    r = str(e)\nr")
    assert body["status"] == "completed" and body["result"].startswith("ENOENT")


def test_search_ranks_the_matching_method_first(client: httpx.Client) -> None:
    result = _run(client, "codemode.search('create issue')")["result"]
    first = result["results"][0]
    assert first["path"] == "github.create_issue" and first["kind"] == "method"
    assert first["requires_approval"] is True


def test_describe_returns_the_typed_declaration(client: httpx.Client) -> None:
    result = _run(client, "codemode.describe('github.create_issue')")["result"]
    assert result["path"] == "github.create_issue" and result["requires_approval"] is True
    assert "def create_issue(*, title: str)" in result["types"]


def test_help_shows_the_declaration(client: httpx.Client) -> None:
    body = _run(client, "help(github)")
    assert any("def get_item(*, id: int)" in line for line in body["logs"])


def test_step_records_its_value(client: httpx.Client) -> None:
    body = _run(client, "import random\ncodemode.step('pick', lambda: 4)")
    assert body["result"] == 4 and body["calls"][0]["namespace"] == "__step"


def test_snippets_are_saved_from_an_execution_and_run_by_name(client: httpx.Client) -> None:
    source = _run(client, "```python\nreturn 'ran:' + str(input)\n```")
    saved = client.put("/v1/snippets/greet", json={"execution_id": source["execution_id"],
                                                   "description": "Greets."})
    assert saved.status_code in (200, 201), saved.text
    assert _run(client, "codemode.run('greet', 'world')")["result"] == "ran:world"
    assert _run(client, "codemode.run('missing')")["result"] == {"error": 'Snippet "missing" not found.'}
    block = _run(client, "n = input if isinstance(input, int) else 0\nx = n * 2\nx + 1")
    client.put("/v1/snippets/double", json={"execution_id": block["execution_id"]})
    assert _run(client, "codemode.run('double', 20)")["result"] == 41


def test_two_concurrent_executions_complete_with_distinct_ids(client: httpx.Client) -> None:
    with ThreadPoolExecutor(max_workers=20) as pool:
        bodies = list(pool.map(lambda n: _run(client, f"github.get_item(id={n})['id']"), range(20)))
    assert [b["result"] for b in bodies] == list(range(20))
    assert len({b["execution_id"] for b in bodies}) == 20


def test_unknown_toolset_is_a_404(client: httpx.Client) -> None:
    response = client.post("/v1/execute", json={"code": "1", "toolsets": ["nope"]})
    assert response.status_code == 404


def test_inline_tools_are_validated_and_exposed_as_tools(client: httpx.Client,
                                                         tool_server: tuple[ToolServer, str]) -> None:
    bad = client.post("/v1/execute", json={"code": "1", "tools": [{"name": "x", "input_schema": {"type": 5}}]})
    assert bad.status_code == 422
    body = client.post("/v1/execute", json={"code": "sorted(dir(tools))", "tools": [
        {"name": "get-weather", "input_schema": {"type": "object"}, "url": tool_server[1]}]}).json()
    assert body["result"] == ["get_weather"]


def test_description_tells_the_model_everything(client: httpx.Client) -> None:
    text = client.get("/v1/execute/description", params={"toolsets": "github"}).text
    assert "class github(Protocol)" in text and "def get_item(*, id: int)" in text
    assert "state" in text and "codemode" in text and "Limits:" in text


def test_tools_holds_every_tool_of_every_toolset(client: httpx.Client) -> None:
    body = _run(client, "tools.get_item(id=3)")
    assert body["status"] == "completed" and body["result"] == {"id": 3, "name": "item 3"}
    assert body["calls"][0]["namespace"] == "github" and body["calls"][0]["method"] == "get_item"
    assert _run(client, "'get_item' in dir(tools) and 'get_item' in dir(github)")["result"] is True


def test_a_name_two_toolsets_define_is_reachable_only_through_its_namespace(
        client: httpx.Client, tool_server: tuple[ToolServer, str]) -> None:
    tools = [t for t in _tools(tool_server[1]) if t["name"] in ("get_item", "whoami")]
    created = client.put("/v1/toolsets/gitlab", json={"tools": tools})
    assert created.status_code in (200, 201), created.text
    body = client.post("/v1/execute", json={"code": "tools.get_item(id=1)",
                                            "toolsets": ["github", "gitlab"]}).json()
    assert body["status"] == "error" and body["error"]["name"] == "AttributeError"
    assert "github.get_item(...) or gitlab.get_item(...)" in body["error"]["message"]
    code = "[tools.long()[:1], 'get_item' in dir(gitlab), 'get_item' in dir(tools)]"
    both = client.post("/v1/execute", json={"code": code, "toolsets": ["github", "gitlab"]}).json()
    assert both["result"] == ["z", True, False]
    text = client.get("/v1/execute/description", params={"toolsets": "github,gitlab"}).text
    assert "tools also holds every tool of github, gitlab" in text
    assert "get_item (github, gitlab)" in text


def test_a_long_tool_output_reaches_the_code_capped_and_the_journal_whole(client: httpx.Client) -> None:
    body = _run(client, "out = github.long()\n[len(out), out[-40:]]")
    length, tail = body["result"]
    assert 20_000 < length < 22_000 and "[truncated 5000 chars]" in tail
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    assert record["journal"][0]["result"] == "z" * 25_000


def test_a_paused_execution_reports_what_it_printed_before_pausing(client: httpx.Client) -> None:
    body = _run(client, "print('checking')\nprint('creating')\ngithub.create_issue(title='t')")
    assert body["status"] == "paused" and body["logs"] == ["checking", "creating"]

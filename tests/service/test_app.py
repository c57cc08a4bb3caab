"""The HTTP service, over a real socket: health, execute, validation, auth, OpenAPI."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app

TOKEN = "test-token-123"


class LiveServer(ServerThread):
    """The service with ``settings``, live on a local port."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(create_app(settings))


@pytest.fixture(scope="module")
def server(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=2, guest=compiled_guest)
    with LiveServer(settings) as live:
        yield live


@pytest.fixture(scope="module")
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


def test_healthz_reports_ok_and_the_worker_pool(client: httpx.Client) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["workers"]["alive"] == 2


def test_execute_returns_result_logs_and_duration(client: httpx.Client) -> None:
    response = client.post("/v1/execute", json={"code": "print('hi')\n6 * 7"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "completed" and body["result"] == 42 and body["logs"] == ["hi"]
    assert body["execution_id"].startswith("exec_") and body["duration_ms"] > 0
    assert "error" not in body and "trap" not in body


def test_execute_error_has_error_and_no_result(client: httpx.Client) -> None:
    body = client.post("/v1/execute", json={"code": "1 / 0"}).json()
    assert body["status"] == "error" and body["result"] is None
    assert body["error"]["name"] == "ZeroDivisionError"


def test_execute_timeout_reports_a_deadline_trap(client: httpx.Client) -> None:
    body = client.post("/v1/execute", json={"code": "while True: pass", "timeout_ms": 300}).json()
    assert body["status"] == "error" and body["trap"]["kind"] == "deadline"
    assert client.post("/v1/execute", json={"code": "1"}).json()["result"] == 1


def test_execute_memory_and_output_limits_apply(client: httpx.Client) -> None:
    body = client.post("/v1/execute", json={"code": "b = bytearray(100 * 1024 * 1024)", "memory_mb": 64}).json()
    assert body["trap"]["kind"] == "memory"
    body = client.post("/v1/execute", json={"code": "print('x' * 100)", "max_output_bytes": 10}).json()
    assert body["trap"]["kind"] == "output"


@pytest.mark.parametrize("payload, fragment", [
    ({}, "code"),
    ({"code": 5}, "code"),
    ({"code": "1", "timeout_ms": 0}, "timeout_ms"),
    ({"code": "1", "timeout_ms": 10**9}, "timeout_ms"),
    ({"code": "1", "memory_mb": 1}, "memory_mb"),
    ({"code": "1", "surprise": True}, "surprise"),
])
def test_invalid_requests_get_422_with_a_clear_error(client: httpx.Client, payload: dict[str, object],
                                                     fragment: str) -> None:
    response = client.post("/v1/execute", json=payload)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and fragment in error["message"]


def test_invalid_utf8_body_is_refused_cleanly(client: httpx.Client) -> None:
    response = client.post("/v1/execute", content=b'{"code": "\xff\xfe"}',
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["message"]) == (
        "bad_request", "body: not valid UTF-8 at byte 10 (invalid start byte)")
    assert client.post("/v1/execute", json={"code": "2"}).json()["result"] == 2


def test_non_json_body_is_refused_cleanly(client: httpx.Client) -> None:
    response = client.post("/v1/execute", content=b"print(1)", headers={"content-type": "text/plain"})
    assert response.status_code == 422


def test_oversized_body_gets_413(client: httpx.Client) -> None:
    response = client.post("/v1/execute", json={"code": "#" * (17 * 1024 * 1024)})
    assert response.status_code == 413 and response.json()["error"]["code"] == "request_too_large"


def test_ten_megabyte_code_fails_closed_as_code_size(client: httpx.Client) -> None:
    body = client.post("/v1/execute", json={"code": "#" * (10 * 1024 * 1024)}).json()
    assert body["status"] == "error" and body["trap"]["kind"] == "code_size"


def test_openapi_describes_execute(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    assert "/v1/execute" in spec["paths"] and "/healthz" in spec["paths"]


def test_unknown_route_is_a_json_404(client: httpx.Client) -> None:
    response = client.get("/v1/nothing-here")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_token_is_required_when_configured(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, token=TOKEN, guest=compiled_guest)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url, timeout=60) as http:
        assert http.post("/v1/execute", json={"code": "1"}).status_code == 401
        wrong = http.post("/v1/execute", json={"code": "1"}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
        right = http.post("/v1/execute", json={"code": "1"}, headers={"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 200 and right.json()["result"] == 1
        assert http.get("/healthz").status_code == 200


def test_token_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_TOKEN", "from-env")
    assert Settings.from_env().token == "from-env"
    monkeypatch.delenv("SANDBOX_TOKEN")
    assert Settings.from_env().token is None


def test_bash_runs_over_a_workspace_and_writes_back(client: httpx.Client) -> None:
    response = client.post("/v1/bash", json={"script": "mkdir -p notes && echo hello > notes/a.txt && wc -c notes/a.txt",
                                             "workspace": "http-bash"})
    assert response.status_code == 200
    body = response.json()
    assert body["stdout"] == "6 notes/a.txt\n" and body["exit_code"] == 0
    assert body["changed_files"]["created"] == ["/notes/a.txt"]
    assert body["changed_files"]["directories_created"] == ["/notes"]
    assert client.get("/v1/workspaces/http-bash/files/notes/a.txt").text == "hello\n"
    again = client.post("/v1/bash", json={"script": "cat notes/a.txt", "workspace": "http-bash", "cwd": "/"}).json()
    assert again["stdout"] == "hello\n" and again["changed_files"]["created"] == []


def test_bash_timeout_is_exit_124(client: httpx.Client) -> None:
    body = client.post("/v1/bash", json={"script": "while :; do :; done", "timeout_ms": 200}).json()
    assert body["exit_code"] == 124 and "timed out" in body["stderr"]


@pytest.mark.parametrize("payload", [
    {"script": "echo", "workspace": "../escape"},
    {"script": "echo", "timeout_ms": -1},
    {"script": "echo", "unknown": 1},
    {"workspace": "x"},
])
def test_bash_rejects_invalid_requests(client: httpx.Client, payload: dict[str, object]) -> None:
    response = client.post("/v1/bash", json=payload)
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"


def test_events_of_a_missing_execution_are_a_json_404(client: httpx.Client) -> None:
    r = client.get("/v1/executions/exec_missing/events")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def _chunks(payload: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    for start in range(0, len(payload), size):
        yield payload[start:start + size]


def test_a_chunked_body_over_the_limit_gets_413_and_runs_nothing(client: httpx.Client) -> None:
    # No Content-Length: the limit must hold for the bytes themselves.
    code = "state.write_file('/chunked-ran.txt', 'yes')\n#" + "x" * (20 * 1024 * 1024)
    body = json.dumps({"code": code, "workspace": "chunked"}).encode()
    r = client.post("/v1/execute", content=_chunks(body), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "request_too_large"
    ran = client.get("/v1/workspaces/chunked/files/chunked-ran.txt")
    assert ran.status_code == 404


def test_a_chunked_body_within_the_limit_is_served(client: httpx.Client) -> None:
    body = json.dumps({"code": "6 * 7"}).encode()
    r = client.post("/v1/execute", content=_chunks(body, 5), headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["result"] == 42


def test_every_response_carries_a_request_id_and_errors_name_it(client: httpx.Client) -> None:
    assert client.get("/healthz").headers["x-request-id"].startswith("req_")
    r = client.get("/v1/executions/exec_missing", headers={"X-Request-Id": "trace-42"})
    assert r.headers["x-request-id"] == "trace-42"
    assert r.json()["error"]["request_id"] == "trace-42"
    odd = client.get("/healthz", headers={"X-Request-Id": "no spaces please"})
    assert odd.headers["x-request-id"].startswith("req_")  # not echoed: not a sane token


def test_a_json_body_sent_as_a_form_is_read_as_json(client: httpx.Client) -> None:
    # What `curl -d '{"by": "alice"}'` sends: the README's approval examples.
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = client.post("/v1/approvals/actpause_missing/approve", content=b'{"by": "alice"}', headers=form)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.post("/v1/execute", content=b'{"code": "6 * 7"}', headers=form)
    assert r.status_code == 200 and r.json()["result"] == 42


def test_a_body_that_is_no_json_says_to_send_json(client: httpx.Client) -> None:
    r = client.post("/v1/approvals/actpause_missing/reject", content=b"by=alice",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422
    assert "send the body as JSON with Content-Type: application/json" in r.json()["error"]["message"]


def test_malformed_json_says_where_and_what(client: httpx.Client) -> None:
    r = client.post("/v1/execute", content=b'{"code": "1",\n "x": }',
                    headers={"content-type": "application/json"})
    error = r.json()["error"]
    assert r.status_code == 422 and error["code"] == "invalid_request"
    assert error["message"] == "body: not valid JSON: Expecting value at line 2, column 7 (character 20)"
    assert "send the body" not in error["message"]  # the type was right


@pytest.mark.parametrize(("name", "sent", "data", "stored"), [
    ("up.txt", None, b"x", "text/plain"),
    ("up.txt", "application/x-www-form-urlencoded", b"x", "text/plain"),  # curl --data-binary
    ("data.json", None, b"{}", "application/json"),
    ("blob", None, b"\xff\xfe\x00", "application/octet-stream"),
    ("notes", None, "héllo".encode(), "text/plain"),
    ("page.txt", "text/html", b"<p>", "text/html"),  # a real type is kept
])
def test_a_file_without_a_real_media_type_gets_one_from_its_name_and_bytes(
        client: httpx.Client, name: str, sent: str | None, data: bytes, stored: str) -> None:
    headers = {"content-type": sent} if sent else {}
    r = client.put(f"/v1/workspaces/mime/files/{name}", content=data, headers=headers)
    assert r.status_code in (200, 201) and r.json()["mime_type"] == stored


def test_json_nested_too_deeply_is_a_client_error(client: httpx.Client) -> None:
    r = client.post("/v1/execute", content=b"[" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nests too deeply" in r.json()["error"]["message"]


def test_headers_past_their_limit_are_a_431(client: httpx.Client) -> None:
    r = client.get("/v1/workspaces", headers={"X-Pad": "x" * (65 * 1024)})
    assert r.status_code == 431 and r.json()["error"]["code"] == "request_header_fields_too_large"
    assert client.get("/v1/workspaces", headers={"X-Pad": "x" * 60_000}).status_code == 200


def test_a_json_body_sent_as_a_form_is_json_whatever_the_names_in_the_path(client: httpx.Client) -> None:
    # A toolset called "files" is not the raw-file route.
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = client.put("/v1/toolsets/files", content=b'{"tools": []}', headers=form)
    assert r.status_code in (200, 201) and r.json()["name"] == "files"


def test_a_started_service_keeps_its_heap_out_of_the_collectors_walk(
        server: LiveServer, compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    assert gc.get_freeze_count() > 0, "a full collection would walk every object of the service"
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest)
    with LiveServer(settings):
        pass
    assert gc.get_freeze_count() > 0, "another service stopping thaws nothing while one runs"

"""The short way of ``POST /v1/execute`` and ``POST /v1/bash``: it takes only what FastAPI
would accept, hands everything else on with its body intact, and answers what it takes as the
route does (the error map included)."""

from __future__ import annotations

import concurrent.futures
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator, cast

import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app
from sandbox.service.settings import Caps
from sandbox.service.fast_routes import BASH_PATH, EXECUTE_PATH, FAST_ROUTES, FastRoutes
from sandbox.service.identity import LOCAL, PRINCIPAL_KEY, Principal

TOKEN = "fast-execute-token"


class Downstream:
    """The app behind the middleware (FastAPI's stack, in the service): records what reached
    it and the body it read, and answers 204."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        self.bodies.append(b"".join(chunks))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def _through(body: bytes, *, content_type: bytes = b"application/json",
                   who: Principal | None = LOCAL, method: str = "POST",
                   disconnect: bool = False, path: str = EXECUTE_PATH) -> Downstream:
    downstream = Downstream()
    scope: dict[str, Any] = {"type": "http", "method": method, "path": path,
                             "headers": [(b"content-type", content_type)]}
    if who is not None:
        scope[PRINCIPAL_KEY] = who
    messages: list[Message] = [{"type": "http.request", "body": body, "more_body": disconnect}]
    if disconnect:
        messages.append({"type": "http.disconnect"})

    async def receive() -> Message:
        return messages.pop(0)

    async def send(_message: Message) -> None:
        pass

    await FastRoutes(downstream)(scope, receive, send)
    return downstream


REFUSED = {
    EXECUTE_PATH: [
        b'{"code": "1 +',                       # not JSON
        b'["1 + 1"]',                           # JSON, not an object
        b'{"code": "1", "surprise": true}',     # a field the model refuses
        b'{"code": "1", "timeout_ms": true}',   # a boolean for a number
        b'{"timeout_ms": 100}',                 # no code
        b"[" * 100_000,                         # nested past what the parser reads
    ],
    BASH_PATH: [
        b'{"script": "echo',
        b'["echo hi"]',
        b'{"script": "echo", "surprise": true}',
        b'{"script": "echo", "timeout_ms": true}',
        b'{"workspace": "default"}',
        b'{"script": "echo", "workspace": "../up"}',  # not a workspace name
    ],
}
IDS = ["not-json", "array", "unknown-field", "boolean-number", "no-script", "sixth"]


@pytest.mark.parametrize("path", [EXECUTE_PATH, BASH_PATH])
@pytest.mark.parametrize("which", range(6), ids=IDS)
async def test_a_body_the_route_would_refuse_reaches_fastapi_unchanged(path: str,
                                                                       which: int) -> None:
    body = REFUSED[path][which]
    assert (await _through(body, path=path)).bodies == [body]


@pytest.mark.parametrize("path, body", [(EXECUTE_PATH, b'{"code": "1"}'),
                                        (BASH_PATH, b'{"script": "echo"}')])
async def test_a_principal_without_the_routes_scope_is_left_to_fastapi_s_403(
        path: str, body: bytes) -> None:
    reader = Principal(tenant="default", name="reader", scopes=frozenset({"workspaces:read"}))
    assert (await _through(body, who=reader, path=path)).bodies == [body]
    assert (await _through(body, who=None, path=path)).bodies == [body]
    other = "bash" if path == EXECUTE_PATH else "execute"  # the other route's scope only
    holder = Principal(tenant="default", name="other", scopes=frozenset({other}))
    assert (await _through(body, who=holder, path=path)).bodies == [body]


async def test_other_types_methods_and_a_client_gone_mid_body_are_left_to_fastapi() -> None:
    assert (await _through(b'{"code": "1"}', content_type=b"text/xml")).bodies == [b'{"code": "1"}']
    assert (await _through(b'{"code": "1"}', method="PUT")).bodies == [b'{"code": "1"}']
    assert (await _through(b'{"code": "1"}', disconnect=True)).bodies == [b'{"code": "1"}']


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("fast"), workers=2, guest=compiled_guest,
                        token=TOKEN, metrics=True, caps=Caps(timeout_ms=20_000))
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        yield http


def test_a_well_formed_execute_is_answered_with_the_route_s_outcome(client: httpx.Client) -> None:
    response = client.post("/v1/execute", content=json.dumps({"code": "print('hi')\n6 * 7"}),
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 200 and response.headers["x-request-id"].startswith("req_")
    body = response.json()
    assert (body["status"], body["result"], body["logs"]) == ("completed", 42, ["hi"])
    assert client.get(f"/v1/executions/{body['execution_id']}").json()["status"] == "completed"


def test_an_error_raised_while_taking_it_is_answered_by_the_error_map(client: httpx.Client) -> None:
    response = client.post("/v1/execute", json={"code": "1", "toolsets": ["nowhere"]})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert "nowhere" in response.json()["error"]["message"]


def test_a_refused_body_still_gets_fastapi_s_clear_422(client: httpx.Client) -> None:
    response = client.post("/v1/execute", json={"code": "1", "timeout_ms": True})
    assert response.status_code == 422
    assert "timeout_ms" in response.json()["error"]["message"]


def test_the_request_metrics_name_the_route(client: httpx.Client) -> None:
    def served() -> float:
        for line in client.get("/metrics").text.splitlines():
            if line.startswith("sandbox_http_requests_total{") and 'route="/v1/execute"' in line \
                    and 'status="200"' in line:
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    before = served()
    assert client.post("/v1/execute", json={"code": "1 + 1"}).json()["result"] == 2
    assert served() == before + 1


def test_the_module_is_where_the_app_takes_it(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path))
    assert any(m.cls is cast(object, FastRoutes) for m in app.user_middleware)


@pytest.mark.parametrize("path", sorted(FAST_ROUTES))
def test_the_route_asks_for_nothing_the_short_way_does_not_do(path: str) -> None:
    # The short way re-does the route's parameters by hand (the body model, the scope). A
    # parameter or dependency added to the route would be skipped on it without a word:
    # this fails first, so the two stay one behaviour.
    from fastapi.routing import APIRoute

    from sandbox.service.identity import Requires

    fast = FAST_ROUTES[path]
    [route] = [r for r in fast.router.routes if isinstance(r, APIRoute) and r.path == path
               and "POST" in (r.methods or ())]
    dependant = route.dependant
    assert [p.name for p in dependant.body_params] == ["body"]
    assert dependant.body_params[0].field_info.annotation is fast.model
    assert dependant.query_params == dependant.header_params == dependant.cookie_params == []
    assert dependant.path_params == [] and dependant.request_param_name == "request"
    assert [(type(d.call), getattr(d.call, "scopes", None)) for d in dependant.dependencies] == \
        [(Requires, fast.scopes)] and route.dependencies == []
    assert len(fast.scopes) == 1 and path.endswith(fast.scopes[0])


def test_a_well_formed_bash_is_answered_with_the_route_s_outcome(client: httpx.Client) -> None:
    response = client.post("/v1/bash", json={"script": "echo hi > /f.txt; cat /f.txt; exit 3",
                                             "workspace": "fast-bash"})
    assert response.status_code == 200 and response.headers["x-request-id"].startswith("req_")
    body = response.json()
    assert (body["stdout"], body["exit_code"], body["changed_files"]["created"]) == (
        "hi\n", 3, ["/f.txt"])
    read = client.post("/v1/workspaces/fast-bash/tools/read", json={"path": "/f.txt"})
    assert "hi" in read.text


def test_a_bash_error_is_answered_by_the_error_map_and_a_refused_body_by_fastapi(
        client: httpx.Client) -> None:
    # Past the service's cap: the route's own check, taken the short way, answered by the map.
    over = client.post("/v1/bash", json={"script": "pwd", "timeout_ms": 25_000})
    assert over.status_code == 422, over.text
    assert over.json()["error"]["code"] == "invalid_request"
    assert "over this service's cap of 20000" in over.json()["error"]["message"]
    refused = client.post("/v1/bash", json={"script": "echo", "timeout_ms": True})
    assert refused.status_code == 422 and "timeout_ms" in refused.json()["error"]["message"]


def test_an_execute_waiting_for_a_write_lock_held_elsewhere_stalls_no_other_request(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=2, guest=compiled_guest, token=TOKEN)
    with ServerThread(create_app(settings)) as live, httpx.Client(
            base_url=live.url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        assert http.post("/v1/execute", json={"code": "1 + 1"}).json()["result"] == 2
        holder = sqlite3.connect(settings.database_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing, for as long as it likes
        try:
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                waiting = pool.submit(http.post, "/v1/execute", json={"code": "6 * 7"})
                # The loop answers meanwhile: the waiting write is on SQLite's thread. (What
                # needs the same store's connection queues behind it, as before.)
                for _ in range(5):
                    assert http.get("/healthz").status_code == 200
                assert not waiting.done(), waiting.result().text
                holder.execute("COMMIT")
                answer = waiting.result(timeout=60)
        finally:
            holder.close()
        assert answer.json()["result"] == 42

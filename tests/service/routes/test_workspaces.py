"""``/v1/workspaces`` (tools, raw files, info), against a real store mounted in a small app."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from live_server import ServerThread
from route_helpers import route_client
from sandbox.service.errors import install_error_handlers
from sandbox.service.routes import workspaces
from workspace import WorkspaceStore


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    store = await WorkspaceStore.open(tmp_path / "sandbox.db", tmp_path / "blobs")
    try:
        async with route_client(workspaces.router, workspaces=store) as c:
            yield c
    finally:
        await store.close()


async def test_tool_call_returns_the_tool_result(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/workspaces/main/tools/write", json={"path": "/a.txt", "content": "hello world"})
    assert r.status_code == 200
    assert r.json() == {"path": "/a.txt", "bytes_written": 11, "lines": 1}
    r = await client.post("/v1/workspaces/main/tools/read", json={"path": "/a.txt"})
    assert r.json()["content"] == "1\thello world"


async def test_tool_level_errors_are_200_with_the_tools_error(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/workspaces/main/tools/read", json={"path": "/missing"})
    assert r.status_code == 200
    assert r.json() == {"error": "File not found: /missing"}


@pytest.mark.parametrize(
    ("url", "body", "status", "code"),
    [
        ("/v1/workspaces/main/tools/chmod", b"{}", 404, "not_found"),
        ("/v1/workspaces/main/tools/read", b"{not json", 422, "invalid_request"),
        ("/v1/workspaces/main/tools/read", b'{"path": 5}', 400, "EINVAL"),
        ("/v1/workspaces/main/tools/read", b'["/a"]', 400, "EINVAL"),
        ("/v1/workspaces/bad%20name/tools/read", b'{"path": "/a"}', 422, "invalid_request"),
    ],
)
async def test_bad_input_is_a_4xx_json_error(client: httpx.AsyncClient, url: str, body: bytes, status: int, code: str) -> None:
    r = await client.post(url, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    error = r.json()["error"]
    assert error["code"] == code and error["message"]
    if code == "invalid_request":  # the request does not fit the documented schema
        assert error["details"] and all({"loc", "msg", "type"} <= set(d) for d in error["details"])


async def test_put_get_delete_a_file_keeps_content_type(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/workspaces/main/files/docs/page.html", content=b"<p>hi</p>", headers={"content-type": "text/html"})
    assert r.status_code == 201 and r.json()["path"] == "/docs/page.html"
    r = await client.put("/v1/workspaces/main/files/docs/page.html", content=b"<p>bye</p>", headers={"content-type": "text/html"})
    assert r.status_code == 200
    r = await client.get("/v1/workspaces/main/files/docs/page.html")
    assert r.status_code == 200 and r.content == b"<p>bye</p>"
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["etag"]
    listing = (await client.get("/v1/workspaces/main/files/docs")).json()
    assert [e["name"] for e in listing["entries"]] == ["page.html"]
    root = (await client.get("/v1/workspaces/main/files")).json()
    assert root["path"] == "/" and [e["name"] for e in root["entries"]] == ["docs"]
    r = await client.delete("/v1/workspaces/main/files/docs")
    assert r.status_code == 409 and r.json()["error"]["code"] == "ENOTEMPTY"
    r = await client.delete("/v1/workspaces/main/files/docs?recursive=true")
    assert r.json() == {"deleted": "/docs"}
    r = await client.get("/v1/workspaces/main/files/docs/page.html")
    assert r.status_code == 404 and r.json()["error"]["code"] == "ENOENT"


async def test_binary_round_trip_and_put_onto_a_directory(client: httpx.AsyncClient) -> None:
    payload = bytes(range(256))
    await client.put("/v1/workspaces/main/files/bin/data", content=payload)
    r = await client.get("/v1/workspaces/main/files/bin/data")
    assert r.content == payload and r.headers["content-type"] == "application/octet-stream"
    r = await client.put("/v1/workspaces/main/files/bin", content=b"x")
    assert r.status_code == 409 and r.json()["error"]["code"] == "EISDIR"
    r = await client.delete("/v1/workspaces/main/files/")
    assert r.status_code == 403 and r.json()["error"]["code"] == "EPERM"


async def test_list_info_and_delete_workspaces(client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/workspaces")).json() == {"workspaces": []}
    await client.put("/v1/workspaces/alpha/files/a.txt", content=b"abc")
    await client.put("/v1/workspaces/beta/files/b.txt", content=b"b")
    names = [w["name"] for w in (await client.get("/v1/workspaces")).json()["workspaces"]]
    assert names == ["alpha", "beta"]
    info = (await client.get("/v1/workspaces/alpha")).json()
    assert (info["name"], info["file_count"], info["total_bytes"]) == ("alpha", 1, 3)
    assert (await client.get("/v1/workspaces/nope")).status_code == 404
    assert (await client.delete("/v1/workspaces/alpha")).json() == {"deleted": "alpha"}
    assert (await client.delete("/v1/workspaces/alpha")).status_code == 404
    assert (await client.get("/v1/workspaces/alpha/files/a.txt")).status_code == 404


async def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    async with route_client(workspaces.router) as c:
        r = await c.get("/v1/workspaces")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"


async def test_conditional_put_prevents_lost_updates(client: httpx.AsyncClient) -> None:
    url = "/v1/workspaces/main/files/doc.txt"
    r = await client.put(url, content=b"v1", headers={"if-none-match": "*"})
    assert r.status_code == 201
    etag = (await client.get(url)).headers["etag"]
    assert r.headers["etag"] == etag
    assert (await client.put(url, content=b"v2", headers={"if-match": etag})).status_code == 200
    stale = await client.put(url, content=b"v3", headers={"if-match": etag})
    assert stale.status_code == 412 and stale.json()["error"]["code"] == "ECONFLICT"
    assert (await client.put(url, content=b"x", headers={"if-none-match": "*"})).status_code == 412
    assert (await client.put(url, content=b"x", headers={"if-match": "garbage"})).status_code == 400
    assert (await client.get(url)).content == b"v2"


async def test_every_tool_is_reachable_over_http(client: httpx.AsyncClient) -> None:
    async def call(tool: str, **args: object) -> dict[str, object]:
        r = await client.post(f"/v1/workspaces/w/tools/{tool}", json=args)
        assert r.status_code == 200, r.text
        body: dict[str, object] = r.json()
        return body

    await call("write", path="/src/a.py", content="x = 1\n")
    assert await call("edit", path="/src/a.py", old_string="x = 1", new_string="x = 2") == {
        "path": "/src/a.py", "replaced": True, "lines": 1,
    }  # fmt: skip
    assert (await call("list", path="/src"))["entries"] == ["a.py (6 B)"]
    assert (await call("find", pattern="**/*.py"))["files"] == ["/src/a.py"]
    assert (await call("grep", query="x = 2"))["matches"] == ["/src/a.py:1: x = 2"]
    assert await call("delete", path="/src", recursive=True) == {"deleted": "/src"}
    assert await call("read", path="/src/a.py") == {"error": "File not found: /src/a.py"}


async def test_hostile_paths_stay_inside_the_workspace(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/workspaces/main/files/..%2F..%2Fetc%2Fpasswd", content=b"inside")
    assert r.status_code == 201 and r.json()["path"] == "/etc/passwd"
    assert (await client.get("/v1/workspaces/main/files/etc/passwd")).content == b"inside"
    r = await client.get("/v1/workspaces/main/files/a%00b")
    assert r.status_code == 400 and r.json()["error"]["code"] == "EINVAL"
    r = await client.put("/v1/workspaces/main/files/" + "x" * 5000, content=b"long")
    assert r.status_code == 400 and r.json()["error"]["code"] == "ENAMETOOLONG"


async def test_whole_numbers_written_as_floats_are_integers(client: httpx.AsyncClient) -> None:
    # JSON Schema counts 1.0 as an integer, so the tools must take it as one (it was a 500).
    await client.post("/v1/workspaces/main/tools/write", json={"path": "/n.txt", "content": "a\nb\n"})
    r = await client.post("/v1/workspaces/main/tools/read", json={"path": "/n.txt", "limit": 1.0})
    assert r.status_code == 200 and r.json()["content"] == "1\ta"
    r = await client.post("/v1/workspaces/main/tools/list", json={"path": "/", "limit": 5.0, "offset": 0.0})
    assert r.status_code == 200 and r.json()["count"] == 1


@pytest.fixture
def live_url(tmp_path: Path) -> Iterator[str]:
    """The workspace routes served over real HTTP (uvicorn), so a crash is seen as a client
    would see it (a 500, or a reset connection), not as an exception inside the test."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.workspaces = await WorkspaceStore.open(tmp_path / "live.db", tmp_path / "live-blobs")
        try:
            yield
        finally:
            await app.state.workspaces.close()

    app = FastAPI(lifespan=lifespan)
    app.include_router(workspaces.router)
    install_error_handlers(app)
    with ServerThread(app) as live:
        yield live.url


@pytest.mark.parametrize("query", ["limit=100000000000000000000", "offset=100000000000000000000",
                                   "limit=-1", "offset=-1"])
def test_listing_bounds_past_sqlite_integers_are_422_over_http(live_url: str, query: str) -> None:
    r = httpx.get(f"{live_url}/v1/workspaces/main/files?{query}")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"path": ' + b"[" * 100_000 + b"}",
                                  b'{"path": "/a", "x": ' + b"{\"a\": " * 50_000 + b"}"])
def test_a_100000_deep_tool_body_is_422_over_http(live_url: str, body: bytes) -> None:
    # json's decoder recursed until RecursionError: a 500, or for some bodies a reset connection.
    r = httpx.post(f"{live_url}/v1/workspaces/main/tools/read", content=body,
                   headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"] == {"code": "invalid_request", "message": "body: JSON nested too deeply",
                                 "details": [{"loc": ["body"], "msg": "JSON nested too deeply",
                                              "type": "json_invalid"}]}
    # The service is still there and answers the next request normally.
    r = httpx.post(f"{live_url}/v1/workspaces/main/tools/read", json={"path": "/missing"})
    assert r.json() == {"error": "File not found: /missing"}

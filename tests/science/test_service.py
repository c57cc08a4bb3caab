"""The science engine behind the service: ``engine`` in the execute request (HTTP, OpenAPI,
MCP), records and tables and figures in the outcome, and Code Mode on it: a tool call, a
durable approval, and the resumed run that replays the journal instead of repeating calls."""

from __future__ import annotations

import base64
import json
import threading
from typing import Any, Iterator

import httpx
import httpx2
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from codemode import verify_signature
from live_server import ServerThread, read_body, send_json, serve_lifespan
from sandbox import CompiledGuest, CompiledScience
from sandbox.service import Settings, create_app


class LabHost:
    """The agent host's tool endpoint: checks signatures, records every call."""

    def __init__(self) -> None:
        self.secret = ""
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = await read_body(receive)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        verify_signature(self.secret, headers["x-sandbox-timestamp"], body, headers["x-sandbox-signature"])
        call = json.loads(body)
        with self._lock:
            self.calls.append(call)
        data = call["input"]
        if call["tool"] == "samples":
            await send_json(send, 200, {"output": [float(x) for x in range(int(data["n"]))]})
        else:
            await send_json(send, 200, {"output": {"saved": data["title"], "value": data["value"]}})

    def count(self, tool: str) -> int:
        return sum(1 for c in self.calls if c["tool"] == tool)


def _toolset(url: str) -> dict[str, Any]:
    obj: dict[str, Any] = {"type": "object"}
    return {"tools": [
        {"name": "samples", "description": "n sample values.", "url": url,
         "input_schema": {**obj, "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
        {"name": "publish", "description": "Publish a figure of merit.", "url": url,
         "approval": {"mode": "durable", "summary": "Publish", "risk": "low"},
         "input_schema": {**obj, "properties": {"title": {"type": "string"}, "value": {"type": "number"}},
                          "required": ["title", "value"]}},
    ]}


@pytest.fixture(scope="module")
def lab() -> Iterator[tuple[LabHost, str]]:
    host = LabHost()
    with ServerThread(host) as live:
        yield host, live.url


@pytest.fixture(scope="module")
def server(compiled_guest: CompiledGuest, compiled_science: CompiledScience,
           tmp_path_factory: pytest.TempPathFactory, lab: tuple[LabHost, str]) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("science"), workers=1, guest=compiled_guest,
                        science=compiled_science, science_workers=1, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live:
        with httpx.Client(base_url=live.url, timeout=120) as http:
            created = http.put("/v1/toolsets/lab", json=_toolset(lab[1]))
            assert created.status_code == 201, created.text
            lab[0].secret = created.json()["secret"]
        yield live


@pytest.fixture
def client(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=120) as http:
        yield http


def _run(client: httpx.Client, code: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/execute", json={"code": code, "toolsets": ["lab"], **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_groupby_over_http_returns_records_a_table_and_its_engine(client: httpx.Client) -> None:
    body = _run(client, "import pandas as pd\ndf = pd.DataFrame({'g': ['x', 'y', 'x'], 'v': [1, 2, 3]})\n"
                        "df.groupby('g', as_index=False).sum()")
    assert body["status"] == "completed", body
    assert body["engine"] == "science"
    assert body["result"] == [{"g": "x", "v": 4}, {"g": "y", "v": 2}]
    assert body["result_text"].split() == ["g", "v", "0", "x", "4", "1", "y", "2"]


def test_a_plot_comes_back_as_a_png_attachment(client: httpx.Client) -> None:
    body = _run(client, "import matplotlib.pyplot as plt\nplt.scatter([1, 2], [2, 1])\nplt.show()")
    [image] = body["attachments"]
    assert image["type"] == "image" and image["media_type"] == "image/png"
    assert base64.b64decode(image["data"]).startswith(b"\x89PNG")


def test_the_request_chooses_the_engine(client: httpx.Client) -> None:
    assert _run(client, "1 + 1")["engine"] == "standard"
    assert _run(client, "1 + 1", engine="science")["engine"] == "science"
    refused = client.post("/v1/execute", json={"code": "1", "engine": "gpu"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_request"


def test_the_openapi_document_offers_the_engine_choice(client: httpx.Client) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ExecuteRequest"]
    assert schema["properties"]["engine"]["enum"] == ["auto", "standard", "science"]
    assert schema["properties"]["engine"]["default"] == "auto"


def test_a_tool_call_from_the_science_engine_is_journaled(client: httpx.Client, lab: tuple[LabHost, str]) -> None:
    body = _run(client, "import numpy as np\nfloat(np.mean(lab.samples(n=5)))")
    assert body["status"] == "completed" and body["result"] == 2.0
    assert [(c["namespace"], c["method"], c["state"]) for c in body["calls"]] == [("lab", "samples", "applied")]


def test_a_durable_approval_parks_and_its_resume_replays_the_journal(
        client: httpx.Client, lab: tuple[LabHost, str]) -> None:
    host = lab[0]
    before_samples, before_publish = host.count("samples"), host.count("publish")
    code = ("import numpy as np\nx = np.array(lab.samples(n=4))\n"
            "saved = lab.publish(title='mean', value=float(x.mean()))\n"
            "{'saved': saved, 'std': round(float(x.std()), 4)}")
    paused = _run(client, code)
    assert paused["status"] == "paused" and paused["engine"] == "science"
    [pending] = paused["pending"]
    assert pending["method"] == "publish" and pending["args"] == {"title": "mean", "value": 1.5}
    assert host.count("publish") == before_publish
    done = client.post(f"/v1/approvals/{pending['approval_id']}/approve", json={"by": "lab-lead"})
    assert done.status_code == 200, done.text
    outcome = done.json()
    assert outcome["status"] == "completed", outcome
    assert outcome["result"] == {"saved": {"saved": "mean", "value": 1.5}, "std": 1.118}
    assert host.count("samples") == before_samples + 1  # answered from the journal on resume
    assert host.count("publish") == before_publish + 1
    samples, publish = outcome["calls"]
    assert samples["method"] == "samples" and samples.get("replayed") is True
    assert publish["method"] == "publish" and not publish.get("replayed")


async def test_mcp_execute_shows_the_table_and_the_figure(server: ServerThread) -> None:
    code = ("import pandas as pd, matplotlib.pyplot as plt\ndf = pd.DataFrame({'a': [1, 2]})\n"
            "df.plot()\nplt.show()\ndf")
    async with httpx2.AsyncClient(timeout=120) as http:
        async with streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name: t for t in (await session.list_tools()).tools}
                result = await session.call_tool("execute", {"code": code})
    assert tools["execute"].input_schema["properties"]["engine"]["enum"] == ["auto", "standard", "science"]
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    images = [c for c in result.content if isinstance(c, types.ImageContent)]
    assert "Result:\n   a\n0  1\n1  2" in texts[0]
    assert len(images) == 1 and images[0].mime_type == "image/png"

"""The service caps what a request may ask for (memory, time, output): over a cap is a 422
naming it, and nothing runs; at the cap is served; operators can lower caps, never raise
them past the documented defaults."""

from __future__ import annotations

from typing import Iterator

import httpx
import pytest

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Caps, ConfigError, Settings, create_app

CAPS = Caps(memory_mb=64, timeout_ms=5_000, output_bytes=10_000)


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=1, guest=compiled_guest,
                        caps=CAPS)
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url, timeout=60) as c:
        yield c


@pytest.mark.parametrize(("field", "value"), [("memory_mb", 65), ("timeout_ms", 5_001),
                                              ("max_output_bytes", 10_001)])
def test_execute_over_a_cap_is_refused_naming_it(client: httpx.Client, field: str, value: int) -> None:
    r = client.post("/v1/execute", json={"code": "state.write_file('/ran', 'x')",
                                         "workspace": "capped", field: value})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "invalid_request" and "cap of" in error["message"]
    assert error["details"][0]["loc"] == ["body", field]
    assert client.get("/v1/workspaces/capped/files/ran").status_code == 404


def test_execute_at_the_caps_is_served(client: httpx.Client) -> None:
    r = client.post("/v1/execute", json={"code": "6 * 7", "memory_mb": 64, "timeout_ms": 5_000,
                                         "max_output_bytes": 10_000})
    assert r.status_code == 200 and r.json()["result"] == 42


def test_bash_over_a_cap_is_refused(client: httpx.Client) -> None:
    r = client.post("/v1/bash", json={"script": "echo hi", "timeout_ms": 60_000})
    assert r.status_code == 422 and r.json()["error"]["details"][0]["loc"] == ["body", "timeout_ms"]
    r = client.post("/v1/bash", json={"script": "echo hi", "timeout_ms": 5_000})
    assert r.status_code == 200 and r.json()["stdout"] == "hi\n"


def test_the_documented_maxima_are_the_default_caps(client: httpx.Client) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ExecuteRequest"]
    memory = schema["properties"]["memory_mb"]["anyOf"][0]
    assert memory["maximum"] == Caps().memory_mb == 1024


def test_caps_can_be_lowered_from_the_environment_but_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_MAX_MEMORY_MB", "128")
    assert Settings.from_env().caps.memory_mb == 128
    monkeypatch.setenv("SANDBOX_MAX_MEMORY_MB", "4096")
    with pytest.raises(ConfigError, match="memory_mb cap"):
        Settings.from_env()
    monkeypatch.setenv("SANDBOX_MAX_MEMORY_MB", "lots")
    with pytest.raises(ConfigError, match="SANDBOX_MAX_MEMORY_MB"):
        Settings.from_env()


def test_defaults_over_a_lowered_cap_come_down_to_it(client: httpx.Client) -> None:
    # Neither request asks: the default output (64,000) and memory (256 MiB) are over the caps.
    r = client.post("/v1/bash", json={"script": "yes | head -c 20000"})
    stdout = r.json()["stdout"]
    kept, _, note = stdout.rpartition("\n... (")
    assert r.status_code == 200 and len(kept) <= CAPS.output_bytes and "truncated" in note
    body = client.post("/v1/execute", json={"code": "b = bytearray(100 * 1024 * 1024)"}).json()
    assert body["status"] == "error" and body["trap"]["kind"] == "memory"

"""An operator can turn the bash or execute tool off: a call is refused with 403
``tool_disabled``, ``/healthz`` says which tools are on, and the other tool still works."""

from __future__ import annotations

from typing import Iterator

import httpx
import pytest

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.cli.main import build_parser
from sandbox.cli.serve import serve_settings
from sandbox.service import ConfigError, Settings, create_app


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=1, guest=compiled_guest,
                        disabled_tools=frozenset({"bash"}))
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url, timeout=60) as c:
        yield c


def test_a_disabled_tool_is_refused_clearly(client: httpx.Client) -> None:
    r = client.post("/v1/bash", json={"script": "echo hi > f"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "tool_disabled"
    assert "bash tool is turned off" in r.json()["error"]["message"]
    assert client.get("/v1/workspaces/default/files/f").status_code == 404


def test_the_other_tool_works_and_health_says_which_are_on(client: httpx.Client) -> None:
    assert client.post("/v1/execute", json={"code": "1 + 1"}).json()["result"] == 2
    assert client.get("/healthz").json()["tools"] == {"execute": True, "bash": False}


def test_tools_are_turned_off_from_the_environment_or_the_command_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_DISABLED_TOOLS", "execute, bash")
    assert Settings.from_env().disabled_tools == {"execute", "bash"}
    monkeypatch.setenv("SANDBOX_DISABLED_TOOLS", "python")
    with pytest.raises(ConfigError, match="unknown tools to disable: python"):
        Settings.from_env()
    monkeypatch.delenv("SANDBOX_DISABLED_TOOLS")
    args = build_parser().parse_args(["serve", "--disable", "execute"])
    assert serve_settings(args).disabled_tools == {"execute"}

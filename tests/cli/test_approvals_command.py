"""``sandbox approvals``: an operator lists, inspects and answers approval requests of a
running service from a terminal."""

from __future__ import annotations

import json
from typing import Any, Iterator

import httpx
import pytest

from live_server import ServerThread, free_port
from sandbox.service import create_app
from sandbox.cli import main
from sandbox.engine import CompiledGuest
from sandbox.service import Settings

DEPLOY = {"name": "deploy", "description": "Deploy the site (the agent host does it).",
          "approval": {"mode": "durable", "summary": "Deploy to production", "risk": "high"},
          "input_schema": {"type": "object"}}


@pytest.fixture(scope="module")
def url(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("approvals"), workers=1,
                        guest=compiled_guest, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live:
        yield live.url


def _paused(url: str, workspace: str) -> str:
    response = httpx.post(f"{url}/v1/execute", timeout=60, json={
        "code": "tools.deploy()", "tools": [DEPLOY], "workspace": workspace})
    body = response.json()
    assert body["status"] == "paused", body
    return str(body["pending"][0]["approval_id"])


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["approvals", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_operator_lists_shows_and_approves(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    approval_id = _paused(url, "ops-a")
    status, out, _ = _cli(capsys, "list", "-w", "ops-a", "--url", url)
    assert status == 0
    assert approval_id in out and "Deploy to production" in out and "high" in out
    status, out, _ = _cli(capsys, "show", approval_id, "--url", url)
    shown: dict[str, Any] = json.loads(out)
    assert status == 0 and shown["descriptor"]["action"] == "tools.deploy"

    status, out, _ = _cli(capsys, "approve", approval_id, "--note", "ops", "--url", url)
    assert status == 0
    # A tool without a url is the agent host's to run: approved, it now awaits its result.
    assert json.loads(out)["status"] == "awaiting_tool"
    status, _, err = _cli(capsys, "approve", approval_id, "--url", url)
    assert status == 1 and "not paused" in err and "approved by local" in err


def test_an_operator_rejects_with_a_reason(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    approval_id = _paused(url, "ops-b")
    status, out, _ = _cli(capsys, "reject", approval_id, "--reason", "freeze week", "--url", url)
    assert status == 0
    assert json.loads(out) | {"status": "rejected", "reason": "freeze week"} == json.loads(out)
    status, out, err = _cli(capsys, "list", "-w", "ops-b", "--url", url)
    assert status == 0 and out == "" and "no pending approvals" in err


def test_an_unknown_approval_and_an_unreachable_service_are_told_apart(
        url: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _cli(capsys, "show", "actpause_missing", "--url", url)
    assert status == 1 and "not found" in err
    status, _, err = _cli(capsys, "list", "--url", f"http://127.0.0.1:{free_port()}")
    assert status == 2 and "cannot reach" in err

"""``sandbox tenants`` and ``sandbox tokens`` on a data directory: bootstrap before the service
runs, and a token made there works at once in a service on the same directory."""

from __future__ import annotations

import argparse
import getpass
import json
import sqlite3
from pathlib import Path

import httpx
import pytest

from live_server import ServerThread
from sandbox.cli.identity import parse_duration
from sandbox.cli.main import main
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app


def _run(capsys: pytest.CaptureFixture[str], data: Path, *argv: str) -> tuple[int, str, str]:
    status = main([*argv, "--data-dir", str(data)])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_operator_bootstraps_a_tenant_and_a_token_before_the_service_runs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, compiled_guest: CompiledGuest) -> None:
    assert _run(capsys, tmp_path, "tenants", "create", "acme")[0] == 0
    status, out, _ = _run(capsys, tmp_path, "tenants", "list")
    assert (status, out.split()) == (0, ["acme", "default"])
    status, out, err = _run(capsys, tmp_path, "tokens", "create", "--tenant", "acme",
                            "--name", "ci", "--scope", "execute", "--scope", "bash",
                            "--expires-in", "30d")
    assert status == 0 and "shown this once" in err
    made = json.loads(out)
    assert made["scopes"] == ["execute", "bash"] and made["expires_at"] > made["created_at"]

    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live:
        auth = {"Authorization": f"Bearer {made['token']}"}
        me = httpx.get(f"{live.url}/v1/admin/whoami", headers=auth).json()
        assert (me["tenant"], me["name"]) == ("acme", "ci")
        assert httpx.get(f"{live.url}/v1/admin/whoami").status_code == 401
        assert _run(capsys, tmp_path, "tokens", "revoke", made["id"])[0] == 0
        assert httpx.get(f"{live.url}/v1/admin/whoami", headers=auth).status_code == 401

    status, out, _ = _run(capsys, tmp_path, "tokens", "list")
    assert status == 0 and made["id"] in out and "revoked" in out and made["token"] not in out
    with sqlite3.connect(tmp_path / "sandbox.db") as db:
        events = db.execute("SELECT tenant, principal, event FROM audit_log ORDER BY seq").fetchall()
    cli = f"cli:{getpass.getuser()}"
    assert [e for e in events if e[1] == cli] == [
        ("acme", cli, "tenant.created"), ("acme", cli, "token.created"),
        ("acme", cli, "token.revoked")]
    assert made["token"] not in str(events)


def test_refusals_are_one_line_and_status_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = _run(capsys, tmp_path, "tokens", "create", "--tenant", "nope", "--name", "x",
                          "--scope", "execute")
    assert (status, err) == (1, "sandbox tokens: tenant 'nope' not found\n")
    assert _run(capsys, tmp_path, "tenants", "create", "acme")[0] == 0
    status, _, err = _run(capsys, tmp_path, "tenants", "create", "acme")
    assert status == 1 and "already exists" in err
    status, _, err = _run(capsys, tmp_path, "tokens", "revoke", "tok_0000000000000000")
    assert status == 1 and "no token" in err


@pytest.mark.parametrize(("text", "seconds"), [("30d", 2_592_000), ("12h", 43_200), ("90m", 5_400),
                                                ("45", 45), ("2w", 1_209_600)])
def test_durations_read_as_seconds(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "0", "-5d", "3y", "d"])
def test_a_bad_duration_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_duration(text)


def test_sandbox_ws_reaches_a_tenants_workspaces_by_tenant(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text("acme's notes")
    data = tmp_path / "data"
    assert _run(capsys, data, "ws", "put", "/a.txt", str(source), "-w", "w1", "--tenant", "acme")[0] == 0
    assert _run(capsys, data, "ws", "list", "--tenant", "acme")[1].split() == ["w1"]
    assert _run(capsys, data, "ws", "list")[1] == ""
    assert _run(capsys, data, "ws", "cat", "/a.txt", "-w", "w1", "--tenant", "acme")[1] == "acme's notes"
    status, _, err = _run(capsys, data, "ws", "cat", "/a.txt", "-w", "w1")
    assert status == 1 and "w1" in err

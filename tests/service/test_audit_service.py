"""The service opens the audit log at start-up and signs a last checkpoint at shutdown when
anything is new, into the key directory it was given (which need not be the data directory)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from audit import VerifyKey, verify_database
from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app


def test_a_shutdown_checkpoint_anchors_what_the_service_recorded(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=2, guest=compiled_guest,
                        sweep_interval_s=0, audit_key_dir=tmp_path / "vault")
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        assert http.post("/v1/execute", json={"code": "2 + 2"}).json()["result"] == 4
        report = http.get("/v1/audit/verify").json()
        assert report["ok"] and report["count"] == 2  # started, finished
    lines = (tmp_path / "vault" / "checkpoints.jsonl").read_text().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == [2]
    key = VerifyKey.load(tmp_path / "vault" / "ed25519.key.pub")
    final = verify_database(settings.database_path, key=key,
                            checkpoint_files=[tmp_path / "vault" / "checkpoints.jsonl"])
    assert final.ok and final.checkpoints == 2 and final.count == 2
    assert not (tmp_path / "data" / "audit").exists()

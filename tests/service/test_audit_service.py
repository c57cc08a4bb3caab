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


def test_tokens_read_their_own_tenants_entries_and_operators_read_all(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=2, guest=compiled_guest,
                        sweep_interval_s=0, token="bootstrap-secret")
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        operator = {"Authorization": "Bearer bootstrap-secret"}
        assert http.post("/v1/admin/tenants", json={"name": "acme"}, headers=operator).status_code == 201

        def token(name: str, *scopes: str) -> dict[str, str]:
            made = http.post("/v1/admin/tokens", headers=operator,
                             json={"name": name, "tenant": "acme", "scopes": list(scopes)})
            assert made.status_code == 201, made.text
            return {"Authorization": f"Bearer {made.json()['token']}"}

        runner, auditor = token("runner", "execute"), token("auditor", "audit:read")
        ran = http.post("/v1/execute", json={"code": "1"}, headers=runner).json()
        assert ran["status"] == "completed"
        assert http.post("/v1/execute", json={"code": "2"}, headers=operator).status_code == 200

        seen = http.get("/v1/audit", headers=auditor).json()["entries"]
        assert {e["tenant"] for e in seen} == {"acme"}
        assert [e["event"] for e in seen] == ["tenant.created", "token.created", "token.created",
                                              "execution.started", "execution.finished"]
        assert [e["principal"] for e in seen] == ["bootstrap"] * 3 + ["runner"] * 2
        assert http.get("/v1/audit", params={"tenant": "default"},
                        headers=auditor).json()["entries"] == []
        refused = http.get("/v1/audit", headers=runner)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        assert http.get("/v1/audit/verify", headers=runner).status_code == 403
        assert http.get("/v1/audit/verify", headers=auditor).json()["ok"] is True

        every = http.get("/v1/audit", headers=operator).json()["entries"]
        assert {e["tenant"] for e in every} == {"default", "acme"}
        made = next(e for e in every if e["event"] == "token.created"
                    and e["body"]["name"] == "auditor")
        assert made["principal"] == "bootstrap" and made["body"]["scopes"] == ["audit:read"]

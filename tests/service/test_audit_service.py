"""The service opens the audit log at start-up and signs a last checkpoint at shutdown when
anything is new, into the key directory it was given (which need not be the data directory)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from audit import VerifyKey, verify_database, verify_export
from audit_helpers import attacker
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


def _acme_auditor(http: httpx.Client, operator: dict[str, str]) -> dict[str, str]:
    assert http.post("/v1/admin/tenants", json={"name": "acme"}, headers=operator).status_code == 201
    made = http.post("/v1/admin/tokens", headers=operator,
                     json={"name": "auditor", "tenant": "acme", "scopes": ["audit:read"]})
    return {"Authorization": f"Bearer {made.json()['token']}"}


def test_verify_tells_an_operator_about_the_log_and_a_tenant_about_its_own_entries(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=1, guest=compiled_guest,
                        sweep_interval_s=0, token="bootstrap-secret")
    operator = {"Authorization": "Bearer bootstrap-secret"}
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        auditor = _acme_auditor(http, operator)
        assert http.post("/v1/execute", json={"code": "2"}, headers=operator).status_code == 200
        whole = http.get("/v1/audit/verify", headers=operator).json()
        assert (whole["ok"], whole["scope"], whole["count"]) == (True, "log", 4)
        assert whole["last_checkpoint"] is None
        own = http.get("/v1/audit/verify", headers=auditor).json()
        acme = http.get("/v1/audit", headers=auditor).json()["entries"]
        assert (own["ok"], own["scope"], own["tenant"]) == (True, "tenant", "acme")
        assert own["count"] == len(acme) == 2 and own["head"] == acme[-1]["row_hash"]

        default_seq = next(e["seq"] for e in http.get("/v1/audit", headers=operator).json()["entries"]
                           if e["tenant"] == "default")
        attacker(settings.database_path).execute(
            "UPDATE audit_log SET body = '{}' WHERE seq = ?", (default_seq,))
        assert http.get("/v1/audit/verify", headers=operator).json()["first_bad_seq"] == default_seq
        hidden = http.get("/v1/audit/verify", headers=auditor).json()
        assert (hidden["ok"], hidden["first_bad_seq"]) == (False, None)
        assert "another tenant" in hidden["reason"]


def test_the_signed_export_downloads_as_one_tar_that_verifies_offline(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=1, guest=compiled_guest,
                        sweep_interval_s=0, token="bootstrap-secret")
    operator = {"Authorization": "Bearer bootstrap-secret"}
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        auditor = _acme_auditor(http, operator)
        assert http.post("/v1/execute", json={"code": "2"}, headers=operator).status_code == 200
        everything = http.get("/v1/audit/export", headers=operator)
        assert everything.headers["content-type"] == "application/x-tar"
        assert "attachment" in everything.headers["content-disposition"]
        theirs = http.get("/v1/audit/export", headers=auditor)
        refused = http.get("/v1/audit/export", params={"tenant": "default"}, headers=auditor)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        backwards = http.get("/v1/audit/export", params={"since": 5, "until": 1}, headers=operator)
        (tmp_path / "none.tar").write_bytes(backwards.content)
        odd = http.get("/v1/audit/export", params={"tenant": "\U0002ebaf\n"}, headers=operator)
        assert odd.status_code == 200 and 'filename="audit-export-__-' in odd.headers["content-disposition"]
    key = VerifyKey.load(Path(f"{settings.audit_key_path}.pub"))
    for name, answer, count in (("all.tar", everything, 4), ("acme.tar", theirs, 2),
                                ("none.tar", backwards, 0)):
        (tmp_path / name).write_bytes(answer.content)
        report = verify_export(tmp_path / name, key)
        assert report.ok and report.count == count, report


def test_the_log_pages_newest_first_by_seq(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=1, guest=compiled_guest,
                        sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        for n in range(3):
            assert http.post("/v1/execute", json={"code": str(n)}).status_code == 200
        first = http.get("/v1/audit", params={"order": "desc", "limit": 4}).json()
        assert [e["seq"] for e in first["entries"]] == [6, 5, 4, 3]
        rest = http.get("/v1/audit", params={"order": "desc", "limit": 4,
                                             "before_seq": first["next_before_seq"]}).json()
        assert [e["seq"] for e in rest["entries"]] == [2, 1] and rest["next_before_seq"] is None

"""The ``sandbox audit`` command (sandbox.cli.audit) on a data directory: verify, checkpoint,
export and the offline check of an export; each tamper named on stdout with exit status 1."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from audit import AuditEvent, AuditLog
from sandbox.cli.main import main


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("SANDBOX_AUDIT_KEY", "SANDBOX_AUDIT_KEY_DIR", "SANDBOX_AUDIT_CHECKPOINTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SANDBOX_DATA_DIR", str(tmp_path / "data"))
    data = tmp_path / "data"

    async def fill() -> None:
        log = await AuditLog.open(data / "sandbox.db")
        await log.record([AuditEvent("acme" if n % 2 else "globex", "alice", "toolset.put",
                                     {"toolset": f"t{n}"}) for n in range(1, 9)], at=1000.0)
        await log.close()

    asyncio.run(fill())
    return data


def test_verify_checkpoint_and_verify_again(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "verify"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("OK 8 entries, head ")
    assert "signatures were not checked" in out.err  # no key made yet
    assert main(["audit", "checkpoint"]) == 0
    checkpoint = json.loads(capsys.readouterr().out)
    assert checkpoint["seq"] == 8
    assert (data_dir / "audit" / "ed25519.key").stat().st_mode & 0o777 == 0o600
    assert main(["audit", "verify", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["checkpoints"] == 2 and report["signatures_checked"]


def test_a_full_rewrite_is_caught_by_the_checkpoints_file(data_dir: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from audit_helpers import rewrite_chain
    assert main(["audit", "checkpoint"]) == 0
    outside = tmp_path / "copy.jsonl"
    outside.write_bytes((data_dir / "audit" / "checkpoints.jsonl").read_bytes())
    (data_dir / "audit" / "checkpoints.jsonl").unlink()  # the attacker removes the local copy
    rewrite_chain(data_dir / "sandbox.db", 2, '{"forged":true}')
    capsys.readouterr()
    assert main(["audit", "verify"]) == 0  # nothing left to compare with
    capsys.readouterr()
    assert main(["audit", "verify", "--checkpoints", str(outside)]) == 1
    assert capsys.readouterr().out.startswith("FAILED at seq 8: chain rewritten")


def test_a_deleted_row_is_named(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(data_dir / "sandbox.db")
    conn.execute("DROP TRIGGER audit_log_no_delete")
    conn.execute("DELETE FROM audit_log WHERE seq = 3")
    conn.commit()
    conn.close()
    assert main(["audit", "verify"]) == 1
    assert capsys.readouterr().out.startswith("FAILED at seq 3: deleted row")


def test_export_one_tenant_and_verify_it_offline(data_dir: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "export"
    assert main(["audit", "export", "--tenant", "acme", "--since", "1970-01-01T00:00:00",
                 "--out", str(out)]) == 0
    assert "exported 4 entries (seq 1 to 7)" in capsys.readouterr().out
    public = data_dir / "audit" / "ed25519.key.pub"
    assert main(["audit", "verify", "--export", str(out), "--public-key", str(public)]) == 0
    assert capsys.readouterr().out.startswith("OK 4 entries, head ")
    entries = out / "entries.jsonl"
    entries.write_text(entries.read_text().replace('"t3"', '"t33"'))
    assert main(["audit", "verify", "--export", str(out), "--public-key", str(public)]) == 1
    assert capsys.readouterr().out.startswith("FAILED at seq 3: edited row")


def test_a_missing_database_or_checkpoints_file_is_one_line_and_status_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "verify", "--data-dir", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err.strip() == f"sandbox audit: no database at {tmp_path / 'none' / 'sandbox.db'}"
    assert main(["audit", "checkpoint", "--data-dir", str(tmp_path / "none")]) == 1
    capsys.readouterr()


def test_the_key_directory_may_live_elsewhere(data_dir: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SANDBOX_AUDIT_KEY_DIR", str(tmp_path / "vault"))
    assert main(["audit", "checkpoint"]) == 0
    assert (tmp_path / "vault" / "ed25519.key").exists()
    assert (tmp_path / "vault" / "checkpoints.jsonl").exists()
    assert not (data_dir / "audit").exists()

"""The signing key outside the database, checkpoints by policy, and signed exports."""

from __future__ import annotations

import json
import stat
import tarfile
from pathlib import Path

import pytest

from audit import (AuditError, AuditLog, AuditQueryError, CheckpointPolicy, SigningKey, VerifyKey,
                   export_archive, verify_export)
from audit_helpers import fill


def test_the_key_is_created_owner_only_in_an_owner_only_directory(tmp_path: Path) -> None:
    key = SigningKey.load_or_create(tmp_path / "elsewhere" / "ed25519.key")
    assert stat.S_IMODE(key.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.path.parent.stat().st_mode) == 0o700
    again = SigningKey.load_or_create(key.path)
    assert again.key_id == key.key_id
    assert VerifyKey.load(Path(f"{key.path}.pub")).key_id == key.key_id


def test_a_key_readable_by_others_is_refused(tmp_path: Path) -> None:
    key = SigningKey.load_or_create(tmp_path / "ed25519.key")
    key.path.chmod(0o644)
    with pytest.raises(AuditError, match="readable by others"):
        SigningKey.load_or_create(key.path)


def test_a_file_that_is_not_a_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "k").write_text("hello")
    (tmp_path / "k").chmod(0o600)
    with pytest.raises(AuditError):
        SigningKey.load_or_create(tmp_path / "k")
    with pytest.raises(AuditError):
        VerifyKey.load(tmp_path / "k")


async def test_a_checkpoint_is_due_after_n_entries(tmp_path: Path) -> None:
    log = await AuditLog.open(tmp_path / "s.db", key_file=tmp_path / "k",
                              policy=CheckpointPolicy(every_entries=5, every_s=0))
    await fill(log, 4)
    assert await log.tick(now=0) is None
    await fill(log, 1)
    checkpoint = await log.tick(now=0)
    assert checkpoint is not None and checkpoint.seq == 5
    assert await log.tick(now=0) is None
    await log.close()


async def test_a_checkpoint_is_due_after_m_seconds_only_when_something_is_new(tmp_path: Path) -> None:
    log = await AuditLog.open(tmp_path / "s.db", key_file=tmp_path / "k",
                              checkpoints_file=tmp_path / "cp.jsonl",
                              policy=CheckpointPolicy(every_entries=0, every_s=60))
    await fill(log, 1)
    first = await log.tick(now=1000.0)
    assert first is not None and first.seq == 1
    assert await log.tick(now=first.time + 3600) is None  # nothing new since
    await fill(log, 1)
    assert await log.tick(now=first.time + 30) is None
    later = await log.tick(now=first.time + 61)
    assert later is not None and later.seq == 2
    lines = [json.loads(line) for line in (tmp_path / "cp.jsonl").read_text().splitlines()]
    assert [line["seq"] for line in lines] == [1, 2]
    await log.close()


async def test_a_log_without_a_key_cannot_sign(tmp_path: Path) -> None:
    log = await AuditLog.open(tmp_path / "s.db")
    with pytest.raises(AuditError, match="no signing key"):
        await log.checkpoint()
    assert await log.tick() is None
    await log.close()


async def test_an_export_verifies_offline_with_only_the_public_key(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 5, tenant="acme")
    await fill(log, 3, tenant="globex")
    await log.checkpoint()
    manifest = await log.export(tmp_path / "out", tenant="globex")
    assert (manifest["count"], manifest["first_seq"], manifest["last_seq"]) == (3, 6, 8)
    assert manifest["checkpoint"]["seq"] == 8
    public = VerifyKey.load(Path(f"{log.key.path}.pub"))  # type: ignore[union-attr]
    report = verify_export(tmp_path / "out", public)
    assert report.ok and report.count == 3 and report.head == manifest["head_hash"]
    lines = (tmp_path / "out" / "entries.jsonl").read_text().splitlines()
    assert [json.loads(line)["tenant"] for line in lines] == ["globex"] * 3


async def test_an_unfiltered_export_follows_the_links(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 6)
    await log.export(tmp_path / "out")
    entries = tmp_path / "out" / "entries.jsonl"
    lines = entries.read_text().splitlines()
    entries.write_text("\n".join(lines[:2] + lines[3:]) + "\n")
    report = log.verify_export(tmp_path / "out")
    assert not report.ok and report.first_bad_seq == 4 and "deleted row" in (report.reason or "")


async def test_an_edited_export_line_is_caught(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 4)
    await log.export(tmp_path / "out")
    entries = tmp_path / "out" / "entries.jsonl"
    entries.write_text(entries.read_text().replace('"n":2', '"n":20'))
    report = log.verify_export(tmp_path / "out")
    assert report.first_bad_seq == 2 and (report.reason or "").startswith("edited row")


async def test_an_altered_manifest_is_a_bad_signature(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 4)
    await log.export(tmp_path / "out")
    path = tmp_path / "out" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["count"] = 3
    path.write_text(json.dumps(manifest))
    report = log.verify_export(tmp_path / "out")
    assert not report.ok and (report.reason or "").startswith("bad signature")


async def test_export_by_time_and_refusals(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 2)
    manifest = await log.export(tmp_path / "later", since=2_000_000_000.0)
    assert manifest["count"] == 0 and log.verify_export(tmp_path / "later").ok
    with pytest.raises(AuditQueryError):
        await log.export(tmp_path / "later")
    with pytest.raises(AuditQueryError):
        await log.export(tmp_path / "x", since=5.0, until=1.0)


async def test_an_export_packed_as_one_tar_verifies_as_the_directory_does(log: AuditLog,
                                                                          tmp_path: Path) -> None:
    await fill(log, 4)
    await log.export(tmp_path / "out")
    archive = tmp_path / "audit.tar"
    archive.write_bytes(export_archive(tmp_path / "out"))
    with tarfile.open(archive) as packed:
        assert sorted(packed.getnames()) == ["entries.jsonl", "manifest.json"]
    public = VerifyKey.load(Path(f"{log.key.path}.pub"))  # type: ignore[union-attr]
    report = verify_export(archive, public)
    assert report.ok and report.count == 4


async def test_an_export_tar_holding_anything_else_is_refused(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 2)
    await log.export(tmp_path / "out")
    archive = tmp_path / "audit.tar"
    with tarfile.open(archive, "w") as packed:
        packed.add(tmp_path / "out" / "manifest.json", arcname="manifest.json")
        packed.add(tmp_path / "out" / "entries.jsonl", arcname="../entries.jsonl")
    with pytest.raises(AuditError, match="holds only"):
        log.verify_export(archive)


async def test_a_tar_with_an_edited_line_fails_verification(log: AuditLog, tmp_path: Path) -> None:
    await fill(log, 3)
    await log.export(tmp_path / "out")
    entries = tmp_path / "out" / "entries.jsonl"
    entries.write_text(entries.read_text().replace('"n":2', '"n":9'))
    archive = tmp_path / "audit.tar"
    archive.write_bytes(export_archive(tmp_path / "out"))
    report = log.verify_export(archive)
    assert (report.ok, report.first_bad_seq) == (False, 2)

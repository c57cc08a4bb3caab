"""Every way of tampering with the log is caught, at the right seq, for the right reason.

Each attacker works on the SQLite file with plain sqlite3 and drops the append-only triggers
first, as anyone holding the file can. A rewrite that recomputes the whole chain is
invisible to the database alone; the checkpoint exported to the JSON Lines file catches it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit import AuditLog, Checkpoint, SigningKey, VerifyKey, canonical_json, verify_database
from audit_helpers import attacker, fill, rewrite_chain


@pytest.fixture
def log(file_log: AuditLog) -> AuditLog:
    """The attacks edit the SQLite file itself."""
    return file_log


async def test_an_untouched_log_verifies_with_its_count_and_head(log: AuditLog) -> None:
    await fill(log, 10)
    await log.checkpoint()
    report = await log.verify()
    head = (await log.query(after_seq=9))[0].row_hash
    assert report.ok and report.count == 10 and report.head == head
    assert report.line().startswith(f"OK 10 entries, head {head}, last checkpoint at seq 10 (")
    assert report.checkpoints == 2  # the database's copy and the file's


async def test_the_report_names_the_newest_checkpoint_by_seq_and_time(log: AuditLog) -> None:
    await fill(log, 3)
    first = await log.checkpoint()
    await fill(log, 2)
    newest = await log.checkpoint()
    report = await log.verify()
    assert report.last_checkpoint == newest and newest.seq == 5 and first.seq == 3
    shown = report.to_dict()["last_checkpoint"]
    assert (shown["seq"], shown["time"], shown["head_hash"]) == (5, newest.time, report.head)


async def test_a_log_without_checkpoints_names_none(log: AuditLog) -> None:
    await fill(log, 3)
    report = await log.verify()
    assert report.ok and report.last_checkpoint is None
    assert report.to_dict()["last_checkpoint"] is None


async def test_tampering_after_a_clean_verification_is_caught_by_the_next_one(log: AuditLog) -> None:
    await fill(log, 10)
    assert (await log.verify()).ok
    attacker(log.path).execute("UPDATE audit_log SET body = '{\"n\":500}' WHERE seq = 7")
    report = await log.verify()
    assert (report.ok, report.first_bad_seq) == (False, 7)


async def test_entries_recorded_after_a_verification_are_counted_by_the_next_one(log: AuditLog) -> None:
    await fill(log, 4)
    assert (await log.verify()).count == 4
    await fill(log, 3)
    assert (await log.verify()).count == 7


async def test_an_empty_log_verifies(log: AuditLog) -> None:
    await log.checkpoint()
    report = await log.verify()
    assert report.ok and report.count == 0


async def test_an_edited_body_is_named_by_its_seq(log: AuditLog) -> None:
    await fill(log, 10)
    attacker(log.path).execute("UPDATE audit_log SET body = '{\"n\":500}' WHERE seq = 5")
    report = await log.verify()
    assert (report.ok, report.first_bad_seq) == (False, 5)
    assert report.reason is not None and report.reason.startswith("edited row")
    assert report.line().startswith("FAILED at seq 5: edited row")


@pytest.mark.parametrize("column,value", [("tenant", "globex"), ("principal", "mallory"),
                                          ("event", "toolset.delete"), ("time", 1.0),
                                          ("subject", '{"toolset":"other"}')])
async def test_every_column_is_covered_by_the_hash(log: AuditLog, column: str, value: object) -> None:
    await fill(log, 6)
    attacker(log.path).execute(f"UPDATE audit_log SET {column} = ? WHERE seq = 3", (value,))
    report = await log.verify()
    assert (report.first_bad_seq, (report.reason or "").split(":")[0]) == (3, "edited row")


async def test_a_deleted_row_is_named_by_its_seq(log: AuditLog) -> None:
    await fill(log, 10)
    attacker(log.path).execute("DELETE FROM audit_log WHERE seq = 5")
    report = await log.verify()
    assert report.first_bad_seq == 5 and (report.reason or "").startswith("deleted row")
    assert report.count == 4


async def test_swapped_rows_are_named_by_the_first_of_them(log: AuditLog) -> None:
    await fill(log, 10)
    conn = attacker(log.path)
    columns = "time, tenant, principal, event, subject, body, prev_hash, row_hash"
    five, six = (conn.execute(f"SELECT {columns} FROM audit_log WHERE seq = ?", (s,)).fetchone()
                 for s in (5, 6))
    sets = ", ".join(f"{c.strip()} = ?" for c in columns.split(","))
    conn.execute("BEGIN")
    conn.execute(f"UPDATE audit_log SET {sets} WHERE seq = 5", six)
    conn.execute(f"UPDATE audit_log SET {sets} WHERE seq = 6", five)
    conn.execute("COMMIT")
    report = await log.verify()
    assert report.first_bad_seq == 5 and (report.reason or "").startswith("swapped rows")


async def test_a_truncated_tail_is_caught_by_the_databases_high_water_mark(log: AuditLog) -> None:
    await fill(log, 10)
    attacker(log.path).execute("DELETE FROM audit_log WHERE seq > 7")
    report = await log.verify()
    assert report.first_bad_seq == 8 and (report.reason or "").startswith("truncated tail")


async def test_a_truncated_tail_with_its_traces_removed_is_caught_by_a_checkpoint(
        log: AuditLog) -> None:
    await fill(log, 10)
    await log.checkpoint()
    conn = attacker(log.path)
    conn.execute("DELETE FROM audit_log WHERE seq > 7")
    conn.execute("UPDATE sqlite_sequence SET seq = 7 WHERE name = 'audit_log'")
    conn.execute("DELETE FROM audit_checkpoints")
    report = await log.verify()
    assert report.first_bad_seq == 8 and "checkpoint at seq 10" in (report.reason or "")


async def test_an_edit_with_its_own_hash_recomputed_breaks_the_next_link(log: AuditLog) -> None:
    await fill(log, 10)
    conn = attacker(log.path)
    row = conn.execute("SELECT seq, time, tenant, principal, event, subject, prev_hash"
                       " FROM audit_log WHERE seq = 4").fetchone()
    from audit import entry_hash
    forged = entry_hash(row[6], 4, row[1], row[2], row[3], row[4], row[5], '{"n":400}')
    conn.execute("UPDATE audit_log SET body = '{\"n\":400}', row_hash = ? WHERE seq = 4", (forged,))
    report = await log.verify()
    assert report.first_bad_seq == 4 and (report.reason or "").startswith("chain broken")


async def test_a_rewrite_with_a_recomputed_chain_passes_on_the_database_alone(
        log: AuditLog, tmp_path: Path) -> None:
    """The limit of a hash chain in one file: whoever can write it can recompute it."""
    await fill(log, 10)
    rewrite_chain(log.path, 3, '{"n":"forged"}')
    assert (await log.verify(checkpoints_file=tmp_path / "none.jsonl")).ok


async def test_a_rewrite_with_a_recomputed_chain_is_caught_by_the_exported_checkpoint(
        log: AuditLog) -> None:
    await fill(log, 6)
    await log.checkpoint()
    await log.record([], at=0)  # nothing: no entry, no gap
    await fill(log, 4)
    await log.checkpoint()
    rewrite_chain(log.path, 3, '{"n":"forged"}')
    report = await log.verify()
    assert report.first_bad_seq == 6 and (report.reason or "").startswith("chain rewritten")


async def test_a_checkpoint_not_signed_by_the_audit_key_is_a_bad_signature(log: AuditLog) -> None:
    await fill(log, 5)
    await log.checkpoint()
    assert log.checkpoints_file is not None
    lines = log.checkpoints_file.read_text().splitlines()
    other = SigningKey(Ed25519PrivateKey.generate(), log.path)
    forged = other.checkpoint(5, json.loads(lines[0])["head_hash"])
    forged = Checkpoint(forged.seq, forged.head_hash, forged.time, log.key.key_id,  # type: ignore[union-attr]
                        forged.signature)
    with log.checkpoints_file.open("a") as handle:
        handle.write(canonical_json(forged.to_dict()) + "\n")
    report = await log.verify()
    assert report.first_bad_seq == 5 and (report.reason or "").startswith("bad signature")


async def test_an_altered_checkpoint_is_a_bad_signature(log: AuditLog) -> None:
    await fill(log, 5)
    await log.checkpoint()
    assert log.checkpoints_file is not None
    line = json.loads(log.checkpoints_file.read_text())
    line["time"] += 1
    log.checkpoints_file.write_text(canonical_json(line) + "\n")
    report = await log.verify()
    assert report.first_bad_seq == 5 and (report.reason or "").startswith("bad signature")


async def test_an_unreadable_checkpoints_line_fails_the_verification(log: AuditLog) -> None:
    await fill(log, 2)
    await log.checkpoint()
    assert log.checkpoints_file is not None
    with log.checkpoints_file.open("a") as handle:
        handle.write("{not json\n")
    report = await log.verify()
    assert not report.ok and "line 2" in (report.reason or "")


async def test_verify_without_the_key_still_compares_heads(log: AuditLog) -> None:
    await fill(log, 4)
    await log.checkpoint()
    rewrite_chain(log.path, 2, '{"n":"forged"}')
    assert log.checkpoints_file is not None
    report = verify_database(log.path, key=None, checkpoint_files=[log.checkpoints_file])
    assert not report.signatures_checked
    assert report.first_bad_seq == 4 and (report.reason or "").startswith("chain rewritten")
    assert VerifyKey.load(Path(f"{log.key.path}.pub")).key_id == log.key.key_id  # type: ignore[union-attr]

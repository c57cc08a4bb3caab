"""Export: a filtered slice of the log as JSON Lines with a signed manifest, checked offline.

``export_log`` writes into a directory:

``entries.jsonl``
    one entry per line (canonical JSON of :meth:`AuditEntry.to_dict`), in seq order.
``manifest.json``
    ``count``, ``first_seq``, ``last_seq``, ``head_hash`` (the last exported entry's hash),
    the filters, ``entries_sha256``, the whole log's head at export time, the latest
    checkpoint, ``key_id`` and ``signature`` (Ed25519 over the canonical JSON of the
    manifest without ``signature``).

``verify_export`` needs only the directory and the public key: the signature, the file's
digest, and every entry's own hash; an export without a tenant filter is a contiguous
range, so its links are followed too.

``export_archive`` packs the same two files into one uncompressed tar (what the console
downloads); ``verify_export`` takes such an archive in place of the directory.
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from .canonical import canonical_json
from .chain import GENESIS, entry_hash
from .errors import AuditError, AuditQueryError
from .signing import Checkpoint, SigningKey, VerifyKey
from .verify import LogReader, SQLiteReader, VerifyReport, _readonly

__all__ = ["EXPORT_FORMAT", "export_archive", "export_log", "export_reader", "verify_export"]

EXPORT_FORMAT = "wasm-sandbox-audit-export/1"
ENTRIES = "entries.jsonl"
MANIFEST = "manifest.json"


def _where(tenant: str | None, since: float | None, until: float | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for clause, value in (("tenant = ?", tenant),
                          ("time >= ?", None if since is None else float(since)),
                          ("time < ?", None if until is None else float(until))):
        if value is not None:
            clauses.append(clause)
            params.append(value)
    return (f" WHERE {' AND '.join(clauses)}" if clauses else ""), params


def export_log(db_path: Path, out_dir: Path, key: SigningKey, *, tenant: str | None = None,
               since: float | None = None, until: float | None = None) -> dict[str, Any]:
    """Write the entries of the SQLite file ``db_path`` matching the filters, and the signed
    manifest; the manifest."""
    _check_filters(out_dir, since, until)
    conn = _readonly(db_path)
    try:
        conn.execute("BEGIN")
        try:
            return export_reader(SQLiteReader(conn), out_dir, key, tenant=tenant, since=since,
                                 until=until)
        finally:
            conn.execute("ROLLBACK")
    finally:
        conn.close()


def _check_filters(out_dir: Path, since: float | None, until: float | None) -> None:
    if since is not None and until is not None and until < since:
        raise AuditQueryError("until is before since")
    if (out_dir / MANIFEST).exists():
        raise AuditQueryError(f"{out_dir} already holds an export")


def export_reader(reader: LogReader, out_dir: Path, key: SigningKey, *,
                  tenant: str | None = None, since: float | None = None,
                  until: float | None = None) -> dict[str, Any]:
    """:func:`export_log` from any backend's reader (the caller holds one read snapshot)."""
    _check_filters(out_dir, since, until)
    out_dir.mkdir(parents=True, exist_ok=True)
    where, params = _where(tenant, since, until)
    digest = hashlib.sha256()
    count, first, last, head = 0, None, None, GENESIS
    log_head = reader.one("SELECT seq, row_hash FROM audit_log ORDER BY seq DESC LIMIT 1")
    checkpoint = reader.one("SELECT seq, head_hash, time, key_id, signature"
                            " FROM audit_checkpoints ORDER BY id DESC LIMIT 1")
    with (out_dir / ENTRIES).open("wb") as out:
        for row in reader.rows(where, params):
            line = (canonical_json({
                "seq": row[0], "time": row[1], "tenant": row[2], "principal": row[3],
                "event": row[4], "subject": json.loads(row[5]), "body": json.loads(row[6]),
                "prev_hash": row[7], "row_hash": row[8]}) + "\n").encode()
            out.write(line)
            digest.update(line)
            count += 1
            first = row[0] if first is None else first
            last, head = row[0], row[8]
    manifest: dict[str, Any] = {
        "format": EXPORT_FORMAT, "count": count, "first_seq": first, "last_seq": last,
        "head_hash": head, "entries_sha256": digest.hexdigest(),
        "filters": {"tenant": tenant, "since": since, "until": until},
        "log_head": None if log_head is None else {"seq": log_head[0], "hash": log_head[1]},
        "checkpoint": None if checkpoint is None else Checkpoint(*checkpoint).to_dict(),
        "exported_at": time.time(), "key_id": key.key_id,
    }
    manifest["signature"] = key.sign(canonical_json(manifest).encode())
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def export_archive(out_dir: Path) -> bytes:
    """The export in ``out_dir`` as one tar holding ``manifest.json`` and ``entries.jsonl``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name in (MANIFEST, ENTRIES):
            info = archive.gettarinfo(str(out_dir / name), arcname=name)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with (out_dir / name).open("rb") as handle:
                archive.addfile(info, handle)
    return buffer.getvalue()


MAX_ARCHIVE_MEMBER = 1 << 40


def _unpack(archive_path: Path, into: Path) -> None:
    """Copy the two export files out of a tar, refusing anything else in it (no links, no
    paths: the archive may come from anywhere)."""
    try:
        with tarfile.open(archive_path, mode="r:") as archive:
            for member in archive:
                if member.name not in (MANIFEST, ENTRIES) or not member.isfile():
                    raise AuditError(f"{archive_path} holds {member.name!r}: an export archive "
                                     f"holds only {MANIFEST} and {ENTRIES}")
                source = archive.extractfile(member)
                if source is None or member.size > MAX_ARCHIVE_MEMBER:
                    raise AuditError(f"{archive_path}: {member.name} cannot be read")
                with source, (into / member.name).open("xb") as out:
                    while chunk := source.read(1 << 20):
                        out.write(chunk)
    except (tarfile.TarError, FileExistsError) as exc:
        raise AuditError(f"{archive_path} is not a readable export archive: {exc}") from exc


def _fail(count: int, head: str, seq: int | None, reason: str) -> VerifyReport:
    return VerifyReport(False, count, head, seq, reason)


def verify_export(out_dir: Path, key: VerifyKey | None) -> VerifyReport:
    """Check an export directory (or its tar, as the console downloads it) offline; ``key``
    checks the manifest's signature."""
    if out_dir.is_file():
        with tempfile.TemporaryDirectory(prefix="audit-export-") as unpacked:
            _unpack(out_dir, Path(unpacked))
            return verify_export(Path(unpacked), key)
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise AuditError(f"{out_dir} holds no readable {MANIFEST}: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT:
        return _fail(0, GENESIS, None, f"{MANIFEST} is not a {EXPORT_FORMAT} manifest")
    unsigned = {k: v for k, v in manifest.items() if k != "signature"}
    if key is not None and not (manifest.get("key_id") == key.key_id and key.valid(
            canonical_json(unsigned).encode(), str(manifest.get("signature", "")))):
        return _fail(0, GENESIS, None, f"bad signature: {MANIFEST} is not signed by the audit "
                                       f"key {key.key_id}")
    digest = hashlib.sha256()
    contiguous = (manifest.get("filters") or {}).get("tenant") is None
    count, head, prev_seq = 0, GENESIS, None
    try:
        with (out_dir / ENTRIES).open("rb") as handle:
            for line in handle:
                digest.update(line)
                entry = json.loads(line)
                seq = entry["seq"]
                problem = _entry_problem(entry, prev_seq, head, contiguous and prev_seq is not None)
                if problem is not None:
                    return _fail(count, head, seq, problem)
                count, head, prev_seq = count + 1, entry["row_hash"], seq
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return _fail(count, head, None if prev_seq is None else prev_seq + 1,
                     f"{ENTRIES} cannot be read after seq {prev_seq}: {exc}")
    if digest.hexdigest() != manifest.get("entries_sha256"):
        return _fail(count, head, None, f"{ENTRIES} is not the file the manifest was signed for")
    expected = (manifest.get("count"), manifest.get("last_seq"), manifest.get("head_hash"))
    if (count, prev_seq, head) != expected:
        return _fail(count, head, prev_seq, f"the entries do not match the manifest "
                                            f"(count, last seq, head {expected})")
    return VerifyReport(True, count, head, signatures_checked=key is not None)


def _entry_problem(entry: dict[str, Any], prev_seq: int | None, prev_hash: str,
                   linked: bool) -> str | None:
    seq = entry["seq"]
    if prev_seq is not None and seq <= prev_seq:
        return f"swapped rows: seq {seq} comes after seq {prev_seq}"
    if linked and prev_seq is not None and seq != prev_seq + 1:
        return f"deleted row: seq {prev_seq + 1} is missing"
    computed = entry_hash(entry["prev_hash"], seq, float(entry["time"]), entry["tenant"],
                          entry["principal"], entry["event"], canonical_json(entry["subject"]),
                          canonical_json(entry["body"]))
    if computed != entry["row_hash"]:
        return f"edited row: the entry at seq {seq} does not match its row_hash"
    if linked and entry["prev_hash"] != prev_hash:
        return f"chain broken: the entry at seq {seq} is not chained to seq {seq - 1}"
    return None


"""The tamper-evident audit log: an append-only hash chain in the service's database (SQLite
or PostgreSQL, through the ``storage`` seam), signed checkpoints anchored outside it,
streaming verification and signed exports.

Entry points::

    await audit.migrate(db)                                    # the tables, on any Database
    await audit.append(conn, [AuditEvent(...)], at=time.time())  # inside an open write tx
    yield from audit.appending([AuditEvent(...)], at)          # the same, in a storage body
    log = await AuditLog.open(db_path_or_url, key_file=..., checkpoints_file=...)
    await log.record([AuditEvent("default", "alice", "toolset.put", {"toolset": "crm"})])
    await log.query(tenant="default", event="execution.", after_seq=0, limit=100)
    await log.checkpoint(); report = await log.verify(); report.line()
    await log.export(out_dir, tenant="default")                # JSON Lines + signed manifest
    verify_export(out_dir, VerifyKey.load(public_key_file))    # offline

Modules (other packages import only from this package root):

- ``errors``: the exceptions; ``canonical``: canonical JSON (what is hashed and signed).
- ``schema``: the tables, their append-only triggers, the ``audit`` migrations (both backends).
- ``chain``: ``AuditEvent``, ``AuditEntry``, the row hash, the ``appending`` body, ``append``
  (and ``append_now`` on SQLite's database thread).
- ``signing``: the Ed25519 key file, ``Checkpoint``, the checkpoints JSON Lines file.
- ``verify``: the streaming verifier and ``VerifyReport``.
- ``export``: filtered export with a signed manifest, and its offline check.
- ``log``: ``AuditLog``, the service's handle (record, query, checkpoint, verify, export).

This unit imports only the ``storage`` root (the seam, its bodies and migrations).
"""

from .canonical import canonical_json
from .chain import GENESIS, AuditEntry, AuditEvent, append, append_now, appending, entry_hash
from .errors import AuditError, AuditQueryError, AuditValueError
from .export import export_archive, export_log, export_reader, verify_export
from .log import AuditLog, CheckpointPolicy
from .schema import AUDIT_MIGRATIONS, migrate
from .signing import Checkpoint, SigningKey, VerifyKey
from .verify import VerifyReport, verify_database, verify_reader

__all__ = [
    "append",
    "append_now",
    "appending",
    "AUDIT_MIGRATIONS",
    "AuditEntry",
    "AuditError",
    "AuditEvent",
    "AuditLog",
    "AuditQueryError",
    "AuditValueError",
    "canonical_json",
    "Checkpoint",
    "CheckpointPolicy",
    "entry_hash",
    "export_archive",
    "export_log",
    "export_reader",
    "GENESIS",
    "migrate",
    "SigningKey",
    "verify_database",
    "verify_export",
    "verify_reader",
    "VerifyKey",
    "VerifyReport",
]

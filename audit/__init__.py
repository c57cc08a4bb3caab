"""The tamper-evident audit log: an append-only hash chain in the service's SQLite file,
signed checkpoints anchored outside it, streaming verification and signed exports.

Entry points::

    await audit.migrate(conn)                                  # the tables, on any connection
    await audit.append(conn, [AuditEvent(...)], at=time.time())  # inside an open write tx
    log = await AuditLog.open(db_path, key_file=..., checkpoints_file=...)
    await log.record([AuditEvent("default", "alice", "toolset.put", {"toolset": "crm"})])
    await log.query(tenant="default", event="execution.", after_seq=0, limit=100)
    await log.checkpoint(); report = await log.verify(); report.line()
    await log.export(out_dir, tenant="default")                # JSON Lines + signed manifest
    verify_export(out_dir, VerifyKey.load(public_key_file))    # offline

Modules (other packages import only from this package root):

- ``errors``: the exceptions; ``canonical``: canonical JSON (what is hashed and signed).
- ``schema``: the tables, their append-only triggers, the ``audit`` migrations.
- ``chain``: ``AuditEvent``, ``AuditEntry``, the row hash, ``append`` (and ``append_now`` on the database thread).
- ``signing``: the Ed25519 key file, ``Checkpoint``, the checkpoints JSON Lines file.
- ``verify``: the streaming verifier and ``VerifyReport``.
- ``export``: filtered export with a signed manifest, and its offline check.
- ``log``: ``AuditLog``, the service's handle (record, query, checkpoint, verify, export).

This unit imports only the ``workspace`` root (for the migration runner and the pragmas).
"""

from .canonical import canonical_json
from .chain import GENESIS, AuditEntry, AuditEvent, append, append_now, entry_hash
from .errors import AuditError, AuditQueryError, AuditValueError
from .export import export_archive, export_log, verify_export
from .log import AuditLog, CheckpointPolicy
from .schema import AUDIT_MIGRATIONS, migrate
from .signing import Checkpoint, SigningKey, VerifyKey
from .verify import VerifyReport, verify_database

__all__ = [
    "append",
    "append_now",
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
    "GENESIS",
    "migrate",
    "SigningKey",
    "verify_database",
    "verify_export",
    "VerifyKey",
    "VerifyReport",
]

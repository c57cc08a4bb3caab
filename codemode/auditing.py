"""What Code Mode writes to the audit log: one builder per event, all about one execution.

Every event is appended by :class:`codemode.store.StoreTransaction.audit` inside the
transaction that makes the change it describes (the status update, the journal settle,
the approval decision), so the log and the state cannot disagree after a crash.

Events (``subject`` always holds ``execution_id`` and ``workspace``):

- ``execution.started``: ``code_sha256``, ``namespaces`` (namespace -> tools), ``toolsets``;
- ``execution.finished``: ``status``, ``error`` (its name or null), ``calls``;
- ``execution.cancelled``, ``execution.rolled_back``, ``execution.deleted``,
  ``execution.pruned``, ``execution.expired``, ``execution.dead_lettered``;
- ``call.completed``: a journaled call with a side effect: ``seq``, ``namespace``,
  ``method``, ``args_sha256``, ``idempotency_key``, ``outcome`` (``applied`` or ``error``)
  and the error's name;
- ``approval.requested``, ``approval.decided``, and ``approval.refused`` for a late or
  duplicate decision (answered 409) with what it found.

Bodies carry hashes, names and counts, never the arguments or results themselves (those
stay in the journal, which retention may delete; the log outlives it). Strings that come
from the guest are cut and made valid UTF-8 first: a hostile value must not be able to
make an append, and with it the state change, fail.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from audit import AuditEvent
from workspace import DEFAULT_TENANT

from .codec import sqlite_text
from .records import ExecutionRecord

__all__ = ["ExecutionSubject", "code_hash", "safe_text"]

_MAX_TEXT = 500


def safe_text(value: Any, limit: int = _MAX_TEXT) -> str:
    """``value`` as a string of at most ``limit`` characters with a UTF-8 form."""
    text = value if isinstance(value, str) else str(value)
    return text[:limit].encode("utf-8", "replace").decode("utf-8")


def code_hash(code: str) -> str:
    """SHA-256 of the text's bytes as stored (lone surrogates kept, as the store keeps them)."""
    stored = sqlite_text(code)
    return hashlib.sha256(stored if isinstance(stored, bytes) else stored.encode()).hexdigest()


def _error_name(error: dict[str, Any] | None) -> str | None:
    return None if not error else safe_text(error.get("name") or "Error", 200)


@dataclass(frozen=True)
class ExecutionSubject:
    """Whose execution, and which: what every one of its events is recorded under."""

    execution_id: str
    workspace: str
    tenant: str = DEFAULT_TENANT
    principal: str = ""

    @classmethod
    def of(cls, record: ExecutionRecord) -> "ExecutionSubject":
        return cls(record.id, record.workspace, record.tenant, record.principal)

    def event(self, name: str, body: dict[str, Any], *, principal: str | None = None,
              **subject: str) -> AuditEvent:
        return AuditEvent(self.tenant, self.principal if principal is None else principal, name,
                          {"execution_id": self.execution_id, "workspace": self.workspace,
                           **subject}, body)

    # --- the execution ----------------------------------------------------------------

    def started(self, record: ExecutionRecord) -> AuditEvent:
        return self.event("execution.started", {
            "code_sha256": code_hash(record.code), "namespaces": record.namespaces,
            "toolsets": record.toolsets})

    def finished(self, status: str, error: dict[str, Any] | None, calls: int) -> AuditEvent:
        return self.event("execution.finished", {"status": status, "error": _error_name(error),
                                                 "calls": calls})

    def cancelled(self, by: str, reason: str, approvals: list[str]) -> AuditEvent:
        return self.event("execution.cancelled", {"by": safe_text(by), "reason": safe_text(reason),
                                                  "approvals_cancelled": approvals})

    def rolled_back(self, reverted: list[dict[str, Any]]) -> AuditEvent:
        return self.event("execution.rolled_back", {
            "reverted": [{"seq": r["seq"], "namespace": r["namespace"], "method": r["method"]}
                         for r in reverted]})

    def deleted(self, status: str, *, principal: str | None = None) -> AuditEvent:
        return self.event("execution.deleted", {"status": status}, principal=principal)

    def pruned(self, status: str, keep: int) -> AuditEvent:
        return self.event("execution.pruned", {"status": status, "keep": keep})

    def expired(self, status: str, message: str, approvals: list[str]) -> AuditEvent:
        return self.event("execution.expired", {"status": status, "message": message,
                                                "approvals_expired": approvals})

    def dead_lettered(self, attempts: int) -> AuditEvent:
        return self.event("execution.dead_lettered", {"attempts": attempts})

    # --- calls and approvals ----------------------------------------------------------

    def call(self, seq: int, namespace: str, method: str, args_json: str, *,
             idempotency_key: str | None, outcome: str,
             error: dict[str, Any] | None = None) -> AuditEvent:
        return self.event("call.completed", {
            "seq": seq, "namespace": safe_text(namespace, 200), "method": safe_text(method, 200),
            "args_sha256": code_hash(args_json),
            "idempotency_key": None if idempotency_key is None else safe_text(idempotency_key),
            "outcome": outcome, "error": _error_name(error)})

    def approval_requested(self, approval_id: str, seq: int, namespace: str, method: str,
                           args_json: str, mode: str) -> AuditEvent:
        return self.event("approval.requested", {
            "seq": seq, "namespace": safe_text(namespace, 200), "method": safe_text(method, 200),
            "args_sha256": code_hash(args_json), "mode": mode}, approval_id=approval_id)

    def approval_decided(self, approval_id: str, decision: str, by: str, note: str | None,
                         tenant: str | None) -> AuditEvent:
        """``by``: the deciding principal (a token's name), recorded as the entry's
        principal; ``tenant``: its tenant (an operator may decide for another); ``note``:
        what the decider wrote, which is not an identity."""
        return self.event("approval.decided", {
            "decision": decision, "by_tenant": tenant,
            "note": None if note is None else safe_text(note)},
            principal=safe_text(by), approval_id=approval_id)

    def approval_refused(self, approval_id: str, attempted: str, by: str, status: str | None,
                         decided_by: str | None, tenant: str | None,
                         reason: str | None = None) -> AuditEvent:
        """A decision refused (late, duplicate, racing, or asking to widen the run's
        permissions, which ``reason`` then says): what was tried and what it met."""
        body: dict[str, Any] = {
            "attempted": attempted, "by_tenant": tenant, "found": status,
            "decided_by": None if decided_by is None else safe_text(decided_by)}
        if reason is not None:
            body["reason"] = safe_text(reason)
        return self.event("approval.refused", body, principal=safe_text(by),
                          approval_id=approval_id)

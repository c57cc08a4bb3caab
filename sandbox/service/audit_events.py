"""The service's own audit events: what routes change outside Code Mode's transactions.

Toolset and snippet put/delete, workspace deleted, bash write-backs, tenants created and
tokens created and revoked (``/v1/admin``) are recorded with
:func:`record` after the change committed (the workspace unit cannot append inside its own
transactions: it imports nothing of ours). Code Mode's events are appended inside its
transactions instead (:mod:`codemode.auditing`).

Events: ``toolset.put`` (``created``, ``tools``), ``toolset.deleted``, ``snippet.put``
(``created``, ``from_execution``), ``snippet.deleted``, ``workspace.deleted``,
``tenant.created``, ``token.created`` (``name``, ``scopes``, ``expires_at``), ``token.revoked``,
``bash.write_back`` (counts of created, updated and deleted files, the paths, at most
:data:`MAX_PATHS` of each, and how many conflicts).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from audit import AuditEvent, AuditLog

from .identity import Principal

__all__ = ["MAX_PATHS", "record", "write_back_body"]

MAX_PATHS = 100


async def record(request: Request, who: Principal, event: str, subject: dict[str, str],
                 body: dict[str, Any] | None = None, *, tenant: str | None = None) -> None:
    """Append one event by ``who`` to the service's audit log, in ``who``'s tenant or the
    one it acted on (``tenant``: an operator making another tenant's token). An app mounted
    without a log (the route tests' small apps) records nothing; the service always opens
    one at start-up."""
    log = getattr(request.app.state, "audit", None)
    if not isinstance(log, AuditLog):
        return
    await log.record([AuditEvent(tenant or who.tenant, who.name, event, subject, body or {})])


def write_back_body(changed: dict[str, list[str]], conflicts: int) -> dict[str, Any] | None:
    """The body of a ``bash.write_back`` event, or None when the script changed nothing."""
    kinds = ("created", "updated", "deleted")
    counts = {kind: len(changed.get(kind, [])) for kind in kinds}
    if not any(counts.values()) and not conflicts:
        return None
    return {"counts": counts, "conflicts": conflicts,
            "paths": {kind: list(changed.get(kind, []))[:MAX_PATHS] for kind in kinds}}

"""The audit log's exceptions."""

from __future__ import annotations

__all__ = ["AuditError", "AuditQueryError", "AuditValueError"]


class AuditError(Exception):
    """Anything the audit log refuses or cannot do."""


class AuditValueError(AuditError, ValueError):
    """An event that cannot be recorded as it is (no canonical JSON form, a bad field)."""


class AuditQueryError(AuditError, ValueError):
    """A query, export or verify request with a bad parameter."""

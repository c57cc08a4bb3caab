"""The scopes a token may carry (what each allows: :mod:`.identity`).

A module of its own so that the command line can offer them (``sandbox tokens create
--scope``) without importing the HTTP layer.
"""

from __future__ import annotations

__all__ = ["ADMIN_SCOPES", "SCOPES"]

SCOPES = ("execute", "bash", "workspaces:read", "workspaces:write", "toolsets:write",
          "approvals:decide", "audit:read", "admin", "operator")
"""Every scope a token may carry, in the order the documentation lists them."""

ADMIN_SCOPES = frozenset(SCOPES) - {"admin", "operator"}
"""What ``admin`` holds within its own tenant."""

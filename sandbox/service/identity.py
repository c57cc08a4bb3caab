"""Who is asking: tenants, bearer tokens and their scopes, and the check each route makes.

A request acts as one :class:`Principal`: a tenant, a name (the token's, recorded in the audit
log and on decisions) and a set of scopes. The guard (:mod:`.app`) resolves it from the
``Authorization`` header before any route runs:

- a token made by ``sandbox tokens create`` / ``POST /v1/admin/tokens`` (stored only as its
  SHA-256; revocable; may expire): its tenant, name and scopes;
- ``SANDBOX_TOKEN``: the bootstrap operator (tenant ``default``, name ``bootstrap``);
- no header, while no token of either kind exists: the single local user (an operator named
  ``local``), which is how the service runs on 127.0.0.1 with nothing configured.

Scopes: ``execute``, ``bash``, ``workspaces:read``, ``workspaces:write``, ``toolsets:write``,
``approvals:decide``, ``audit:read``; ``admin`` holds all of them within its tenant;
``operator`` is admin in every tenant. An operator acts in its own tenant unless the request
names another in the ``Sandbox-Tenant`` header.

Each route declares what it needs with ``Depends(requires(...))``; the dependency is a
:class:`Requires`, so the route table itself says which scope each route takes (the
isolation tests read it from there). A missing scope is ``403 forbidden``; another tenant's
resource is a plain ``404`` (its routes look only in the caller's tenant).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from workspace import DEFAULT_TENANT

from .errors import HTTPError
from .scopes import ADMIN_SCOPES, SCOPES

__all__ = [
    "ADMIN_SCOPES",
    "LOCAL",
    "SCOPES",
    "TENANT_HEADER",
    "Principal",
    "Requires",
    "current_principal",
    "hash_token",
    "new_token",
    "requires",
]

TENANT_HEADER = "sandbox-tenant"
"""The header an operator names another tenant with."""

TOKEN_PREFIX = "sbx_"


@dataclass(frozen=True)
class Principal:
    """The identity a request acts as."""

    tenant: str
    name: str
    scopes: frozenset[str] = field(default_factory=frozenset)
    token_id: str | None = None
    """The stored token's public id; None for the bootstrap token and the local user."""
    home_tenant: str | None = None
    """An operator acting in another tenant: the tenant its token belongs to."""

    @property
    def operator(self) -> bool:
        return "operator" in self.scopes

    def allows(self, scope: str) -> bool:
        if self.operator:
            return True
        if scope == "operator":
            return False
        return scope in self.scopes or ("admin" in self.scopes and scope in ADMIN_SCOPES | {"admin"})

    def acting_in(self, tenant: str) -> Principal:
        """This operator acting in ``tenant`` (the caller checked that it exists)."""
        return Principal(tenant=tenant, name=self.name, scopes=self.scopes,
                         token_id=self.token_id, home_tenant=self.home_tenant or self.tenant)

    def to_dict(self) -> dict[str, Any]:
        return {"tenant": self.tenant, "name": self.name, "scopes": sorted(self.scopes),
                "token_id": self.token_id,
                **({"home_tenant": self.home_tenant} if self.home_tenant else {})}


LOCAL = Principal(tenant=DEFAULT_TENANT, name="local", scopes=frozenset({"operator"}))
"""The one user of a service that has no token configured (bound to 127.0.0.1)."""

BOOTSTRAP = Principal(tenant=DEFAULT_TENANT, name="bootstrap", scopes=frozenset({"operator"}))
"""``SANDBOX_TOKEN``'s holder."""

PRINCIPAL_KEY = "sandbox.principal"
"""Where the guard leaves the request's principal in the ASGI scope."""


def new_token() -> tuple[str, str, str]:
    """A fresh token: ``(token, token_id, sha256 hex)``. 256 random bits after the prefix;
    the id (public, for listing and revoking) is not derived from the secret part."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, "tok_" + secrets.token_hex(8), hash_token(token)


def hash_token(token: str) -> str:
    """What the store keeps of a token. A fast hash suffices: tokens are 256-bit random, so
    there is no dictionary to try."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def same_secret(supplied: str, expected: str) -> bool:
    return hmac.compare_digest(supplied.encode("utf-8", "surrogateescape"),
                               expected.encode("utf-8", "surrogateescape"))


def current_principal(request: Request) -> Principal:
    """The principal the guard resolved for this request (the local user when there is none:
    an app driven without the guard, such as the stdio MCP server)."""
    found = request.scope.get(PRINCIPAL_KEY)
    return found if isinstance(found, Principal) else LOCAL


class Requires:
    """A route's dependency: the principal, if it holds one of ``scopes`` (else 403)."""

    def __init__(self, *scopes: str) -> None:
        unknown = [s for s in scopes if s not in SCOPES]
        if unknown or not scopes:
            raise ValueError(f"unknown scopes {unknown}")
        self.scopes = scopes

    async def __call__(self, request: Request) -> Principal:
        # async: FastAPI runs a plain function dependency in its thread pool, a hop per request.
        return self.check(request)

    def check(self, request: Request) -> Principal:
        """The principal of ``request`` if it holds one of the scopes; else 403."""
        who = current_principal(request)
        if not any(who.allows(scope) for scope in self.scopes):
            wanted = " or ".join(self.scopes)
            raise HTTPError(403, "forbidden", f"this token lacks the {wanted} scope",
                            details={"required": list(self.scopes),
                                     "granted": sorted(who.scopes)})
        return who

    def __repr__(self) -> str:
        return f"requires({', '.join(map(repr, self.scopes))})"


def requires(*scopes: str) -> Requires:
    """``Depends(requires("execute"))``: the route needs one of ``scopes``."""
    return Requires(*scopes)


def expiry_of(expires_in_s: float | None, at: float | None = None) -> float | None:
    return None if expires_in_s is None else (at if at is not None else time.time()) + expires_in_s

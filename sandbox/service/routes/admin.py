"""``/v1/admin``: tenants and tokens, and who the caller is.

- ``GET    /v1/admin/whoami``                       the principal this request acts as
- ``GET    /v1/admin/tenants``, ``POST`` ``{name}``   every tenant / a new one (``operator``)
- ``GET    /v1/admin/tokens?tenant=``                 tokens, never their secrets (``admin``)
- ``POST   /v1/admin/tokens`` ``{name, scopes, tenant?, expires_in_s?}``  a new token, shown once
- ``DELETE /v1/admin/tokens/{id}``                    revoke it

An ``admin`` works within its own tenant and may hand out only scopes it holds itself
(``admin`` included, ``operator`` never); an ``operator`` works in any tenant.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from workspace import TENANT_NAME

from .. import audit_events, state
from ..errors import HTTPError, documented
from ..identity import SCOPES, Principal, expiry_of, requires
from ..responses import SafeJSONResponse
from ..tokens import TOKEN_NAME
from .params import RequestBody

Admin = Annotated[Principal, Depends(requires("admin"))]
Operator = Annotated[Principal, Depends(requires("operator"))]
Anyone = Annotated[Principal, Depends(requires(*SCOPES))]

router = APIRouter(prefix="/v1/admin", tags=["admin"], default_response_class=SafeJSONResponse,
                   responses=documented(404, 409))


class TenantBody(RequestBody):
    name: str = Field(pattern=TENANT_NAME, description="The new tenant's name.")


class TokenBody(RequestBody):
    name: str = Field(pattern=TOKEN_NAME,
                      description="The principal the audit log and decisions record.")
    scopes: list[str] = Field(min_length=1, max_length=len(SCOPES),
                              json_schema_extra={"items": {"enum": list(SCOPES)}})
    tenant: str | None = Field(None, pattern=TENANT_NAME,
                               description="Default: the caller's tenant (another takes operator).")
    expires_in_s: float | None = Field(None, gt=0, le=10 * 365 * 86_400,
                                       description="Seconds until it stops working.")


@router.get("/whoami")
async def whoami(who: Anyone) -> dict[str, Any]:
    return who.to_dict()


@router.get("/tenants")
async def list_tenants(request: Request, who: Operator) -> dict[str, Any]:
    return {"tenants": await state.identity(request).list_tenants()}


@router.post("/tenants", status_code=201)
async def create_tenant(body: TenantBody, request: Request, who: Operator) -> dict[str, Any]:
    created = await state.identity(request).create_tenant(body.name)
    await audit_events.record(request, who, "tenant.created", {"tenant": body.name},
                              tenant=body.name)
    return created


def _tenant_for(who: Principal, asked: str | None) -> str:
    if asked is None or asked == who.tenant:
        return who.tenant
    if not who.operator:
        # Another tenant's tokens do not exist as far as this caller can tell.
        raise HTTPError(404, "not_found", f"tenant {asked!r} not found")
    return asked


@router.get("/tokens")
async def list_tokens(request: Request, who: Admin,
                      tenant: str | None = Query(None, pattern=TENANT_NAME)) -> dict[str, Any]:
    tokens = await state.identity(request).list_tokens(_tenant_for(who, tenant))
    return {"tokens": [t.to_dict() for t in tokens]}


@router.post("/tokens", status_code=201)
async def create_token(body: TokenBody, request: Request, who: Admin) -> dict[str, Any]:
    tenant = _tenant_for(who, body.tenant)
    beyond = sorted(s for s in set(body.scopes) if not who.allows(s))
    if beyond:
        raise HTTPError(403, "forbidden", f"a token may not be given scopes its maker lacks: "
                                          f"{', '.join(beyond)}")
    token, info = await state.identity(request).create_token(
        tenant=tenant, name=body.name, scopes=body.scopes, expires_at=expiry_of(body.expires_in_s))
    await audit_events.record(request, who, "token.created", {"token_id": info.id},
                              {"tenant": tenant, "name": body.name, "scopes": sorted(body.scopes),
                               "expires_at": info.expires_at}, tenant=tenant)
    return {**info.to_dict(), "token": token,
            "note": "the token is shown this once; only its hash is stored"}


@router.delete("/tokens/{token_id}")
async def revoke_token(token_id: str, request: Request, who: Admin) -> dict[str, Any]:
    store = state.identity(request)
    found = await store.get_token(token_id)
    if found is None or (found.tenant != who.tenant and not who.operator):
        raise HTTPError(404, "not_found", f"token {token_id} not found")
    revoked = await store.revoke_token(token_id)
    if revoked is None:
        raise HTTPError(409, "conflict", f"token {token_id} is already revoked")
    await audit_events.record(request, who, "token.revoked", {"token_id": token_id},
                              {"tenant": found.tenant, "name": found.name}, tenant=found.tenant)
    return revoked.to_dict()

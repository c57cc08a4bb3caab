"""``/v1/audit``: read the tamper-evident audit log and verify it (scope ``audit:read``).

- ``GET /v1/audit?tenant=&event=&principal=&subject=k=v&since=&until=&after_seq=&limit=``
  entries in seq order; page on with ``after_seq`` = the previous page's ``next_after_seq``
  (``event`` ending in ``.`` is a family: ``execution.``). A token sees its own tenant's
  entries only (another tenant named in ``tenant`` matches nothing); an operator sees every
  tenant's, or the one ``tenant`` names.
- ``GET /v1/audit/verify``   the whole chain against its checkpoints: ``{ok, count, head,
  first_bad_seq, reason, ...}`` (200 either way: a failed verification is an answer). The
  chain is one for all tenants, so the report is about the whole log.

Signing checkpoints and exporting are operator commands (``sandbox audit``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import StringConstraints

from .. import state
from ..errors import documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse

router = APIRouter(prefix="/v1/audit", tags=["audit"], default_response_class=SafeJSONResponse,
                   responses=documented(403, 422))

Auditor = Annotated[Principal, Depends(requires("audit:read"))]

MAX_LIST_LIMIT = 1000
EVENT_FILTER = r"^[a-z][a-z0-9_.]{0,99}$"
SUBJECT_FILTER = r"^[A-Za-z_][A-Za-z0-9_]{0,63}=.{1,500}$"


@router.get("")
async def list_audit(
    request: Request,
    who: Auditor,
    tenant: str | None = Query(None, min_length=1, max_length=1000),
    event: str | None = Query(None, pattern=EVENT_FILTER,
                              description="An event name, or a family ending in '.'."),
    principal: str | None = Query(None, max_length=1000),
    subject: list[Annotated[str, StringConstraints(pattern=SUBJECT_FILTER)]] | None = Query(
        None, description="`name=id` (repeatable): entries about it."),
    since: float | None = Query(None, ge=0, le=1e11, description="Epoch seconds, inclusive."),
    until: float | None = Query(None, ge=0, le=1e11, description="Epoch seconds, exclusive."),
    after_seq: int = Query(0, ge=0, le=2**62),
    limit: int = Query(100, ge=1, le=MAX_LIST_LIMIT),
) -> dict[str, Any]:
    subjects = dict(item.split("=", 1) for item in subject or [])
    if not who.operator:
        if tenant is not None and tenant != who.tenant:
            return {"entries": [], "next_after_seq": None}
        tenant = who.tenant
    entries = await state.audit_log(request).query(
        tenant=tenant, event=event, principal=principal, subject=subjects or None,
        since=since, until=until, after_seq=after_seq, limit=limit)
    return {"entries": [e.to_dict() for e in entries],
            "next_after_seq": entries[-1].seq if len(entries) == limit else None}


@router.get("/verify")
async def verify_audit(request: Request, who: Auditor) -> dict[str, Any]:
    report = await state.audit_log(request).verify()
    return report.to_dict()

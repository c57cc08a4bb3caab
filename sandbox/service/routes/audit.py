"""``/v1/audit``: read the tamper-evident audit log and verify it (scope ``audit:read``).

- ``GET /v1/audit?tenant=&event=&principal=&subject=k=v&since=&until=&after_seq=&limit=``
  entries in seq order; page on with ``after_seq`` = the previous page's ``next_after_seq``.
  ``order=desc`` lists newest first (what the console shows), paged with ``before_seq`` =
  the previous page's ``next_before_seq``
  (``event`` ending in ``.`` is a family: ``execution.``). A token sees its own tenant's
  entries only (another tenant named in ``tenant`` matches nothing); an operator sees every
  tenant's, or the one ``tenant`` names.
- ``GET /v1/audit/verify``   the whole chain against its checkpoints: ``{ok, count, head,
  first_bad_seq, reason, last_checkpoint: {seq, time, ...}, scope}`` (200 either way: a
  failed verification is an answer). The chain is one for all tenants and is always walked
  whole; what the answer tells depends on who asks. An operator gets the whole log's report
  (``scope: "log"``). A tenant's token gets ``scope: "tenant"``: the verdict on the chain
  (its entries are only as trustworthy as the chain), but ``count`` and ``head`` of its own
  entries, and the first bad seq and its reason only when that entry is its own (else
  ``first_bad_seq`` is null and the reason says an operator can see which).
- ``GET /v1/audit/export?tenant=&since=&until=``  the signed export ``sandbox audit export``
  writes, as one tar (``manifest.json``, ``entries.jsonl``) that ``sandbox audit verify
  --export FILE`` checks offline. A token exports its own tenant's entries only.

Signing checkpoints is an operator command (``sandbox audit checkpoint``).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import StringConstraints

from audit import VerifyReport, export_archive

from .. import state
from ..errors import HTTPError, documented
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
    before_seq: int | None = Query(None, ge=1, le=2**62),
    order: Literal["asc", "desc"] = "asc",
    limit: int = Query(100, ge=1, le=MAX_LIST_LIMIT),
) -> dict[str, Any]:
    subjects = dict(item.split("=", 1) for item in subject or [])
    if not who.operator:
        if tenant is not None and tenant != who.tenant:
            return {"entries": [], "next_after_seq": None, "next_before_seq": None}
        tenant = who.tenant
    newest_first = order == "desc"
    entries = await state.audit_log(request).query(
        tenant=tenant, event=event, principal=principal, subject=subjects or None,
        since=since, until=until, after_seq=after_seq, before_seq=before_seq,
        newest_first=newest_first, limit=limit)
    more = len(entries) == limit
    return {"entries": [e.to_dict() for e in entries],
            "next_after_seq": entries[-1].seq if more and not newest_first else None,
            "next_before_seq": entries[-1].seq if more and newest_first else None}


@router.get("/verify")
async def verify_audit(request: Request, who: Auditor) -> dict[str, Any]:
    log = state.audit_log(request)
    report = await log.verify()
    if who.operator:
        return {**report.to_dict(), "scope": "log"}
    return await _tenant_view(report, who.tenant, log)


async def _tenant_view(report: VerifyReport, tenant: str, log: Any) -> dict[str, Any]:
    count, head = await log.tenant_head(tenant)
    view = {**report.to_dict(), "scope": "tenant", "tenant": tenant, "count": count,
            "head": head}
    if not report.ok and report.first_bad_seq is not None and (
            await log.tenant_of(report.first_bad_seq)) != tenant:
        view["first_bad_seq"] = None
        view["reason"] = ("an entry of another tenant fails verification (the chain is shared; "
                          "an operator can see which)")
    return view


@router.get("/export", response_class=Response,
            responses={200: {"content": {"application/x-tar": {}},
                             "description": "The signed export as a tar."}})
async def export_audit(
    request: Request,
    who: Auditor,
    tenant: str | None = Query(None, min_length=1, max_length=1000),
    since: float | None = Query(None, ge=0, le=1e11, description="Epoch seconds, inclusive."),
    until: float | None = Query(None, ge=0, le=1e11, description="Epoch seconds, exclusive."),
) -> Response:
    if not who.operator:
        if tenant is not None and tenant != who.tenant:
            raise HTTPError(403, "forbidden", f"this token exports only tenant {who.tenant!r}")
        tenant = who.tenant
    if since is not None and until is not None and until < since:
        until = since  # an empty range, as the list answers it
    log = state.audit_log(request)
    if log.key is None:
        raise HTTPError(409, "conflict", "the audit log has no signing key: an export "
                                         "cannot be signed")
    with tempfile.TemporaryDirectory(prefix="audit-export-") as scratch:
        manifest = await log.export(Path(scratch) / "export", tenant=tenant, since=since,
                                    until=until)
        body = await asyncio.to_thread(export_archive, Path(scratch) / "export")
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(float(manifest["exported_at"])))
    name = f"audit-export-{tenant or 'all'}-{stamp}.tar"
    return Response(body, media_type="application/x-tar", headers={
        "Content-Disposition": f'attachment; filename="{_safe(name)}"',
        "Cache-Control": "no-store"})


def _safe(name: str) -> str:
    """A file name fit for a header (ASCII; a tenant's name may be anything)."""
    return "".join(c if (c.isascii() and c.isalnum()) or c in "-_." else "_" for c in name)

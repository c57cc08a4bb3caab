"""``/v1/approvals``: what a human answers, and the answers.

- ``GET  /v1/approvals?workspace=&status=pending``                the list to answer
- ``GET  /v1/approvals/{id}``                                      one approval, decided or not
- ``POST /v1/approvals/{id}/approve`` ``{by?, granted_permissions?}``  -> the resumed outcome
- ``POST /v1/approvals/{id}/reject``  ``{by?, reason?}``

The first decision wins; a late or racing one is a 409 that changes nothing (the error map
answers :class:`codemode.ExecutionConflict`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import Field

from codemode import APPROVAL_STATES, ApprovalNotFound

from .. import state
from ..errors import documented
from ..responses import SafeJSONResponse
from .params import RequestBody, one_of

router = APIRouter(prefix="/v1/approvals", tags=["approvals"],
                   default_response_class=SafeJSONResponse,
                   responses=documented(400, 404, 409))

_NAME = Field(default="api", min_length=1, max_length=200,
              description="Who decides, recorded with the decision (an operator's name or id).")


class ApproveBody(RequestBody):
    by: str = _NAME
    granted_permissions: list[str] | None = Field(
        default=None, max_length=1000,
        description="Permissions for the resumed run, replacing those of the request (a revocation).")


class ReasonBody(RequestBody):
    by: str = _NAME
    reason: str | None = Field(default=None, max_length=8_000)


@router.get("")
async def list_approvals(request: Request, workspace: str | None = None,
                         status: str = Query("pending", pattern=one_of(APPROVAL_STATES)),
                         limit: int = Query(500, ge=1, le=5000)) -> dict[str, Any]:
    store = state.codemode_store(request)
    approvals = await store.list_approvals(workspace=workspace, status=status, limit=limit)
    return {"approvals": [a.to_dict() for a in approvals]}


@router.get("/{approval_id}")
async def get_approval(approval_id: str, request: Request) -> dict[str, Any]:
    approval = await state.codemode_store(request).get_approval(approval_id)
    if approval is None:
        raise ApprovalNotFound(approval_id)
    return approval.to_dict()


@router.post("/{approval_id}/approve")
async def approve(approval_id: str, request: Request,
                  body: ApproveBody | None = None) -> dict[str, Any]:
    body = body or ApproveBody()
    return await state.executions(request).approve(
        approval_id, by=body.by, granted_permissions=body.granted_permissions)


@router.post("/{approval_id}/reject")
async def reject(approval_id: str, request: Request,
                 body: ReasonBody | None = None) -> dict[str, Any]:
    body = body or ReasonBody()
    return await state.executions(request).reject(approval_id, by=body.by, reason=body.reason)

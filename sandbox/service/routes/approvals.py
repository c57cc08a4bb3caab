"""``/v1/approvals``: what a human answers, and the answers.

- ``GET  /v1/approvals?workspace=&status=pending``                the list to answer
- ``GET  /v1/approvals/{id}``                                      one approval, decided or not
- ``POST /v1/approvals/{id}/approve`` ``{note?, granted_permissions?}``  -> the resumed outcome
- ``POST /v1/approvals/{id}/reject``  ``{reason?}``

The first decision wins; a late or racing one is a 409 that changes nothing (the error map
answers :class:`codemode.ExecutionConflict`). A decision records the deciding token's tenant
and name; a note (``by`` is read as one, for clients of before tokens) is kept beside it and
is never the identity. ``granted_permissions`` may narrow the permissions the run started
with, never widen them (403). Deciding takes ``approvals:decide``; reading, that or
``execute`` (an agent host follows its own parked runs). Only the caller's tenant is seen.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import Field

from codemode import APPROVAL_STATES

from .. import state
from ..errors import documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse
from .owned import owned_approval
from .params import RequestBody, one_of

Decider = Annotated[Principal, Depends(requires("approvals:decide"))]
Reader = Annotated[Principal, Depends(requires("approvals:decide", "execute"))]

router = APIRouter(prefix="/v1/approvals", tags=["approvals"],
                   default_response_class=SafeJSONResponse,
                   responses=documented(400, 404, 409))

_NOTE = Field(default=None, max_length=8_000,
              description="A free-text note recorded with the decision (not the identity: "
                          "that is the token's).")
_BY = Field(default=None, min_length=1, max_length=200,
            description="Deprecated: read as a note; the decider is the token's name.")


class ApproveBody(RequestBody):
    note: str | None = _NOTE
    by: str | None = _BY
    granted_permissions: list[str] | None = Field(
        default=None, max_length=1000,
        description="Permissions for the resumed run: a subset of those it started with "
                    "(narrowing; a permission it was not granted is refused with 403).")

    @property
    def note_text(self) -> str | None:
        return _note(self.note, self.by)


class ReasonBody(RequestBody):
    reason: str | None = Field(default=None, max_length=8_000)
    note: str | None = _NOTE
    by: str | None = _BY

    @property
    def note_text(self) -> str | None:
        return _note(self.reason or self.note, self.by)


def _note(text: str | None, by: str | None) -> str | None:
    if by is None:
        return text
    return f"{by}: {text}" if text else f"by {by}"


@router.get("")
async def list_approvals(request: Request, who: Reader, workspace: str | None = None,
                         status: str = Query("pending", pattern=one_of(APPROVAL_STATES)),
                         limit: int = Query(500, ge=1, le=5000)) -> dict[str, Any]:
    store = state.codemode_store(request)
    approvals = await store.list_approvals(workspace=workspace, status=status, limit=limit,
                                           tenant=who.tenant)
    return {"approvals": [a.to_dict() for a in approvals]}


@router.get("/{approval_id}")
async def get_approval(approval_id: str, request: Request, who: Reader) -> dict[str, Any]:
    return (await owned_approval(request, who, approval_id)).to_dict()


# The resumed run's outcome is sent as it is (``SafeJSONResponse``): it is plain JSON
# already, but for a large result carried as its text, which FastAPI's encoder cannot write.
@router.post("/{approval_id}/approve", response_model=dict[str, Any])
async def approve(approval_id: str, request: Request, who: Decider,
                  body: ApproveBody | None = None) -> Response:
    body = body or ApproveBody()
    await owned_approval(request, who, approval_id)
    return SafeJSONResponse(await state.executions(request).approve(
        approval_id, by=who.name, tenant=who.tenant, note=body.note_text,
        granted_permissions=body.granted_permissions))


@router.post("/{approval_id}/reject", response_model=dict[str, Any])
async def reject(approval_id: str, request: Request, who: Decider,
                 body: ReasonBody | None = None) -> Response:
    body = body or ReasonBody()
    await owned_approval(request, who, approval_id)
    return SafeJSONResponse(await state.executions(request).reject(
        approval_id, by=who.name, tenant=who.tenant, reason=body.note_text))

"""HTTP routes of durable executions: approvals, client tool results, rollback, events, sweep.

- ``GET  /v1/approvals?workspace=&status=pending``     the list a human answers
- ``GET  /v1/approvals/{id}``                           one approval, decided or not
- ``POST /v1/approvals/{id}/approve`` ``{by?, granted_permissions?}``  -> the resumed outcome
- ``POST /v1/approvals/{id}/reject``  ``{by?, reason?}``
- ``POST /v1/executions/{id}/calls/{seq}/result`` ``{output}`` or ``{error: {name?, message}}``
- ``POST /v1/executions/{id}/cancel``  ``{by?, reason?}``  end a running or parked execution
- ``POST /v1/executions/{id}/rollback``
- ``GET  /v1/executions/{id}/events``                  Server-Sent Events
- ``POST /v1/executions/sweep``                        run the expiry/recovery sweep now

The decisions themselves live in :class:`codemode.Executions`; errors it raises become JSON
in ``sandbox.app`` (409 for a decision that does not fit the execution's state).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from codemode import APPROVAL_STATES, ApprovalNotFound, CodeModeStore, Executions
from codemode import EventBus, sse_stream

from .codemode_routes import SafeJSONResponse

__all__ = ["durable_router"]

_NAME = Field(default="api", min_length=1, max_length=200,
              description="Who decides, recorded with the decision (an operator's name or id).")


class ApproveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: str = _NAME
    granted_permissions: list[str] | None = Field(
        default=None, max_length=1000,
        description="Permissions for the resumed run, replacing those of the request (a revocation).")


class ReasonBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: str = _NAME
    reason: str | None = Field(default=None, max_length=8_000)


class SweepBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    paused_ttl_s: float | None = Field(
        default=None, ge=0, description="Expire parked executions older than this (default: the "
                                        "service's TTL, 24 h).")
    recover_running: bool | None = Field(
        default=None, description="Resume abandoned running executions (true) or mark them "
                                  "'Expired while running' (false); default: the service's setting.")


class ToolErrorBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("Error", min_length=1, max_length=200)
    message: str = Field(max_length=100_000)


class ToolResultBody(BaseModel):
    """Exactly one of ``output`` (any JSON, null included) or ``error``."""

    model_config = ConfigDict(extra="forbid")
    output: Any = None
    error: ToolErrorBody | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "ToolResultBody":
        given = self.model_fields_set
        if ("output" in given) == ("error" in given):
            raise ValueError('give exactly one of "output" or "error"')
        return self


def _executions(request: Request) -> Executions:
    executions: Executions = request.app.state.executions
    return executions


def durable_router() -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["durable"], default_response_class=SafeJSONResponse)

    @router.get("/approvals")
    async def list_approvals(request: Request, workspace: str | None = None,
                             status: str = "pending",
                             limit: int = Query(500, ge=1, le=5000)) -> dict[str, Any]:
        if status not in APPROVAL_STATES:
            raise HTTPException(400, f"unknown status {status!r}; expected one of "
                                     f"{', '.join(sorted(APPROVAL_STATES))}")
        store: CodeModeStore = request.app.state.codemode
        approvals = await store.list_approvals(workspace=workspace, status=status, limit=limit)
        return {"approvals": [a.to_dict() for a in approvals]}

    @router.get("/approvals/{approval_id}")
    async def get_approval(approval_id: str, request: Request) -> dict[str, Any]:
        store: CodeModeStore = request.app.state.codemode
        approval = await store.get_approval(approval_id)
        if approval is None:
            raise ApprovalNotFound(approval_id)
        return approval.to_dict()

    @router.post("/approvals/{approval_id}/approve")
    async def approve(approval_id: str, request: Request,
                      body: ApproveBody | None = None) -> dict[str, Any]:
        body = body or ApproveBody()
        return await _executions(request).approve(
            approval_id, by=body.by, granted_permissions=body.granted_permissions)

    @router.post("/approvals/{approval_id}/reject")
    async def reject(approval_id: str, request: Request,
                     body: ReasonBody | None = None) -> dict[str, Any]:
        body = body or ReasonBody()
        return await _executions(request).reject(approval_id, by=body.by, reason=body.reason)

    @router.post("/executions/sweep")
    async def sweep(request: Request, body: SweepBody | None = None) -> dict[str, Any]:
        body = body or SweepBody()
        return await _executions(request).sweep(paused_ttl_s=body.paused_ttl_s,
                                                recover_running=body.recover_running)

    @router.post("/executions/{execution_id}/calls/{seq}/result")
    async def tool_result(execution_id: str, seq: int, body: ToolResultBody,
                          request: Request) -> dict[str, Any]:
        error = body.error.model_dump() if body.error is not None else None
        return await _executions(request).submit_result(execution_id, seq, output=body.output,
                                                        error=error)

    @router.post("/executions/{execution_id}/cancel")
    async def cancel(execution_id: str, request: Request,
                     body: ReasonBody | None = None) -> dict[str, Any]:
        body = body or ReasonBody()
        return await _executions(request).cancel(execution_id, by=body.by, reason=body.reason)

    @router.post("/executions/{execution_id}/rollback")
    async def rollback(execution_id: str, request: Request) -> dict[str, Any]:
        return await _executions(request).rollback(execution_id)

    @router.get("/executions/{execution_id}/events")
    async def events(execution_id: str, request: Request,
                     last_event_id: str | None = Header(None)) -> StreamingResponse:
        bus: EventBus = request.app.state.events
        store: CodeModeStore = request.app.state.codemode
        heartbeat = float(request.app.state.settings.events_heartbeat_s)
        stream = sse_stream(bus, execution_id, store.get_execution,
                            last_event_id=last_event_id, heartbeat_s=heartbeat)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return router

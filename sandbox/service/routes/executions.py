"""``/v1/executions``: the record of every execution (its journal and approvals), and what can
be done to one: give a client-resolved call its result, cancel, roll back, follow its events.

- ``GET    /v1/executions?workspace=&status=&limit=``       the records, newest first
- ``GET    /v1/executions/{id}``                              record, journal and approvals
- ``DELETE /v1/executions/{id}``                              not while it runs
- ``POST   /v1/executions/{id}/calls/{seq}/result``  ``{output}`` or ``{error: {name?, message}}``
- ``POST   /v1/executions/{id}/cancel``  ``{by?, reason?}``   end a running or parked execution
- ``POST   /v1/executions/{id}/rollback``
- ``GET    /v1/executions/{id}/events``                       Server-Sent Events
- ``POST   /v1/executions/sweep``                             the expiry/recovery sweep, now

The decisions live in :class:`codemode.Executions`; what it raises is answered by the
service's error map (409 for a request that does not fit the execution's state).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import ConfigDict, Field, StrictBool, model_validator

from codemode import EXECUTION_STATES, sse_stream

from .. import state
from ..errors import HTTPError, documented
from ..responses import SafeJSONResponse
from .approvals import ReasonBody
from .params import RequestBody, one_of

router = APIRouter(prefix="/v1/executions", tags=["executions"],
                   default_response_class=SafeJSONResponse,
                   responses=documented(400, 404, 409))

MAX_LIST_LIMIT = 1000


class SweepBody(RequestBody):
    paused_ttl_s: float | None = Field(
        default=None, ge=0, description="Expire parked executions older than this (default: the "
                                        "service's TTL, 24 h).")
    recover_running: StrictBool | None = Field(
        default=None, description="Resume abandoned running executions (true) or mark them "
                                  "'Expired while running' (false); default: the service's setting.")


class ToolErrorBody(RequestBody):
    name: str = Field("Error", min_length=1, max_length=200)
    message: str = Field(max_length=100_000)


class ToolResultBody(RequestBody):
    """Exactly one of ``output`` (any JSON, null included) or ``error``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["output"]}, {"required": ["error"]}]})
    output: Any = None
    error: ToolErrorBody | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "ToolResultBody":
        given = self.model_fields_set
        if ("output" in given) == ("error" in given):
            raise ValueError('give exactly one of "output" or "error"')
        return self


@router.get("")
async def list_executions(
    request: Request,
    workspace: str | None = None,
    status: str | None = Query(None, pattern=one_of(EXECUTION_STATES)),
    limit: int = Query(default=100, ge=1, le=MAX_LIST_LIMIT),
) -> dict[str, Any]:
    records = await state.codemode_store(request).list_executions(
        workspace=workspace, status=status, limit=limit
    )
    return {"executions": [r.to_dict(with_journal=False) for r in records]}


@router.post("/sweep")
async def sweep(request: Request, body: SweepBody | None = None) -> dict[str, Any]:
    body = body or SweepBody()
    return await state.executions(request).sweep(paused_ttl_s=body.paused_ttl_s,
                                                 recover_running=body.recover_running)


@router.get("/{execution_id}")
async def get_execution(execution_id: str, request: Request) -> dict[str, Any]:
    store = state.codemode_store(request)
    record = await store.get_execution(execution_id)
    if record is None:
        raise HTTPError(404, "not_found", f"execution {execution_id} not found")
    view = record.to_dict()
    # Who decided what, and when: the human half of the audit trail.
    view["approvals"] = [a.to_dict() for a in
                         await store.list_approvals(execution_id=execution_id, status=None)]
    return view


@router.delete("/{execution_id}")
async def delete_execution(execution_id: str, request: Request) -> dict[str, Any]:
    store = state.codemode_store(request)
    record = await store.get_execution(execution_id, with_journal=False)
    if record is not None and record.status == "running":
        # Its journal is being written; deleting it would fail the run half-way.
        raise HTTPError(409, "conflict", f"execution {execution_id} is running; delete it "
                                         "once it has finished or parked")
    if not await store.delete_execution(execution_id):
        raise HTTPError(404, "not_found", f"execution {execution_id} not found")
    return {"deleted": execution_id}


@router.post("/{execution_id}/calls/{seq}/result")
async def tool_result(execution_id: str, seq: int, body: ToolResultBody,
                      request: Request) -> dict[str, Any]:
    error = body.error.model_dump() if body.error is not None else None
    return await state.executions(request).submit_result(execution_id, seq, output=body.output,
                                                         error=error)


@router.post("/{execution_id}/cancel")
async def cancel(execution_id: str, request: Request,
                 body: ReasonBody | None = None) -> dict[str, Any]:
    body = body or ReasonBody()
    return await state.executions(request).cancel(execution_id, by=body.by, reason=body.reason)


@router.post("/{execution_id}/rollback")
async def rollback(execution_id: str, request: Request) -> dict[str, Any]:
    return await state.executions(request).rollback(execution_id)


@router.get("/{execution_id}/events", response_class=StreamingResponse)
async def events(execution_id: str, request: Request,
                 last_event_id: str | None = Header(None)) -> StreamingResponse:
    store = state.codemode_store(request)
    if await store.get_execution(execution_id, with_journal=False) is None:
        raise HTTPError(404, "not_found", f"execution {execution_id} not found")
    heartbeat = float(state.settings(request).events_heartbeat_s)
    stream = sse_stream(state.events(request), execution_id, store.get_execution,
                        last_event_id=last_event_id, heartbeat_s=heartbeat)
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

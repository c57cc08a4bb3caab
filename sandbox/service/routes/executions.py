"""``/v1/executions``: the record of every execution (its journal and approvals), and what can
be done to one: give a client-resolved call its result, cancel, roll back, follow its events.

- ``GET    /v1/executions?workspace=&status=&since=&until=&limit=&before=``  the records,
  newest first; the next page is ``before`` = the previous page's ``next_before``
- ``GET    /v1/executions/{id}``                              record, journal and approvals
- ``GET    /v1/executions/{id}/trace``                        its spans, as a timeline
- ``DELETE /v1/executions/{id}``                              only once it has ended
- ``POST   /v1/executions/{id}/calls/{seq}/result``  ``{output}`` or ``{error: {name?, message}}``
- ``POST   /v1/executions/{id}/cancel``  ``{reason?}``        end a running or parked execution
- ``POST   /v1/executions/{id}/rollback``
- ``GET    /v1/executions/{id}/events``                       Server-Sent Events
- ``POST   /v1/executions/sweep``                             the expiry/recovery sweep, now

The decisions live in :class:`codemode.Executions`; what it raises is answered by the
service's error map (409 for a request that does not fit the execution's state). Every route
sees only the caller's tenant (:mod:`.owned`); reading and acting on executions takes the
``execute`` scope, deleting one ``admin`` (the audit log keeps its history either way), the
sweep ``operator`` (it covers every tenant).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import ConfigDict, Field, StrictBool, model_validator

from codemode import EXECUTION_STATES, TERMINAL_STATES, sse_stream

from .. import state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from ..recent_spans import RecentSpans, journal_timeline
from ..responses import SafeJSONResponse
from .approvals import ReasonBody
from .owned import owned_execution
from .params import RequestBody, one_of

Executor = Annotated[Principal, Depends(requires("execute"))]
Admin = Annotated[Principal, Depends(requires("admin"))]
Operator = Annotated[Principal, Depends(requires("operator"))]

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


CURSOR = r"^[0-9]{1,20}(\.[0-9]{1,20})?(e[+-]?[0-9]{1,2})?~[A-Za-z0-9_-]{1,200}$"
"""``<created_at>~<id>`` of the last execution shown (the float as Python writes it, exact)."""


def _cursor(text: str) -> tuple[float, str]:
    stamp, _, execution_id = text.partition("~")
    try:
        found = float(stamp)
    except ValueError:
        found = math.inf
    if not math.isfinite(found):
        raise HTTPError(422, "invalid_request", f"before={text!r} is not a next_before this "
                                                "service gave")
    return found, execution_id


@router.get("")
async def list_executions(
    request: Request,
    who: Executor,
    workspace: str | None = None,
    status: str | None = Query(None, pattern=one_of(EXECUTION_STATES)),
    limit: int = Query(default=100, ge=1, le=MAX_LIST_LIMIT),
    since: float | None = Query(None, description="Only those started at or after this time "
                                                   "(seconds since the epoch)."),
    until: float | None = Query(None, description="Only those started before this time."),
    before: str | None = Query(None, pattern=CURSOR, max_length=300,
                               description="The previous page's `next_before`: the page after it."),
) -> dict[str, Any]:
    after = None if before is None else _cursor(before)
    records = await state.codemode_store(request).list_executions(
        workspace=workspace, status=status, limit=limit, tenant=who.tenant, since=since,
        until=until, before=after)
    more = len(records) == limit
    return {"executions": [r.to_dict(with_journal=False) for r in records],
            "next_before": f"{records[-1].created_at!r}~{records[-1].id}" if more else None}


@router.post("/sweep")
async def sweep(request: Request, who: Operator, body: SweepBody | None = None) -> dict[str, Any]:
    body = body or SweepBody()
    return await state.executions(request).sweep(paused_ttl_s=body.paused_ttl_s,
                                                 recover_running=body.recover_running)


@router.get("/{execution_id}")
async def get_execution(execution_id: str, request: Request, who: Executor) -> dict[str, Any]:
    store = state.codemode_store(request)
    record = await owned_execution(request, who, execution_id, with_journal=True)
    view = record.to_dict()
    # Who decided what, and when: the human half of the audit trail.
    view["approvals"] = [a.to_dict() for a in
                         await store.list_approvals(execution_id=execution_id, status=None)]
    return view


@router.get("/{execution_id}/trace")
async def get_trace(execution_id: str, request: Request, who: Executor) -> dict[str, Any]:
    """The execution as a timeline of spans: the ones tracing produced (``source: "spans"``,
    kept in memory for the last traces while tracing is on), else spans made from its journal
    and approvals (``source: "journal"``: host calls and approval waits, no worker or guest
    timings)."""
    record = await owned_execution(request, who, execution_id, with_journal=True)
    kept: RecentSpans | None = getattr(request.app.state, "recent_spans", None)
    spans = [] if kept is None else kept.of_execution(execution_id)
    if spans:
        return {"execution_id": execution_id, "source": "spans", "spans": spans}
    approvals = await state.codemode_store(request).list_approvals(
        execution_id=execution_id, status=None)
    return {"execution_id": execution_id, "source": "journal",
            "kept": kept is not None, "spans": journal_timeline(record, approvals)}


@router.delete("/{execution_id}")
async def delete_execution(execution_id: str, request: Request, who: Admin) -> dict[str, Any]:
    store = state.codemode_store(request)
    record = await owned_execution(request, who, execution_id)
    if record.status not in TERMINAL_STATES:
        # Running, its journal is being written; parked, a human still has a decision to
        # make, and deleting it would take the pending approval with it.
        raise HTTPError(409, "conflict", f"execution {execution_id} is {record.status}; cancel "
                                         "it first, or delete it once it has ended")
    if not await store.delete_execution(execution_id, principal=who.name):
        raise HTTPError(404, "not_found", f"execution {execution_id} not found")
    return {"deleted": execution_id}


@router.post("/{execution_id}/calls/{seq}/result", response_model=dict[str, Any])
async def tool_result(execution_id: str, seq: int, body: ToolResultBody,
                      request: Request, who: Executor) -> Response:
    await owned_execution(request, who, execution_id)
    error = body.error.model_dump() if body.error is not None else None
    # Sent as it is, as an approval's resumed run is (see ``routes.approvals``).
    return SafeJSONResponse(await state.executions(request).submit_result(
        execution_id, seq, output=body.output, error=error))


@router.post("/{execution_id}/cancel")
async def cancel(execution_id: str, request: Request, who: Executor,
                 body: ReasonBody | None = None) -> dict[str, Any]:
    body = body or ReasonBody()
    await owned_execution(request, who, execution_id)
    return await state.executions(request).cancel(execution_id, by=who.name, tenant=who.tenant,
                                                  reason=body.note_text)


@router.post("/{execution_id}/rollback")
async def rollback(execution_id: str, request: Request, who: Executor) -> dict[str, Any]:
    await owned_execution(request, who, execution_id)
    return await state.executions(request).rollback(execution_id)


@router.get("/{execution_id}/events", response_class=StreamingResponse)
async def events(execution_id: str, request: Request, who: Executor,
                 last_event_id: str | None = Header(None)) -> StreamingResponse:
    store = state.codemode_store(request)
    await owned_execution(request, who, execution_id)
    heartbeat = float(state.settings(request).events_heartbeat_s)
    stream = sse_stream(state.events(request), execution_id, store.get_execution,
                        last_event_id=last_event_id, heartbeat_s=heartbeat)
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

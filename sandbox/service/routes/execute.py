"""``POST /v1/execute`` (Code Mode: Python in a fresh isolate, with tools and the workspace)
and ``GET /v1/execute/description`` (the tool description to hand a model)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from codemode import (
    STATE_DOC,
    ExecuteOptions,
    ExecutionPlan,
    ToolDefinitionError,
    execute_description,
    inline_tool,
)

from ... import Limits
from .. import state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse
from ..settings import CAP_MEMORY_MB, CAP_OUTPUT_BYTES, CAP_TIMEOUT_MS, MIB
from .params import TOOL_DEFINITION, WORKSPACE_NAME, RequestBody, capped, enabled, enforce_caps

Executor = Annotated[Principal, Depends(requires("execute"))]

router = APIRouter(prefix="/v1", tags=["execute"],
                   responses=documented(400, 403, 404, 409))


class ExecuteRequest(RequestBody):
    """Run Python in a fresh isolate, with the workspace and the named tools."""


    code: str = Field(description="Python source. A trailing expression's value is the result; "
                                  "top-level `return` is allowed; a whole-input markdown fence is stripped.")
    workspace: str = Field("default", min_length=1, max_length=200, pattern=WORKSPACE_NAME,
                           description="The workspace `state.*` reads and writes.")
    toolsets: list[str] = Field(default_factory=list, max_length=50,
                                description="Stored toolsets to expose, one namespace each.")
    connectors: list[str] = Field(default_factory=list, max_length=50,
                                  description="Stored connectors (MCP, OpenAPI) to expose, one "
                                              "namespace each.")
    tools: list[dict[str, Any]] = Field(default_factory=list, max_length=500,
                                        description="Inline tool definitions, exposed as `tools.*`.",
                                        json_schema_extra={"items": TOOL_DEFINITION})
    timeout_ms: int | None = Field(None, ge=1, le=CAP_TIMEOUT_MS,
                                   description="Wall-clock deadline (default 30,000; the service "
                                               "may cap it lower).")
    memory_mb: int | None = Field(None, ge=16, le=CAP_MEMORY_MB,
                                  description="Guest memory limit in MiB (default 256; the service "
                                              "may cap it lower).")
    max_output_bytes: int | None = Field(None, ge=1, le=CAP_OUTPUT_BYTES,
                                         description="Most bytes of printed output (default "
                                                     "1,000,000; the service may cap it lower).")
    granted_permissions: list[str] | None = Field(
        None, max_length=1000,
        description="Permissions granted to this execution; absent grants all. A tool needing "
                    "one not granted fails with ActionAuthorizationError.")
    approval_wait_ms: int = Field(
        0, ge=0, le=3_600_000,
        description="For tools with inline approval: how long this request waits for a decision "
                    "before the execution becomes a durable pause (bounded by the server).")
    engine: Literal["auto", "standard", "science"] = Field(
        "auto", description="The interpreter: `science` has numpy, pandas, scipy and matplotlib "
                            "(figures come back as PNG attachments, DataFrames as records); "
                            "`auto` picks it when the code imports one of them.")


class ErrorInfo(BaseModel):
    name: str
    message: str
    traceback: str = ""


class TrapInfo(BaseModel):
    kind: str = Field(description="deadline, memory, output, host_calls, code_size, trap or crash")
    message: str
    code: str | None = Field(None, description="For kind trap: which WebAssembly trap "
                                               "(stack_overflow, unreachable, ...).")


class CallInfo(BaseModel):
    seq: int
    namespace: str
    method: str
    args: Any = None
    state: str | None = None
    error: dict[str, Any] | None = None
    replayed: bool | None = Field(None, description="Answered from the journal of an earlier run.")
    ledger_replayed: bool | None = Field(
        None, description="Answered from the idempotency ledger: the action ran before.")
    approval_id: str | None = None


class PendingInfo(BaseModel):
    approval_id: str | None = None
    seq: int
    namespace: str
    method: str
    args: Any = None
    descriptor: dict[str, Any] | None = None


class ExecuteResponse(BaseModel):
    execution_id: str
    status: str = Field(description="completed, error, paused (a call awaits approval), "
                                    "awaiting_tool (a call awaits the client's result) or rejected")
    result: Any = None
    logs: list[str]
    error: ErrorInfo | None = None
    trap: TrapInfo | None = None
    calls: list[CallInfo] = Field(default_factory=list, description="Host calls made, in order.")
    pending: list[PendingInfo] | None = Field(None, description="What a parked execution waits for.")
    attachments: list[dict[str, Any]] | None = Field(
        None, description="What tools attached to their replies (never seen by the code), and "
                          "the figures the code made: {type: image, media_type, data: base64}.")
    result_text: str | None = Field(
        None, description="A readable table of a DataFrame or Series result (science engine).")
    engine: str | None = Field(None, description="Which interpreter ran the code.")
    message: str | None = None
    exit_code: int | None = Field(None, description="The status the code exited with "
                                  "(sys.exit(n), os._exit(n)), when it exited; 0 completes.")
    duration_ms: float = 0.0


def _limits_for(base: Limits, body: ExecuteRequest) -> Limits:
    return base.replace(
        deadline_s=body.timeout_ms / 1000 if body.timeout_ms else None,
        memory_bytes=body.memory_mb * MIB if body.memory_mb else None,
        output_bytes=body.max_output_bytes,
    )


@router.post("/execute", response_model=ExecuteResponse, response_model_exclude_unset=True)
async def execute(body: ExecuteRequest, request: Request, who: Executor) -> Response:
    # ExecuteResponse documents the shape; the outcome is already plain JSON, so it is sent
    # as it is rather than validated again (a measurable share of a short execute).
    return SafeJSONResponse(await start_execution(request, body, who))


async def start_execution(request: Request, body: ExecuteRequest,
                          who: Principal) -> dict[str, Any]:
    """Run one execute request to its outcome (completed, error, paused, ...): the tool
    turned on, the caps held, the plan built from stored toolsets and inline tools. Shared
    by ``POST /v1/execute`` and the MCP ``execute`` tool."""
    enabled(request, "execute")
    caps = state.settings(request).caps
    enforce_caps(caps, body)
    plan = await _plan_for(request, body.toolsets, body.tools, state.inline_tool_secret(request),
                           who.tenant, body.connectors)
    options = ExecuteOptions(code=body.code, workspace=body.workspace, tenant=who.tenant,
                             principal=who.name,
                             limits=capped(_limits_for(state.sandbox(request).limits, body), caps),
                             granted_permissions=body.granted_permissions,
                             approval_wait_ms=body.approval_wait_ms, engine=body.engine)
    return await state.executions(request).start(options, plan, inline_tools=body.tools)


async def _plan_for(request: Request, toolset_names: list[str], inline: list[dict[str, Any]],
                    inline_secret: str, tenant: str,
                    connector_names: Sequence[str] = ()) -> ExecutionPlan:
    store = state.codemode_store(request)
    toolsets = []
    for name in toolset_names:
        toolset = await store.get_toolset(name, tenant)
        if toolset is None:
            raise HTTPError(404, "not_found", f"toolset {name!r} not found")
        toolsets.append(toolset)
    problems: list[str] = []
    tools = []
    for index, raw in enumerate(inline):
        try:
            tools.append(inline_tool(raw))
        except ToolDefinitionError as exc:
            problems.extend(f"tools[{index}]: {p}" for p in exc.problems)
    if problems:
        raise ToolDefinitionError("inline tools", problems)
    bound = (await state.connectors(request).bind(tenant, list(connector_names))
             if connector_names else [])
    return ExecutionPlan.build(toolsets, tools, inline_secret, bound, tenant)


@router.get("/execute/description", response_class=PlainTextResponse)
async def execute_description_text(request: Request, who: Executor, toolsets: str = "",
                                   connectors: str = "") -> str:
    """The complete execute-tool description to hand a model, for these toolsets and
    connectors (comma-separated names)."""
    return await describe_execute(request, [n for n in toolsets.split(",") if n.strip()], who,
                                  [n for n in connectors.split(",") if n.strip()])


async def describe_execute(request: Request, toolset_names: list[str], who: Principal,
                           connector_names: Sequence[str] = ()) -> str:
    """The complete execute-tool description for these stored toolsets and connectors and
    this service's default limits (``GET /v1/execute/description`` and the MCP ``execute``
    tool)."""
    enabled(request, "execute")
    plan = await _plan_for(request, toolset_names, [], "", who.tenant, connector_names)
    limits = state.sandbox(request).limits
    return execute_description(plan.namespaces, state_doc=STATE_DOC,
                               timeout_ms=int(limits.deadline_s * 1000),
                               memory_mb=limits.memory_bytes // MIB,
                               max_output_bytes=limits.output_bytes,
                               max_host_calls=limits.max_host_calls)

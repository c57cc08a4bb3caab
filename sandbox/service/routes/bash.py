"""``POST /v1/bash``: a bash script over a snapshot of a workspace, changes written back."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from .. import audit_events, state
from ..errors import documented
from ..identity import Principal, requires
from ..bash_tool import BashOptions, run_bash
from ..settings import CAP_OUTPUT_BYTES, CAP_TIMEOUT_MS, MIB
from .params import WORKSPACE_NAME, RequestBody, enabled, enforce_caps

router = APIRouter(prefix="/v1", tags=["bash"],
                   responses=documented(400, 403, 404, 409))


class BashRequest(RequestBody):
    """Run a bash script over a snapshot of a workspace; changes are written back."""


    script: str = Field(max_length=1_000_000, description="The bash script (GNU bash 5 syntax).")
    workspace: str = Field("default", min_length=1, max_length=200, pattern=WORKSPACE_NAME,
                           description="The workspace the script sees as `/`; changes are "
                                       "written back to it.")
    cwd: str = Field("/", max_length=4096, description="Working directory, inside the workspace.")
    timeout_ms: int = Field(30_000, ge=1, le=CAP_TIMEOUT_MS,
                            description="Wall-clock deadline (the service may cap it lower).")
    max_output_bytes: int = Field(64_000, ge=1, le=CAP_OUTPUT_BYTES,
                                  description="Most bytes of printed output kept.")
    max_workspace_files: int = Field(1_000, ge=0, le=100_000,
                                     description="Most files snapshotted for the script "
                                                 "(the rest are skipped and kept as they are).")
    max_workspace_file_bytes: int = Field(1_000_000, ge=0, le=100 * MIB,
                                          description="Largest file snapshotted for the "
                                                      "script (larger ones are skipped and kept).")
    env: dict[str, str] | None = Field(None, description="Environment variables for the script.")
    stdin: str = Field("", max_length=16 * MIB, description="The script's standard input.")


@router.post("/bash")
async def bash(body: BashRequest, request: Request,
               who: Annotated[Principal, Depends(requires("bash"))]) -> dict[str, Any]:
    return await run_bash_request(request, body, who)


async def run_bash_request(request: Request, body: BashRequest, who: Principal) -> dict[str, Any]:
    """Run one bash request (the tool turned on, the caps held) to its result; shared by
    ``POST /v1/bash`` and the MCP ``bash`` tool."""
    enabled(request, "bash")
    caps = state.settings(request).caps
    enforce_caps(caps, body)
    options = BashOptions(cwd=body.cwd, timeout_ms=min(body.timeout_ms, caps.timeout_ms),
                          max_output_bytes=min(body.max_output_bytes, caps.output_bytes),
                          max_workspace_files=body.max_workspace_files,
                          max_workspace_file_bytes=body.max_workspace_file_bytes, env=body.env,
                          stdin=body.stdin)
    workspace = state.workspaces(request).workspace(body.workspace, tenant=who.tenant)
    result = await run_bash(state.sandbox(request), workspace, body.script, options)
    written = audit_events.write_back_body(result["changed_files"], len(result.get("conflicts", [])))
    if written is not None:
        await audit_events.record(request, who, "bash.write_back", {"workspace": body.workspace},
                                  written)
    return result

"""HTTP routes of the isolate service: health and ``POST /v1/execute``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from workspace import WorkspaceStore

from . import __version__
from .api import AsyncSandbox
from .bash_tool import BashOptions, run_bash
from .limits import MAX_DEADLINE_S, MAX_MEMORY_BYTES, Limits

router = APIRouter()

MIB = 1024 * 1024


class ExecuteRequest(BaseModel):
    """Run Python in a fresh isolate."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="Python source. A trailing expression's value is the result; "
                                  "top-level `return` is allowed; a whole-input markdown fence is stripped.")
    timeout_ms: int | None = Field(None, ge=1, le=int(MAX_DEADLINE_S * 1000),
                                   description="Wall-clock deadline (default 30,000).")
    memory_mb: int | None = Field(None, ge=16, le=MAX_MEMORY_BYTES // MIB,
                                  description="Guest memory limit in MiB (default 256).")
    max_output_bytes: int | None = Field(None, ge=1, le=64 * MIB,
                                         description="Most bytes of printed output (default 1,000,000).")


class ErrorInfo(BaseModel):
    name: str
    message: str
    traceback: str = ""


class TrapInfo(BaseModel):
    kind: str = Field(description="deadline, memory, output, host_calls, code_size, trap or crash")
    message: str


class ExecuteResponse(BaseModel):
    execution_id: str
    status: str = Field(description="completed or error")
    result: Any = None
    logs: list[str]
    error: ErrorInfo | None = None
    trap: TrapInfo | None = None
    duration_ms: float


def _limits_for(base: Limits, body: ExecuteRequest) -> Limits:
    return base.replace(
        deadline_s=body.timeout_ms / 1000 if body.timeout_ms else None,
        memory_bytes=body.memory_mb * MIB if body.memory_mb else None,
        output_bytes=body.max_output_bytes,
    )


@router.get("/healthz", tags=["service"])
async def healthz(request: Request) -> dict[str, Any]:
    sandbox: AsyncSandbox = request.app.state.sandbox
    return {"status": "ok", "version": __version__, "workers": sandbox.pool.stats()}


@router.post("/v1/execute", tags=["execute"], response_model=ExecuteResponse,
             response_model_exclude_unset=True)
async def execute(body: ExecuteRequest, request: Request) -> dict[str, Any]:
    sandbox: AsyncSandbox = request.app.state.sandbox
    limits = _limits_for(sandbox.limits, body)
    outcome = await sandbox.execute(body.code, limits=limits)
    data = outcome.to_dict()
    data.pop("host_calls", None)
    return data


class BashRequest(BaseModel):
    """Run a bash script over a snapshot of a workspace; changes are written back."""

    model_config = ConfigDict(extra="forbid")

    script: str = Field(max_length=1_000_000)
    workspace: str = Field("default", min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.-]+$")
    cwd: str = Field("/", max_length=4096)
    timeout_ms: int = Field(30_000, ge=1, le=int(MAX_DEADLINE_S * 1000))
    max_output_bytes: int = Field(64_000, ge=1, le=64 * MIB)
    max_workspace_files: int = Field(1_000, ge=0, le=100_000)
    max_workspace_file_bytes: int = Field(1_000_000, ge=0, le=100 * MIB)
    env: dict[str, str] | None = None
    stdin: str = Field("", max_length=16 * MIB)


@router.post("/v1/bash", tags=["bash"])
async def bash(body: BashRequest, request: Request) -> dict[str, Any]:
    sandbox: AsyncSandbox = request.app.state.sandbox
    store: WorkspaceStore = request.app.state.workspaces
    options = BashOptions(cwd=body.cwd, timeout_ms=body.timeout_ms, max_output_bytes=body.max_output_bytes,
                          max_workspace_files=body.max_workspace_files,
                          max_workspace_file_bytes=body.max_workspace_file_bytes, env=body.env,
                          stdin=body.stdin)
    return await run_bash(sandbox, store.workspace(body.workspace), body.script, options)

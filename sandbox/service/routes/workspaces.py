"""HTTP routes for workspaces: the tools, raw file access, and workspace management.

Workspace errors are answered by the service's error map, with their errno name as the
code (``ENOENT`` -> 404, ...). Tool-level failures are not HTTP errors: they come back as
200 with the tool's own ``{"error": ...}`` value.

Files carry an ETag (their version); ``PUT`` with ``If-Match`` writes only over that version
and ``If-None-Match: *`` only creates, so HTTP clients can avoid lost updates too (412).
"""

from __future__ import annotations

import json
import mimetypes
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from workspace import (
    TOOL_DEFINITIONS,
    TOOL_NAMES,
    Conflict,
    InvalidArgument,
    NotFound,
    call_tool,
    normalize_path,
)

from .. import audit_events, state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from .params import WorkspacePath

Reader = Annotated[Principal, Depends(requires("workspaces:read"))]
Writer = Annotated[Principal, Depends(requires("workspaces:write"))]
READ_ONLY_TOOLS = frozenset({"read", "list", "find", "grep"})
"""The workspace tools that change nothing: ``workspaces:read`` is enough for them."""

Limit = Annotated[int, Query(ge=0, le=100_000, description="Most directory entries to list.")]
Offset = Annotated[int, Query(ge=0, le=2**62, description="Directory entries to skip.")]
StrictFlag = Annotated[bool, Query(description="Remove a directory and all it holds.")]
FILE_CONTENT = {"*/*": {"schema": {"type": "string", "format": "binary"}}}
"""A file's bytes, with its own media type (a directory is listed as JSON)."""

router = APIRouter(prefix="/v1/workspaces", tags=["workspaces"],
                   responses=documented(400, 403, 404, 409, 412))


NOT_A_MEDIA_TYPE = frozenset({"", "application/x-www-form-urlencoded"})
"""What a client sends when it says nothing about the file: none, or curl's form default."""


def _media_type(sent: str | None, path: str, data: bytes) -> str:
    """The client's media type if it gave a real one; else guessed from the name, then from
    the bytes (UTF-8 text, or octets)."""
    if sent is not None and sent.split(";")[0].strip().lower() not in NOT_A_MEDIA_TYPE:
        return sent
    guessed, _ = mimetypes.guess_type(path, strict=False)
    if guessed is not None:
        return guessed
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "application/octet-stream"
    return "text/plain"


def _precondition(request: Request) -> int | None:
    """``If-Match: "<version>"`` (the ETag GET returned) or ``If-None-Match: *`` (create only)."""
    if_match = request.headers.get("if-match")
    if request.headers.get("if-none-match", "").strip() == "*":
        return 0
    if if_match is None:
        return None
    try:
        return int(if_match.strip().removeprefix("W/").strip('"'))
    except ValueError as exc:
        raise InvalidArgument(f"If-Match must be an ETag from this service, got {if_match!r}") from exc


@router.get("")
async def list_workspaces(request: Request, who: Reader) -> dict[str, Any]:
    return {"workspaces": await state.workspaces(request).list_workspaces(who.tenant)}


@router.get("/{ws}")
async def workspace_info(request: Request, ws: WorkspacePath, who: Reader) -> dict[str, Any]:
    store = state.workspaces(request)
    if not await store.has_workspace(ws, who.tenant):
        raise NotFound("no such workspace", ws)
    return {"name": ws, **(await store.workspace(ws, tenant=who.tenant).info())}


@router.delete("/{ws}")
async def delete_workspace(request: Request, ws: WorkspacePath, who: Writer) -> dict[str, Any]:
    if not await state.workspaces(request).delete_workspace(ws, who.tenant):
        raise NotFound("no such workspace", ws)
    await audit_events.record(request, who, "workspace.deleted", {"workspace": ws})
    return {"deleted": ws}


async def _arguments(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        problem = {"loc": ["body"], "msg": f"not JSON: {exc}", "type": "json_invalid"}
        raise HTTPError(422, "invalid_request", f"body: not JSON: {exc}", [problem]) from exc
    except RecursionError:
        # json's decoder recurses once per nesting level; '[' * 100000 runs out of stack.
        problem = {"loc": ["body"], "msg": "JSON nested too deeply", "type": "json_invalid"}
        raise HTTPError(422, "invalid_request", "body: JSON nested too deeply", [problem]) from None


def _tool_route(tool: str) -> None:
    """``POST /v1/workspaces/{ws}/tools/<tool>``, documented with the tool's own input schema
    (the tool validates its arguments: a mismatch is a 400 ``EINVAL`` naming the problem)."""
    definition = TOOL_DEFINITIONS[tool]
    # No body is the empty object: allowed exactly when the tool requires no argument.
    body_required = bool(definition["input_schema"].get("required"))

    async def run_tool(request: Request, ws: WorkspacePath, who: Principal) -> Response:
        workspace = state.workspaces(request).workspace(ws, tenant=who.tenant)
        return JSONResponse(await call_tool(workspace, tool, await _arguments(request)))

    scope = "workspaces:read" if tool in READ_ONLY_TOOLS else "workspaces:write"
    run_tool.__annotations__["who"] = Annotated[Principal, Depends(requires(scope))]
    router.add_api_route(
        f"/{{ws}}/tools/{tool}", run_tool, methods=["POST"], name=f"tool_{tool}",
        summary=f"Tool {tool}", description=definition["description"],
        openapi_extra={"requestBody": {"required": body_required, "content": {
            "application/json": {"schema": definition["input_schema"]}}}})


for _tool in TOOL_NAMES:
    _tool_route(_tool)


@router.get("/{ws}/files", responses={200: {"content": FILE_CONTENT}})
async def get_root(request: Request, ws: WorkspacePath, who: Reader, limit: Limit = 1000,
                   offset: Offset = 0) -> Response:
    return await get_file(request, ws, "", who, limit, offset)


@router.get("/{ws}/files/{path:path}", responses={200: {"content": FILE_CONTENT}})
async def get_file(request: Request, ws: WorkspacePath, path: str, who: Reader,
                   limit: Limit = 1000, offset: Offset = 0) -> Response:
    """A file's bytes (ETag: its version), or a directory's entries as JSON."""
    workspace = state.workspaces(request).workspace(ws, tenant=who.tenant)
    stat = await workspace.stat(path or "/")
    if stat is None:
        raise NotFound("no such file or directory", "/" + path)
    if stat.type == "directory":
        entries = await workspace.list_dir(stat.path, limit=limit, offset=offset)
        return JSONResponse({"path": stat.path, "type": "directory", "entries": [e.to_dict() for e in entries]})
    found = await workspace.read_with_stat(stat.path)
    if found is None:
        raise NotFound("no such file or directory", stat.path)
    stat, data = found
    return Response(
        content=data,
        media_type=stat.mime_type,
        headers={"ETag": f'"{stat.version}"', "Last-Modified-Epoch": f"{stat.modified_at:.6f}"},
    )


@router.put("/{ws}/files/{path:path}", responses={201: {"description": "Created."}},
            openapi_extra={"requestBody": {"content": FILE_CONTENT, "required": False}})
async def put_file(request: Request, ws: WorkspacePath, path: str, who: Writer) -> Response:
    """Write the body as the file's bytes, with the request's Content-Type as its type."""
    workspace = state.workspaces(request).workspace(ws, tenant=who.tenant)
    data = await request.body()
    mime = _media_type(request.headers.get("content-type"), path, data)
    condition = _precondition(request)
    existed = await workspace.exists(path or "/")
    try:
        stat = await workspace.write_bytes(path or "/", data, mime, if_version=condition)
    except Conflict as exc:  # with a precondition given, a conflict is that precondition failing
        raise HTTPError(412, exc.code, str(exc)) from exc
    return JSONResponse(stat.to_dict(), status_code=200 if existed else 201, headers={"ETag": f'"{stat.version}"'})


@router.delete("/{ws}/files/{path:path}")
async def delete_file(request: Request, ws: WorkspacePath, path: str, who: Writer,
                      recursive: StrictFlag = False) -> dict[str, Any]:
    workspace = state.workspaces(request).workspace(ws, tenant=who.tenant)
    await workspace.rm(path or "/", recursive=recursive)
    return {"deleted": normalize_path(path)}


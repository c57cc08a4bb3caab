"""HTTP routes for workspaces: the tools, raw file access, and workspace management.

Workspace errors are answered by the service's error map, with their errno name as the
code (``ENOENT`` -> 404, ...). Tool-level failures are not HTTP errors: they come back as
200 with the tool's own ``{"error": ...}`` value.

Files carry an ETag (their version); ``PUT`` with ``If-Match`` writes only over that version
and ``If-None-Match: *`` only creates, so HTTP clients can avoid lost updates too (412).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from workspace import TOOL_NAMES, Conflict, InvalidArgument, NotFound, call_tool, normalize_path

from .. import state
from ..errors import HTTPError, documented

router = APIRouter(prefix="/v1/workspaces", tags=["workspaces"],
                   responses=documented(400, 403, 404, 409, 412))

async def _json_body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidArgument(f"request body is not valid JSON: {exc}") from exc


def _flag(value: str | None) -> bool:
    if value is None:
        return False
    if value.lower() in ("1", "true", "yes"):
        return True
    if value.lower() in ("0", "false", "no", ""):
        return False
    raise InvalidArgument(f"expected a boolean query value, got {value!r}")


def _int(value: str | None, default: int, what: str) -> int:
    if value is None:
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise InvalidArgument(f"{what} must be an integer") from exc


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
async def list_workspaces(request: Request) -> dict[str, Any]:
    return {"workspaces": await state.workspaces(request).list_workspaces()}


@router.get("/{ws}")
async def workspace_info(request: Request, ws: str) -> dict[str, Any]:
    store = state.workspaces(request)
    if not await store.has_workspace(ws):
        raise NotFound("no such workspace", ws)
    return {"name": ws, **(await store.workspace(ws).info())}


@router.delete("/{ws}")
async def delete_workspace(request: Request, ws: str) -> dict[str, Any]:
    if not await state.workspaces(request).delete_workspace(ws):
        raise NotFound("no such workspace", ws)
    return {"deleted": ws}


@router.post("/{ws}/tools/{tool}")
async def run_tool(request: Request, ws: str, tool: str) -> Response:
    store = state.workspaces(request)
    if tool not in TOOL_NAMES:
        raise NotFound(f"unknown tool {tool!r}; the tools are {', '.join(TOOL_NAMES)}")
    result = await call_tool(store.workspace(ws), tool, await _json_body(request))
    return JSONResponse(result)


@router.get("/{ws}/files")
async def get_root(request: Request, ws: str) -> Response:
    return await get_file(request, ws, "")


@router.get("/{ws}/files/{path:path}")
async def get_file(request: Request, ws: str, path: str) -> Response:
    workspace = state.workspaces(request).workspace(ws)
    stat = await workspace.stat(path or "/")
    if stat is None:
        raise NotFound("no such file or directory", "/" + path)
    if stat.type == "directory":
        limit = _int(request.query_params.get("limit"), 1000, "limit")
        offset = _int(request.query_params.get("offset"), 0, "offset")
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


@router.put("/{ws}/files/{path:path}")
async def put_file(request: Request, ws: str, path: str) -> Response:
    workspace = state.workspaces(request).workspace(ws)
    mime = request.headers.get("content-type") or "application/octet-stream"
    condition = _precondition(request)
    existed = await workspace.exists(path or "/")
    try:
        stat = await workspace.write_bytes(path or "/", await request.body(), mime, if_version=condition)
    except Conflict as exc:  # with a precondition given, a conflict is that precondition failing
        raise HTTPError(412, exc.code, str(exc)) from exc
    return JSONResponse(stat.to_dict(), status_code=200 if existed else 201, headers={"ETag": f'"{stat.version}"'})


@router.delete("/{ws}/files/{path:path}")
async def delete_file(request: Request, ws: str, path: str) -> dict[str, Any]:
    workspace = state.workspaces(request).workspace(ws)
    recursive = _flag(request.query_params.get("recursive"))
    await workspace.rm(path or "/", recursive=recursive)
    return {"deleted": normalize_path(path)}


"""HTTP routes for workspaces: the tools, raw file access, and workspace management.

``workspace_router()`` returns an ``APIRouter``; the service mounts it and puts an open
``WorkspaceStore`` at ``app.state.workspaces``. Errors become
``{"error": {"code", "message"}}`` with a status chosen by errno code. Tool-level failures
are not HTTP errors: they come back as 200 with the tool's own ``{"error": ...}`` value.

Files carry an ETag (their version); ``PUT`` with ``If-Match`` writes only over that version
and ``If-None-Match: *`` only creates, so HTTP clients can avoid lost updates too (412).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from workspace import (
    TOOL_NAMES,
    Conflict,
    InvalidArgument,
    NotFound,
    WorkspaceError,
    WorkspaceStore,
    call_tool,
    normalize_path,
)

__all__ = ["STATUS_BY_CODE", "workspace_router"]

STATUS_BY_CODE: dict[str, int] = {
    "ENOENT": 404,
    "EEXIST": 409,
    "ENOTEMPTY": 409,
    "EISDIR": 409,
    "ENOTDIR": 409,
    "ECONFLICT": 409,
    "EPERM": 403,
    "EINVAL": 400,
    "ENAMETOOLONG": 400,
    "ELOOP": 400,
    "EFBIG": 413,
    "EBUSY": 503,
    "EUNAVAILABLE": 503,
}


def error_response(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status or STATUS_BY_CODE.get(code, 500))


class _WorkspaceErrorsRoute(APIRoute):
    """Turns a ``WorkspaceError`` escaping a handler into the JSON error shape, in one place."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except WorkspaceError as exc:
                return error_response(exc.code, str(exc))

        return handle


def _store(request: Request) -> WorkspaceStore:
    store = getattr(request.app.state, "workspaces", None)
    if not isinstance(store, WorkspaceStore):
        raise WorkspaceError("the workspace store is not available", code="EUNAVAILABLE")
    return store


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


def workspace_router() -> APIRouter:
    """Routes under ``/v1/workspaces``; the store comes from ``request.app.state.workspaces``."""
    router = APIRouter(prefix="/v1/workspaces", route_class=_WorkspaceErrorsRoute, tags=["workspaces"])

    @router.get("")
    async def list_workspaces(request: Request) -> dict[str, Any]:
        return {"workspaces": await _store(request).list_workspaces()}

    @router.get("/{ws}")
    async def workspace_info(request: Request, ws: str) -> dict[str, Any]:
        store = _store(request)
        if not await store.has_workspace(ws):
            raise NotFound("no such workspace", ws)
        return {"name": ws, **(await store.workspace(ws).info())}

    @router.delete("/{ws}")
    async def delete_workspace(request: Request, ws: str) -> dict[str, Any]:
        if not await _store(request).delete_workspace(ws):
            raise NotFound("no such workspace", ws)
        return {"deleted": ws}

    @router.post("/{ws}/tools/{tool}")
    async def run_tool(request: Request, ws: str, tool: str) -> Response:
        store = _store(request)
        if tool not in TOOL_NAMES:
            raise NotFound(f"unknown tool {tool!r}; the tools are {', '.join(TOOL_NAMES)}")
        result = await call_tool(store.workspace(ws), tool, await _json_body(request))
        return JSONResponse(result)

    @router.get("/{ws}/files")
    async def get_root(request: Request, ws: str) -> Response:
        return await get_file(request, ws, "")

    @router.get("/{ws}/files/{path:path}")
    async def get_file(request: Request, ws: str, path: str) -> Response:
        workspace = _store(request).workspace(ws)
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
        workspace = _store(request).workspace(ws)
        mime = request.headers.get("content-type") or "application/octet-stream"
        condition = _precondition(request)
        existed = await workspace.exists(path or "/")
        try:
            stat = await workspace.write_bytes(path or "/", await request.body(), mime, if_version=condition)
        except Conflict as exc:
            return error_response(exc.code, str(exc), 412)
        return JSONResponse(stat.to_dict(), status_code=200 if existed else 201, headers={"ETag": f'"{stat.version}"'})

    @router.delete("/{ws}/files/{path:path}")
    async def delete_file(request: Request, ws: str, path: str) -> dict[str, Any]:
        workspace = _store(request).workspace(ws)
        recursive = _flag(request.query_params.get("recursive"))
        await workspace.rm(path or "/", recursive=recursive)
        return {"deleted": normalize_path(path)}

    return router

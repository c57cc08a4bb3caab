"""HTTP routes for Code Mode's stored things: toolsets, executions (audit trail), snippets.

``codemode_router()`` returns an ``APIRouter``; the service mounts it and puts an open
``CodeModeStore`` at ``app.state.codemode``. Errors come back as
``{"error": {"code", "message", "details"?}}`` with a 4xx status, produced in one place
(:class:`_CodeModeErrorsRoute`) so the handlers stay free of try/except:

- invalid request bodies (unknown fields included) -> 422 ``invalid_request``;
- invalid tool or toolset definitions -> 422 ``invalid_toolset`` with every problem listed
  in ``details`` (``invalid_snippet`` for a snippet's name or input schema);
- values too large to record durably -> 413 ``too_large``;
- missing things -> 404 ``not_found``; a snippet from an execution that did not complete
  -> 409 ``conflict``.

A toolset's signing secret is returned once, in the 201 that creates it; later reads and
updates never show it (an update keeps it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from codemode import DurableSizeError, NotSerialisableError, ToolDefinitionError
from codemode import render_declarations
from codemode import ExecutionNotFound
from codemode import EXECUTION_STATES, Snippet
from codemode import CodeModeStore
from codemode import Toolset

__all__ = ["codemode_router"]

MAX_LIST_LIMIT = 1000


class SafeJSONResponse(JSONResponse):
    """JSON that never fails on lone surrogates (recorded code, logs and results may hold
    them): such text is sent \\u-escaped, which any JSON parser reads back exactly."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False,
                              separators=(",", ":")).encode("ascii")


def _error(status: int, code: str, message: str, details: Any = None) -> JSONResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return SafeJSONResponse({"error": error}, status_code=status)


class _Unavailable(Exception):
    """The service has no open Code Mode store (started without it, or shutting down)."""


class _CodeModeErrorsRoute(APIRoute):
    """Turns the errors a handler may raise on purpose into the JSON error shape."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                details = [
                    {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""),
                     "type": e.get("type", "")}
                    for e in exc.errors()
                ]
                summary = "; ".join(
                    f"{'.'.join(str(p) for p in d['loc'])}: {d['msg']}" for d in details
                )
                return _error(422, "invalid_request", summary or "invalid request", details)
            except ToolDefinitionError as exc:
                code = "invalid_snippet" if exc.subject.startswith("snippet") else "invalid_toolset"
                return _error(422, code, str(exc), list(exc.problems))
            except DurableSizeError as exc:
                return _error(413, "too_large", str(exc))
            except NotSerialisableError as exc:
                return _error(422, "invalid_request", str(exc))
            except ExecutionNotFound as exc:
                return _error(404, "not_found", str(exc))
            except _Unavailable as exc:
                return _error(503, "unavailable", str(exc))

        return handle


def _store(request: Request) -> CodeModeStore:
    store = getattr(request.app.state, "codemode", None)
    if not isinstance(store, CodeModeStore):
        raise _Unavailable("the Code Mode store is not available")
    return store


class ToolsetBody(BaseModel):
    """``PUT /v1/toolsets/{name}``: the tools (ToolDef JSON) and an optional description."""

    model_config = ConfigDict(extra="forbid")
    tools: list[dict[str, Any]]
    description: str | None = Field(default=None, max_length=8_000)


class SnippetBody(BaseModel):
    """``PUT /v1/snippets/{name}``: save the code of a completed execution."""

    model_config = ConfigDict(extra="forbid")
    execution_id: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=8_000)
    input_schema: dict[str, Any] | None = None


def _toolset_view(
    toolset: Toolset, info: dict[str, Any] | None, *, with_secret: bool
) -> dict[str, Any]:
    data = toolset.to_dict(include_secret=with_secret)
    data["namespace"] = toolset.namespace
    data["tool_count"] = len(toolset.tools)
    if info is not None:
        data["description"] = info["description"]
        data["created_at"] = info["created_at"]
        data["updated_at"] = info["updated_at"]
    return data


def codemode_router() -> APIRouter:
    router = APIRouter(prefix="/v1", route_class=_CodeModeErrorsRoute, tags=["codemode"],
                       default_response_class=SafeJSONResponse)

    # --- toolsets ---------------------------------------------------------------------

    @router.put("/toolsets/{name}")
    async def put_toolset(name: str, body: ToolsetBody, request: Request) -> JSONResponse:
        store = _store(request)
        toolset = Toolset.from_dict({"name": name, "tools": body.tools})
        stored, created = await store.put_toolset(toolset, description=body.description)
        info = await store.toolset_info(name)
        return SafeJSONResponse(
            _toolset_view(stored, info, with_secret=created), status_code=201 if created else 200
        )

    @router.get("/toolsets")
    async def list_toolsets(request: Request) -> dict[str, Any]:
        return {"toolsets": await _store(request).list_toolsets()}

    @router.get("/toolsets/{name}", response_model=None)
    async def get_toolset(name: str, request: Request) -> dict[str, Any] | JSONResponse:
        store = _store(request)
        toolset = await store.get_toolset(name)
        if toolset is None:
            return _error(404, "not_found", f'toolset "{name}" not found')
        return _toolset_view(toolset, await store.toolset_info(name), with_secret=False)

    @router.get("/toolsets/{name}/types", response_model=None)
    async def toolset_types(name: str, request: Request) -> Response:
        toolset = await _store(request).get_toolset(name)
        if toolset is None:
            return _error(404, "not_found", f'toolset "{name}" not found')
        text = render_declarations({toolset.name: toolset.tools})
        return PlainTextResponse(text, media_type="text/x-python")

    @router.delete("/toolsets/{name}", response_model=None)
    async def delete_toolset(name: str, request: Request) -> dict[str, Any] | JSONResponse:
        if not await _store(request).delete_toolset(name):
            return _error(404, "not_found", f'toolset "{name}" not found')
        return {"deleted": name}

    # --- executions -------------------------------------------------------------------

    @router.get("/executions", response_model=None)
    async def list_executions(
        request: Request,
        workspace: str | None = None,
        status: str | None = None,
        limit: int = Query(default=100, ge=1, le=MAX_LIST_LIMIT),
    ) -> dict[str, Any] | JSONResponse:
        if status is not None and status not in EXECUTION_STATES:
            return _error(
                400, "bad_request",
                f"unknown status {status!r}; expected one of {', '.join(sorted(EXECUTION_STATES))}",
            )
        records = await _store(request).list_executions(
            workspace=workspace, status=status, limit=limit
        )
        return {"executions": [r.to_dict(with_journal=False) for r in records]}

    @router.get("/executions/{execution_id}", response_model=None)
    async def get_execution(execution_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        store = _store(request)
        record = await store.get_execution(execution_id)
        if record is None:
            return _error(404, "not_found", f"execution {execution_id} not found")
        view = record.to_dict()
        # Who decided what, and when: the human half of the audit trail.
        view["approvals"] = [a.to_dict() for a in
                             await store.list_approvals(execution_id=execution_id, status=None)]
        return view

    @router.delete("/executions/{execution_id}", response_model=None)
    async def delete_execution(
        execution_id: str, request: Request
    ) -> dict[str, Any] | JSONResponse:
        store = _store(request)
        record = await store.get_execution(execution_id, with_journal=False)
        if record is not None and record.status == "running":
            # Its journal is being written; deleting it would fail the run half-way.
            return _error(409, "conflict", f"execution {execution_id} is running; delete it "
                                           "once it has finished or parked")
        if not await store.delete_execution(execution_id):
            return _error(404, "not_found", f"execution {execution_id} not found")
        return {"deleted": execution_id}

    # --- snippets ---------------------------------------------------------------------

    @router.put("/snippets/{name}")
    async def put_snippet(name: str, body: SnippetBody, request: Request) -> JSONResponse:
        store = _store(request)
        execution = await store.get_execution(body.execution_id)
        if execution is None:
            return _error(404, "not_found", f"execution {body.execution_id} not found")
        if execution.status != "completed":
            return _error(
                409, "conflict",
                f"execution {body.execution_id} is {execution.status}; only a completed "
                "execution can be saved as a snippet",
            )
        snippet = Snippet.from_execution(
            name, execution, description=body.description, input_schema=body.input_schema
        )
        created = await store.put_snippet(snippet)
        return SafeJSONResponse(snippet.to_dict(), status_code=201 if created else 200)

    @router.get("/snippets")
    async def list_snippets(request: Request) -> dict[str, Any]:
        return {"snippets": [s.to_dict() for s in await _store(request).list_snippets()]}

    @router.get("/snippets/{name}", response_model=None)
    async def get_snippet(name: str, request: Request) -> dict[str, Any] | JSONResponse:
        snippet = await _store(request).get_snippet(name)
        if snippet is None:
            return _error(404, "not_found", f'snippet "{name}" not found')
        return snippet.to_dict()

    @router.delete("/snippets/{name}", response_model=None)
    async def delete_snippet(name: str, request: Request) -> dict[str, Any] | JSONResponse:
        if not await _store(request).delete_snippet(name):
            return _error(404, "not_found", f'snippet "{name}" not found')
        return {"deleted": name}

    return router

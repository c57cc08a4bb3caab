"""``/v1/toolsets``: stored toolsets (one namespace of tools each), and their typed declarations.

A toolset's signing secret is returned once, in the 201 that creates it; later reads and
updates never show it (an update keeps it).
"""

from __future__ import annotations

from typing import Any

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import PlainTextResponse
from pydantic import Field

from codemode import Toolset, render_declarations

from .. import audit_events, state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse
from .params import TOOL_DEFINITION, RequestBody, ToolsetPath

class PythonSourceResponse(PlainTextResponse):
    media_type = "text/x-python"


Reader = Annotated[Principal, Depends(requires("execute", "toolsets:write"))]
Writer = Annotated[Principal, Depends(requires("toolsets:write"))]

router = APIRouter(prefix="/v1/toolsets", tags=["toolsets"], default_response_class=SafeJSONResponse,
                   responses=documented(404))


class ToolsetBody(RequestBody):
    """``PUT /v1/toolsets/{name}``: the tools (ToolDef JSON) and an optional description."""

    tools: list[dict[str, Any]] = Field(json_schema_extra={"items": TOOL_DEFINITION})
    description: str | None = Field(default=None, max_length=8_000)


def _not_found(name: str) -> HTTPError:
    return HTTPError(404, "not_found", f'toolset "{name}" not found')


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


@router.put("/{name}", responses={201: {"description": "Created; the response carries the signing secret, once."}})
async def put_toolset(name: ToolsetPath, body: ToolsetBody, request: Request,
                      who: Writer) -> SafeJSONResponse:
    store = state.codemode_store(request)
    toolset = Toolset.from_dict({"name": name, "tools": body.tools})
    stored, created = await store.put_toolset(toolset, description=body.description,
                                              tenant=who.tenant)
    await audit_events.record(request, who, "toolset.put", {"toolset": name},
                              {"created": created, "tools": [t.name for t in stored.tools]})
    info = await store.toolset_info(name, who.tenant)
    return SafeJSONResponse(
        _toolset_view(stored, info, with_secret=created), status_code=201 if created else 200
    )


@router.get("")
async def list_toolsets(request: Request, who: Reader) -> dict[str, Any]:
    return {"toolsets": await state.codemode_store(request).list_toolsets(who.tenant)}


@router.get("/{name}")
async def get_toolset(name: ToolsetPath, request: Request, who: Reader) -> dict[str, Any]:
    store = state.codemode_store(request)
    toolset = await store.get_toolset(name, who.tenant)
    if toolset is None:
        raise _not_found(name)
    return _toolset_view(toolset, await store.toolset_info(name, who.tenant), with_secret=False)


@router.get("/{name}/types", response_class=PythonSourceResponse)
async def toolset_types(name: ToolsetPath, request: Request, who: Reader) -> Response:
    toolset = await state.codemode_store(request).get_toolset(name, who.tenant)
    if toolset is None:
        raise _not_found(name)
    text = render_declarations({toolset.name: toolset.tools})
    return PythonSourceResponse(text)


@router.delete("/{name}")
async def delete_toolset(name: ToolsetPath, request: Request, who: Writer) -> dict[str, Any]:
    if not await state.codemode_store(request).delete_toolset(name, who.tenant):
        raise _not_found(name)
    await audit_events.record(request, who, "toolset.deleted", {"toolset": name})
    return {"deleted": name}

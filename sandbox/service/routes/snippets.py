"""``/v1/snippets``: code of completed executions saved under a name, run later with
``codemode.run(name, input)``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from codemode import Snippet

from .. import audit_events, state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse
from .params import RequestBody, SnippetPath

Reader = Annotated[Principal, Depends(requires("execute", "toolsets:write"))]
Writer = Annotated[Principal, Depends(requires("toolsets:write"))]

router = APIRouter(prefix="/v1/snippets", tags=["snippets"], default_response_class=SafeJSONResponse,
                   responses=documented(404, 409))


class SnippetBody(RequestBody):
    """``PUT /v1/snippets/{name}``: save the code of a completed execution."""

    execution_id: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=8_000)
    input_schema: dict[str, Any] | None = None


def _not_found(name: str) -> HTTPError:
    return HTTPError(404, "not_found", f'snippet "{name}" not found')


@router.put("/{name}", responses={201: {"description": "Created."}})
async def put_snippet(name: SnippetPath, body: SnippetBody, request: Request,
                      who: Writer) -> SafeJSONResponse:
    store = state.codemode_store(request)
    execution = await store.get_execution(body.execution_id)
    if execution is None or execution.tenant != who.tenant:
        raise HTTPError(404, "not_found", f"execution {body.execution_id} not found")
    if execution.status != "completed":
        raise HTTPError(409, "conflict",
                        f"execution {body.execution_id} is {execution.status}; only a completed "
                        "execution can be saved as a snippet")
    snippet = Snippet.from_execution(
        name, execution, description=body.description, input_schema=body.input_schema
    )
    created = await store.put_snippet(snippet, who.tenant)
    await audit_events.record(request, who, "snippet.put", {"snippet": name},
                              {"created": created, "from_execution": body.execution_id})
    return SafeJSONResponse(snippet.to_dict(), status_code=201 if created else 200)


@router.get("")
async def list_snippets(request: Request, who: Reader) -> dict[str, Any]:
    found = await state.codemode_store(request).list_snippets(who.tenant)
    return {"snippets": [s.to_dict() for s in found]}


@router.get("/{name}")
async def get_snippet(name: SnippetPath, request: Request, who: Reader) -> dict[str, Any]:
    snippet = await state.codemode_store(request).get_snippet(name, who.tenant)
    if snippet is None:
        raise _not_found(name)
    return snippet.to_dict()


@router.delete("/{name}")
async def delete_snippet(name: SnippetPath, request: Request, who: Writer) -> dict[str, Any]:
    if not await state.codemode_store(request).delete_snippet(name, who.tenant):
        raise _not_found(name)
    await audit_events.record(request, who, "snippet.deleted", {"snippet": name})
    return {"deleted": name}

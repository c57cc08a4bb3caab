"""``/v1/connectors``: MCP servers and OpenAPI services stored by name, one namespace each,
their typed declarations, and refreshing their tools.

Storing a connector fetches its tools (the MCP server's tool list, the OpenAPI document's
operations); when that fails nothing is stored (502 ``connector_unavailable``), nor when a
URL names a host outside the operator's allowlist (403 ``connector_host_refused``, nothing
asked). Header values
are never shown back: GET lists header names with ``<hidden>`` (an ``env:NAME`` reference is
shown, it is no secret).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import Field

from codemode import render_declarations

from .. import audit_events, state
from ..errors import HTTPError, documented
from ..identity import Principal, requires
from ..responses import SafeJSONResponse
from .params import TOOLSET_NAME, TOOLSET_RESERVED, RequestBody
from .toolsets import PythonSourceResponse

# A connector is a toolset of another kind: the same scopes read and change it.
Reader = Annotated[Principal, Depends(requires("execute", "toolsets:write"))]
Writer = Annotated[Principal, Depends(requires("toolsets:write"))]

router = APIRouter(prefix="/v1/connectors", tags=["connectors"],
                   default_response_class=SafeJSONResponse, responses=documented(404))

ConnectorPath = Annotated[str, Path(pattern=TOOLSET_NAME, description="The connector's name.",
                                    json_schema_extra={"not": {"enum": [*TOOLSET_RESERVED, "tools"]}})]

class ConnectorBody(RequestBody):
    """``PUT /v1/connectors/{name}``: an MCP server (``url``) or an OpenAPI service (``spec``
    or ``spec_url``, and ``base_url``)."""

    type: Literal["mcp", "openapi"]
    url: str | None = Field(None, max_length=2_000, pattern="^https?://[^/?#]",
                            description="mcp: the server's Streamable HTTP endpoint.")
    spec: dict[str, Any] | str | None = Field(
        None, description="openapi: the OpenAPI 3.0/3.1 document, as an object or as its JSON "
                          "or YAML text.")
    spec_url: str | None = Field(None, max_length=2_000, pattern="^https?://[^/?#]",
                                 description="openapi: where to fetch the document (JSON or YAML).")
    base_url: str | None = Field(None, max_length=2_000, pattern="^https?://[^/?#]",
                                 description="openapi: where requests go (default: the "
                                             "document's first absolute server URL).")
    headers: dict[str, Annotated[str, Field(pattern="^[^\r\n\u0000]*$")]] | None = Field(
        None, description="Sent with every call (and when the tools are fetched). Values are "
                          "encrypted at rest; `env:NAME` reads $NAME at call time instead.")
    approval: dict[str, Any] | None = Field(
        None, description='Tool name (or "*") -> "durable", "inline", "never" or an approval '
                          "object {mode, when?, summary?, risk?}.")
    timeout_ms: int | None = Field(None, ge=1, le=300_000, description="Per call (default 30,000).")


def _not_found(name: str) -> HTTPError:
    return HTTPError(404, "not_found", f'connector "{name}" not found')


@router.put("/{name}", responses={
    201: {"description": "Created; its tools were fetched."},
    **documented(403, 502)})
async def put_connector(name: ConnectorPath, body: ConnectorBody, request: Request,
                        who: Writer) -> SafeJSONResponse:
    given = body.model_dump(exclude_none=True)
    view, created = await state.connectors(request).put(who.tenant, name, given)
    # Its type and tool names only: never a header (secrets) or a URL (may carry a key).
    tools = view.get("tools")
    await audit_events.record(request, who, "connector.put", {"connector": name}, {
        "created": created, "type": body.type,
        "tools": [str(t.get("name")) for t in tools if isinstance(t, dict)]
        if isinstance(tools, list) else []})
    return SafeJSONResponse(view, status_code=201 if created else 200)


@router.get("")
async def list_connectors(request: Request, who: Reader) -> dict[str, Any]:
    return {"connectors": await state.connectors(request).list_all(who.tenant)}


@router.get("/{name}")
async def get_connector(name: ConnectorPath, request: Request, who: Reader) -> dict[str, Any]:
    view = await state.connectors(request).get(who.tenant, name)
    if view is None:
        raise _not_found(name)
    return view


@router.post("/{name}/refresh", responses=documented(403, 502))
async def refresh_connector(name: ConnectorPath, request: Request, who: Writer) -> dict[str, Any]:
    """Fetch the connector's tools again (a changed server or document)."""
    return await state.connectors(request).refresh(who.tenant, name)


@router.get("/{name}/types", response_class=PythonSourceResponse)
async def connector_types(name: ConnectorPath, request: Request, who: Reader) -> Response:
    namespaces = await state.connectors(request).declarations_of(who.tenant, name)
    return PythonSourceResponse(render_declarations(namespaces))


@router.delete("/{name}")
async def delete_connector(name: ConnectorPath, request: Request, who: Writer) -> dict[str, Any]:
    if not await state.connectors(request).delete(who.tenant, name):
        raise _not_found(name)
    await audit_events.record(request, who, "connector.deleted", {"connector": name})
    return {"deleted": name}

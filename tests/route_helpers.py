"""Helpers for the route tests: a small app holding only the routers under test (with the
service's one error map), the error shape, and stored things to route to."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import APIRouter, FastAPI

from codemode import CodeModeStore, ExecutionRecord, new_execution_id
from codemode.journal import append, make_entry, settle
from sandbox.service.errors import install_error_handlers


@asynccontextmanager
async def route_client(*routers: APIRouter, **held: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of an app with these routers, the error map, and ``app.state`` holding
    ``held`` (``codemode=store``, ``workspaces=store``)."""
    app = FastAPI()
    for router in routers:
        app.include_router(router)
    install_error_handlers(app)
    for name, value in held.items():
        setattr(app.state, name, value)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        yield c


def tool_json(name: str = "create_issue", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Open an issue.",
        "url": "http://127.0.0.1:9/tools",
        "input_schema": {
            "type": "object",
            "properties": {"title": {"type": "string", "description": "Issue title"},
                           "labels": {"type": "array", "items": {"enum": ["bug", "docs"]}}},
            "required": ["title"],
        },
        **extra,
    }


async def stored_execution(store: CodeModeStore, status: str = "completed", workspace: str = "default",
                     created_at: float | None = None) -> str:
    record = ExecutionRecord(id=new_execution_id(), workspace=workspace, code="tools.create_issue(title='x')")
    if created_at is not None:
        record.created_at = created_at
    await store.create_execution(record)
    async with store.transaction() as tx:
        await append(tx.connection, make_entry(record.id, 0, "github", "create_issue", {"title": "x"}))
        await settle(tx.connection, record.id, 0, state="applied", result={"id": 7, "raw": b"\x00"})
    await store.finish_execution(record.id, status=status, result={"ok": True}, logs=["done"])
    return record.id


def error_of(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return dict(body["error"])



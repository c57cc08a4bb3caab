"""``GET /healthz``: the service is up; its version, the worker pool's state and which tools
it offers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ... import __version__
from .. import state
from ..settings import TOOLS

router = APIRouter(tags=["service"])


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    disabled = state.settings(request).disabled_tools
    return {"status": "ok", "version": __version__, "workers": state.sandbox(request).pool.stats(),
            "tools": {tool: tool not in disabled for tool in TOOLS}}

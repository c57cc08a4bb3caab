"""``GET /healthz``: the service is up; its version and the worker pool's state."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ... import __version__
from .. import state

router = APIRouter(tags=["service"])


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    return {"status": "ok", "version": __version__, "workers": state.sandbox(request).pool.stats()}

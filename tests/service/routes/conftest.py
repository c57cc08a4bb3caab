"""Fixtures of the route tests: a real CodeModeStore, and a client of a small app that
mounts the stored-resource routers (toolsets, snippets, executions) over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from codemode import CodeModeStore
from route_helpers import route_client
from sandbox.service.routes import executions, snippets, toolsets


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[CodeModeStore]:
    opened = await CodeModeStore.open(tmp_path / "sandbox.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def client(store: CodeModeStore) -> AsyncIterator[httpx.AsyncClient]:
    async with route_client(toolsets.router, snippets.router, executions.router, codemode=store) as c:
        yield c

"""Fixtures shared by Code Mode's tests: the store on the test's database, an agent host."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from agent_host import AgentHost, ServerThread
from codemode.store import CodeModeStore


@pytest.fixture
async def store(database: str) -> AsyncIterator[CodeModeStore]:
    """A Code Mode store on the test's database (SQLite, or PostgreSQL where it runs)."""
    opened = await CodeModeStore.open(database)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture(scope="module")
def host() -> Iterator[tuple[AgentHost, str]]:
    """A live agent host (webhook tools) for the module, and its URL."""
    agent = AgentHost()
    with ServerThread(agent) as live:
        yield agent, live.url

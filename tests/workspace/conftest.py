"""Fixtures for workspace tests: a real store on a temporary directory (SQLite is never faked)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from workspace import Workspace, WorkspaceStore


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[WorkspaceStore]:
    s = await WorkspaceStore.open(tmp_path / "sandbox.db", tmp_path / "blobs")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def ws(store: WorkspaceStore) -> Workspace:
    return store.workspace("test")

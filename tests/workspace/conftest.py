"""Fixtures for workspace tests: a real store on each backend in turn (a SQLite file, or a
schema of its own on a throwaway PostgreSQL cluster); neither is ever faked."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from workspace import Workspace, WorkspaceStore


@pytest.fixture
async def store(database: str, tmp_path: Path) -> AsyncIterator[WorkspaceStore]:
    s = await WorkspaceStore.open(database, tmp_path / "blobs")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def ws(store: WorkspaceStore) -> Workspace:
    return store.workspace("test")

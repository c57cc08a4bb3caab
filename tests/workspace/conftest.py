"""Fixtures for workspace tests: a real store on each backend in turn (a SQLite file, or a
schema of its own on a throwaway PostgreSQL cluster); neither is ever faked."""

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

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


@pytest.fixture
def transactions_of(monkeypatch: pytest.MonkeyPatch) -> Callable[[WorkspaceStore], list[str]]:
    """``transactions_of(store)``: the workspace names ``store.transaction`` is opened on
    from then on; what shows whether a read or a write took a transaction or a quick path."""
    def counting(store: WorkspaceStore) -> list[str]:
        opened: list[str] = []
        original = store.transaction

        def counted(name: str, **kw: Any) -> Any:
            opened.append(name)
            return original(name, **kw)

        monkeypatch.setattr(store, "transaction", counted)
        return opened
    return counting

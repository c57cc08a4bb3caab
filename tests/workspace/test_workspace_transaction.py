"""Transactions (workspace.database, workspace.transaction): commit, rollback, versions, reopening."""

import asyncio
from pathlib import Path
from typing import Any

import pytest

from workspace import IsDirectory, NotDirectory, Workspace, WorkspaceStore, operation_key


async def test_cancelled_await_on_a_commit_that_happened_keeps_the_blob(
    database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=4) as store:
        ws = store.workspace()
        await ws.write_file("/f", "old content")
        # Both kinds of session a write may take (a quick one on SQLite's event loop, or the
        # thread's), each committing and then interrupted.
        session_types = set()
        for quick in (False, True):
            async with store._db.db.session(quick=quick) as session:
                session_types.add(type(session))
        for session_type in session_types:
            real_commit = session_type.commit

            async def commit_then_cancel(self: Any, real_commit: Any = real_commit) -> None:
                await real_commit(self)
                raise asyncio.CancelledError

            monkeypatch.setattr(session_type, "commit", commit_then_cancel)
        with pytest.raises(asyncio.CancelledError):
            await ws.write_file("/f", "new content")
        monkeypatch.undo()
        assert await ws.read_file("/f") == "new content"
        assert len([p for p in (tmp_path / "blobs").rglob("*") if p.is_file()]) == 1


async def test_failed_transaction_removes_the_blob_it_wrote(database: str, tmp_path: Path) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=4) as store:
        ws = store.workspace()
        with pytest.raises(NotDirectory):
            async with store.transaction("default", write=True) as t:
                await t.mkdirs("/d")
                await t.put_file("/d/big", b"0123456789", "text/plain", None)
                await t.mkdirs("/d/big/sub")  # a file in the chain: the whole transaction fails
        assert [p for p in (tmp_path / "blobs").rglob("*") if p.is_file()] == []
        assert await ws.exists("/d") is False


async def test_versions_are_never_reused_even_after_delete_and_recreate(ws: Workspace) -> None:
    seen: list[int] = []
    for _ in range(3):
        seen.append((await ws.write_file("/v.txt", "same")).version)
        await ws.delete_file("/v.txt")
        deep = await ws.write_file("/new/dir/f.txt", "x")  # creates two directories too
        seen.append(deep.version)
        await ws.rm("/new", recursive=True)
    assert seen == sorted(seen) and len(set(seen)) == len(seen)


async def test_a_reopened_store_keeps_its_content(database: str, tmp_path: Path) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=8) as store:
        await store.workspace().write_file("/persist/a.txt", "persisted content")
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=8) as store:
        assert await store.workspace().read_file("/persist/a.txt") == "persisted content"


async def test_a_tagged_write_records_its_key_and_a_failed_one_does_not(store: WorkspaceStore) -> None:
    ws = store.workspace()
    await ws.mkdir("/dir")
    token = operation_key.set("op-written")
    try:
        await ws.write_file("/f", "x")
    finally:
        operation_key.reset(token)
    token = operation_key.set("op-refused")
    try:
        with pytest.raises(IsDirectory):
            await ws.write_file("/dir", "x")
    finally:
        operation_key.reset(token)
    assert await store.operation_applied("op-written") is True
    assert await store.operation_applied("op-refused") is False
    # A negative age puts the cutoff in the future, so no clock reading can keep the key.
    assert await store.forget_operations(older_than_s=-3600) == 1
    assert await store.operation_applied("op-written") is False

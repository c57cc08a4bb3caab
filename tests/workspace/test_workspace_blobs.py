"""The spill store of workspace.blobs: the threshold, blob cleanup, orphans and a failing disk."""

import errno
import os
import time
from pathlib import Path

import pytest

from workspace import WorkspaceError, WorkspaceStore


async def test_large_file_spills_to_blob_and_back_inline_deletes_blob(database: str, tmp_path: Path) -> None:
    blobs = tmp_path / "blobs"
    async with await WorkspaceStore.open(database, blobs, spill_threshold=100) as store:
        ws = store.workspace()
        await ws.write_bytes("/big", b"x" * 100)  # exactly at the threshold spills
        st = await ws.stat("/big")
        assert st is not None and st.storage == "blob"
        assert len(list(blobs.rglob("*"))) == 2  # shard directory + blob
        assert await ws.read_bytes("/big") == b"x" * 100
        await ws.write_bytes("/big", b"small")
        st = await ws.stat("/big")
        assert st is not None and st.storage == "inline"
        assert [p for p in blobs.rglob("*") if p.is_file()] == []


async def test_append_rechecks_the_spill_threshold(database: str, tmp_path: Path) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=10) as store:
        ws = store.workspace()
        await ws.append_file("/log", "12345")
        await ws.append_file("/log", "67890")
        st = await ws.stat("/log")
        assert st is not None and st.storage == "blob" and st.size == 10
        assert await ws.read_file("/log") == "1234567890"


async def test_orphaned_blobs_are_collected_and_referenced_ones_kept(database: str, tmp_path: Path) -> None:
    blobs = tmp_path / "blobs"
    async with await WorkspaceStore.open(database, blobs, spill_threshold=4) as store:
        await store.workspace().write_file("/kept", "12345")
        orphan = blobs / "ab" / "ab0000orphan"
        orphan.parent.mkdir(exist_ok=True)
        orphan.write_bytes(b"left by a crash")
        # Two hours old by its own stamp, so neither test speed nor the filesystem's clock
        # granularity can move it across either cutoff.
        two_hours_ago = time.time() - 7200
        os.utime(orphan, (two_hours_ago, two_hours_ago))
        assert await store.collect_orphans(min_age_s=3 * 3600) == 0  # too young: may be in flight
        assert await store.collect_orphans(min_age_s=3600) == 1
        assert not orphan.exists()
        assert await store.workspace().read_file("/kept") == "12345"


async def test_a_failing_blob_write_is_a_workspace_error_and_leaves_the_old_file(
    database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=4) as store:
        ws = store.workspace()
        await ws.write_file("/f", "ab")

        def disk_full(key: str, data: bytes) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(store._blobs, "write", disk_full)
        with pytest.raises(WorkspaceError) as exc:
            await ws.write_file("/f", "0123456789")
        assert exc.value.code == "ENOSPC" and str(exc.value).startswith("ENOSPC")
        assert await ws.read_file("/f") == "ab"

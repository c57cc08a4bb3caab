"""Quotas: bytes and files per call (one ``Workspace`` handle) and per workspace, each enforced
at its value and refused one past it with ``EDQUOT``; a refused operation changes nothing."""

from __future__ import annotations

import pytest

from workspace import EditBatchError, QuotaExceeded, Quotas, WorkspaceStore, apply_edits, materialise


async def test_call_bytes_at_and_past_the_edge(store: WorkspaceStore) -> None:
    ws = store.workspace("q", quotas=Quotas(call_bytes=1000))
    await ws.write_bytes("/a", b"x" * 600)
    await ws.write_bytes("/b", b"x" * 400)  # 1,000: at the edge
    with pytest.raises(QuotaExceeded) as refused:
        await ws.write_bytes("/c", b"x")
    assert refused.value.code == "EDQUOT" and refused.value.quota == "call_bytes"
    assert str(refused.value) == ("EDQUOT: quota exceeded: 1001 bytes written by one call is over the limit "
                                  "of 1000 (SANDBOX_MAX_CALL_WRITE_BYTES), '/c'")
    assert not await store.workspace("q").exists("/c")
    # The quota is per call: a new handle is a new call.
    await store.workspace("q", quotas=Quotas(call_bytes=1000)).write_bytes("/c", b"x")


async def test_append_charges_what_it_adds_and_cp_what_it_copies(store: WorkspaceStore) -> None:
    await store.workspace("q").write_bytes("/big", b"x" * 5000)
    ws = store.workspace("q", quotas=Quotas(call_bytes=5000))
    for _ in range(5):
        await ws.append_file("/big", "y" * 1000)
    with pytest.raises(QuotaExceeded):
        await ws.append_file("/big", "y")
    ws = store.workspace("q", quotas=Quotas(call_bytes=15_000))
    await ws.cp("/big", "/copy")
    with pytest.raises(QuotaExceeded):
        await ws.cp("/big", "/copy2")


async def test_call_files_at_and_past_the_edge(store: WorkspaceStore) -> None:
    ws = store.workspace("q", quotas=Quotas(call_files=3))
    for name in ("a", "b", "c"):
        await ws.write_file(f"/{name}", "1")
    await ws.write_file("/a", "overwriting creates nothing")
    with pytest.raises(QuotaExceeded, match="4 files created by one call is over the limit of 3"):
        await ws.write_file("/d", "1")


async def test_workspace_totals_at_and_past_the_edge(store: WorkspaceStore) -> None:
    quotas = Quotas(workspace_bytes=1000, workspace_files=3)
    await store.workspace("q", quotas=quotas).write_bytes("/a", b"x" * 600)
    await store.workspace("q", quotas=quotas).write_bytes("/b", b"x" * 400)
    with pytest.raises(QuotaExceeded, match="1001 bytes in one workspace is over the limit of 1000"):
        await store.workspace("q", quotas=quotas).write_bytes("/c", b"x")
    # Replacing a file counts the difference; shrinking is always allowed.
    await store.workspace("q", quotas=quotas).write_bytes("/a", b"x" * 300)
    await store.workspace("q", quotas=quotas).write_bytes("/c", b"x" * 300)
    with pytest.raises(QuotaExceeded, match="4 files in one workspace is over the limit of 3"):
        await store.workspace("q", quotas=quotas).write_bytes("/d", b"")
    await store.workspace("q").rm("/c")
    await store.workspace("q", quotas=quotas).write_bytes("/d", b"")


async def test_a_refused_recursive_copy_copies_nothing(store: WorkspaceStore) -> None:
    for index in range(5):
        await store.workspace("q").write_bytes(f"/src/{index}", b"x" * 100)
    ws = store.workspace("q", quotas=Quotas(call_bytes=350))
    with pytest.raises(QuotaExceeded):
        await ws.cp("/src", "/dst", recursive=True)
    assert not await ws.exists("/dst")
    assert (await ws.info())["file_count"] == 5


async def test_write_back_over_a_quota_writes_nothing_and_says_so(store: WorkspaceStore) -> None:
    await store.workspace("q").write_file("/keep.txt", "old")
    ws = store.workspace("q", quotas=Quotas(call_bytes=1000))
    snap = await ws.snapshot()
    with materialise(snap) as host_dir:
        with open(f"{host_dir}/keep.txt", "w") as f:
            f.write("new")
        with open(f"{host_dir}/small.txt", "w") as f:
            f.write("x" * 500)
        with open(f"{host_dir}/large.txt", "w") as f:
            f.write("x" * 498)  # 3 + 500 + 498 = 1,001 bytes: one over
        report = await ws.write_back(snap, host_dir)
    assert report["quota_exceeded"]["quota"] == "call_bytes"
    assert report["quota_exceeded"]["limit"] == 1000 and report["quota_exceeded"]["attempted"] == 1001
    assert report["changed_files"]["created"] == [] and report["changed_files"]["updated"] == []
    assert any(e.startswith("Over quota, nothing was written back: quota exceeded") for e in report["errors"])
    assert await store.workspace("q").read_file("/keep.txt") == "old"
    assert not await store.workspace("q").exists("/small.txt")


async def test_write_back_at_the_quota_writes_everything(store: WorkspaceStore) -> None:
    ws = store.workspace("q", quotas=Quotas(call_bytes=1000, call_files=2))
    snap = await ws.snapshot()
    with materialise(snap) as host_dir:
        for name, size in (("a", 500), ("b", 500)):
            with open(f"{host_dir}/{name}", "w") as f:
                f.write("x" * size)
        report = await ws.write_back(snap, host_dir)
    assert "quota_exceeded" not in report and report["changed_files"]["created"] == ["/a", "/b"]


def test_quotas_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="call_bytes"):
        Quotas(call_bytes=-1)
    assert Quotas.default == Quotas(64 * 1024 * 1024, 10_000, 1024 * 1024 * 1024, 100_000, 256 * 1024 * 1024)


async def test_a_batch_of_edits_refused_for_its_quota_is_rolled_back(store: WorkspaceStore) -> None:
    await store.workspace("q").write_file("/a", "a" * 100)
    ws = store.workspace("q", quotas=Quotas(call_bytes=250))
    with pytest.raises(EditBatchError) as refused:
        await apply_edits(ws, [{"kind": "write", "path": "/a", "content": "b" * 100},
                               {"kind": "write", "path": "/new", "content": "c" * 100},
                               {"kind": "write", "path": "/third", "content": "d" * 100}])
    assert refused.value.code == "EDQUOT" and refused.value.rolled_back is True
    assert await store.workspace("q").read_file("/a") == "a" * 100
    assert not await store.workspace("q").exists("/new")

"""Snapshot, materialise and write-back of workspace.snapshot: limits, protection, escapes, conflicts."""

import asyncio
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

import workspace.snapshot as snapshot_module
from workspace import (Workspace, WorkspaceStore, materialise, materialised_size, measure_tree, operation_key,
                       remove_small_tree)
from workspace.snapshot import QUICK_SNAPSHOT_FILES


def host(root: str, path: str) -> Path:
    return Path(root) / path.lstrip("/")


async def test_round_trip_reports_created_updated_deleted(ws: Workspace) -> None:
    await ws.write_file("/input.txt", "in")
    await ws.write_file("/remove.txt", "bye")
    await ws.mkdir("/remove-empty")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        assert host(root, "/input.txt").read_text() == "in"
        host(root, "/copy.txt").write_text("in")
        with open(host(root, "/input.txt"), "a") as f:
            f.write("+more")
        host(root, "/remove.txt").unlink()
        host(root, "/remove-empty").rmdir()
        host(root, "/created-empty").mkdir()
        report = await ws.write_back(snap, root)
    assert report["changed_files"] == {
        "created": ["/copy.txt"], "updated": ["/input.txt"], "deleted": ["/remove.txt"],
        "directories_created": ["/created-empty"], "directories_deleted": ["/remove-empty"],
    }  # fmt: skip
    assert report["errors"] == [] and report["conflicts"] == [] and report["skipped_files"] == []
    assert await ws.read_file("/input.txt") == "in+more"
    assert await ws.is_dir("/created-empty") and not await ws.exists("/remove-empty")


async def test_a_write_back_with_nothing_to_apply_waits_for_no_writer(store: WorkspaceStore, ws: Workspace) -> None:
    await ws.write_file("/notes.txt", "read only")
    snap = await ws.snapshot()
    writer_in, release = asyncio.Event(), asyncio.Event()

    async def hold_the_write_lock() -> None:
        async with store.transaction(ws.key, write=True):
            writer_in.set()
            await release.wait()

    writer = asyncio.create_task(hold_the_write_lock())
    await writer_in.wait()
    try:
        with materialise(snap) as root:
            assert host(root, "/notes.txt").read_text() == "read only"
            # Waiting for the held lock would never end: the writer waits for this very test.
            report = await asyncio.wait_for(ws.write_back(snap, root), timeout=60)
    finally:
        release.set()
        await writer
    assert report["changed_files"] == {"created": [], "updated": [], "deleted": [],
                                       "directories_created": [], "directories_deleted": []}
    assert report["errors"] == [] and report["conflicts"] == []


async def test_a_tagged_write_back_with_nothing_to_apply_still_records_its_key(store: WorkspaceStore,
                                                                             ws: Workspace) -> None:
    await ws.write_file("/notes.txt", "read only")
    snap = await ws.snapshot()
    token = operation_key.set("op-nothing-changed")
    try:
        with materialise(snap) as root:
            await ws.write_back(snap, root)
    finally:
        operation_key.reset(token)
    assert await store.operation_applied("op-nothing-changed")


async def test_materialised_directory_is_private_and_removed_even_on_failure(ws: Workspace) -> None:
    await ws.write_file("/a.txt", "a")
    snap = await ws.snapshot()
    with pytest.raises(RuntimeError):
        with materialise(snap) as root:
            assert stat.S_IMODE(os.stat(root).st_mode) == 0o700
            os.chmod(host(root, "/tmp"), 0o500)  # a script making its scratch dir read-only
            raise RuntimeError("the script crashed")
    assert not os.path.exists(root)


async def test_untouched_files_and_scratch_dirs_are_not_written_back(ws: Workspace) -> None:  # case 38
    await ws.write_file("/keep.txt", "k")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        assert sorted(os.listdir(root)) == ["bin", "dev", "keep.txt", "proc", "sys", "tmp", "usr"]
        host(root, "/ok.txt").write_text("ok\n")
        host(root, "/tmp/scratch.txt").write_text("s")
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["created"] == ["/ok.txt"]
    assert report["changed_files"]["directories_created"] == []
    assert [e.name for e in await ws.list_dir("/")] == ["keep.txt", "ok.txt"]


async def test_workspace_directories_named_like_scratch_paths_survive(ws: Workspace) -> None:  # case 44
    await ws.write_file("/tmp/notes.txt", "mine")
    await ws.mkdir("/bin")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["directories_deleted"] == [] and report["changed_files"]["deleted"] == []
    assert await ws.read_file("/tmp/notes.txt") == "mine" and await ws.is_dir("/bin")
    # ... and what a script does inside them is ordinary workspace content.
    with materialise(snap) as root:
        host(root, "/tmp/new.txt").write_text("n")
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["created"] == ["/tmp/new.txt"]


async def test_oversized_file_is_skipped_protected_and_kept(ws: Workspace) -> None:  # case 40
    await ws.write_file("/large.txt", "large")
    await ws.write_file("/dir/large2.txt", "large")
    await ws.write_file("/ok.txt", "ok")
    snap = await ws.snapshot(max_file_bytes=3)
    assert snap.skipped_files == ["/dir/large2.txt", "/large.txt"]
    assert {s.reason for s in snap.skipped} == {"size_limit"}
    with materialise(snap) as root:
        assert not host(root, "/large.txt").exists()
        host(root, "/large.txt").write_text("overwrite attempt")
        host(root, "/dir").rmdir()  # empty on the host: the protected file is not there
        report = await ws.write_back(snap, root)
    assert "Skipped writing protected workspace file: /large.txt" in report["errors"]
    assert "Skipped deleting protected workspace directory: /dir" in report["errors"]
    assert report["skipped_files"] == ["/dir/large2.txt", "/large.txt"]
    assert await ws.read_file("/large.txt") == "large"
    assert await ws.read_file("/dir/large2.txt") == "large"


async def test_file_exactly_at_the_byte_limit_is_loaded(ws: Workspace) -> None:
    await ws.write_file("/three.txt", "abc")
    snap = await ws.snapshot(max_file_bytes=3)
    assert "/three.txt" in snap.files and snap.skipped == ()


async def test_count_limit_is_breadth_first_and_protects_the_rest(ws: Workspace) -> None:
    await ws.write_file("/deep/deeper/z.txt", "z")
    await ws.write_file("/a.txt", "a")
    await ws.write_file("/deep/b.txt", "b")
    snap = await ws.snapshot(max_files=2)
    assert sorted(snap.files) == ["/a.txt", "/deep/b.txt"]
    assert [(s.path, s.reason) for s in snap.skipped] == [("/deep/deeper/z.txt", "count_limit")]
    with materialise(snap) as root:
        host(root, "/deep").joinpath("deeper").rename(host(root, "/moved"))
        report = await ws.write_back(snap, root)
    assert await ws.read_file("/deep/deeper/z.txt") == "z"
    assert "Skipped deleting protected workspace directory: /deep/deeper" in report["errors"]


async def test_many_files_within_a_raised_limit_are_all_loaded(ws: Workspace) -> None:  # case 42
    async with ws.store.transaction(ws.name, write=True) as t:  # one transaction: fast setup
        await t.mkdirs("/many")
        for i in range(1005):
            await t.put_file(f"/many/file-{i}.txt", str(i).encode(), "text/plain", None)
    snap = await ws.snapshot(max_files=1100)
    with materialise(snap) as root:
        assert host(root, "/many/file-1004.txt").read_text() == "1004"


async def test_symlinks_are_skipped_protected_and_refused_from_the_sandbox(ws: Workspace) -> None:
    await ws.write_file("/real.txt", "r")
    await ws.symlink("/real.txt", "/link")
    snap = await ws.snapshot()
    assert [(s.path, s.reason) for s in snap.skipped] == [("/link", "symlink")]
    with materialise(snap) as root:
        assert not os.path.lexists(host(root, "/link"))
        os.symlink("/etc/passwd", host(root, "/escape"))
        os.symlink("real.txt", host(root, "/inside-link"))
        report = await ws.write_back(snap, root)
    assert any("Refused symlink /escape" in e for e in report["errors"])
    assert any("Refused symlink /inside-link" in e for e in report["errors"])
    assert not await ws.exists("/escape") and not await ws.exists("/inside-link")
    lst = await ws.lstat("/link")
    assert lst is not None and lst.type == "symlink"


async def test_special_files_and_bad_names_are_refused(ws: Workspace) -> None:
    snap = await ws.snapshot()
    with materialise(snap) as root:
        os.mkfifo(host(root, "/pipe"))
        bad = os.path.join(os.fsencode(root), b"bad-\xff-name")
        with open(bad, "wb") as f:
            f.write(b"x")
        host(root, "/good.txt").write_text("g")
        report = await ws.write_back(snap, root)
    assert any("Refused special file /pipe" in e for e in report["errors"])
    assert any("not valid UTF-8" in e for e in report["errors"])
    assert report["changed_files"]["created"] == ["/good.txt"]
    assert [e.name for e in await ws.list_dir("/")] == ["good.txt"]


async def test_write_back_never_follows_a_symlinked_directory_out_of_the_sandbox(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("host secret")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        os.symlink(outside, host(root, "/mnt"))
        report = await ws.write_back(snap, root)
    assert not await ws.exists("/mnt/secret.txt")
    assert any("Refused symlink /mnt" in e for e in report["errors"])
    assert (outside / "secret.txt").read_text() == "host secret"


async def test_concurrent_change_is_a_conflict_and_the_stored_version_wins(ws: Workspace) -> None:
    await ws.write_file("/shared.txt", "v1")
    await ws.write_file("/doomed.txt", "v1")
    await ws.mkdir("/emptied")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        host(root, "/shared.txt").write_text("from script")
        host(root, "/doomed.txt").unlink()
        host(root, "/emptied").rmdir()
        host(root, "/fresh.txt").write_text("script's")
        # Meanwhile another request writes the same paths.
        await ws.write_file("/shared.txt", "from request")
        await ws.write_file("/doomed.txt", "v2")
        await ws.write_file("/emptied/new.txt", "n")
        await ws.write_file("/fresh.txt", "request's")
        report = await ws.write_back(snap, root)
    assert [c["path"] for c in report["conflicts"]] == ["/doomed.txt", "/emptied", "/fresh.txt", "/shared.txt"]
    assert all("stored version was kept" in c["reason"] for c in report["conflicts"])
    assert await ws.read_file("/shared.txt") == "from request"
    assert await ws.read_file("/doomed.txt") == "v2"
    assert await ws.read_file("/emptied/new.txt") == "n"
    assert await ws.read_file("/fresh.txt") == "request's"
    assert report["changed_files"]["updated"] == [] and report["changed_files"]["deleted"] == []


async def test_identical_create_by_someone_else_is_not_a_conflict(ws: Workspace) -> None:
    snap = await ws.snapshot()
    with materialise(snap) as root:
        host(root, "/same.txt").write_text("same")
        await ws.write_file("/same.txt", "same")
        report = await ws.write_back(snap, root)
    assert report["conflicts"] == [] and report["changed_files"]["created"] == []


async def test_type_changes_between_file_and_directory(ws: Workspace) -> None:
    await ws.write_file("/was-file", "f")
    await ws.write_file("/was-dir/inner.txt", "i")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        host(root, "/was-file").unlink()
        host(root, "/was-file").mkdir()
        host(root, "/was-file/child.txt").write_text("c")
        host(root, "/was-dir/inner.txt").unlink()
        host(root, "/was-dir").rmdir()
        host(root, "/was-dir").write_text("now a file")
        report = await ws.write_back(snap, root)
    assert report["errors"] == [] and report["conflicts"] == []
    assert await ws.read_file("/was-file/child.txt") == "c"
    assert await ws.read_file("/was-dir") == "now a file"


async def test_large_spilled_files_snapshot_and_write_back(ws: Workspace) -> None:
    big = b"B" * 1_600_000
    await ws.write_bytes("/big.bin", big)
    snap = await ws.snapshot(max_file_bytes=2_000_000)
    with materialise(snap) as root:
        assert host(root, "/big.bin").read_bytes() == big
        host(root, "/big.bin").write_bytes(big + b"!")
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["updated"] == ["/big.bin"]
    assert await ws.read_bytes("/big.bin") == big + b"!"


async def test_bad_limits_and_bad_host_dir_are_rejected(ws: Workspace, tmp_path: Path) -> None:
    from workspace import InvalidArgument

    with pytest.raises(InvalidArgument):
        await ws.snapshot(max_files=-1)
    snap = await ws.snapshot()
    with pytest.raises(InvalidArgument):
        await ws.write_back(snap, tmp_path / "missing")


async def test_same_size_rewrites_are_detected_even_with_mtime_restored(ws: Workspace) -> None:
    for n in range(50):
        await ws.write_file(f"/s/f{n}.txt", "aaaa")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        # Immediately, in the same clock tick as materialisation for some of them.
        for n in range(0, 50, 5):
            p = host(root, f"/s/f{n}.txt")
            before = os.stat(p)
            p.write_text("bbbb")
            os.utime(p, ns=(before.st_atime_ns, before.st_mtime_ns))
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["updated"] == sorted(f"/s/f{n}.txt" for n in range(0, 50, 5))
    assert await ws.read_file("/s/f5.txt") == "bbbb" and await ws.read_file("/s/f1.txt") == "aaaa"


async def test_write_back_into_a_foreign_directory_compares_bytes(ws: Workspace, tmp_path: Path) -> None:
    await ws.write_file("/a.txt", "same")
    await ws.write_file("/b.txt", "old")
    snap = await ws.snapshot()
    (tmp_path / "a.txt").write_text("same")
    (tmp_path / "b.txt").write_text("new")
    report = await ws.write_back(snap, tmp_path)
    assert report["changed_files"]["updated"] == ["/b.txt"]


async def test_async_materialise_round_trip_and_cleanup(ws: Workspace) -> None:
    from workspace import materialise_async

    await ws.write_file("/a.txt", "a")
    snap = await ws.snapshot()
    async with materialise_async(snap) as root:
        assert host(root, "/a.txt").read_text() == "a"
        host(root, "/b.txt").write_text("b")
        report = await ws.write_back(snap, root)
    assert report["changed_files"]["created"] == ["/b.txt"]
    assert not os.path.exists(root)
    with pytest.raises(ValueError):
        async with materialise_async(snap) as root:
            raise ValueError("script failed")
    assert not os.path.exists(root)


async def test_a_flood_of_new_files_is_capped_with_one_error(ws: Workspace) -> None:
    await ws.write_file("/kept.txt", "k")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        host(root, "/flood").mkdir()
        for i in range(30):
            host(root, f"/flood/{i:02}.txt").write_text(str(i))
        host(root, "/kept.txt").write_text("changed")
        report = await ws.write_back(snap, root, max_new_entries=11)
    assert report["changed_files"]["directories_created"] == ["/flood"]
    assert report["changed_files"]["created"] == [f"/flood/{i:02}.txt" for i in range(10)]
    assert report["changed_files"]["updated"] == ["/kept.txt"]  # changes to existing files are not capped
    assert any("Skipped 20 new files and directories" in e for e in report["errors"])


async def _round_trip_report(ws: Workspace, inline_entries: int, extra_files: int) -> dict[str, object]:
    await ws.write_file("/keep.txt", "kept")
    await ws.write_file("/edit.txt", "old")
    await ws.write_file("/drop.txt", "gone soon")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        host(root, "/edit.txt").write_text("new")
        host(root, "/drop.txt").unlink()
        host(root, "/made").mkdir()
        for i in range(extra_files):
            host(root, f"/made/{i}.txt").write_text(str(i))
        return await ws.write_back(snap, root, inline_entries=inline_entries)


@pytest.mark.parametrize("extra_files", [0, 40])
async def test_a_write_back_compared_on_the_event_loop_reports_what_a_threaded_one_does(
        store: WorkspaceStore, extra_files: int) -> None:
    # 0 extra files fits the budget of 20 entries (compared inline); 40 does not (the
    # partial scan is dropped and the whole tree compared in a thread): the same outcome.
    inline = await _round_trip_report(store.workspace("inline"), 20, extra_files)
    threaded = await _round_trip_report(store.workspace("threaded"), 0, extra_files)
    assert inline == threaded
    assert inline["changed_files"] == {
        "created": sorted(f"/made/{i}.txt" for i in range(extra_files)), "updated": ["/edit.txt"],
        "deleted": ["/drop.txt"], "directories_created": ["/made"], "directories_deleted": [],
    }  # fmt: skip
    for name in ("inline", "threaded"):
        assert await store.workspace(name).read_file("/edit.txt") == "new"
        assert not await store.workspace(name).exists("/drop.txt")


async def test_a_small_tree_is_removed_in_place_and_a_large_one_left_to_the_exit(ws: Workspace) -> None:
    snap = await ws.snapshot()
    with materialise(snap) as small:
        for i in range(5):
            host(small, f"/{i}.txt").write_text("x")
        assert remove_small_tree(small, budget=16) and not os.path.lexists(small)
    with materialise(snap) as large:
        nested = host(large, "/a/b/c")
        nested.mkdir(parents=True)
        for i in range(30):
            (nested / f"{i}.txt").write_text("x")
        assert not remove_small_tree(large, budget=16)
        assert os.path.isdir(large)  # left, maybe partly emptied, for the exit to finish
    assert not os.path.lexists(large)


async def test_a_materialised_tree_is_counted_as_written_exactly_as_a_walk_measures_it(ws: Workspace) -> None:
    await ws.write_file("/empty.txt", "")
    await ws.write_file("/a/b/c/deep.txt", "deep")
    await ws.write_file("/tmp/occupied.txt", "a workspace directory named like scratch")
    await ws.write_bytes("/big.bin", os.urandom(200_000))
    await ws.mkdir("/empty-dir")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        counted = materialised_size(root)
        assert counted is not None and counted == measure_tree(root)
        assert counted.bytes > 200_000
    assert materialised_size(root) is None  # gone with its tree


# --- the quick read of a small workspace ---------------------------------------------------

async def test_a_small_workspace_is_read_in_one_quick_body_exactly_as_the_transaction_reads_it(
        store: WorkspaceStore, ws: Workspace, monkeypatch: pytest.MonkeyPatch,
        transactions_of: Callable[[WorkspaceStore], list[str]]) -> None:
    await ws.write_file("/a.txt", "alpha\n")
    await ws.write_file("/empty.txt", "")
    await ws.write_file("/d/é 名.txt", "unicode name\n")
    await ws.write_file("/d/e/deep.txt", "deep\n")
    await ws.write_bytes("/d/bin.dat", bytes(range(256)))
    await ws.write_file("/tmp/kept.txt", "a directory named like a scratch path\n")
    await ws.write_file("/big.txt", "x" * 5_000)
    await ws.symlink("/a.txt", "/link")
    await ws.mkdir("/empty-dir")
    opened = transactions_of(store)
    for limits in ({}, {"max_files": 3}, {"max_file_bytes": 100}, {"max_files": 0, "max_file_bytes": 0}):
        quick = await ws.snapshot(**limits)
        assert opened == [], "a small workspace needs no transaction"
        monkeypatch.setattr(snapshot_module, "QUICK_SNAPSHOT_FILES", -1)  # never small
        through_transaction = await ws.snapshot(**limits)
        monkeypatch.setattr(snapshot_module, "QUICK_SNAPSHOT_FILES", QUICK_SNAPSHOT_FILES)
        assert opened == [ws.key]
        opened.clear()
        assert quick == through_transaction, limits
    assert (await store.workspace("never-written").snapshot()).files == {}


async def test_the_quick_read_stops_at_its_file_and_byte_edges(
        store: WorkspaceStore, ws: Workspace, monkeypatch: pytest.MonkeyPatch,
        transactions_of: Callable[[WorkspaceStore], list[str]]) -> None:
    monkeypatch.setattr(snapshot_module, "QUICK_SNAPSHOT_FILES", 3)
    monkeypatch.setattr(snapshot_module, "QUICK_SNAPSHOT_BYTES", 30)
    opened = transactions_of(store)

    async def files_and_transactions() -> tuple[int, int]:
        opened.clear()
        files = len((await ws.snapshot()).files)
        return files, len(opened)

    for i in range(3):
        await ws.write_file(f"/f{i}.txt", "0123456789")  # 3 files, 30 bytes: at both edges
    assert await files_and_transactions() == (3, 0)
    await ws.write_file("/f0.txt", "0123456789!")  # one byte past
    assert await files_and_transactions() == (3, 1)
    await ws.write_file("/f0.txt", "012345678")
    await ws.mkdir("/dir")  # a directory is not a file: still small
    assert await files_and_transactions() == (3, 0)
    await ws.write_file("/f3.txt", "")  # one file past
    assert await files_and_transactions() == (4, 1)


async def test_a_spilled_file_is_read_through_the_transaction(
        database: str, tmp_path: Path, transactions_of: Callable[[WorkspaceStore], list[str]]) -> None:
    store = await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=100)
    try:
        ws = store.workspace("spills")
        await ws.write_file("/small.txt", "kept in the row")
        await ws.write_bytes("/spilled.bin", b"S" * 200)  # small enough, but a blob
        opened = transactions_of(store)
        snap = await ws.snapshot()
        assert opened == [ws.key]
        assert snap.files["/spilled.bin"].content == b"S" * 200
        assert snap.files["/small.txt"].content == b"kept in the row"
    finally:
        await store.close()

"""Filesystem behaviour of workspace.fs: acceptance cases 1-20 and the reference flaws fixed."""

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workspace import (
    AlreadyExists,
    ChangeEvent,
    InvalidArgument,
    IsDirectory,
    LimitExceeded,
    NameTooLong,
    NotDirectory,
    NotEmpty,
    NotFound,
    PermissionDenied,
    SymlinkLoop,
    Workspace,
    WorkspaceError,
    WorkspaceStore,
)


async def test_write_creates_parents_and_read_returns_content(ws: Workspace) -> None:  # case 1
    await ws.write_file("/a/b/c/deep.txt", "deep")
    assert await ws.read_file("/a/b/c/deep.txt") == "deep"
    for d in ("/a", "/a/b", "/a/b/c"):
        assert await ws.is_dir(d)


async def test_read_missing_is_none_directory_is_eisdir_and_writing_root_is_eisdir(ws: Workspace) -> None:  # case 2
    assert await ws.read_file("/missing.txt") is None
    await ws.mkdir("/dir")
    with pytest.raises(IsDirectory) as exc:
        await ws.read_file("/dir")
    assert str(exc.value).startswith("EISDIR")
    with pytest.raises(IsDirectory):
        await ws.write_file("/", "x")


async def test_writing_onto_an_existing_directory_is_eisdir(ws: Workspace) -> None:
    await ws.mkdir("/dir")
    with pytest.raises(IsDirectory):
        await ws.write_file("/dir", "x")
    with pytest.raises(IsDirectory):
        await ws.append_file("/dir", "x")
    assert await ws.is_dir("/dir")


async def test_stat_of_small_text_file(ws: Workspace) -> None:  # case 3
    await ws.write_file("/five.txt", "12345")
    st = await ws.stat("/five.txt")
    assert st is not None
    assert (st.type, st.size, st.mime_type) == ("file", 5, "text/plain")
    assert st.created_at > 0 and st.modified_at > 0


async def test_overwrite_keeps_created_at_and_bumps_modified_and_version(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fixed clock: the real one may not tick between two writes, or may step back.
    monkeypatch.setattr(time, "time", lambda: 1_000.0)
    first = await ws.write_file("/f.txt", "one")
    monkeypatch.setattr(time, "time", lambda: 2_000.0)
    second = await ws.write_file("/f.txt", "two")
    assert second.created_at == first.created_at == 1_000.0
    assert second.modified_at == 2_000.0
    assert second.version > first.version


async def test_exists_is_true_for_directory_and_dangling_symlink_is_file_false_for_directory(ws: Workspace) -> None:  # case 4
    await ws.mkdir("/d")
    await ws.symlink("/nowhere", "/dangling")
    assert await ws.exists("/d")
    assert await ws.exists("/dangling")
    assert not await ws.is_file("/d")
    assert not await ws.is_file("/dangling")
    assert await ws.stat("/dangling") is None
    lst = await ws.lstat("/dangling")
    assert lst is not None and lst.type == "symlink" and lst.target == "/nowhere"


async def test_delete_file_missing_is_false_and_directory_is_eisdir(ws: Workspace) -> None:  # case 5
    assert await ws.delete_file("/nope") is False
    await ws.mkdir("/d")
    with pytest.raises(IsDirectory):
        await ws.delete_file("/d")
    await ws.write_file("/f", "x")
    assert await ws.delete_file("/f") is True
    assert not await ws.exists("/f")


async def test_mkdir_existing_eexist_recursive_twice_ok_missing_parent_enoent(ws: Workspace) -> None:  # case 6
    await ws.mkdir("/x")
    with pytest.raises(AlreadyExists):
        await ws.mkdir("/x")
    await ws.mkdir("/p/q/r", recursive=True)
    await ws.mkdir("/p/q/r", recursive=True)
    with pytest.raises(NotFound):
        await ws.mkdir("/no/parent")
    await ws.mkdir("/")  # the root is a no-op
    await ws.write_file("/file", "x")
    with pytest.raises(NotDirectory):
        await ws.mkdir("/file/sub", recursive=True)
    with pytest.raises(AlreadyExists):
        await ws.mkdir("/file", recursive=True)


async def test_mkdir_deeper_than_100_levels_is_eloop(ws: Workspace) -> None:
    await ws.mkdir("/d" * 100, recursive=True)
    with pytest.raises(SymlinkLoop):
        await ws.mkdir("/d" * 101, recursive=True)


async def test_list_dir_limit_and_offset(ws: Workspace) -> None:  # case 7
    for name in ("a", "b", "c"):
        await ws.write_file(f"/l/{name}.txt", name)
    assert len(await ws.list_dir("/l", limit=2, offset=0)) == 2
    assert [e.name for e in await ws.list_dir("/l", limit=2, offset=2)] == ["c.txt"]


async def test_list_dir_orders_directories_then_files_then_symlinks(ws: Workspace) -> None:
    await ws.write_file("/o/a.txt", "")
    await ws.symlink("a.txt", "/o/0link")
    await ws.mkdir("/o/zdir")
    await ws.mkdir("/o/bdir")
    assert [e.name for e in await ws.list_dir("/o")] == ["bdir", "zdir", "a.txt", "0link"]
    with pytest.raises(NotDirectory):
        await ws.list_dir("/o/a.txt")
    with pytest.raises(NotFound):
        await ws.list_dir("/nothing")


async def test_rm_errors_and_force(ws: Workspace) -> None:  # case 8
    await ws.write_file("/full/x.txt", "x")
    with pytest.raises(NotEmpty):
        await ws.rm("/full")
    with pytest.raises(NotFound):
        await ws.rm("/missing")
    await ws.rm("/missing", force=True)
    with pytest.raises(PermissionDenied):
        await ws.rm("/", recursive=True, force=True)
    await ws.rm("/full", recursive=True)
    assert not await ws.exists("/full/x.txt")


async def test_info_counts_files_directories_with_root_and_bytes(ws: Workspace) -> None:  # case 9
    await ws.write_file("/info/a.txt", "abc")
    await ws.write_file("/info/b.txt", "de")
    await ws.mkdir("/info/sub")
    info = await ws.info()
    assert (info["file_count"], info["directory_count"], info["total_bytes"]) == (2, 3, 5)
    assert info["blob_file_count"] == 0


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("noslash.txt", "/noslash.txt"),
        ("///multi///slashes///file.txt", "/multi/slashes/file.txt"),
        ("/../../../etc/passwd", "/etc/passwd"),
    ],
)
async def test_paths_normalise_inside_the_workspace(ws: Workspace, raw: str, expected: str) -> None:  # case 10
    await ws.write_file(raw, "inside")
    assert await ws.read_file(expected) == "inside"
    st = await ws.stat(raw)
    assert st is not None and st.path == expected


async def test_bytes_round_trip_and_bytes_read_as_text(ws: Workspace) -> None:  # case 11
    data = bytes([0, 0, 0, 42, 0, 0])
    await ws.write_bytes("/bin.dat", data)
    assert await ws.read_bytes("/bin.dat") == data
    await ws.write_bytes("/abc", b"ABC")
    assert await ws.read_file("/abc") == "ABC"


async def test_writing_through_symlink_changes_target_and_deleting_link_keeps_target(ws: Workspace) -> None:  # case 12
    await ws.write_file("/target.txt", "old")
    await ws.symlink("/target.txt", "/link")
    await ws.write_file("/link", "new")
    assert await ws.read_file("/target.txt") == "new"
    lst = await ws.lstat("/link")
    assert lst is not None and lst.type == "symlink"
    assert await ws.delete_file("/link")
    assert await ws.read_file("/target.txt") == "new"


async def test_relative_symlink_resolves_against_its_parent_and_directory_links_work(ws: Workspace) -> None:
    await ws.write_file("/real/dir/f.txt", "f")
    await ws.symlink("real/dir", "/alias")
    assert await ws.read_file("/alias/f.txt") == "f"
    await ws.write_file("/alias/g.txt", "g")
    assert await ws.read_file("/real/dir/g.txt") == "g"
    assert await ws.readlink("/alias") == "real/dir"


async def test_symlink_loop_is_eloop(ws: Workspace) -> None:
    await ws.symlink("/b", "/a")
    await ws.symlink("/a", "/b")
    with pytest.raises(SymlinkLoop):
        await ws.read_file("/a")
    assert await ws.is_file("/a") is False


async def test_cp_directory_needs_recursive_and_symlink_copies_as_link(ws: Workspace) -> None:  # case 13
    await ws.write_file("/src/a.txt", "a", mime="text/markdown")
    with pytest.raises(IsDirectory):
        await ws.cp("/src", "/dst")
    await ws.symlink("/src/a.txt", "/ln")
    await ws.cp("/ln", "/ln2")
    copied = await ws.lstat("/ln2")
    assert copied is not None and copied.type == "symlink" and copied.target == "/src/a.txt"
    await ws.cp("/src", "/dst", recursive=True)
    st = await ws.stat("/dst/a.txt")
    assert st is not None and st.mime_type == "text/markdown"
    await ws.cp("/src/a.txt", "/single.txt")
    assert await ws.read_file("/single.txt") == "a"


async def test_mv_moves_a_directory_subtree(ws: Workspace) -> None:  # case 14
    await ws.write_file("/src/a.txt", "moved")
    await ws.write_file("/src/deeper/b.txt", "b")
    await ws.mv("/src", "/dst")
    assert await ws.read_file("/dst/a.txt") == "moved"
    assert await ws.read_file("/dst/deeper/b.txt") == "b"
    assert not await ws.exists("/src")
    assert not await ws.exists("/src/a.txt")
    with pytest.raises(InvalidArgument):
        await ws.mv("/dst", "/dst/inside")


async def test_mv_of_a_spilled_file_keeps_its_content(database: str, tmp_path: Path) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=10) as store:
        ws = store.workspace()
        await ws.write_file("/big.txt", "0123456789abc")
        await ws.mv("/big.txt", "/moved/big.txt")
        assert await ws.read_file("/moved/big.txt") == "0123456789abc"
        assert (await ws.info())["blob_file_count"] == 1


async def test_glob_question_mark_braces_and_single_star(ws: Workspace) -> None:  # case 15
    for name in ("/f1.txt", "/f2.txt", "/f10.txt", "/app.ts", "/app.js", "/app.py", "/src/x.txt"):
        await ws.write_file(name, "")
    await ws.mkdir("/src/sub")
    assert [s.path for s in await ws.glob("/f?.txt")] == ["/f1.txt", "/f2.txt"]
    assert len(await ws.glob("/app.{ts,js}")) == 2
    src = await ws.glob("/src/*")
    assert sorted((s.path, s.type) for s in src) == [("/src/sub", "directory"), ("/src/x.txt", "file")]


async def test_glob_double_star_respects_directory_boundaries(ws: Workspace) -> None:  # case 16
    await ws.write_file("/a/file.ts", "")
    await ws.write_file("/a0/file.ts", "")
    await ws.write_file("/a-extra/file.ts", "")
    assert [s.path for s in await ws.glob("/a/**/*.ts")] == ["/a/file.ts"]
    await ws.write_file("/a/b/c/deep.ts", "")
    assert [s.path for s in await ws.glob("**/*.ts")] == [
        "/a-extra/file.ts", "/a/b/c/deep.ts", "/a/file.ts", "/a0/file.ts",
    ]  # fmt: skip
    assert [s.path for s in await ws.glob("/a/[bf]*")] == ["/a/b", "/a/file.ts"]


async def test_rm_recursive_keeps_siblings_with_shared_prefix(ws: Workspace) -> None:  # case 17
    await ws.write_file("/dir/x.txt", "x")
    await ws.write_file("/dir0/y.txt", "y")
    await ws.write_file("/dir00/nested.txt", "n")
    await ws.write_file("/a%b/z.txt", "z")
    await ws.write_file("/axb/other.txt", "o")
    await ws.rm("/dir", recursive=True)
    assert await ws.exists("/dir0/y.txt") and await ws.exists("/dir00/nested.txt")
    await ws.rm("/a%b", recursive=True)
    assert await ws.read_file("/axb/other.txt") == "o"
    assert not await ws.exists("/a%b")


async def test_diff_limits_and_output(ws: Workspace) -> None:  # case 18
    await ws.write_file("/one", "hello\nworld")
    await ws.write_file("/two", "hello\nearth")
    out = await ws.diff("/one", "/two")
    assert "-world" in out and "+earth" in out
    assert await ws.diff("/one", "/one") == ""
    await ws.write_file("/long", "x\n" * 10_001)
    with pytest.raises(LimitExceeded) as exc:
        await ws.diff("/one", "/long")
    assert exc.value.code == "EFBIG"


async def test_symlink_target_validation(ws: Workspace) -> None:  # case 19
    for bad in ("", "   "):
        with pytest.raises(InvalidArgument) as exc:
            await ws.symlink(bad, "/l")
        assert str(exc.value).startswith("EINVAL")
    with pytest.raises(NameTooLong):
        await ws.symlink("x" * 5001, "/l")
    with pytest.raises(NameTooLong):
        await ws.write_file("/" + "y" * 5000, "z")


async def test_concurrent_writes_into_one_missing_directory_create_it_once(ws: Workspace) -> None:  # case 20
    events: list[ChangeEvent] = []
    ws.on_change(events.append)
    await asyncio.gather(*(ws.write_file(f"/shared/f{i}.txt", str(i)) for i in range(10)))
    creates = [e for e in events if e.type == "create" and e.path == "/shared"]
    assert creates == [ChangeEvent("create", "/shared", "directory")]
    assert len(await ws.list_dir("/shared")) == 10


async def test_change_events_report_create_update_delete(ws: Workspace) -> None:
    events: list[ChangeEvent] = []
    unsubscribe = ws.on_change(events.append)
    await ws.write_file("/e.txt", "1")
    await ws.write_file("/e.txt", "2")
    await ws.delete_file("/e.txt")
    unsubscribe()
    await ws.write_file("/after.txt", "x")
    assert [(e.type, e.path) for e in events] == [("create", "/e.txt"), ("update", "/e.txt"), ("delete", "/e.txt")]


async def test_file_in_the_ancestor_chain_is_enotdir(ws: Workspace) -> None:
    await ws.write_file("/plain", "x")
    with pytest.raises(NotDirectory):
        await ws.write_file("/plain/child.txt", "y")
    assert await ws.read_file("/plain/child.txt") is None


async def test_errors_carry_code_and_message_starting_with_it(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError) as exc:
        await ws.rm("/ghost")
    assert exc.value.code == "ENOENT"
    assert str(exc.value).startswith("ENOENT: ")
    with pytest.raises(InvalidArgument):
        await ws.write_file("/nul\x00byte", "x")
    with pytest.raises(InvalidArgument):
        await ws.write_file("/x", b"not text")  # type: ignore[arg-type]


async def test_workspaces_are_isolated_listed_and_deleted(store: WorkspaceStore) -> None:
    await store.workspace("one").write_file("/f", "1")
    await store.workspace("two").write_file("/f", "2")
    assert await store.workspace("one").read_file("/f") == "1"
    assert [w["name"] for w in await store.list_workspaces()] == ["one", "two"]
    assert await store.delete_workspace("one") is True
    assert await store.delete_workspace("one") is False
    assert await store.workspace("one").read_file("/f") is None
    assert [w["name"] for w in await store.list_workspaces()] == ["two"]
    with pytest.raises(InvalidArgument):
        store.workspace("../escape")


async def test_reads_do_not_create_a_workspace(store: WorkspaceStore) -> None:
    ws = store.workspace("ghost")
    assert await ws.read_file("/x") is None
    assert await ws.list_dir("/") == []
    assert (await ws.info())["directory_count"] == 1
    assert await store.has_workspace("ghost") is False


async def test_a_file_stored_in_its_row_is_read_in_one_quick_body_and_anything_else_by_the_lookup(
        store: WorkspaceStore, ws: Workspace,
        transactions_of: Callable[[WorkspaceStore], list[str]]) -> None:
    await ws.write_file("/dir/plain.txt", "in the row")
    await ws.write_file("/empty.txt", "")
    await ws.symlink("/dir/plain.txt", "/link.txt")
    await ws.symlink("/dir", "/dirlink")
    await ws.write_file("/dirlink/through.txt", "written through a linked directory")
    lookups = transactions_of(store)
    assert await ws.read_file("/dir/plain.txt") == "in the row"
    assert await ws.read_file("/dir/through.txt") == "written through a linked directory"
    assert await ws.read_bytes("/empty.txt") == b""
    assert lookups == []  # each of those is a row at its own path
    assert await ws.read_file("/link.txt") == "in the row"
    assert await ws.read_file("/dirlink/plain.txt") == "in the row"
    assert await ws.read_file("/missing.txt") is None
    with pytest.raises(IsDirectory):
        await ws.read_file("/dir")
    assert lookups == [ws.key] * 4  # links, a missing path and a directory: the full lookup
    assert await store.workspace("never-written").read_file("/x") is None


async def test_every_single_entry_read_answers_the_same_with_or_without_the_quick_row_read(
        ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    import workspace.fs as fs_module

    await ws.write_file("/dir/plain.txt", "in the row")
    await ws.write_file("/empty.txt", "")
    await ws.symlink("/dir/plain.txt", "/link.txt")
    await ws.symlink("/nowhere", "/dangling")
    await ws.symlink("/dir", "/dirlink")
    paths = ["/", "/dir", "/dir/plain.txt", "/empty.txt", "/link.txt", "/dangling", "/dirlink",
             "/dirlink/plain.txt", "/missing", "/dir/missing/deeper"]

    async def everything() -> list[object]:
        seen: list[object] = []
        for path in paths:
            for read in (ws.read_file, ws.read_with_stat, ws.stat, ws.lstat, ws.exists):
                try:
                    seen.append(await read(path))  # type: ignore[operator]
                except WorkspaceError as exc:
                    seen.append((type(exc).__name__, exc.code))
        return seen

    quick = await everything()

    def never_found(workspace: str, path: str) -> Any:
        return None
        yield  # a body that reads nothing

    monkeypatch.setattr(fs_module, "_row_at", never_found)
    assert quick == await everything()

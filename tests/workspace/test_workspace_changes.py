"""Writing back a guest's change list (``ws.apply_changes``): the directory write-back's
rules and report, and a hostile list refused whole before anything is written."""

from __future__ import annotations

import base64
import os
from typing import Any

import pytest

from workspace import InvalidArgument, Quotas, Workspace, materialise
from workspace.entries import MAX_FILE_BYTES


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


async def seeded(ws: Workspace) -> None:
    await ws.write_file("/input.txt", "in")
    await ws.write_file("/remove.txt", "bye")
    await ws.mkdir("/remove-empty")
    await ws.write_file("/src/keep.txt", "k")


async def test_a_change_list_lands_as_the_same_changes_made_in_a_directory_would(ws: Workspace) -> None:
    await seeded(ws)
    snap = await ws.snapshot()
    report = await ws.apply_changes(snap, {
        "files": {"/copy.txt": b64(b"in"), "/input.txt": b64(b"in+more"), "/new/deep/f": b64(b"f")},
        "deleted": ["/remove.txt"], "dirs_created": ["/created-empty", "/new", "/new/deep"],
        "dirs_deleted": ["/remove-empty"]})
    assert report["changed_files"] == {
        "created": ["/copy.txt", "/new/deep/f"], "updated": ["/input.txt"], "deleted": ["/remove.txt"],
        "directories_created": ["/created-empty", "/new", "/new/deep"], "directories_deleted": ["/remove-empty"],
    }  # fmt: skip
    assert report["errors"] == [] and report["conflicts"] == []
    assert await ws.read_file("/input.txt") == "in+more" and await ws.read_file("/new/deep/f") == "f"
    assert not await ws.exists("/remove-empty") and await ws.read_file("/src/keep.txt") == "k"


async def test_contents_the_worker_decoded_land_as_their_base64_would(ws: Workspace) -> None:
    await seeded(ws)
    snap = await ws.snapshot()
    data = os.urandom(70_000)
    report = await ws.apply_changes(snap, {"files": {"/raw.bin": data, "/text.txt": b64(b"t")}})
    assert report["changed_files"]["created"] == ["/raw.bin", "/text.txt"]
    assert await ws.read_bytes("/raw.bin") == data and await ws.read_file("/text.txt") == "t"


async def test_the_report_equals_the_directory_write_backs_for_the_same_edit(ws: Workspace) -> None:
    await seeded(ws)
    other = ws.store.workspace("other")
    await seeded(other)
    snap, other_snap = await ws.snapshot(), await other.snapshot()
    with materialise(other_snap) as root:
        with open(f"{root}/input.txt", "a") as handle:
            handle.write("!")
        os.unlink(f"{root}/remove.txt")
        os.symlink("input.txt", f"{root}/link")
        os.mkdir(f"{root}/tmp/x")  # scratch: never written back
        scanned = await other.write_back(other_snap, root)
    listed = await ws.apply_changes(snap, {"files": {"/input.txt": b64(b"in!"), "/tmp/x/y": b64(b"")},
                                           "deleted": ["/remove.txt"], "dirs_created": ["/tmp/x"],
                                           "symlinks": ["/link"]})
    assert listed == scanned


async def test_an_unchanged_rewrite_is_no_update_and_needs_no_transaction(ws: Workspace) -> None:
    await seeded(ws)
    snap = await ws.snapshot()
    report = await ws.apply_changes(snap, {"files": {"/input.txt": b64(b"in")}})
    assert report["changed_files"]["updated"] == [] and report["errors"] == []


@pytest.mark.parametrize("changes", [{}, {"files": {}, "deleted": [], "dirs_created": [], "dirs_deleted": [],
                                                 "symlinks": []}, {"deleted": []}])
async def test_an_empty_change_list_reports_the_snapshot_as_the_full_check_would(ws: Workspace, changes: Any) -> None:
    await seeded(ws)
    await ws.write_file("/big.txt", "x" * 100)
    snap = await ws.snapshot(max_file_bytes=10)
    report = await ws.apply_changes(snap, changes)
    # what the whole scan reports for a run that changed nothing (a change list with one
    # unchanged rewrite takes that path)
    assert report == await ws.apply_changes(snap, {"files": {"/input.txt": b64(b"in")}})
    assert report["changed_files"] == {"created": [], "updated": [], "deleted": [], "directories_created": [],
                                       "directories_deleted": []}
    assert report["skipped_files"] == ["/big.txt"] and report["errors"] == []
    assert await ws.read_file("/input.txt") == "in" and await ws.read_file("/big.txt") == "x" * 100


async def test_a_path_whose_type_changed_is_freed_and_reused(ws: Workspace) -> None:
    await seeded(ws)
    snap = await ws.snapshot()
    report = await ws.apply_changes(snap, {"deleted": ["/remove.txt"], "dirs_created": ["/remove.txt"],
                                           "dirs_deleted": ["/remove-empty"],
                                           "files": {"/remove-empty": b64(b"now a file")}})
    assert report["changed_files"]["deleted"] == ["/remove.txt"]
    assert await ws.is_dir("/remove.txt") and await ws.read_file("/remove-empty") == "now a file"


async def test_protected_files_are_kept_as_the_directory_write_back_keeps_them(ws: Workspace) -> None:
    await ws.write_file("/big.bin", "x" * 100)
    await ws.write_file("/d/big2", "y" * 100)
    snap = await ws.snapshot(max_file_bytes=10)
    report = await ws.apply_changes(snap, {"files": {"/big.bin": b64(b"small")}, "dirs_deleted": ["/d"]})
    assert "Skipped writing protected workspace file: /big.bin" in report["errors"]
    assert "Skipped deleting protected workspace directory: /d" in report["errors"]
    assert await ws.read_file("/big.bin") == "x" * 100 and await ws.read_file("/d/big2") == "y" * 100


async def test_a_list_over_the_call_quota_writes_nothing(ws: Workspace) -> None:
    handle = ws.store.workspace(ws.name, quotas=Quotas(call_bytes=1000))
    snap = await handle.snapshot()
    report = await handle.apply_changes(snap, {"files": {"/a": b64(b"a" * 600), "/b": b64(b"b" * 600)}})
    assert report["quota_exceeded"]["quota"] == "call_bytes" and report["changed_files"]["created"] == []
    assert not await ws.exists("/a") and not await ws.exists("/b")


HOSTILE: dict[str, Any] = {
    "not an object": ["/a"],
    "an unknown key": {"files": {}, "chmod": []},
    "a relative path": {"files": {"a": b64(b"")}},
    "a dot-dot": {"files": {"/src/../escape": b64(b"")}},
    "a doubled slash": {"dirs_created": ["//etc"]},
    "a trailing slash": {"dirs_created": ["/new/"]},
    "the root": {"dirs_deleted": ["/"]},
    "a NUL": {"files": {"/a\0b": b64(b"")}},
    "a name too long": {"files": {"/" + "n" * 256: b64(b"")}},
    "a lone surrogate": {"files": {"/\udcff": b64(b"")}},
    "a path that is not a string": {"deleted": [7]},
    "a file written and deleted": {"files": {"/input.txt": b64(b"")}, "deleted": ["/input.txt"]},
    "a path listed twice": {"dirs_created": ["/n", "/n"]},
    "a delete of a file never loaded": {"deleted": ["/etc/passwd"]},
    "a removal of a directory never loaded": {"dirs_deleted": ["/nowhere"]},
    "a directory created where one was loaded": {"dirs_created": ["/src"]},
    "a file without its directory": {"files": {"/missing/f": b64(b"")}},
    "a directory removed under a kept file": {"dirs_deleted": ["/src"]},
    "a file over a kept directory": {"files": {"/src": b64(b"")}},
    "content that is not base64": {"files": {"/a": "not base64!"}},
    "content that is not a string": {"files": {"/a": 12}},
    "decoded content over the file limit": {"files": {"/a": bytes(MAX_FILE_BYTES + 1)}},
    "a directory too deep": {"dirs_created": ["/d" * 101]},
}


@pytest.mark.parametrize("changes", list(HOSTILE.values()), ids=list(HOSTILE))
async def test_a_hostile_change_list_is_refused_whole(ws: Workspace, changes: Any) -> None:
    await seeded(ws)
    snap = await ws.snapshot()
    before = await ws.walk("/")
    if isinstance(changes, dict):  # a valid part beside the bad one must not land either
        changes = {**changes, "files": {**changes.get("files", {}), "/side.txt": b64(b"s")}}
    with pytest.raises(InvalidArgument, match="change list is invalid"):
        await ws.apply_changes(snap, changes)
    assert await ws.walk("/") == before

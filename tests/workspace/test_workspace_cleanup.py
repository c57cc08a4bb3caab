"""Materialised trees are removed whatever a script left in them, and leftovers of dead
processes are swept: removal never recurses, so depth cannot break it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from workspace import Workspace, materialise, measure_tree, sweep_materialised
from workspace.entries import MAX_DIR_DEPTH
from workspace.snapshot import ENTRY_BYTES, _remove_tree


def make_deep(top: str, levels: int) -> None:
    """``levels`` nested directories under ``top``, created relative to descriptors (as a
    WASI guest does), so depth is not bounded by PATH_MAX."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir("a", dir_fd=fd)
            inner = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as leaf:
            leaf.write("bottom")
    finally:
        os.close(fd)


@pytest.fixture
def tmp_path(tmp_path: Path) -> Iterator[Path]:
    """pytest's own tmp_path, emptied without recursion afterwards: pytest removes old
    temporary directories with shutil.rmtree, which a deep tree left here would break."""
    yield tmp_path
    for entry in list(tmp_path.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            _remove_tree(str(entry))


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_remove_tree_takes_2500_levels_past_recursion_and_path_max(tmp_path: Path) -> None:
    top = tmp_path / "tree"
    top.mkdir()
    make_deep(str(top), 2500)  # 5,000 characters of path: no path-based walk reaches the bottom
    (top / "locked").mkdir()
    (top / "locked" / "f").write_text("x")
    (top / "locked").chmod(0)
    (top / ".rm-taken-1").write_text("a name like the hoisted ones")
    _remove_tree(str(top))
    assert not top.exists()


async def test_cleanup_after_the_findings_1200_levels_raises_nothing_and_removes_all(ws: Workspace, tmp_path: Path) -> None:
    await ws.write_file("/keep.txt", "kept")
    snap = await ws.snapshot()
    root = tmp_path / "trees"
    root.mkdir()
    with materialise(snap, root=root) as host_dir:
        make_deep(host_dir, 1200)
        Path(host_dir, "tmp", "big").write_bytes(b"y\n" * 100_000)
        report = await ws.write_back(snap, host_dir)
    assert list(root.iterdir()) == []
    refused = [e for e in report["errors"] if e.startswith("Refused directory nested deeper than")]
    assert refused == [f"Refused directory nested deeper than {MAX_DIR_DEPTH} levels: /{'a/' * 39}a..."]
    assert await ws.read_file("/keep.txt") == "kept"
    assert not await ws.exists("/" + "/".join(["a"] * (MAX_DIR_DEPTH + 1)))


def test_sweep_removes_trees_of_dead_processes_only(tmp_path: Path) -> None:
    gone = tmp_path / f"workspace-{dead_pid()}-abcd1234"
    mine = tmp_path / f"workspace-{os.getpid()}-abcd1234"
    other_live = tmp_path / "workspace-1-abcd1234"  # init: alive, and not ours
    old_unowned = tmp_path / "workspace-old_1234"
    new_unowned = tmp_path / "workspace-new_1234"
    unrelated = tmp_path / f"something-{dead_pid()}-abcd1234"
    for tree in (gone, mine, other_live, old_unowned, new_unowned, unrelated):
        tree.mkdir()
        make_deep(str(tree), 1200 if tree is gone else 3)
    hour_ago = time.time() - 7200
    os.utime(old_unowned, (hour_ago, hour_ago))
    removed = sweep_materialised(tmp_path)
    assert sorted(removed) == sorted([str(gone), str(old_unowned)])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in (mine, other_live, new_unowned, unrelated))


async def test_materialised_trees_are_named_after_their_owner(ws: Workspace, tmp_path: Path) -> None:
    with materialise(await ws.snapshot(), root=tmp_path) as host_dir:
        assert Path(host_dir).name.startswith(f"workspace-{os.getpid()}-")
        assert sweep_materialised(tmp_path) == []  # a live tree of this process stays
        assert Path(host_dir).is_dir()


def test_measure_tree_counts_blocks_and_entries_and_stops_past_the_depth_limit(tmp_path: Path) -> None:
    top = tmp_path / "measured"
    top.mkdir()
    (top / "data").write_bytes(b"x" * 100_000)
    with open(top / "sparse", "wb") as sparse:
        sparse.truncate(10**9)  # a gigabyte that occupies nothing
    size = measure_tree(str(top))
    assert not size.too_deep and 100_000 <= size.bytes < 200_000
    assert measure_tree(str(top), stop_above=10).bytes < 200_000
    make_deep(str(top), MAX_DIR_DEPTH)
    assert not measure_tree(str(top)).too_deep
    deeper = tmp_path / "deeper"
    deeper.mkdir()
    make_deep(str(deeper), 2500)  # past PATH_MAX: seen through descriptors, never by path
    size = measure_tree(str(deeper))
    # The walk stopped at the first directory too deep: 101 entries seen, not 2,500.
    assert size.too_deep and (MAX_DIR_DEPTH + 1) * ENTRY_BYTES <= size.bytes <= (MAX_DIR_DEPTH + 1) * 4096

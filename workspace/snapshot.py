"""Snapshot a workspace, materialise it on the host, and write the changes back safely.

The bash tool (and anything else that runs code against a real directory) does::

    snap = await ws.snapshot(max_files=1000, max_file_bytes=1_000_000)
    with materialise(snap) as host_dir:       # host_dir is what the isolate sees as "/"
        ...run the script...
        report = await ws.write_back(snap, host_dir)

(``async with materialise_async(snap) as host_dir`` does the file I/O in a thread.) The bash
tool itself runs over memory and sends back a change list instead of a directory:
``workspace.changes`` turns it into the same tree-after-the-run, and the same rules
(``plan_scan``) and transaction (``apply_plan``) write it back.

Decisions, each the answer to a question the reference leaves open:

- Snapshot walks breadth-first (by depth, then path). A file is loaded while fewer than
  ``max_files`` are loaded and its size is at most ``max_file_bytes``; otherwise it is
  skipped, with the reason (``count_limit``, ``size_limit``, ``unreadable``). Every skipped
  path is **protected**: write-back never overwrites it, never deletes it, never deletes a
  directory holding it, and never creates anything beneath it.
- **Symlinks are not materialised.** Each is listed as skipped with reason ``symlink`` and
  protected. The host directory therefore holds no link that could redirect a write outside
  it, and a link the script creates is refused at write-back (reported in ``errors``).
- Materialise makes a fresh ``0700`` directory under ``root`` (default: ``/dev/shm`` when
  usable, else the temp dir; see ``default_materialise_root``), recreates the directories
  and loaded files, adds the sandbox's scratch directories (``/tmp``, ``/bin``, ``/usr``,
  ``/dev``, ``/proc``, ``/sys``) where the workspace has nothing of that name, and removes
  the whole tree on exit, failure included, without recursion (a script can nest
  directories thousands deep). The tree's name carries the owner's pid, and
  ``sweep_materialised`` (run at service start-up) removes the trees of processes that died.
- Write-back scans the host directory without following anything. Symlinks, FIFOs, sockets,
  devices, names that are not UTF-8 and paths over 4,096 characters are refused and reported,
  never followed. A scratch path is ignored unless the workspace had an entry there at
  snapshot time: then it is ordinary workspace content, and is never deleted unless the
  script deleted it.
- Steps (reference section 3): new directories shallowest first; files (protected refused
  with "Skipped writing protected workspace file: <p>", byte-identical skipped); loaded files
  now absent removed deepest first; original directories now absent removed deepest first
  unless a protected path is inside ("Skipped deleting protected workspace directory: <p>").
  All of it commits in **one transaction**; inside it the removals run before the creations,
  so a path whose type changed (file <-> directory) is freed before it is reused. Files
  whose inode, size, mtime and ctime still equal what materialise wrote are known untouched
  and not re-read (see ``_settled``); at most ``max_new_entries`` new paths are taken.
  The others are read one at a time as they are written, so memory holds one file, not all.
- **Quotas.** The writes are charged to the handle's call budget and checked against the
  workspace's totals (``quotas``); past a quota the transaction rolls back and the report
  says so in ``errors`` and ``quota_exceeded``: all or nothing, never half a write-back.
- **No lost updates.** Each loaded file carries the version it had at snapshot time. The
  rule: *whenever the stored entry changed since the snapshot, the stored entry wins.* An
  update or delete of a file whose version moved, a create where something has appeared
  since, a directory removal where entries were added since: the store is left as it is and
  the path is reported in ``conflicts`` with the reason.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import stat as stat_mod
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from storage import Body, FetchAll, FetchOne

from . import _paths
from ._text import looks_like_text
from .errors import InvalidArgument, QuotaExceeded, WorkspaceError
from .entries import MAX_DIR_DEPTH, MAX_FILE_BYTES
from .transaction import operation_key

if TYPE_CHECKING:
    from .fs import Workspace
    from .transaction import Transaction

__all__ = [
    "SCRATCH_PATHS",
    "SkippedEntry",
    "Snapshot",
    "SnapshotFile",
    "TreeSize",
    "default_materialise_root",
    "materialise",
    "materialise_async",
    "materialised_size",
    "measure_tree",
    "remove_small_tree",
    "sweep_materialised",
    "take_snapshot",
    "write_back",
]

SCRATCH_PATHS: tuple[str, ...] = ("/tmp", "/bin", "/usr", "/dev", "/proc", "/sys")
SkipReason = Literal["count_limit", "size_limit", "unreadable", "symlink"]
_MAX_NAME_BYTES = 255  # what a Linux filesystem accepts for one name


@dataclass(frozen=True, slots=True)
class SnapshotFile:
    """A loaded file: its bytes and the version they belong to."""

    path: str
    size: int
    version: int
    mime_type: str
    content: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class SkippedEntry:
    """A path the snapshot did not load; it is protected during write-back."""

    path: str
    reason: SkipReason
    size: int
    type: str = "file"

    def explain(self) -> str:
        return {
            "count_limit": f"{self.path}: not loaded, the file-count limit was reached",
            "size_limit": f"{self.path}: not loaded, {self.size} bytes is over the per-file limit",
            "unreadable": f"{self.path}: not loaded, it could not be read or represented on the host",
            "symlink": f"{self.path}: symlinks are not loaded into the sandbox",
        }[self.reason]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What ``take_snapshot`` loaded and skipped."""

    workspace: str
    directories: tuple[str, ...]
    files: Mapping[str, SnapshotFile]
    skipped: tuple[SkippedEntry, ...]
    occupied_scratch: frozenset[str]
    max_files: int
    max_file_bytes: int

    @property
    def protected(self) -> frozenset[str]:
        return frozenset(s.path for s in self.skipped)

    @property
    def skipped_files(self) -> list[str]:
        return sorted(s.path for s in self.skipped)

    def summary(self) -> dict[str, Any]:
        return {
            "directories": len(self.directories),
            "files": len(self.files),
            "bytes": sum(f.size for f in self.files.values()),
            "skipped": [{"path": s.path, "reason": s.reason, "size": s.size} for s in self.skipped],
        }


def _representable(path: str) -> bool:
    try:
        return all(len(part.encode("utf-8")) <= _MAX_NAME_BYTES for part in path.split("/"))
    except UnicodeEncodeError:
        return False


QUICK_SNAPSHOT_FILES = 64
QUICK_SNAPSHOT_BYTES = 256 * 1024
"""A workspace of at most this many files and bytes, none of them spilled to a blob, is
read in one quick body: on the event loop when the database is free, else in one hop to its
thread, where the transaction below costs five (0.66 ms for three small files, most of a
small bash script's host side). Bigger workspaces, and any with a spilled file (read under
the store's lock, so no commit deletes its blob meanwhile), take the transaction."""


async def take_snapshot(ws: Workspace, *, max_files: int = 1000, max_file_bytes: int = 1_000_000) -> Snapshot:
    """Load the workspace breadth-first, within the limits, in one read transaction."""
    for value, what in ((max_files, "max_files"), (max_file_bytes, "max_file_bytes")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgument(f"{what} must be a non-negative integer")
    small = await ws.store.read(_small_workspace, ws.key)
    if small is not None:
        rows, contents = small
        picked = _pick(rows, max_files, max_file_bytes)
    else:
        async with ws.store.transaction(ws.key, write=False) as t:
            rows = []
            if t.ws_id is not None:
                rows = list(await t.conn.fetchall(
                    "SELECT path, type, size, version, mime_type FROM workspace_entries"
                    " WHERE workspace_id = ? AND path != '/'",
                    (t.ws_id,),
                ))
            picked = _pick(rows, max_files, max_file_bytes)
            contents = await t.contents(list(picked.chosen))
    files: dict[str, SnapshotFile] = {}
    for path, (size, version, mime) in picked.chosen.items():
        data = contents.get(path)
        if data is None:
            picked.skipped.append(SkippedEntry(path, "unreadable", size))
        else:
            files[path] = SnapshotFile(path, len(data), version, mime, data)
    return Snapshot(
        ws.name, tuple(picked.directories), files,
        tuple(sorted(picked.skipped, key=lambda s: s.path)), frozenset(picked.occupied),
        max_files, max_file_bytes,
    )  # fmt: skip


QUICK_WRITE_BACK_ENTRIES = 64
QUICK_WRITE_BACK_BYTES = 256 * 1024
"""A write-back of at most this many changes and bytes, all of them in hand (a guest's change
list, not files to read from a directory), is a quick transaction."""


def _small_workspace(name: str) -> Body[tuple[list[Any], dict[str, bytes]] | None]:
    """The entries and file contents of a small workspace with no spilled file, read in one
    transaction; None when it is not small (see :data:`QUICK_SNAPSHOT_FILES`)."""
    found = yield FetchOne("SELECT id FROM workspaces WHERE name = ?", (name,))
    if found is None:
        return [], {}
    ws_id = int(found[0])
    shape = yield FetchOne(
        "SELECT count(*), coalesce(sum(size), 0),"
        " coalesce(max(CASE WHEN storage = 'blob' THEN 1 ELSE 0 END), 0)"
        " FROM workspace_entries WHERE workspace_id = ? AND type = 'file'", (ws_id,))
    assert shape is not None  # an aggregate always answers
    if int(shape[0]) > QUICK_SNAPSHOT_FILES or int(shape[1]) > QUICK_SNAPSHOT_BYTES or shape[2]:
        return None
    rows = yield FetchAll(
        "SELECT path, type, size, version, mime_type, content FROM workspace_entries"
        " WHERE workspace_id = ? AND path != '/'", (ws_id,))
    contents = {str(r[0]): bytes(r[5]) if r[5] is not None else b""
                for r in rows if r[1] == "file"}
    return [tuple(r)[:5] for r in rows], contents


@dataclass
class _Picked:
    """Which entries a snapshot takes (``chosen``: path -> size, version, mime type)."""

    directories: list[str] = field(default_factory=list)
    skipped: list[SkippedEntry] = field(default_factory=list)
    chosen: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    occupied: set[str] = field(default_factory=set)


def _pick(rows: list[Any], max_files: int, max_file_bytes: int) -> _Picked:
    """Breadth-first over ``rows`` (path, type, size, version, mime type), within the limits."""
    picked = _Picked()
    for path, kind, size, version, mime in sorted(rows, key=lambda r: (_paths.depth(r[0]), r[0])):
        if _paths.depth(path) == 1 and path in SCRATCH_PATHS:
            picked.occupied.add(path)
        if not _representable(path):
            picked.skipped.append(SkippedEntry(path, "unreadable", size, kind))
        elif kind == "directory":
            picked.directories.append(path)
        elif kind == "symlink":
            picked.skipped.append(SkippedEntry(path, "symlink", size, kind))
        elif size > max_file_bytes:
            picked.skipped.append(SkippedEntry(path, "size_limit", size))
        elif len(picked.chosen) >= max_files:
            picked.skipped.append(SkippedEntry(path, "count_limit", size))
        else:
            picked.chosen[path] = (size, version, mime)
    return picked


def default_materialise_root() -> str | None:
    """Where materialised trees go: ``/dev/shm`` (tmpfs) when usable, else the temp dir.

    Creating a thousand small files measured 0.67 ms each on this machine's ext4 ``/tmp``
    and 0.02 ms on tmpfs, which decides the 60 ms round-trip target. The snapshot already
    holds the same bytes in memory, so tmpfs adds no new kind of cost; what a script writes
    there is bounded by the sandbox's own limits. ``$WORKSPACE_MATERIALISE_ROOT`` overrides.
    """
    chosen = os.environ.get("WORKSPACE_MATERIALISE_ROOT")
    if chosen:
        return chosen
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


def _host(root: str, path: str) -> str:
    return os.path.join(root, path.lstrip("/"))


@contextmanager
def materialise(
    snap: Snapshot, *, root: str | os.PathLike[str] | None = None, scratch: tuple[str, ...] = SCRATCH_PATHS
) -> Iterator[str]:
    """Write ``snap`` into a fresh private directory; yield its path; always remove it.

    ``root`` is the parent directory (default: ``default_materialise_root()``).
    """
    host_dir = tempfile.mkdtemp(prefix=f"workspace-{os.getpid()}-",
                                dir=root if root is not None else default_materialise_root())
    # mkdtemp creates it 0700: private to this user. The pid names the owner for the sweep.
    try:
        for d in sorted(snap.directories, key=_paths.depth):
            os.mkdir(_host(host_dir, d), 0o755)
        stamps: dict[str, _Stamp] = {}
        measured = 0  # what measure_tree would count, from the fstat each file gets anyway
        for f in snap.files.values():
            fd = os.open(_host(host_dir, f.path), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            try:
                view = memoryview(f.content)
                while view:
                    view = view[os.write(fd, view) :]
                info = os.fstat(fd)
                stamps[f.path] = _stamp(info)
                measured += _counted(info)
            finally:
                os.close(fd)
        made = [s for s in scratch if s not in snap.occupied_scratch and s not in snap.directories]
        for s in made:
            os.makedirs(_host(host_dir, s), 0o755, exist_ok=True)
        for d in (*snap.directories, *made):
            measured += _counted(os.lstat(_host(host_dir, d)))
        _MATERIALISED[host_dir] = _Materialised(snap, _settled(stamps, os.path.dirname(host_dir)),
                                                TreeSize(measured, False))
        yield host_dir
    finally:
        _MATERIALISED.pop(host_dir, None)
        if os.path.lexists(host_dir):  # else already removed by ``remove_small_tree``
            _remove_tree(host_dir)


@asynccontextmanager
async def materialise_async(
    snap: Snapshot, *, root: str | os.PathLike[str] | None = None, scratch: tuple[str, ...] = SCRATCH_PATHS
) -> AsyncIterator[str]:
    """``materialise`` for async callers: writing and removing the tree run in a thread."""
    manager = materialise(snap, root=root, scratch=scratch)
    host_dir = await asyncio.to_thread(manager.__enter__)
    try:
        yield host_dir
    except BaseException as exc:
        await asyncio.to_thread(manager.__exit__, type(exc), exc, exc.__traceback__)
        raise
    else:
        await asyncio.to_thread(manager.__exit__, None, None, None)


# mkdtemp's names: our prefix, the owner's pid (absent before the pid was added), 8 random
# characters from tempfile's alphabet.
_TREE_NAME = re.compile(r"workspace-(?:(\d+)-)?[a-z0-9_]{8}\Z")


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, and its tree is not ours to take
    return True


def sweep_materialised(root: str | os.PathLike[str] | None = None, *, unowned_age_s: float = 3600.0) -> list[str]:
    """Remove materialised trees whose owning process is gone; return the paths removed.

    A tree is named after the pid that made it; a tree whose pid no longer runs was left by a
    process that died mid-call (killed, or crashed in cleanup). Trees of live processes,
    this one included, are never touched. Trees named before pids were added are removed
    once nothing has changed in them for ``unowned_age_s``. The service runs this at start-up.
    """
    parent = os.fspath(root) if root is not None else default_materialise_root() or tempfile.gettempdir()
    removed: list[str] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        found = _TREE_NAME.match(entry.name)
        try:
            if found is None or not entry.is_dir(follow_symlinks=False):
                continue
            if found.group(1) is None:
                if time.time() - entry.stat(follow_symlinks=False).st_mtime < unowned_age_s:
                    continue
            elif int(found.group(1)) == os.getpid() or _process_alive(int(found.group(1))):
                continue
            _remove_tree(entry.path)
        except OSError:
            continue  # vanished meanwhile, or not ours to remove: leave it
        removed.append(entry.path)
    return removed


_Stamp = tuple[int, int, int, int]


def _stamp(info: os.stat_result) -> _Stamp:
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


@dataclass(frozen=True, slots=True)
class _Materialised:
    snap: Snapshot
    stamps: dict[str, _Stamp]
    size: "TreeSize"


def materialised_size(host_dir: str) -> "TreeSize | None":
    """What ``measure_tree(host_dir)`` finds in a tree ``materialise`` has just written
    (counted as it wrote, so no second walk); None for any other directory."""
    found = _MATERIALISED.get(host_dir)
    return None if found is None else found.size


# host_dir -> what materialise wrote there; lets write-back skip reading untouched files.
_MATERIALISED: dict[str, _Materialised] = {}


def _settled(stamps: dict[str, _Stamp], parent: str) -> dict[str, _Stamp]:
    """Keep the stamps that a later write is certain to change.

    Any write changes a file's ctime to the filesystem clock's *current* value, and no
    program can set ctime back. The clock is coarse, so a write in the same tick as
    materialisation could leave ctime equal; a marker file created after materialisation
    reads that clock. A file whose recorded ctime is strictly older than the marker's will
    show a different ctime after any later write. Files from the marker's tick are left out
    (write-back compares their bytes instead), the same rule git uses for "racily clean"
    index entries.
    """
    fd, marker = tempfile.mkstemp(prefix=".clock-", dir=parent)
    try:
        now = os.fstat(fd).st_ctime_ns
    finally:
        os.close(fd)
        os.unlink(marker)
    return {path: st for path, st in stamps.items() if st[3] < now}


def _untouched(materialised: _Materialised | None, path: str, host_path: str) -> bool:
    if materialised is None:
        return False
    stamp = materialised.stamps.get(path)
    if stamp is None:
        return False
    try:
        return _stamp(os.lstat(host_path)) == stamp
    except OSError:
        return False


def remove_small_tree(host_dir: str, budget: int) -> bool:
    """Remove a materialised tree here and now if it holds at most ``budget`` entries (True);
    else leave it, maybe partly removed, for the context manager's exit to finish (False).
    A handful of files on tmpfs take less time than the hop to a worker thread and back."""
    try:
        return _remove_tree(host_dir, budget)
    except OSError:
        return False


def _remove_tree(path: str, budget: int | None = None) -> bool:
    """Remove the tree at ``path`` with no recursion and at most three open descriptors.

    ``shutil.rmtree`` (and ``os.walk``) recurse once per level on Python 3.11: a script's
    ``mkdir -p`` of 1,200 levels made cleanup raise ``RecursionError`` and left the tree in
    ``/dev/shm``. Here each directory met at the top is emptied (its files unlinked where
    they are, its directories renamed up into the top directory under names no script can
    have picked), then removed, so every operation stays one or two levels below ``path``
    whatever the depth (no path ever nears ``PATH_MAX`` either), and each directory is
    renamed at most once. Entry types come from the directory listing itself (no ``lstat``
    per entry): a workspace of 1,000 files is mostly files.

    With a ``budget``, it stops (and returns False) once that many entries have been met,
    leaving a tree a later call finishes: a caller on the event loop removes a small tree
    itself and hands a large one to a thread.
    """
    hoisted = f".rm-{secrets.token_hex(8)}-"
    count = 0
    met = 0
    top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        while entries := _listing(top):
            for name, is_dir in entries:
                met += 1
                if budget is not None and met > budget:
                    return False
                try:
                    if not is_dir:
                        os.unlink(name, dir_fd=top)
                        continue
                    inner = _open_directory(name, top)
                    try:
                        for child, child_is_dir in _listing(inner):
                            met += 1
                            if budget is not None and met > budget:
                                return False
                            if not child_is_dir:
                                os.unlink(child, dir_fd=inner)
                                continue
                            count += 1
                            os.rename(child, f"{hoisted}{count}", src_dir_fd=inner, dst_dir_fd=top)
                    finally:
                        os.close(inner)
                    os.rmdir(name, dir_fd=top)
                except FileNotFoundError:
                    continue
    finally:
        os.close(top)
    os.rmdir(path)
    return True


def _listing(directory: int) -> list[tuple[str, bool]]:
    """``(name, is a directory)`` of each entry, never following a link."""
    with os.scandir(directory) as entries:
        return [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in entries]


def _open_directory(name: str, parent: int) -> int:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        return os.open(name, flags, dir_fd=parent)
    except PermissionError:
        # A script may have dropped the permissions of a directory it created.
        os.chmod(name, 0o700, dir_fd=parent)
        return os.open(name, flags, dir_fd=parent)


ENTRY_BYTES = 1024
"""What one entry is counted at least (tmpfs spends about this on an inode and its name), so
a script creating millions of empty files or directories is measured too."""


@dataclass(frozen=True, slots=True)
class TreeSize:
    """What ``measure_tree`` saw: bytes (at least ``ENTRY_BYTES`` an entry) and whether a
    directory sits deeper than ``MAX_DIR_DEPTH`` below the top."""

    bytes: int
    too_deep: bool


def _counted(info: os.stat_result) -> int:
    return max(info.st_blocks * 512, ENTRY_BYTES)


def measure_tree(path: str, *, stop_above: int | None = None) -> TreeSize:
    """Measure the tree at ``path`` without recursion, relative to open directories (so no
    path length limits what is seen), never more than ``MAX_DIR_DEPTH + 1`` of them open.

    Files count their allocated blocks (a sparse file what it uses). The walk stops once past
    ``stop_above`` or at the first directory deeper than ``MAX_DIR_DEPTH``.
    """
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    total = 0
    stack: list[tuple[int, list[str]]] = []
    try:
        top = os.open(path, flags)
        stack.append((top, os.listdir(top)))
        while stack:
            fd, names = stack[-1]
            if not names:
                os.close(stack.pop()[0])
                continue
            name = names.pop()
            try:
                info = os.lstat(name, dir_fd=fd)
            except OSError:
                continue  # removed meanwhile: what is seen is counted
            total += _counted(info)
            if stop_above is not None and total > stop_above:
                break
            if stat_mod.S_ISDIR(info.st_mode):
                if len(stack) > MAX_DIR_DEPTH:
                    return TreeSize(total, True)
                try:
                    inner = os.open(name, flags, dir_fd=fd)
                except OSError:
                    continue
                try:
                    stack.append((inner, os.listdir(inner)))
                except OSError:
                    os.close(inner)
    except OSError:
        pass  # the top itself is gone or unreadable: nothing more to count
    finally:
        for fd, _ in stack:
            os.close(fd)
    return TreeSize(total, False)


@dataclass(slots=True)
class _HostScan:
    """The tree after the run, in workspace paths: what write-back compares with the snapshot."""

    dirs: set[str] = field(default_factory=set)
    files: dict[str, str | bytes | None] = field(default_factory=dict)
    """Each file's source: a host path to read (the directory scan), its bytes (a guest's
    change list), or None (a loaded file the change list says is untouched)."""
    errors: list[str] = field(default_factory=list)


class _OverBudget(Exception):
    """The host tree holds more entries than may be scanned on the event loop."""


def _scan(host_dir: str, snap: Snapshot, budget: int | None = None) -> _HostScan:
    scan = _HostScan()
    pending: list[tuple[str, str]] = [(host_dir, "/")]
    met = 0
    while pending:
        host, ws_dir = pending.pop()
        try:
            entries = list(os.scandir(host))
        except OSError as exc:
            scan.errors.append(f"Could not read sandbox directory {ws_dir}: {exc.strerror}")
            continue
        met += len(entries)
        if budget is not None and met > budget:
            raise _OverBudget
        for entry in entries:
            name = entry.name
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                shown = ws_dir.rstrip("/") + "/" + name.encode("utf-8", "backslashreplace").decode()
                scan.errors.append(f"Refused path with a name that is not valid UTF-8: {shown}")
                continue
            path = _paths.join(ws_dir, name)
            if len(path) > _paths.MAX_PATH:
                scan.errors.append(f"Refused path longer than {_paths.MAX_PATH} characters: {path[:80]}...")
                continue
            if ws_dir == "/" and path in SCRATCH_PATHS and path not in snap.occupied_scratch:
                continue  # the sandbox's own scratch space, never written back
            try:
                # DirEntry answers these from d_type, without a stat call per entry.
                is_link = entry.is_symlink()
                is_dir = not is_link and entry.is_dir(follow_symlinks=False)
                is_file = not is_link and not is_dir and entry.is_file(follow_symlinks=False)
            except OSError as exc:
                scan.errors.append(f"Could not stat {path}: {exc.strerror}")
                continue
            if is_link:
                scan.errors.append(f"Refused symlink {path}: symlinks are not written back to the workspace")
            elif is_dir:
                if _paths.depth(path) > MAX_DIR_DEPTH:
                    scan.errors.append(f"Refused directory nested deeper than {MAX_DIR_DEPTH} levels: {path[:80]}...")
                    continue
                scan.dirs.add(path)
                pending.append((entry.path, path))
            elif is_file:
                scan.files[path] = entry.path
            else:
                scan.errors.append(f"Refused special file {path}: only regular files and directories are written back")
    return scan


def _cap_new_entries(scan: _HostScan, snap: Snapshot, limit: int) -> None:
    new_dirs = sorted(d for d in scan.dirs if d not in snap.directories)
    new_files = sorted(f for f in scan.files if f not in snap.files)
    if len(new_dirs) + len(new_files) <= limit:
        return
    # Directories first, so every kept file still has its parents.
    keep_dirs = new_dirs[:limit]
    keep_files = new_files[: max(0, limit - len(keep_dirs))]
    dropped = len(new_dirs) + len(new_files) - len(keep_dirs) - len(keep_files)
    kept = set(keep_dirs) | set(keep_files)
    scan.dirs = {d for d in scan.dirs if d in snap.directories or d in kept}
    scan.files = {p: h for p, h in scan.files.items() if p in snap.files or p in kept}
    scan.errors.append(
        f"Skipped {dropped} new files and directories over the limit of {limit} new entries per write-back"
    )


def _read_host_file(host_path: str) -> bytes:
    # O_NOFOLLOW: never read through a link swapped in after the scan; O_NONBLOCK: a FIFO
    # swapped in cannot hang us, and fstat then rejects it.
    fd = os.open(host_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat_mod.S_ISREG(info.st_mode):
            raise InvalidArgument("not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise InvalidArgument(f"{info.st_size} bytes is over the {MAX_FILE_BYTES}-byte file limit")
        # Ask for one byte more than fstat promised: a short read then means end of file.
        chunks = [os.read(fd, info.st_size + 1)]
        if len(chunks[0]) > info.st_size:
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _protected_ancestor(path: str, protected: frozenset[str]) -> str | None:
    if not protected:
        return None
    if path in protected:
        return path
    return next((a for a in _paths.ancestors(path) if a in protected), None)


DEFAULT_MAX_NEW_ENTRIES = 10_000


async def write_back(
    ws: Workspace,
    snap: Snapshot,
    host_dir: str | os.PathLike[str],
    *,
    max_new_entries: int = DEFAULT_MAX_NEW_ENTRIES,
    inline_entries: int = 0,
) -> dict[str, Any]:
    """Apply what changed in ``host_dir`` since ``snap`` to the workspace, in one transaction.

    At most ``max_new_entries`` new files and directories are taken (in path order); a
    script that floods its directory gets one error naming how many were left out. A tree
    of at most ``inline_entries`` entries is compared on the event loop, without the hop to
    a thread (which costs more than the scan of a few files, 0.5 ms and more under load).
    """
    if isinstance(max_new_entries, bool) or not isinstance(max_new_entries, int) or max_new_entries < 0:
        raise InvalidArgument("max_new_entries must be a non-negative integer")
    root = os.fspath(host_dir)
    try:
        root_mode = os.lstat(root).st_mode
    except OSError as exc:
        raise InvalidArgument(f"host directory {root} is not accessible: {exc.strerror}") from exc
    if not stat_mod.S_ISDIR(root_mode):
        raise InvalidArgument(f"host directory {root} is not a directory")
    plan: _Plan | None = None
    if inline_entries > 0:
        try:
            plan = _plan(root, snap, max_new_entries, budget=inline_entries)
        except _OverBudget:
            pass
    if plan is None:
        # Scanning and reading a large host tree is blocking I/O: keep it off the event loop.
        plan = await asyncio.to_thread(_plan, root, snap, max_new_entries)
    return await apply_plan(ws, snap, plan)


async def apply_plan(ws: Workspace, snap: Snapshot, plan: _Plan) -> dict[str, Any]:
    """Write ``plan`` to the workspace in one transaction and say what happened."""
    new_dirs, writes, gone_files, gone_dirs, errors = plan
    return await _apply(ws, snap, new_dirs, writes, gone_files, gone_dirs, errors)


_Write = tuple[str, "str | bytes", "SnapshotFile | None"]
_Plan = tuple[list[str], list[_Write], list[str], list[str], list[str]]


def _plan(root: str, snap: Snapshot, max_new_entries: int, budget: int | None = None) -> _Plan:
    """Compare the host tree with the snapshot: the four steps' inputs, plus errors."""
    scan = _scan(root, snap, budget)
    materialised = _MATERIALISED.get(root)
    if materialised is not None and materialised.snap is not snap:
        materialised = None

    def untouched(path: str, source: str) -> bool:
        return _untouched(materialised, path, source)

    return plan_scan(scan, snap, max_new_entries, untouched)


def plan_scan(scan: _HostScan, snap: Snapshot, max_new_entries: int,
              untouched: Callable[[str, str], bool] = lambda _p, _s: False) -> _Plan:
    """The write-back rules, whatever the tree after the run was read from: protected paths
    refused, at most ``max_new_entries`` new ones, loaded files now absent deleted and
    directories removed unless they hold a protected path. ``untouched`` may say a loaded
    file read from a host path is known unchanged, so it is not read at all."""
    _cap_new_entries(scan, snap, max_new_entries)
    errors = list(scan.errors)
    protected = snap.protected
    snap_dirs = set(snap.directories)

    new_dirs: list[str] = []
    for d in sorted(scan.dirs - snap_dirs, key=lambda p: (_paths.depth(p), p)):
        if _protected_ancestor(d, protected) is not None:
            errors.append(f"Skipped writing protected workspace file: {d}")
        else:
            new_dirs.append(d)
    # Candidates only: each is read (and compared with the snapshot) when it is written, one
    # at a time, so write-back holds one file in memory, not all of them.
    writes: list[_Write] = []
    for path in sorted(scan.files):
        source = scan.files[path]
        if _protected_ancestor(path, protected) is not None:
            errors.append(f"Skipped writing protected workspace file: {path}")
            continue
        if source is None or (path in snap.files and isinstance(source, str) and untouched(path, source)):
            continue
        writes.append((path, source, snap.files.get(path)))
    # A file present on the host but unreadable is in scan.files, so never counted as deleted.
    gone_files = sorted((p for p in snap.files if p not in scan.files), key=lambda p: (-_paths.depth(p), p))
    gone_dirs: list[str] = []
    for d in sorted(snap_dirs - scan.dirs, key=lambda p: (-_paths.depth(p), p)):
        if any(_paths.is_within(p, d) for p in protected):
            errors.append(f"Skipped deleting protected workspace directory: {d}")
        else:
            gone_dirs.append(d)
    return new_dirs, writes, gone_files, gone_dirs, errors


@dataclass(slots=True)
class _Applied:
    """What one write-back changed, as it goes."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    dirs_created: list[str] = field(default_factory=list)
    dirs_deleted: list[str] = field(default_factory=list)
    conflicts: list[dict[str, str]] = field(default_factory=list)

    def conflict(self, path: str, reason: str) -> None:
        self.conflicts.append({"path": path, "reason": reason + "; the stored version was kept"})


async def _apply(
    ws: Workspace,
    snap: Snapshot,
    new_dirs: list[str],
    writes: list[_Write],
    gone_files: list[str],
    gone_dirs: list[str],
    errors: list[str],
) -> dict[str, Any]:
    done = _Applied()
    over: QuotaExceeded | None = None
    # Nothing changed (most scripts only read): no write transaction, which would take the
    # workspace's write lock and spend five database round trips on nothing. A write-back
    # tagged with an operation key still commits, to record the key.
    if new_dirs or writes or gone_files or gone_dirs or operation_key.get() is not None:
        try:
            await _apply_changes(ws, snap, new_dirs, writes, gone_files, gone_dirs, done, errors)
        except QuotaExceeded as exc:
            # The transaction rolled back: nothing of this write-back reached the workspace.
            over, done = exc, _Applied()
            errors.append(f"Over quota, nothing was written back: {exc.detail}")
    report: dict[str, Any] = {
        "changed_files": {
            "created": sorted(done.created),
            "updated": sorted(done.updated),
            "deleted": sorted(done.deleted),
            "directories_created": sorted(set(done.dirs_created)),
            "directories_deleted": sorted(done.dirs_deleted),
        },
        "skipped_files": snap.skipped_files,
        "errors": sorted(errors),
        "conflicts": sorted(done.conflicts, key=lambda c: c["path"]),
    }
    if over is not None:
        report["quota_exceeded"] = {"quota": over.quota, "limit": over.limit, "attempted": over.attempted,
                                    "message": str(over)}
    return report


async def _apply_changes(ws: Workspace, snap: Snapshot, new_dirs: list[str],
                         writes: list[_Write], gone_files: list[str],
                         gone_dirs: list[str], done: _Applied, errors: list[str]) -> None:
    """The write-back's one transaction: removals first, then directories, then files. A
    small one (a script's few changes, their bytes in hand) runs on the event loop when the
    database is free (see ``WorkspaceStore.transaction``'s ``quick``)."""
    quick = (len(new_dirs) + len(writes) + len(gone_files) + len(gone_dirs) <= QUICK_WRITE_BACK_ENTRIES
             and all(isinstance(source, bytes) for _, source, _ in writes)
             and sum(len(source) for _, source, _ in writes) <= QUICK_WRITE_BACK_BYTES)
    async with ws.store.transaction(ws.key, write=True, budget=ws.budget, quick=quick) as t:
        await _remove_gone(t, snap, gone_files, gone_dirs, done)
        for path in new_dirs:
            row = await t.row(path)
            if row is not None:
                if row.type != "directory":
                    done.conflict(path, f"a {row.type} was created here in the workspace after the snapshot")
                continue
            try:
                done.dirs_created.extend(await t.mkdirs(path))
            except WorkspaceError as exc:
                done.conflict(path, f"could not create the directory ({exc})")
        for path, host_path, before in writes:
            await _write_one(t, path, host_path, before, done, errors)


async def _remove_gone(t: Transaction, snap: Snapshot, gone_files: list[str], gone_dirs: list[str],
                       done: _Applied) -> None:
    for path in gone_files:
        row = await t.row(path)
        if row is None:
            continue  # already gone: the outcome the script wanted
        if row.version != snap.files[path].version:
            done.conflict(path, "changed in the workspace after the snapshot, so it was not deleted")
            continue
        await t.delete_rows([row])
        done.deleted.append(path)
    for path in gone_dirs:
        row = await t.row(path)
        if row is None:
            continue
        if row.type != "directory":
            done.conflict(path, "replaced in the workspace after the snapshot, so it was not deleted")
        elif await t.has_children(path):
            done.conflict(path, "gained entries in the workspace after the snapshot, so it was not deleted")
        else:
            await t.delete_rows([row])
            done.dirs_deleted.append(path)


async def _write_one(t: Transaction, path: str, source: str | bytes, before: SnapshotFile | None,
                     done: _Applied, errors: list[str]) -> None:
    """Write one file (read from the host in a thread, if ``source`` is a host path), unless
    it is unchanged."""
    if isinstance(source, bytes):
        data = source
    else:
        try:
            data = await asyncio.to_thread(_read_host_file, source)
        except (OSError, InvalidArgument) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else exc.detail
            errors.append(f"Could not read {path} from the sandbox: {reason}")
            return
    if before is not None and before.content == data:
        return
    row = await t.row(path)
    if before is not None:
        if row is None or row.version != before.version:
            done.conflict(path, "changed in the workspace after the snapshot")
            return
    elif row is not None:
        if row.type == "file" and await t.content_of(row) == data:
            return
        done.conflict(path, f"a {row.type} was created here in the workspace after the snapshot")
        return
    try:
        if row is None:
            done.dirs_created.extend(await t.mkdirs(_paths.parent(path) or "/"))
        mime = row.mime_type if row is not None else ("text/plain" if looks_like_text(data) else
                                                       "application/octet-stream")  # fmt: skip
        await t.put_file(path, data, mime, row)
    except QuotaExceeded:
        raise  # the whole write-back rolls back
    except WorkspaceError as exc:
        done.conflict(path, f"could not be written ({exc})")
        return
    (done.updated if before is not None else done.created).append(path)

"""Write back the change list a guest returns, under the directory write-back's own rules.

The bash guest runs over an in-memory copy of the snapshot and returns one change list::

    {"files": {path: base64 content},   # created or changed (or the bytes themselves,
                                        # decoded by the run's worker)
     "deleted": [path], "dirs_created": [path], "dirs_deleted": [path],
     "symlinks": [path]}                # made by the script; refused, as the scan refuses them

``apply_changes`` turns it into the tree after the run (the snapshot, minus what was
deleted, plus what was written) and hands that to the same plan and transaction as a
scanned directory (``snapshot.plan_scan``, ``snapshot.apply_plan``): protected paths,
scratch paths, conflicts, quotas, ``max_new_entries``, all or nothing.

The list comes from the guest, so it is hostile: every path must be absolute and
normalised (no ``.``/``..``/empty names, no NUL, at most ``MAX_PATH`` characters, names of
at most 255 UTF-8 bytes), appear once, fit the snapshot (only loaded files deleted, only
loaded directories removed, no directory "created" twice), leave a tree whose every entry
has a directory for a parent, and carry valid base64 of at most ``MAX_FILE_BYTES``. Any
violation raises ``InvalidArgument`` before anything is written.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import _paths
from .entries import MAX_DIR_DEPTH, MAX_FILE_BYTES
from .errors import InvalidArgument
from .snapshot import SCRATCH_PATHS, Snapshot, _HostScan, apply_plan, plan_scan

if TYPE_CHECKING:
    from .fs import Workspace

__all__ = ["apply_changes", "scan_of_changes"]

_LISTS = ("deleted", "dirs_created", "dirs_deleted", "symlinks")
_MAX_NAME_BYTES = 255


def _bad(detail: str) -> InvalidArgument:
    return InvalidArgument(f"the sandbox's change list is invalid: {detail}")


def _checked_path(value: object) -> str:
    if not isinstance(value, str):
        raise _bad("a path is not a string")
    shown = value[:80]
    if not value.startswith("/") or value == "/" or value.endswith("/"):
        raise _bad(f"{shown!r} is not an absolute path of an entry")
    if "\0" in value or len(value) > _paths.MAX_PATH:
        raise _bad(f"{shown!r} holds a NUL byte or is too long")
    for name in value[1:].split("/"):
        if name in ("", ".", ".."):
            raise _bad(f"{shown!r} is not normalised")
        try:
            if len(name.encode("utf-8")) > _MAX_NAME_BYTES:
                raise _bad(f"{shown!r} has a name longer than {_MAX_NAME_BYTES} bytes")
        except UnicodeEncodeError:
            raise _bad(f"{shown!r} is not valid UTF-8") from None
    return value


def _content(path: str, value: object) -> bytes:
    if isinstance(value, bytes):  # decoded already, by the run's worker (sandbox.file_contents)
        data = value
    elif not isinstance(value, str) or len(value) > (MAX_FILE_BYTES // 3 + 1) * 4:
        raise _bad(f"the content of {path} is not a base64 string of at most {MAX_FILE_BYTES} bytes")
    else:
        try:
            data = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise _bad(f"the content of {path} is not valid base64") from None
    if len(data) > MAX_FILE_BYTES:
        raise _bad(f"{path} is over the {MAX_FILE_BYTES}-byte file limit")
    return data


def _scratch(path: str, snap: Snapshot) -> bool:
    """Under a scratch directory the workspace had nothing at: the sandbox's own, ignored."""
    top = "/" + path.split("/", 2)[1]
    return top in SCRATCH_PATHS and top not in snap.occupied_scratch


def scan_of_changes(snap: Snapshot, changes: object) -> _HostScan:
    """The tree after the run, from the snapshot and ``changes`` (see the module docstring)."""
    if not isinstance(changes, Mapping) or not set(changes) <= {"files", *_LISTS}:
        raise _bad("it is not an object of files, deleted, dirs_created, dirs_deleted and symlinks")
    files = changes.get("files", {})
    if not isinstance(files, Mapping):
        raise _bad("files is not an object")
    lists: dict[str, list[str]] = {}
    for key in _LISTS:
        raw = changes.get(key, [])
        if not isinstance(raw, list):
            raise _bad(f"{key} is not a list")
        lists[key] = [_checked_path(p) for p in raw]
    written = {_checked_path(p): _content(p, v) for p, v in files.items()}
    # The sandbox's own scratch space is never written back (nor checked further).
    written = {p: data for p, data in written.items() if not _scratch(p, snap)}
    for key in ("dirs_created", "symlinks"):
        lists[key] = [p for p in lists[key] if not _scratch(p, snap)]
    # What the run left and what it removed: each path once in either; in both only as a
    # change of type (``rm f; mkdir f``), never as a file both written and deleted.
    after = [*written, *lists["dirs_created"], *lists["symlinks"]]
    before = [*lists["deleted"], *lists["dirs_deleted"]]
    if len(set(after)) != len(after) or len(set(before)) != len(before) or set(written) & set(lists["deleted"]):
        raise _bad("a path appears twice")
    loaded_dirs = set(snap.directories)
    gone = set(lists["deleted"])
    for path in lists["deleted"]:
        if path not in snap.files:
            raise _bad(f"{path} is deleted but was not loaded")
    for path in lists["dirs_deleted"]:
        if path not in loaded_dirs:
            raise _bad(f"{path} is a removed directory that was not loaded")
    for path in lists["dirs_created"]:
        if path in loaded_dirs or (path in snap.files and path not in gone):
            raise _bad(f"{path} is created but was loaded")
        if _paths.depth(path) > MAX_DIR_DEPTH:
            raise _bad(f"{path[:80]} is nested deeper than {MAX_DIR_DEPTH} levels")
    for path in written:
        if path in loaded_dirs and path not in lists["dirs_deleted"]:
            raise _bad(f"{path} is written as a file over a directory that is still there")
    scan = _HostScan()
    scan.dirs = (loaded_dirs - set(lists["dirs_deleted"])) | set(lists["dirs_created"])
    scan.files = {p: None for p in snap.files if p not in gone and p not in written}
    scan.files.update(written)
    for path in [*scan.dirs, *scan.files, *lists["symlinks"]]:
        parent = _paths.parent(path) or "/"
        if parent != "/" and parent not in scan.dirs:
            raise _bad(f"{path} is left without its directory {parent}")
        if (path in scan.dirs) + (path in scan.files) + (path in lists["symlinks"]) > 1:
            raise _bad(f"{path} is two kinds of entry at once")
    scan.errors = [f"Refused symlink {p}: symlinks are not written back to the workspace"
                   for p in lists["symlinks"]]
    return scan


async def apply_changes(ws: Workspace, snap: Snapshot, changes: object, *,
                        max_new_entries: int = 10_000) -> dict[str, Any]:
    """Check ``changes`` and write them back as ``write_back`` writes a directory back."""
    if isinstance(max_new_entries, bool) or not isinstance(max_new_entries, int) or max_new_entries < 0:
        raise InvalidArgument("max_new_entries must be a non-negative integer")
    if _unchanged(changes):
        # Most scripts only read: with nothing to check against the snapshot (a walk of all
        # it holds) there is nothing to write either.
        return await apply_plan(ws, snap, ([], [], [], [], []))
    scan = scan_of_changes(snap, changes)
    return await apply_plan(ws, snap, plan_scan(scan, snap, max_new_entries))


def _unchanged(changes: object) -> bool:
    """Whether ``changes`` is a well-formed change list that changes nothing."""
    return (isinstance(changes, Mapping) and set(changes) <= {"files", *_LISTS}
            and changes.get("files", {}) == {} and all(changes.get(key, []) == [] for key in _LISTS))

"""Target ``workspace_paths``: arbitrary text into the workspace's path normaliser
(``workspace.normalize_path``) and the path arithmetic built on it (``workspace._paths``:
``parent``, ``basename``, ``ancestors``, ``is_within``, ``subtree_bounds``).

A finding: an exception other than ``InvalidArgument`` / ``NameTooLong``; a normalised
path that is not absolute, holds an empty, ``.`` or ``..`` segment or a NUL, or changes when
normalised again; a parent/basename/ancestors inconsistent with the path; a path outside
the ``subtree_bounds`` of its own ancestors.
"""

from __future__ import annotations

from workspace import InvalidArgument, NameTooLong, normalize_path
from workspace import _paths

from ._harness import Finding, allow, text

MAX_LEN = 8192


def _check(path: str) -> None:
    if not path.startswith("/") or "\x00" in path:
        raise Finding(f"normalised {path!r} is not absolute or holds a NUL")
    parts = path.split("/")[1:]
    if path != "/" and any(p in ("", ".", "..") for p in parts):
        raise Finding(f"normalised {path!r} holds an empty, . or .. segment")
    if normalize_path(path) != path:
        raise Finding(f"normalising {path!r} again changes it")
    parent = _paths.parent(path)
    if parent is None:
        if path != "/":
            raise Finding(f"{path!r} has no parent")
        return
    if _paths.join(parent, _paths.basename(path)) != path:
        raise Finding(f"parent {parent!r} + basename of {path!r} is not the path")
    chain = _paths.ancestors(path)
    if chain[-1] != parent or _paths.depth(path) != len(chain):
        raise Finding(f"ancestors {chain[-3:]!r} of {path!r} do not end at its parent")
    for above in chain:
        lo, hi = _paths.subtree_bounds(above)
        if not (lo <= path < hi and _paths.is_within(path, above)):
            raise Finding(f"{path!r} falls outside the subtree bounds of its ancestor {above!r}")


def one_input(data: bytes) -> None:
    raw = text(data)
    for candidate in (raw, "/" + raw, raw.replace("\\", "/")):
        path = allow(lambda: normalize_path(candidate), (InvalidArgument, NameTooLong))
        if path is not None:
            _check(path)

"""Target ``workspace_glob``: arbitrary text as a workspace glob (``workspace._paths``:
``normalize_glob``, ``compile_glob``, ``glob_prefix``, ``glob_suffix``), matched against
paths built from the same bytes and a 60-deep path.

A finding: an exception other than the workspace's own ``InvalidArgument`` /
``NameTooLong`` / ``LimitExceeded`` (an ``re.error`` or RE2 error escaping means a glob was
translated to a bad regex, as ``/[z-a]`` once was); a match that does not start with
the pattern's literal prefix or end with its literal suffix; a pattern with no glob syntax
that does not match itself; a hang past the harness's bound (backtracking).
"""

from __future__ import annotations

from workspace import InvalidArgument, LimitExceeded, NameTooLong
from workspace import _paths

from ._harness import Finding, allow, text

MAX_LEN = 1024
DOCUMENTED = (InvalidArgument, NameTooLong, LimitExceeded)
DEEP = "/" + "/".join(f"d{i}" for i in range(60)) + "/file.txt"


def one_input(data: bytes) -> None:
    raw = text(data)
    pattern, _, sample = raw.partition("\n")
    norm = allow(lambda: _paths.normalize_glob(pattern), DOCUMENTED)
    if norm is None:
        return
    glob = allow(lambda: _paths.compile_glob(norm), DOCUMENTED)
    if glob is None:
        return
    prefix, suffix = _paths.glob_prefix(norm), _paths.glob_suffix(norm)
    if prefix == norm and not glob.matches(norm) and "\\" not in norm:
        raise Finding(f"the literal glob {norm!r} does not match itself")
    candidates = [DEEP, "/" + sample.strip("/"), norm.replace("*", "x").replace("?", "y")]
    for path in candidates:
        if not glob.matches(path):
            continue
        if not path.startswith(prefix.rstrip("/") or "/"):
            raise Finding(f"{path!r} matches {norm!r} but not its literal prefix {prefix!r}")
        if not path.endswith(suffix):
            raise Finding(f"{path!r} matches {norm!r} but not its literal suffix {suffix!r}")

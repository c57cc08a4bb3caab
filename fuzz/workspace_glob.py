"""Target ``workspace_glob``: arbitrary text as a workspace glob (``workspace._paths``:
``normalize_glob``, ``compile_glob``, ``glob_prefix``, ``glob_suffix``), matched against
paths built from the same bytes and a 60-deep path.

A finding: an exception other than the workspace's own ``InvalidArgument`` /
``NameTooLong`` / ``LimitExceeded`` (a ``re.error`` means the glob was translated to a bad
regex: ``state.glob("[z-a]")`` would fail the same way); a match that does not start with
the pattern's literal prefix or end with its literal suffix; a pattern with no glob syntax
that does not match itself; a hang past the harness's bound (backtracking).
"""

from __future__ import annotations

import warnings

from workspace import InvalidArgument, LimitExceeded, NameTooLong
from workspace import _paths

from ._harness import Finding, Known, allow, text

MAX_LEN = 1024
KNOWN = (Known("undocumented error: ", "fuzz finding: a glob can translate to an invalid "
                "regex (re.error): a reversed range in a class (`state.glob('/[z-a]')`), a bad escape"),
         Known(r"\*\*", "issue 12 finding 1: many `**` segments over a 60-deep path backtrack "
               "for minutes", inputs=5))
DOCUMENTED = (InvalidArgument, NameTooLong, LimitExceeded)
DEEP = "/" + "/".join(f"d{i}" for i in range(60)) + "/file.txt"


def one_input(data: bytes) -> None:
    raw = text(data)
    pattern, _, sample = raw.partition("\n")
    norm = allow(lambda: _paths.normalize_glob(pattern), DOCUMENTED)
    if norm is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # "possible nested set": re's, not ours
        regex = allow(lambda: _paths.compile_glob(norm), DOCUMENTED)
    if regex is None:
        return
    prefix, suffix = _paths.glob_prefix(norm), _paths.glob_suffix(norm)
    if prefix == norm and regex.match(norm) is None and "\\" not in norm:
        raise Finding(f"the literal glob {norm!r} does not match itself")
    candidates = [DEEP, "/" + sample.strip("/"), norm.replace("*", "x").replace("?", "y")]
    for path in candidates:
        if regex.match(path) is None:
            continue
        if not path.startswith(prefix.rstrip("/") or "/"):
            raise Finding(f"{path!r} matches {norm!r} but not its literal prefix {prefix!r}")
        if not path.endswith(suffix):
            raise Finding(f"{path!r} matches {norm!r} but not its literal suffix {suffix!r}")

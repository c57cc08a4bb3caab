"""Workspace path arithmetic and glob compilation (pure functions, no I/O).

Paths are absolute, ``/``-separated strings. Normalising never climbs above ``/``: this is
the one place that decides what a path means, so every entry point goes through it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ._patterns import Glob, check_glob_bounds
from .errors import InvalidArgument, NameTooLong

__all__ = [
    "MAX_PATH",
    "ancestors",
    "basename",
    "compile_glob",
    "depth",
    "glob_prefix",
    "glob_suffix",
    "is_within",
    "join",
    "normalize",
    "parent",
    "subtree_bounds",
]

MAX_PATH = 4096


def normalize(path: str) -> str:
    """Return the canonical form of ``path``: leading ``/``, no empty, ``.`` or ``..`` parts.

    ``..`` pops a segment and stops at the root, so no input resolves above ``/``.
    """
    if not isinstance(path, str):
        raise InvalidArgument(f"path must be a string, not {type(path).__name__}")
    if len(path) > MAX_PATH:
        raise NameTooLong(f"path is {len(path)} characters; the limit is {MAX_PATH}", path[:64] + "...")
    if "\x00" in path:
        raise InvalidArgument("path contains a NUL character", path.replace("\x00", "\\0"))
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def parent(path: str) -> str | None:
    """Parent of a normalised path; None for the root."""
    if path == "/":
        return None
    cut = path.rfind("/")
    return path[:cut] if cut > 0 else "/"


def basename(path: str) -> str:
    return "" if path == "/" else path[path.rfind("/") + 1 :]


def join(base: str, name: str) -> str:
    return base + name if base.endswith("/") else base + "/" + name


def depth(path: str) -> int:
    return 0 if path == "/" else path.count("/")


def ancestors(path: str) -> list[str]:
    """Proper ancestors of a normalised path, root first (``/a/b/c`` -> ``/``, ``/a``, ``/a/b``)."""
    out = ["/"] if path != "/" else []
    idx = path.find("/", 1)
    while idx != -1:
        out.append(path[:idx])
        idx = path.find("/", idx + 1)
    return out


def is_within(path: str, root: str) -> bool:
    """True when ``path`` is ``root`` or below it (component-wise, so ``/dir0`` is not in ``/dir``)."""
    if root == "/":
        return True
    return path == root or path.startswith(root + "/")


def subtree_bounds(root: str) -> tuple[str, str]:
    """Half-open range ``[lo, hi)`` of paths strictly below ``root``.

    ``/`` sorts just before ``0``, so ``'/dir/' <= p < '/dir0'`` selects exactly the paths
    under ``/dir``: no LIKE pattern, so ``%`` and ``_`` in names mean nothing special.
    """
    if root == "/":
        # Every path but the root itself: names never hold NUL, so "\x01" is the least one.
        return "/\x01", "0"
    return root + "/", root + "0"


_GLOB_SPECIAL = frozenset("*?[{")


def glob_prefix(pattern: str) -> str:
    """The literal directory prefix of a normalised glob pattern, usable for a range scan."""
    for idx, ch in enumerate(pattern):
        if ch in _GLOB_SPECIAL or ch == "\\":
            cut = pattern.rfind("/", 0, idx)
            return pattern[: cut + 1] if cut >= 0 else "/"
    return pattern


def glob_suffix(pattern: str) -> str:
    """The literal tail every match must end with (``/**/*.py`` -> ``.py``); "" if none."""
    cut = max(pattern.rfind(ch) for ch in "*?]}")
    if cut < 0 or "\\" in pattern:
        return ""
    return pattern[cut + 1 :]


def normalize_glob(pattern: str) -> str:
    """``**/*.ts`` means ``/**/*.ts``; repeated slashes collapse. Glob syntax is kept as is."""
    if "\x00" in pattern:
        raise InvalidArgument("glob pattern contains a NUL character")
    if len(pattern) > MAX_PATH:
        raise NameTooLong("glob pattern is too long")
    parts = [p for p in pattern.split("/") if p not in ("", ".")]
    return "/" + "/".join(parts)


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> Glob:
    """Compile a normalised glob to an RE2 matcher of whole paths (linear in the path).

    ``**/`` matches zero or more directories (a trailing ``/**`` everything below), ``*`` and
    ``?`` never cross ``/``, ``[...]`` (``[!...]`` negated) is a class, ``{a,b}`` alternates.
    A glob over the bounds of ``_patterns`` (``**`` segments, ``{`` and ``[`` groups) is
    refused with ``EFBIG`` before it is translated: translation rescans from each group.
    """
    check_glob_bounds(pattern)
    return Glob(pattern, "(?s)" + _translate(pattern))


def _translate(pat: str) -> str:
    out: list[str] = []
    i, n = 0, len(pat)
    while i < n:
        ch = pat[i]
        if ch == "*":
            if pat.startswith("**", i):
                at_seg_start = i == 0 or pat[i - 1] == "/"
                j = i + 2
                if at_seg_start and j < n and pat[j] == "/":
                    out.append(r"(?:[^/]*/)*")
                    i = j + 1
                    continue
                if at_seg_start and j == n:
                    out.append(r".*")
                    i = j
                    continue
                out.append(r"[^/]*")
                i = j
                continue
            out.append(r"[^/]*")
        elif ch == "?":
            out.append(r"[^/]")
        elif ch == "[":
            end = _class_end(pat, i)
            if end < 0:
                out.append(re.escape(ch))
            else:
                body = pat[i + 1 : end]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\").replace("^", "\\^")
                out.append(("[^/" if negate else "[") + body + "]")
                i = end
        elif ch == "{":
            end, options = _brace_options(pat, i)
            if end < 0:
                out.append(re.escape(ch))
            else:
                out.append("(?:" + "|".join(_translate(o) for o in options) + ")")
                i = end
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pat[i]))
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _class_end(pat: str, start: int) -> int:
    j = start + 1
    if j < len(pat) and pat[j] in "!^":
        j += 1
    if j < len(pat) and pat[j] == "]":
        j += 1
    while j < len(pat) and pat[j] != "]":
        if pat[j] == "/":
            return -1
        j += 1
    return j if j < len(pat) else -1


def _brace_options(pat: str, start: int) -> tuple[int, list[str]]:
    level = 0
    options: list[str] = []
    last = start + 1
    for j in range(start, len(pat)):
        ch = pat[j]
        if ch == "{":
            level += 1
        elif ch == "}":
            level -= 1
            if level == 0:
                options.append(pat[last:j])
                return (j, options) if len(options) > 1 else (-1, [])
        elif ch == "," and level == 1:
            options.append(pat[last:j])
            last = j + 1
    return -1, []

"""Shell patterns: ``* ? [...]`` and extglob ``?() *() +() @() !()``, and pathname expansion.

A pattern arrives as text in which quoted characters are backslash-escaped (``expand.py``
does that), so ``"*"`` never globs. Patterns become Python regular expressions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from .errors import LimitExceeded
from . import fs

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~", "xdigit": "0-9A-Fa-f",
    "cntrl": "\\x00-\\x1f\\x7f", "print": " -~", "graph": "!-~", "word": "a-zA-Z0-9_",
}


def has_glob(pattern: str) -> bool:
    """Does ``pattern`` contain an unescaped glob character? As bash decides it: a ``[``
    with a ``]`` after it (before any ``/``) counts, whether or not the two make a bracket
    expression (``[]`` is matched as itself, but with nullglob it is a pattern that names
    nothing), and so do ``+( @( !(`` with extglob off."""
    bracket_open = False
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?":
            return True
        if c == "[":
            bracket_open = True
        elif c == "]" and bracket_open:
            return True
        elif c == "/":
            bracket_open = False
        elif c in "+@!" and i + 1 < n and pattern[i + 1] == "(":
            return True
        i += 1
    return False


def without_extglob(pattern: str) -> str:
    """``pattern`` with each unescaped ``(`` escaped: with ``extglob`` off, ``*(x)`` is a star
    and the text ``(x)``, not a group (``[[ == ]]`` matches with extglob on, as bash does)."""
    if "(" not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            out.append(pattern[i:i + 2])
            i += 2
            continue
        out.append("\\(" if c == "(" else c)
        i += 1
    return "".join(out)


def unescape(pattern: str) -> str:
    """Remove the backslash escapes (the pattern's literal text)."""
    if "\\" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(pattern[i + 1])
            i += 2
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _bracket(pattern: str, i: int) -> tuple[str, int] | None:
    """Translate a bracket expression starting after ``[``; None if it is not closed."""
    n = len(pattern)
    j = i
    negate = False
    if j < n and pattern[j] in "!^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while j < n:
        c = pattern[j]
        if c == "]" and not first:
            body = "".join(items)
            if not body:
                return None
            return ("[^" if negate else "[") + body + "]", j + 1
        first = False
        if c == "[" and pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end > 0 and pattern[j + 2 : end] in _CLASSES:
                items.append(_CLASSES[pattern[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\" and j + 1 < n:
            c = pattern[j + 1]
            j += 1
        if j + 2 < n and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            hi = pattern[j + 2]
            hj = j + 2
            if hi == "\\" and hj + 1 < n:
                hi = pattern[hj + 1]
                hj += 1
            if hi >= c:
                items.append(re.escape(c) + "-" + re.escape(hi))
            j = hj + 1
            continue
        items.append(re.escape(c))
        j += 1
    return None


def _translate(pattern: str, i: int, stop: str, pathname: bool) -> tuple[str, int]:
    out: list[str] = []
    n = len(pattern)
    star = "[^/]*" if pathname else ".*"
    one = "[^/]" if pathname else "."
    while i < n:
        c = pattern[i]
        if c in stop:
            return "".join(out), i
        if c in "?*+@!" and i + 1 < n and pattern[i + 1] == "(":
            alts: list[str] = []
            j = i + 2
            closed = False
            while True:
                sub, j = _translate(pattern, j, "|)", pathname)
                alts.append(sub)
                if j >= n:
                    break
                if pattern[j] == ")":
                    j += 1
                    closed = True
                    break
                j += 1
            if not closed:  # ``!(`` with no ``)``: bash matches its characters as themselves
                out.append(re.escape(c))
                i += 1
                continue
            group = "(?:" + "|".join(alts) + ")"
            if c == "?":
                out.append(group + "?")
            elif c == "*":
                out.append(group + "*")
            elif c == "+":
                out.append(group + "+")
            elif c == "@":
                out.append(group)
            else:
                rest, _ = _translate(pattern, j, "", pathname)
                out.append("(?:(?!" + group + "(?:" + rest + ")\\Z)" + star + ")")
            i = j
            continue
        if c == "\\":
            if i + 1 < n:
                out.append(re.escape(pattern[i + 1]))
                i += 2
            else:
                out.append("\\\\")
                i += 1
            continue
        if c == "*":
            while i + 1 < n and pattern[i + 1] == "*":
                i += 1
            out.append(star)
        elif c == "?":
            out.append(one)
        elif c == "[":
            got = _bracket(pattern, i + 1)
            if got is None:
                out.append("\\[")
            else:
                out.append(got[0])
                i = got[1]
                continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out), i


@lru_cache(maxsize=1024)
def compile_pattern(pattern: str, pathname: bool = False, nocase: bool = False) -> re.Pattern[str]:
    body, _ = _translate(pattern, 0, "", pathname)
    return re.compile("(?s:" + body + ")\\Z", re.I if nocase else 0)


@lru_cache(maxsize=1024)
def compile_search(pattern: str) -> re.Pattern[str]:
    body, _ = _translate(pattern, 0, "", False)
    return re.compile("(?s:" + body + ")")


def match(pattern: str, text: str, nocase: bool = False) -> bool:
    """Does the whole of ``text`` match the shell ``pattern``?"""
    if not has_glob(pattern):
        literal = unescape(pattern)
        return literal.lower() == text.lower() if nocase else literal == text
    return compile_pattern(pattern, False, nocase).match(text) is not None


class GlobOptions:
    def __init__(self, dotglob: bool, globstar: bool, nocase: bool, limit: int) -> None:
        self.dotglob = dotglob
        self.globstar = globstar
        self.nocase = nocase
        self.limit = limit
        self.ops = 0


def glob(pattern: str, cwd: str, host: Callable[[str], str], opts: GlobOptions) -> list[str]:
    """Pathname expansion of ``pattern`` (script paths), sorted; [] when nothing matches."""
    absolute = pattern.startswith("/")
    components = [c for c in pattern.split("/") if c != ""]
    if not components:
        return []
    starts: list[str] = ["/" if absolute else ""]
    results = starts
    for k, comp in enumerate(components):
        last = k == len(components) - 1
        nxt: list[str] = []
        for prefix in results:
            base = prefix if prefix else "."
            if opts.globstar and comp == "**":
                nxt.extend(_globstar(prefix, base, cwd, host, opts, last))
                continue
            if not has_glob(comp):
                path = prefix + ("" if prefix.endswith("/") or not prefix else "/") + unescape(comp)
                if last:
                    if fs.lexists(host(_script_path(path, cwd))):
                        nxt.append(path)
                elif fs.isdir(host(_script_path(path, cwd))):
                    nxt.append(path)
                continue
            regex = compile_pattern(comp, True, opts.nocase)
            for name in _listdir(host(_script_path(base, cwd)), opts):
                if name.startswith(".") and not comp.startswith(".") and not comp.startswith("\\."):
                    if not opts.dotglob or name in (".", ".."):
                        continue
                if regex.match(name):
                    path = prefix + ("" if prefix.endswith("/") or not prefix else "/") + name
                    if last or fs.isdir(host(_script_path(path, cwd))):
                        nxt.append(path)
        results = nxt
        if not results:
            return []
    if pattern.endswith("/"):
        results = [r + "/" for r in results]
    return sorted(set(results), key=_sort_key)


def _sort_key(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _globstar(prefix: str, base: str, cwd: str, host: Callable[[str], str], opts: GlobOptions, last: bool) -> list[str]:
    found: list[str] = [prefix] if prefix else []
    if not prefix and not last:
        found = [""]
    stack = [prefix]
    out: list[str] = []
    while stack:
        current = stack.pop()
        dir_host = host(_script_path(current if current else ".", cwd))
        for name in _listdir(dir_host, opts):
            if name.startswith(".") and not opts.dotglob:
                continue
            path = current + ("" if current.endswith("/") or not current else "/") + name
            is_dir = fs.isdir(host(_script_path(path, cwd))) and not fs.islink(host(_script_path(path, cwd)))
            if last or is_dir:
                out.append(path + ("" if last or not is_dir else ""))
            if is_dir:
                stack.append(path)
    if last:
        return out
    return found + out


def _listdir(host_dir: str, opts: GlobOptions) -> list[str]:
    try:
        names = fs.listdir(host_dir)
    except OSError:
        return []
    opts.ops += len(names) + 1
    if opts.ops > opts.limit:
        raise LimitExceeded(f"glob: too many directory entries examined (limit {opts.limit})")
    return names


def _script_path(path: str, cwd: str) -> str:
    if path.startswith("/"):
        return path
    if path in ("", "."):
        return cwd
    return cwd.rstrip("/") + "/" + path

"""Brace expansion (``a{b,c}d``, ``{1..10..2}``, ``{a..e}``) on a word's raw text.

Runs before every other expansion and must leave quoted text, ``${...}`` and ``$(...)``
alone, so it scans the raw source of the word.
"""

from __future__ import annotations

import re

from .errors import LimitExceeded

_SEQ_RE = re.compile(r"\A(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?\Z|\A([^\\])\.\.([^\\])(?:\.\.(-?[0-9]+))?\Z")


def _skip_quoted(text: str, i: int) -> int:
    """Index after the quoted/``$``-construct starting at ``i`` (or i+1 for plain chars)."""
    c = text[i]
    n = len(text)
    if c == "\\":
        return i + 2
    if c == "'":
        end = text.find("'", i + 1)
        return n if end < 0 else end + 1
    if c == '"':
        j = i + 1
        while j < n and text[j] != '"':
            j = j + 2 if text[j] == "\\" else (_skip_quoted(text, j) if text[j] == "$" else j + 1)
        return j + 1
    if c == "$" and i + 1 < n and text[i + 1] in "({":
        open_c = text[i + 1]
        close_c = ")" if open_c == "(" else "}"
        depth, j = 1, i + 2
        while j < n and depth:
            ch = text[j]
            if ch in "\\'\"":
                j = _skip_quoted(text, j)
                continue
            if ch == open_c:
                depth += 1
            elif ch == close_c:
                depth -= 1
            j += 1
        return j
    if c == "$" and i + 1 < n and text[i + 1] == "'":
        j = i + 2
        while j < n and text[j] != "'":
            j += 2 if text[j] == "\\" else 1
        return j + 1
    return i + 1


def _find_brace(text: str, start: int) -> tuple[int, int, list[int]] | None:
    """First expandable ``{...}`` at or after ``start``: (open, close, top-level commas)."""
    n = len(text)
    i = start
    while i < n:
        c = text[i]
        if c == "{" and not (i > 0 and text[i - 1] == "$"):
            depth, j, commas = 1, i + 1, []
            while j < n:
                ch = text[j]
                if ch in "\\'\"" or (ch == "$" and j + 1 < n and text[j + 1] in "({'"):
                    j = _skip_quoted(text, j)
                    continue
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif ch == "," and depth == 1:
                    commas.append(j)
                j += 1
            if j < n:
                body = text[i + 1 : j]
                if commas or _SEQ_RE.match(body):
                    return i, j, commas
            i += 1
            continue
        if c in "\\'\"" or c == "$":
            i = _skip_quoted(text, i)
            continue
        i += 1
    return None


def _sequence(body: str) -> list[str] | None:
    m = _SEQ_RE.match(body)
    if not m:
        return None
    if m.group(1) is not None:
        a_s, b_s, step_s = m.group(1), m.group(2), m.group(3)
        a, b = int(a_s), int(b_s)
        step = abs(int(step_s)) if step_s else 1
        step = step or 1
        width = 0
        if (a_s.lstrip("-").startswith("0") and len(a_s.lstrip("-")) > 1) or (
            b_s.lstrip("-").startswith("0") and len(b_s.lstrip("-")) > 1
        ):
            width = max(len(a_s), len(b_s))
        count = abs(b - a) // step + 1
        if count > 10_000_000:
            raise LimitExceeded("brace expansion: too many results")
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        if width:
            return [("-" + str(-v).zfill(width - 1)) if v < 0 else str(v).zfill(width) for v in values]
        return [str(v) for v in values]
    a_c, b_c, step_s = m.group(4), m.group(5), m.group(6)
    step = abs(int(step_s)) if step_s else 1
    step = step or 1
    lo, hi = ord(a_c), ord(b_c)
    values = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
    out = []
    for v in values:
        ch = chr(v)
        out.append("\\" + ch if ch in "\\'\"`$ \t;&|<>()*?[]{}!#~" else ch)
    return out


def expand_braces(text: str, limit: int) -> list[str]:
    """All words brace expansion makes of ``text`` (just ``[text]`` when there is none)."""
    if "{" not in text:
        return [text]
    results: list[str] = []
    pending = [text]
    while pending:
        word = pending.pop()
        # (most words made have no brace left: a sequence's numbers never do)
        found = _find_brace(word, 0) if "{" in word else None
        if found is None:
            results.append(word)
            if len(results) > limit:
                raise LimitExceeded(f"brace expansion: more than {limit} results")
            continue
        open_i, close_i, commas = found
        prefix, suffix = word[:open_i], word[close_i + 1 :]
        if commas:
            bounds = [open_i] + commas + [close_i]
            alternatives = [word[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
        else:
            alternatives = _sequence(word[open_i + 1 : close_i]) or []
        if len(alternatives) + len(results) + len(pending) > limit:
            raise LimitExceeded(f"brace expansion: more than {limit} results")
        for alt in reversed(alternatives):
            pending.append(prefix + alt + suffix)
    return results

"""The inner grammar of one word: quotes, escapes and ``$`` constructs, as parts.

``parse.py`` keeps words as raw text; ``expand.py`` asks this module for a word's parts
(after brace expansion). Parsing is cached per (text, mode) because loops expand the same
words many times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from .errors import ExpansionError
from .escapes import decode_ansi_c


@dataclass(frozen=True, slots=True)
class Lit:
    """Unquoted literal text (glob characters in it are active)."""

    text: str


@dataclass(frozen=True, slots=True)
class Quoted:
    """Literal text that was quoted or backslash-escaped."""

    text: str


@dataclass(frozen=True, slots=True)
class DQ:
    parts: tuple["Part", ...]


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    index: str | None = None
    prefix: str = ""
    """``#`` for length, ``!`` for indirection/keys/names."""
    op: str = ""
    arg: str | None = None
    arg2: str | None = None
    """Second argument: the replacement of ``/``, the length of ``:``."""
    text: str = ""
    """The whole ``${...}`` source, for error messages."""


@dataclass(frozen=True, slots=True)
class CmdSub:
    source: str
    backtick: bool = False


@dataclass(frozen=True, slots=True)
class Arith:
    source: str


@dataclass(frozen=True, slots=True)
class ProcSub:
    source: str
    direction: str


@dataclass(frozen=True, slots=True)
class Tilde:
    user: str


Part = Union[Lit, Quoted, DQ, Param, CmdSub, Arith, ProcSub, Tilde]

WORD, DQUOTE, HEREDOC, ARG_DQ = "word", "dq", "heredoc", "arg_dq"
"""Parse modes: an unquoted word; inside "..."; a here-document body; the word argument of
``${x:-...}`` appearing inside double quotes (single quotes are literal there)."""

_SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
_PARAM_OPS = (":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%", "//", "/#", "/%", "/", "^^", "^", ",,", ",", "~~", "~", "@", ":")


class _Reader:
    def __init__(self, text: str, mode: str) -> None:
        self.t = text
        self.n = len(text)
        self.i = 0
        self.mode = mode


def _find_close_paren(t: str, i: int) -> int:
    """``i`` is just after ``$(``; index of the matching ``)`` (quote- and case-aware)."""
    from .parse import Parser

    sub = Parser(t)
    sub.i = i
    sub.parse_list(stop_at_paren=True)
    sub.skip_newlines()
    if sub.i >= len(t) or t[sub.i] != ")":
        raise ExpansionError("unexpected EOF while looking for matching `)'")
    return sub.i


def _find_arith_end(t: str, i: int) -> int | None:
    depth = 0
    while i < len(t):
        c = t[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i if t.startswith("))", i) else None
            depth -= 1
        elif c == "\\":
            i += 1
        i += 1
    return None


def _find_brace_end(t: str, i: int) -> int:
    """``i`` is just after ``${``; index of the matching ``}``."""
    depth = 1
    in_sq = False
    while i < len(t):
        c = t[i]
        if in_sq:
            if c == "'":
                in_sq = False
        elif c == "\\":
            i += 1
        elif c == "'":
            in_sq = True
        elif c == '"':
            j = i + 1
            while j < len(t) and t[j] != '"':
                if t[j] == "\\":
                    j += 1
                elif t.startswith("${", j):
                    j = _find_brace_end(t, j + 2)
                elif t.startswith("$(", j):
                    j = _find_close_paren(t, j + 2)
                j += 1
            i = j
        elif t.startswith("$(", i) and not t.startswith("$((", i):
            i = _find_close_paren(t, i + 2)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ExpansionError("bad substitution: no closing `}'")


def _find_backtick_end(t: str, i: int) -> int:
    while i < len(t):
        if t[i] == "\\":
            i += 2
            continue
        if t[i] == "`":
            return i
        i += 1
    raise ExpansionError("unexpected EOF while looking for matching ``'")


def _parse_param_body(body: str, whole: str) -> Param:
    """Parse what is between ``${`` and ``}``."""
    if not body:
        raise ExpansionError(f"{whole}: bad substitution")
    prefix = ""
    i = 0
    if body[0] == "#" and len(body) > 1 and _is_plain_param(body[1:]):
        prefix = "#"
        i = 1
    elif body[0] == "!" and len(body) > 1:
        prefix = "!"
        i = 1
    n = len(body)
    start = i
    if i < n and (body[i].isalpha() or body[i] == "_"):
        while i < n and (body[i].isalnum() or body[i] == "_"):
            i += 1
    elif i < n and (body[i].isascii() and body[i].isdigit()):
        while i < n and (body[i].isascii() and body[i].isdigit()):
            i += 1
    elif i < n and body[i] in _SPECIAL_PARAMS:
        i += 1
    name = body[start:i]
    if not name:
        raise ExpansionError(f"{whole}: bad substitution")
    index: str | None = None
    if i < n and body[i] == "[":
        depth, j = 0, i
        while j < n:
            if body[j] == "[":
                depth += 1
            elif body[j] == "]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= n:
            raise ExpansionError(f"{whole}: bad substitution")
        index = body[i + 1 : j]
        i = j + 1
    rest = body[i:]
    if not rest:
        return Param(name, index, prefix, text=whole)
    if prefix == "!" and rest in ("*", "@") and index is None:
        return Param(name, None, "!", "names" + rest, text=whole)
    if prefix == "#":
        raise ExpansionError(f"{whole}: bad substitution")
    for op in _PARAM_OPS:
        if rest.startswith(op):
            arg = rest[len(op) :]
            if op in ("/", "//", "/#", "/%"):
                pat, rep = _split_unescaped(arg, "/")
                return Param(name, index, prefix, op, pat, rep, whole)
            if op == ":":
                off, length = _split_unescaped(arg, ":")
                return Param(name, index, prefix, op, off, length, whole)
            if op == "@" and (len(arg) != 1 or arg not in "QEPAaUuLKk"):
                raise ExpansionError(f"{whole}: bad substitution")
            return Param(name, index, prefix, op, arg, None, whole)
    raise ExpansionError(f"{whole}: bad substitution")


_PLAIN_PARAM = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-9-])(?:\[.*\])?\Z", re.S)


def _is_plain_param(text: str) -> bool:
    return bool(_PLAIN_PARAM.match(text))


def _split_unescaped(text: str, sep: str) -> tuple[str, str | None]:
    i, depth = 0, 0
    in_sq = in_dq = False
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and not in_dq:
            in_sq = not in_sq
        elif c == '"' and not in_sq:
            in_dq = not in_dq
        elif not in_sq and not in_dq:
            if text.startswith("${", i) or text.startswith("$(", i):
                depth += 1
                i += 2
                continue
            if c in "})" and depth:
                depth -= 1
            elif c == sep and depth == 0:
                return text[:i], text[i + 1 :]
        i += 1
    return text, None


@lru_cache(maxsize=4096)
def parse_word(text: str, mode: str = WORD) -> tuple[Part, ...]:
    """The parts of ``text`` parsed in ``mode`` (see the mode constants)."""
    parts: list[Part] = []
    lit: list[str] = []
    t, n = text, len(text)
    i = 0

    def flush() -> None:
        if lit:
            s = "".join(lit)
            lit.clear()
            if mode == WORD:
                parts.append(Lit(s))
            else:
                parts.append(Quoted(s))

    if mode == WORD and t.startswith("~"):
        j = 1
        while j < n and t[j] not in "/" and (t[j].isalnum() or t[j] in "_.-+"):
            j += 1
        if j == n or t[j] == "/":
            parts.append(Tilde(t[1:j]))
            i = j
    while i < n:
        c = t[i]
        if c == "\\":
            if i + 1 >= n:
                lit.append("\\")
                i += 1
                continue
            nxt = t[i + 1]
            if mode == WORD:
                flush()
                parts.append(Quoted(nxt))
            elif nxt in "$`\\" or (nxt == '"' and mode in (DQUOTE, ARG_DQ)):
                lit.append(nxt)
            elif nxt == "\n":
                pass
            else:
                lit.append("\\" + nxt)
            i += 2
            continue
        if c == "'" and mode == WORD:
            end = t.find("'", i + 1)
            if end < 0:
                end = n
            flush()
            parts.append(Quoted(t[i + 1 : end]))
            i = end + 1
            continue
        if c == '"' and mode in (WORD, ARG_DQ):
            j = i + 1
            while j < n and t[j] != '"':
                if t[j] == "\\":
                    j += 2
                    continue
                if t[j] == "$":
                    j = _skip_dollar(t, j)
                    continue
                if t[j] == "`":
                    j = _find_backtick_end(t, j + 1) + 1
                    continue
                j += 1
            flush()
            parts.append(DQ(parse_word(t[i + 1 : j], DQUOTE)))
            i = j + 1
            continue
        if c == "`":
            end = _find_backtick_end(t, i + 1)
            flush()
            parts.append(CmdSub(_unescape_backtick(t[i + 1 : end], mode != WORD), True))
            i = end + 1
            continue
        if c == "$" and i + 1 < n:
            found = _dollar_part(t, i, mode)
            if found is not None:
                part, i = found
                if part is not None:
                    flush()
                    parts.append(part)
                continue
        if c in "<>" and mode == WORD and t.startswith("(", i + 1):
            end = _find_close_paren(t, i + 2)
            flush()
            parts.append(ProcSub(t[i + 2 : end], c))
            i = end + 1
            continue
        lit.append(c)
        i += 1
    flush()
    return tuple(parts)


def _dollar_part(t: str, i: int, mode: str) -> tuple[Part | None, int] | None:
    """The ``$`` construct at ``t[i]``: (its part, the index after it); (None, index) when the
    ``$`` just disappears; None when the ``$`` is literal."""
    n = len(t)
    nxt = t[i + 1]
    if nxt == "'" and mode == WORD:
        j = i + 2
        while j < n and t[j] != "'":
            j += 2 if t[j] == "\\" else 1
        return Quoted(decode_ansi_c(t[i + 2 : j])), j + 1
    if nxt == '"' and mode == WORD:
        return None, i + 1  # $"..." is "..." (no locale translation)
    if nxt == "(":
        if t.startswith("((", i + 1):
            arith_end = _find_arith_end(t, i + 3)
            if arith_end is not None:
                return Arith(t[i + 3 : arith_end]), arith_end + 2
        end = _find_close_paren(t, i + 2)
        return CmdSub(t[i + 2 : end]), end + 1
    if nxt == "[":
        depth, k = 0, i + 1
        while k < n:
            if t[k] == "[":
                depth += 1
            elif t[k] == "]":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        if k < n:
            return Arith(t[i + 2 : k]), k + 1
    if nxt == "{":
        end = _find_brace_end(t, i + 2)
        return _parse_param_body(t[i + 2 : end], t[i : end + 1]), end + 1
    if nxt.isalpha() or nxt == "_":
        j = i + 1
        while j < n and (t[j].isalnum() or t[j] == "_"):
            j += 1
        return Param(t[i + 1 : j], text=t[i:j]), j
    if nxt in _SPECIAL_PARAMS:
        return Param(nxt, text=t[i : i + 2]), i + 2
    return None


def _skip_dollar(t: str, j: int) -> int:
    if t.startswith("$((", j):
        end = _find_arith_end(t, j + 3)
        if end is not None:
            return end + 2
    if t.startswith("$(", j):
        return _find_close_paren(t, j + 2) + 1
    if t.startswith("${", j):
        return _find_brace_end(t, j + 2) + 1
    return j + 1


def _unescape_backtick(body: str, in_dq: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and (body[i + 1] in "$`\\" or (in_dq and body[i + 1] == '"')):
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def has_expansions(text: str) -> bool:
    """Cheap test: could ``text`` need more than quote removal?"""
    return any(c in text for c in "$`~*?[{\\'\"<>@!+")

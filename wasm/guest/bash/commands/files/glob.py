"""Shell wildcards and find's regular expressions, translated to Python's ``re``.

``glob_regex`` is fnmatch(3) without FNM_PATHNAME or FNM_PERIOD (what ``find -name``,
``-path``, ``tar --exclude`` and ``tree -I`` use), as glibc 2.36 reads a pattern in the C
locale, odd cases included (a property test holds it against the machine's glibc).
``find_regex`` accepts the emacs and POSIX basic syntaxes, where ``\\(`` and ``\\|`` are the
operators and bare ``(`` is literal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

_NEVER = "(?!)"
_UNTERMINATED = -1
"""A skip that ran off the pattern's end: the ``[`` is read again as an ordinary character
(glibc 2.36, after its bug 28792)."""
_CHAR_CLASS_MAX = 256
"""glibc's CHAR_CLASS_MAX_LENGTH: a longer ``[:name:]`` makes the pattern ill-formed."""
_MAX_REGEX_CHARS = 1 << 16
"""A bracket whose characters go on at different places makes the regex branch; past this
size (only patterns built to blow it up get there) each such bracket keeps its first place."""
_MAX_RUNS = 64
"""Changes, within one bracket, of where its elements send the match (see ``_branches``)."""
_MAX_FOLDED_RANGE = 4096
"""A case-folded range is spelled out character by character up to this many characters."""

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f", "blank": r" \t", "cntrl": r"\x00-\x1f\x7f", "print": r" -~",
    "graph": r"!-~",
}


def glob_regex(pattern: str, ignore_case: bool = False) -> re.Pattern[str]:
    """fnmatch(3) without FNM_PATHNAME/FNM_PERIOD: ``*`` also matches ``/`` and dots;
    ``ignore_case`` is FNM_CASEFOLD (character classes still test the name's own case).

    glibc's reading of the odd cases is kept: a pattern ending in a lone ``\\`` matches
    nothing; an unterminated ``[`` is an ordinary character unless the name's character is
    one the bracket lists; an unknown class name (``[:foo:]``), an unfinished range, escape
    or collating symbol fails the match for every character no element before it matched."""
    translator = _Translator(pattern, _Case(ignore_case))
    try:
        body = translator.suffix(0, 0)
    except _TooComplex:
        translator = _Translator(pattern, _Case(ignore_case), branching=False)
        body = translator.suffix(0, 0)
    return re.compile(body + r"\Z", re.DOTALL)


class _TooComplex(Exception):
    pass


class _Decided(Exception):
    """A bracket that cannot close has decided what ``[`` does: nothing more to read."""


@dataclass(frozen=True)
class _Case:
    """FNM_CASEFOLD, spelled out in the regex: a character matches what folds to it."""

    fold_case: bool

    def fold(self, c: str) -> str:
        if not self.fold_case:
            return c
        lower = c.lower()
        return lower if len(lower) == 1 else c

    def variants(self, c: str) -> list[str]:
        """The characters that fold to ``c`` (already folded), ``c`` among them, sorted."""
        if not self.fold_case:
            return [c]
        return sorted({c} | {v for v in (c.upper(), c.title()) if len(v) == 1 and self.fold(v) == c})

    def char(self, c: str) -> str:
        """A class body of the characters that fold to ``c`` (already folded)."""
        return "".join(re.escape(v) for v in self.variants(c))

    def literal(self, c: str) -> str:
        """A regex matching ``c`` outside brackets: itself, or a class of its case variants."""
        variants = [re.escape(v) for v in self.variants(self.fold(c))]
        return variants[0] if len(variants) == 1 else f"[{''.join(variants)}]"

    def span(self, low: str, high: str) -> str:
        """A class body of the characters whose folded form lies in ``low``..``high``."""
        plain = f"{re.escape(low)}-{re.escape(high)}"
        if not self.fold_case or ord(high) - ord(low) >= _MAX_FOLDED_RANGE:
            return plain
        chars = [chr(k) for k in range(ord(low), ord(high) + 1) if low <= self.fold(chr(k)) <= high]
        chars += [v for k in range(ord(low), ord(high) + 1) for v in self.char(chr(k))
                  if not low <= v <= high and self.fold(v) == chr(k)]
        return "".join(re.escape(c) for c in chars)


class _Translator:
    """The regex of a pattern's suffix, from each place a bracket can send the match on."""

    def __init__(self, pattern: str, case: _Case, branching: bool = True) -> None:
        self.pattern = pattern
        self.case = case
        self.branching = branching
        self.done: dict[int, str] = {}
        self.skips: dict[int, int | None] = {}
        """Where the scan past a matched bracket ends, from each place it passed."""
        self.inert: set[int] = set()
        """Places inside a bracket from which reading on finds nothing that sends a
        character on (see ``_read_bracket``)."""
        self.last_close = pattern.rfind("]")
        """The last ``]``: a bracket opened after it cannot close."""
        self.size = 0

    def suffix(self, i: int, depth: int) -> str:
        if i in self.done:
            return self.done[i]
        start, pattern, out = i, self.pattern, []
        while i < len(pattern):
            c = pattern[i]
            i += 1
            if c == "*":
                out.append(".*")
            elif c == "?":
                out.append(".")
            elif c == "\\":
                if i == len(pattern):  # a trailing backslash: glibc matches nothing
                    out.append(_NEVER)
                    break
                out.append(self.case.literal(pattern[i]))
                i += 1
            elif c == "[":
                bracket = _read_bracket(pattern, i, self.case, self.skips, self.inert,
                                        i <= self.last_close)
                branches = _branches(bracket, i)
                if len(branches) == 1 or (branches and not self.branching):
                    piece, i = branches[0]
                    out.append(piece)
                    continue
                if not branches:
                    out.append(_NEVER)
                    break
                if depth >= 64:
                    raise _TooComplex
                out.append("(?:" + "|".join([piece + self.suffix(goes_on, depth + 1)
                                             for piece, goes_on in branches]) + ")")
                break
            else:
                out.append(self.case.literal(c))
        text = self.done[start] = "".join(out)
        self.size += len(text)
        if self.branching and self.size > _MAX_REGEX_CHARS:
            raise _TooComplex
        return text


@dataclass(frozen=True)
class _Element:
    body: str
    """The characters it matches, as a Python character class's body."""
    lists_open: bool
    """Whether it matches ``[`` (which an unterminated bracket may read again)."""
    skip: int | None


@dataclass
class _Bracket:
    """One bracket expression as glibc's fnmatch reads it, every element kept.

    A character is decided by the first element that matches it, then by glibc's scan past
    the rest of the bracket from that element (``skip``): the match goes on where the scan
    ends, or ``[`` is read again as an ordinary character (``_UNTERMINATED``), or the match
    fails (None). A character no element matches goes on after ``end`` if the bracket is
    negated and closed, is read as ``[`` if the pattern ended inside the bracket
    (``unterminated``), and otherwise fails.
    """

    negate: bool
    elements: list[_Element] = field(default_factory=list)
    end: int | None = None
    unterminated: bool = False
    lists_open: bool = False
    """Whether an element read so far matches ``[``."""


def _branches(bracket: _Bracket, after_open: int) -> list[tuple[str, int]]:
    """(regex for one character, where the pattern goes on) for each way through the
    bracket, the largest first; none when no character gets through."""
    by_place: dict[int, list[str]] = {}
    earlier: list[tuple[list[str], int | None]] = []  # runs of elements sending to one place
    open_decided = literal = False
    for element in bracket.elements:
        goes_on: int | None
        if element.skip == _UNTERMINATED:
            goes_on = None  # ... unless it is the first to list "[", read again
            literal = literal or (element.lists_open and not open_decided)
        else:
            goes_on = element.skip if not bracket.negate else None
        open_decided = open_decided or element.lists_open
        if earlier and earlier[-1][1] == goes_on:
            earlier[-1][0].append(element.body)
        else:
            earlier.append(([element.body], goes_on))
        if goes_on is not None:
            # (Past _MAX_RUNS changes of place, a bracket built to make this quadratic is read
            # without the exclusions: only such a pattern could tell.)
            others = "" if len(earlier) > _MAX_RUNS else "".join(
                body for bodies, place in earlier[:-1] if place != goes_on for body in bodies)
            by_place.setdefault(goes_on, []).append(f"(?![{others}])[{element.body}]" if others
                                                    else f"[{element.body}]")
    if bracket.negate and bracket.end is not None:
        listed = "".join(element.body for element in bracket.elements)
        by_place.setdefault(bracket.end, []).append(f"[^{listed}]" if listed else ".")
    if bracket.unterminated and not open_decided:
        literal = True
    branches = [(_either(pieces), place) for place, pieces in by_place.items()]
    if literal:
        branches.append((re.escape("["), after_open))
    return sorted(branches, key=lambda branch: -len(branch[0]))


def _either(pieces: list[str]) -> str:
    if len(pieces) == 1:
        return pieces[0]
    if all(p.startswith("[") and not p.startswith("[^") for p in pieces):
        return "[" + "".join(p[1:-1] for p in pieces) + "]"
    return "(?:" + "|".join(pieces) + ")"


def _read_bracket(pattern: str, p: int, case: _Case, skips: dict[int, int | None],
                  inert: set[int], can_close: bool) -> _Bracket:
    """Read the bracket whose ``[`` ends just before ``p`` the way glibc's fnmatch does while
    it looks for a match (``posix/fnmatch_loop.c``; the C locale: collating symbols and
    equivalence classes are single characters).

    A bracket with no ``]`` after it (``can_close`` false) lets only ``[`` through, read again
    as an ordinary character: reading stops at the first element that decides ``[``, so a
    pattern of many unclosed brackets costs linear time, not quadratic.

    ``inert`` holds the places between elements from which an earlier reading went on to
    the pattern's end without closing, every element it read there sending no character on
    (glibc's scan past each found no ``]``, or found the bracket ill-formed). Reading is the
    same from a place whichever bracket it started in, so once ``[`` is decided, reaching
    such a place ends the reading: what follows cannot change the outcome. Without this,
    ``[[:alpha:]`` repeated (whose ``:]`` close nothing) reads the whole rest of the pattern
    again at every ``[``: quadratic.
    """

    def at(k: int) -> str:
        return pattern[k] if k < len(pattern) else ""

    bracket = _Bracket(negate=at(p) in ("!", "^"))
    if bracket.negate:
        p += 1
    places: list[tuple[int, int]] = []
    """(place, elements read before it) for each element but the first (where ``]`` is
    an element, not the end)."""
    tail_known = True

    def element(body: str, skip_from: int, lists_open: bool) -> None:
        nonlocal tail_known
        bracket.elements.append(_Element(body, lists_open, _skip_rest(pattern, skip_from, skips)))
        bracket.lists_open = bracket.lists_open or lists_open
        if lists_open and not can_close:
            tail_known = False
            raise _Decided

    try:
        _read_elements(pattern, p, case, bracket, element, places, inert)
    except _Decided:
        pass
    if tail_known and bracket.end is None:
        # Every place passed whose elements after it send nothing on is inert.
        elements, passed = bracket.elements, len(bracket.elements)
        for place, before in reversed(places):
            while passed > before and elements[passed - 1].skip in (_UNTERMINATED, None):
                passed -= 1
            if passed > before:
                break
            inert.add(place)
    return bracket


def _read_elements(pattern: str, p: int, case: _Case, bracket: _Bracket,
                   element: Callable[[str, int, bool], None], places: list[tuple[int, int]],
                   inert: set[int]) -> None:
    """The elements of ``bracket`` from ``p``, and its end if it closes (``_read_bracket``)."""

    def at(k: int) -> str:
        return pattern[k] if k < len(pattern) else ""

    first = True
    c = at(p)
    p += 1
    while True:
        if not first:
            if p - 1 in inert and bracket.lists_open:
                raise _Decided
            places.append((p - 1, len(bracket.elements)))
        first = False
        escaped = c == "\\"
        if escaped:
            if at(p) == "":
                return
            c = case.fold(at(p))
            p += 1
        elif c == "[" and at(p) == ":":
            name, after = _class_name(pattern, p)
            if name is None:
                return  # too long: ill-formed
            if after is not None:
                if name not in _CLASSES:
                    return  # an unknown class name fails the match
                element(_CLASSES[name], after, name in ("punct", "graph", "print"))
                c, p = at(after), after + 1
                if c == "]":
                    bracket.end = p
                    return
                continue
            # not a class name's shape: "[" is an ordinary element (p stays at the ":")
        elif c == "[" and at(p) == "=" and at(p + 1) != "" and at(p + 2) == "=" and at(p + 3) == "]":
            element(re.escape(at(p + 1)), p + 4, at(p + 1) == "[")
            c, p = at(p + 4), p + 5
            if c == "]":
                bracket.end = p
                return
            continue
        elif c == "":
            bracket.unterminated = True
            return
        if c == "[" and not escaped and at(p) == ".":
            if pattern.find(".]", p + 1) != p + 2:
                return  # unfinished, or a name the C locale does not define
            low = at(p + 1)
            p += 4
            is_range = at(p) == "-" and at(p + 1) != ""
            if not is_range:
                element(re.escape(low), p, low == "[")
        else:
            low = c if escaped else case.fold(c)
            is_range = at(p) == "-" and at(p + 1) not in ("", "]")
            if not is_range:
                element(case.char(low), p, low == "[")
        c = at(p)
        p += 1
        if c == "-" and at(p) != "]":
            high, p = _range_end(pattern, p, case)
            if high is None:
                return
            if low <= high:
                element(case.span(low, high), p, low <= "[" <= high)
            c = at(p)
            p += 1
        if c == "]":
            bracket.end = p
            return


def _class_name(pattern: str, colon: int) -> tuple[str | None, int | None]:
    """After ``[`` at ``colon - 1``: (name, index after ``:]``) for a class name's shape,
    (name so far, None) when a character no name has comes first (``[`` is then an ordinary
    element), (None, None) when the name is too long."""
    name: list[str] = []
    p = colon
    while True:
        if len(name) == _CHAR_CLASS_MAX:
            return None, None
        p += 1
        c = pattern[p] if p < len(pattern) else ""
        if c == ":" and pattern.startswith("]", p + 1):
            return "".join(name), p + 2
        if not "a" <= c < "z":  # glibc's test: a class name has no "z"
            return "".join(name), None
        name.append(c)


def _range_end(pattern: str, p: int, case: _Case) -> tuple[str | None, int]:
    """A range's upper bound read at ``p`` (after ``-``) and where reading goes on; None
    when the bound is missing or ill-formed (the match fails)."""
    high = pattern[p] if p < len(pattern) else ""
    p += 1
    if high == "[" and pattern.startswith(".", p):
        if pattern.find(".]", p + 1) != p + 2:
            return None, p
        return pattern[p + 1], p + 4
    if high == "\\":
        high = pattern[p] if p < len(pattern) else ""
        p += 1
    if high == "":
        return None, p
    return case.fold(high), p


def _skip_rest(pattern: str, p: int, known: dict[int, int | None]) -> int | None:
    """Where glibc's scan past the rest of a bracket that matched ends (after its ``]``),
    from ``p``: ``_UNTERMINATED`` when the pattern ends first, None when it finds the
    bracket ill-formed (the whole match fails). ``known`` holds the answers from the places
    earlier scans passed: a scan that reaches one ends where that one did, so a bracket of
    n elements costs n steps, not n squared."""

    def at(k: int) -> str:
        return pattern[k] if k < len(pattern) else ""

    passed: list[int] = []
    end: int | None
    while True:
        if p in known:
            end = known[p]
            break
        passed.append(p)
        c = at(p)
        p += 1
        if c == "]":
            end = p
            break
        if c == "":
            end = _UNTERMINATED
            break
        if c == "\\":
            if at(p) == "":
                end = None
                break
            p += 1
        elif c == "[" and at(p) == ":":
            start, length = p, 0
            while True:
                p += 1
                length += 1
                if length == _CHAR_CLASS_MAX:
                    break
                if at(p) == ":" and at(p + 1) == "]":
                    p += 2
                    break
                if not "a" <= at(p) < "z":
                    p = start
                    break
            if length == _CHAR_CLASS_MAX:
                end = None
                break
        elif c == "[" and at(p) == "=":
            if at(p + 1) == "" or at(p + 2) != "=" or at(p + 3) != "]":
                end = None
                break
            p += 4
        elif c == "[" and at(p) == ".":
            close = pattern.find(".]", p + 1)
            if close < 0:
                end = None
                break
            p = close + 2
    for place in passed:
        known[place] = end
    return end


def find_regex(pattern: str, kind: str, ignore_case: bool) -> re.Pattern[str]:
    """Translate emacs/basic syntax (``\\(``, ``\\|`` are operators) into Python's."""
    if kind in ("emacs", "posix-basic", "grep", "sed", "findutils-default", "ed",
                "posix-minimal-basic"):
        out: list[str] = []
        i = 0
        while i < len(pattern):
            c = pattern[i]
            if c == "\\" and i + 1 < len(pattern):
                n = pattern[i + 1]
                out.append(n if n in "(){}|+?" else "\\" + n)
                i += 2
                continue
            if c in "(){}|" or (c in "+?" and kind != "emacs"):
                out.append("\\" + c)
            else:
                out.append(c)
            i += 1
        pattern = "".join(out)
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    try:
        return re.compile("(?:" + pattern + r")\Z", flags)
    except re.error as exc:
        raise ValueError(f"Invalid regular expression `{pattern}': {exc}") from None

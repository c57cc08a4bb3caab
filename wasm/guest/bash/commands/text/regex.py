"""POSIX regular expressions (BRE and ERE, with GNU extensions) translated to Python ``re``.

Text is handled as latin-1 so every byte is one character and the C locale's byte semantics
hold; patterns are compiled with ``re.ASCII`` so ``\\w`` and case folding are ASCII-only.

Known approximation: POSIX picks the leftmost-*longest* match, Python the leftmost-first
alternative. Callers that print match text (``grep -o``) use ``longest_match`` to extend a
match when the pattern has alternation; line selection is unaffected.
"""

from __future__ import annotations

import re

CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "print": "\\x20-\\x7e",
    "graph": "\\x21-\\x7e",
    "cntrl": "\\x00-\\x1f\\x7f",
    "xdigit": "0-9A-Fa-f",
    "word": "a-zA-Z0-9_",
}


class RegexError(Exception):
    """The pattern is not a valid POSIX regular expression; message is GNU's wording."""


def _bracket(pattern: str, i: int) -> tuple[str, int]:
    """Translate the bracket expression starting at ``pattern[i] == '['``; return (re, next)."""
    j = i + 1
    negate = False
    if j < len(pattern) and pattern[j] == "^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while True:
        if j >= len(pattern):
            raise RegexError("Unmatched [, [^, [:, [., or [=")
        c = pattern[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if c == "[" and j + 1 < len(pattern) and pattern[j + 1] in ":=.":
            kind = pattern[j + 1]
            end = pattern.find(kind + "]", j + 2)
            if end < 0:
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            name = pattern[j + 2 : end]
            j = end + 2
            if kind == ":":
                if name not in CLASSES:
                    raise RegexError("Invalid character class name")
                items.append(CLASSES[name])
            else:
                items.append("".join(_escape_in_set(ch) for ch in name))
            continue
        if j + 2 < len(pattern) and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            low, high = c, pattern[j + 2]
            if high == "[" and j + 3 < len(pattern) and pattern[j + 3] in ".=":
                end = pattern.find(pattern[j + 3] + "]", j + 4)
                high = pattern[j + 4 : end] if end > 0 else high
                j = end + 2 if end > 0 else j + 3
            else:
                j += 3
            if ord(low) > ord(high):
                raise RegexError("Invalid range end")
            items.append(_escape_in_set(low) + "-" + _escape_in_set(high))
            continue
        items.append(_escape_in_set(c))
        j += 1
    body = "".join(items)
    if negate:
        # POSIX [^...] never matches a newline in grep's line-oriented world either.
        return "[^" + body + "\\n]", j
    return "[" + body + "]", j


def _escape_in_set(ch: str) -> str:
    if ch in "\\]^-[&~|":
        return "\\" + ch
    if ch == "\n":
        return "\\n"
    return ch


class _Builder:
    """Accumulates the Python pattern, remembering where the last atom starts so stacked
    POSIX quantifiers (``a+?`` means ``(a+)?``, not a lazy ``+``) can wrap it."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.atom_start: int | None = None
        self.quantified = False
        self.groups: list[int] = []

    def atom(self, text: str) -> None:
        self.atom_start = len(self.out)
        self.out.append(text)
        self.quantified = False

    def other(self, text: str) -> None:
        """Anchors, alternation and assertions: nothing can be quantified after them."""
        self.out.append(text)
        self.atom_start = None
        self.quantified = False

    def quantify(self, quantifier: str) -> bool:
        """Apply ``quantifier`` to the last atom; False when there is none (so it is literal)."""
        if self.atom_start is None:
            return False
        if self.quantified:
            inner = "".join(self.out[self.atom_start :])
            del self.out[self.atom_start :]
            self.out.append("(?:" + inner + ")")
        self.out.append(quantifier)
        self.quantified = True
        return True

    def open_group(self) -> None:
        self.groups.append(len(self.out))
        self.out.append("(")
        self.atom_start = None
        self.quantified = False

    def close_group(self) -> None:
        start = self.groups.pop()
        self.out.append(")")
        self.atom_start = start
        self.quantified = False


def translate(pattern: str, extended: bool, warnings: list[str] | None = None) -> str:
    """Translate a POSIX BRE (``extended=False``) or ERE into Python ``re`` syntax.

    GNU grep warns about (and ignores) an ERE repetition operator with nothing to repeat;
    such warnings are appended to ``warnings`` when given.
    """
    b = _Builder()
    i = 0
    n = len(pattern)
    # ``at_start`` is true where a ``*`` would be literal and ``^`` an anchor.
    at_start = True
    while i < n:
        c = pattern[i]
        start_here = at_start
        at_start = False
        if c == "\\":
            i, at_start = _escape(pattern, i, b, extended, start_here)
            continue
        if c == "[":
            text, i = _bracket(pattern, i)
            b.atom(text)
            continue
        if c == "*":
            if extended and (start_here or b.atom_start is None):
                _warn(warnings, "* at start of expression")
            elif start_here or not b.quantify("*"):
                b.atom("\\*")
            i += 1
            continue
        if c == "^":
            if extended or start_here:
                b.other("^")
                at_start = True
            else:
                b.atom("\\^")
            i += 1
            continue
        if c == "$":
            rest = pattern[i + 1 :]
            if extended or not rest or rest.startswith("\\)") or rest.startswith("\\|"):
                b.other("$")
            else:
                b.atom("\\$")
            i += 1
            continue
        if extended and c in "+?":
            if start_here or not b.quantify(c):
                _warn(warnings, f"{c} at start of expression")
            i += 1
            continue
        if extended and c == "{":
            if start_here or b.atom_start is None:
                close = pattern.find("}", i)
                if close > 0 and re.fullmatch(r"\d*,?\d*", pattern[i + 1 : close]):
                    _warn(warnings, "{...} at start of expression")
                    i = close + 1
                else:
                    b.atom("\\{")
                    i += 1
                continue
            i = _interval(pattern, i + 1, b, "}", start_here)
            continue
        if extended and c == "(":
            b.open_group()
            at_start = True
            i += 1
            continue
        if extended and c == ")":
            if not b.groups:
                b.atom("\\)")
            else:
                b.close_group()
            i += 1
            continue
        if extended and c == "|":
            b.other("|")
            at_start = True
            i += 1
            continue
        if c == ".":
            b.atom("[^\\n]")
            i += 1
            continue
        b.atom(re.escape(c))
        i += 1
    if b.groups:
        raise RegexError("Unmatched ( or \\(")
    return "".join(b.out)


def _escape(pattern: str, i: int, b: _Builder, extended: bool, start_here: bool) -> tuple[int, bool]:
    """The backslash sequence at ``pattern[i]``; returns the index after it and whether what
    follows is at the start of an expression."""
    n = len(pattern)
    at_start = False
    if i + 1 >= n:
        raise RegexError("Trailing backslash")
    d = pattern[i + 1]
    i += 2
    if not extended and d == "(":
        b.open_group()
        at_start = True
    elif not extended and d == ")":
        if not b.groups:
            raise RegexError("Unmatched ) or \\)")
        b.close_group()
    elif not extended and d == "|":
        b.other("|")
        at_start = True
    elif not extended and d == "{":
        i = _interval(pattern, i, b, "\\}", start_here)
    elif not extended and d in "+?":
        if start_here or not b.quantify(d):
            b.atom(re.escape(d))
    elif d == "<":
        b.other(r"\b(?=\w)")
    elif d == ">":
        b.other(r"\b(?<=\w)")
    elif d == "`":
        b.other(r"\A")
    elif d == "'":
        b.other(r"\Z")
    elif d in "bB":
        b.other("\\" + d)
    elif d in "wWsS":
        b.atom("\\" + d)
    elif (d.isascii() and d.isdigit()) and d != "0":
        b.atom("\\" + d)
    elif d == "n":
        b.atom("\\n")
    else:
        b.atom(re.escape(d))
    return i, at_start


def _warn(warnings: list[str] | None, message: str) -> None:
    if warnings is not None and message not in warnings:
        warnings.append(message)


def _interval(pattern: str, i: int, b: _Builder, close: str, start_here: bool) -> int:
    end = pattern.find(close, i)
    if end < 0:
        if close == "}":
            # An ERE brace that does not start a valid interval is literal in GNU.
            b.atom("\\{")
            return i
        raise RegexError("Unmatched \\{")
    body = pattern[i:end]
    match = re.fullmatch(r"(\d*)(,?)(\d*)", body)
    if not match or (not match.group(1) and not match.group(2)):
        if close == "}":
            b.atom("\\{")
            return i
        raise RegexError("Invalid content of \\{\\}")
    low, comma, high = match.groups()
    if low and high and int(low) > int(high):
        raise RegexError("Invalid content of \\{\\}")
    if start_here or not b.quantify("{" + (low or "0") + comma + high + "}"):
        b.atom(re.escape(pattern[i - 1 : end + len(close)]))
    return end + len(close)


def compile_posix(pattern: str, extended: bool, ignore_case: bool = False) -> re.Pattern[str]:
    flags = re.ASCII | (re.IGNORECASE if ignore_case else 0)
    try:
        return re.compile(translate(pattern, extended), flags)
    except re.error as err:
        raise RegexError(python_error(err)) from None


def python_error(err: re.error) -> str:
    text = str(err)
    if "invalid group reference" in text:
        return "Invalid back reference"
    if "unbalanced parenthesis" in text or "missing )" in text:
        return "Unmatched ( or \\("
    return "Invalid regular expression"


def longest_match(regex: re.Pattern[str], text: str, match: re.Match[str]) -> tuple[int, int]:
    """Extend ``match`` towards POSIX leftmost-longest when alternation could have cut it short."""
    start, end = match.span()
    source = regex.pattern
    if "|" not in source or "$" in source or "\\b" in source or "\\B" in source or "(?=" in source:
        return start, end
    for candidate in range(len(text), end, -1):
        if regex.fullmatch(text, start, candidate):
            return start, candidate
    return start, end

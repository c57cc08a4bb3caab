"""POSIX regular expressions (BRE and ERE, GNU flavour) translated to Python ``re`` syntax.

Used by ``sed`` (BRE by default, ERE with ``-E``) and ``awk`` (ERE with awk's escapes).
Text is handled as latin-1 decoded strings so one character is one byte, as in the C
locale; callers compile with ``re.ASCII`` so case folding and classes stay ASCII-only.

POSIX matching is leftmost-longest, Python's alternation leftmost-first. Alternations
whose branches are all literal strings ("http|https") are reordered longest first, which
gives the POSIX match; other alternations keep Python's choice (known divergence).
"""

from __future__ import annotations

import re

_CLASSES: dict[str, str] = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "0-9a-zA-Z",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "".join("\\" + c for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "print": "\\x20-\\x7e",
    "graph": "\\x21-\\x7e",
    "cntrl": "\\x00-\\x1f\\x7f",
    "xdigit": "0-9A-Fa-f",
}

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


def bytes_text(text: str) -> str:
    """An argv string (UTF-8 decoded) as one character per byte, for byte-exact processing."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def argv_text(text: str) -> str:
    """Inverse of ``bytes_text``: a byte-per-character string back to an argv-style path."""
    return text.encode("latin-1", "replace").decode("utf-8", "surrogateescape")


class RegexError(ValueError):
    """A pattern that is not a valid POSIX regular expression."""


def _class_char(c: str) -> str:
    if c.isalnum():
        return c
    return "\\" + c if c in "\\]^-[&~|" else re.escape(c)


def _bracket(pat: str, i: int, awk: bool) -> tuple[str, int]:
    """Translate the bracket expression starting after ``[`` at ``i``; return (class, next)."""
    n = len(pat)
    negate = False
    if i < n and pat[i] == "^":
        negate = True
        i += 1
    items: list[str] = []
    first = True
    while True:
        if i >= n:
            raise RegexError("unterminated [")
        c = pat[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        if c == "[" and i + 1 < n and pat[i + 1] in ":=.":
            kind = pat[i + 1]
            end = pat.find(kind + "]", i + 2)
            if end < 0:
                raise RegexError("unterminated character class")
            name = pat[i + 2 : end]
            i = end + 2
            if kind == ":":
                if name not in _CLASSES:
                    raise RegexError("invalid character class")
                items.append(_CLASSES[name])
            else:
                items.extend(_class_char(ch) for ch in name)
            continue
        if c == "\\" and i + 1 < n:
            nxt = pat[i + 1]
            if nxt in _SIMPLE_ESCAPES:
                c = _SIMPLE_ESCAPES[nxt]
                i += 2
            elif awk or nxt in "\\]":
                c = nxt
                i += 2
                if awk and nxt in "01234567":
                    j = i
                    while j < n and j < i + 2 and pat[j] in "01234567":
                        j += 1
                    c = chr(int(pat[i - 1 : j], 8) & 0xFF)
                    i = j
            else:
                i += 1
        else:
            i += 1
        # A range: c '-' end (a '-' right before ']' is literal).
        if i + 1 < n and pat[i] == "-" and pat[i + 1] != "]":
            end_c = pat[i + 1]
            i += 2
            if end_c == "\\" and i < n and (awk or pat[i] in "\\]"):
                end_c = pat[i]
                i += 1
            elif end_c == "[" and i < n and pat[i] == ".":
                close = pat.find(".]", i + 1)
                if close < 0:
                    raise RegexError("unterminated collating element")
                end_c = pat[i + 1 : close] or "."
                i = close + 2
            if ord(end_c[0]) < ord(c):
                raise RegexError("Invalid range end")
            items.append(_class_char(c) + "-" + _class_char(end_c[0]))
        else:
            items.append(_class_char(c))
    body = "".join(items)
    return ("[^" if negate else "[") + body + "]", i


_INTERVAL = re.compile(r"(?=.)(\d*)(,(\d*))?")


class _Lit(str):
    """One literal character of the pattern, as emitted (escaped) into the Python regex."""


def _longest_first(out: list[str], start: int) -> None:
    """POSIX picks the longest match, Python the first alternative that matches. When
    every alternative of a group is a plain literal string ("http|https"), trying longer
    alternatives first makes Python's choice the POSIX one."""
    seg = out[start:]
    if "|" not in seg or not all(isinstance(e, _Lit) or e == "|" for e in seg):
        return
    alts: list[list[str]] = [[]]
    for e in seg:
        if e == "|" and not isinstance(e, _Lit):
            alts.append([])
        else:
            alts[-1].append(e)
    alts.sort(key=len, reverse=True)
    rebuilt: list[str] = []
    for k, alt in enumerate(alts):
        if k:
            rebuilt.append("|")
        rebuilt.extend(alt)
    out[start:] = rebuilt


class _Translator:
    """One translation of a POSIX pattern; ``out`` collects the Python regex in pieces."""

    def __init__(self, pat: str, extended: bool, awk: bool, multiline: bool, longest: bool) -> None:
        self.pat = pat
        self.extended = extended
        self.awk = awk
        self.longest = longest
        self.end_anchor = "$" if multiline else r"\Z"
        self.out: list[str] = []
        # Index in ``out`` where the last quantifiable atom starts (None: nothing to repeat).
        self.atom: int | None = None
        self.quantified = False
        self.group_starts: list[int] = []
        self.i = 0

    def at_start(self) -> bool:
        out = self.out
        return not out or out[-1] in ("(", "|") or out[-1] == "^"

    def add_quant(self, q: str) -> None:
        out = self.out
        if self.atom is None:
            out.append(re.escape(q[0]) + q[1:] if q in "*+?" else re.escape(q))
            return
        if self.quantified:
            inner = "".join(out[self.atom:])
            del out[self.atom:]
            out.append("(?:" + inner + ")")
        out.append(q)
        self.quantified = True

    def add_atom(self, text: str, literal: bool = False) -> None:
        self.atom = len(self.out)
        self.out.append(_Lit(text) if literal else text)
        self.quantified = False

    def translate(self) -> str:
        pat, n = self.pat, len(self.pat)
        while self.i < n:
            c = pat[self.i]
            if c == "\\":
                self.escape()
                continue
            self.i += 1
            self.operator(c)
        if self.group_starts:
            raise RegexError("Unmatched ( or \\(")
        if self.longest:
            _longest_first(self.out, 0)
        return "".join(self.out)

    def escape(self) -> None:
        """The backslash sequence at ``pat[i]``: GNU operators, classes, anchors, escapes."""
        pat, n = self.pat, len(self.pat)
        if self.i + 1 >= n:
            if self.awk:
                self.add_atom(r"\\")
                self.i += 1
                return
            raise RegexError("trailing backslash (\\)")
        d = pat[self.i + 1]
        self.i += 2
        if not self.extended and d == "(":
            self.group_starts.append(len(self.out))
            self.out.append("(")
            self.atom = None
        elif not self.extended and d == ")":
            if not self.group_starts:
                raise RegexError("Unmatched ) or \\)")
            start = self.group_starts.pop()
            if self.longest:
                _longest_first(self.out, start + 1)
            inner = "".join(self.out[start:]) + ")"
            del self.out[start:]
            self.add_atom(inner)
        elif not self.extended and d == "|":
            self.out.append("|")
            self.atom = None
        elif not self.extended and d == "{":
            close = pat.find("\\}", self.i)
            m = _INTERVAL.fullmatch(pat[self.i:close]) if close >= 0 else None
            if m is None:
                raise RegexError("Invalid preceding regular expression" if close >= 0 else "Unmatched \\{")
            self.add_quant("{" + pat[self.i:close] + "}")
            self.i = close + 2
        elif not self.extended and d in "+?":
            self.add_quant(d)
        elif "1" <= d <= "9" and len(d) == 1 and not self.awk:  # an ASCII back-reference
            self.add_atom("\\" + d)
        elif d in "wWsSbB":
            if d in "bB":
                self.out.append("\\" + d)
                self.atom = None
            else:
                self.add_atom("\\" + d)
        elif d == "<":
            self.out.append(r"\b(?=\w)")
            self.atom = None
        elif d == ">":
            self.out.append(r"\b(?<=\w)")
            self.atom = None
        elif d == "`":
            self.out.append(r"\A")
            self.atom = None
        elif d == "'":
            self.out.append(r"\Z")
            self.atom = None
        elif d in _SIMPLE_ESCAPES:
            self.add_atom(re.escape(_SIMPLE_ESCAPES[d]), literal=True)
        elif self.awk and d in "01234567":
            j = self.i
            while j < n and j < self.i + 2 and pat[j] in "01234567":
                j += 1
            self.add_atom(re.escape(chr(int(pat[self.i - 1 : j], 8) & 0xFF)))
            self.i = j
        elif not self.awk and d in "dox" and self.i < n:
            base, width, digits = {"d": (10, 3, "0123456789"), "o": (8, 3, "01234567"), "x": (16, 2, "0123456789abcdefABCDEF")}[d]
            j = self.i
            while j < n and j < self.i + width and pat[j] in digits:
                j += 1
            if j == self.i:
                self.add_atom(re.escape(d))
            else:
                self.add_atom(re.escape(chr(int(pat[self.i:j], base) & 0xFF)))
                self.i = j
        elif not self.awk and d == "c" and self.i < n:
            self.add_atom(re.escape(chr(ord(pat[self.i].upper()) ^ 0x40)))
            self.i += 1
        else:
            self.add_atom(re.escape(d), literal=True)

    def operator(self, c: str) -> None:
        """The unescaped character ``c`` (``i`` is already past it)."""
        pat, n = self.pat, len(self.pat)
        if c == "[":
            cls, self.i = _bracket(pat, self.i, self.awk)
            self.add_atom(cls)
        elif c == ".":
            self.add_atom("(?s:.)")
        elif c == "*":
            if self.atom is None:
                self.add_atom(r"\*")
            else:
                self.add_quant("*")
        elif c == "^":
            if self.extended or self.at_start():
                self.out.append("^")
                self.atom = None
            else:
                self.add_atom(r"\^")
        elif c == "$":
            if self.extended or self.i == n or pat.startswith("\\)", self.i) or pat.startswith("\\|", self.i):
                self.out.append(self.end_anchor)
                self.atom = None
            else:
                self.add_atom(r"\$")
        elif self.extended and c in "+?":
            if self.atom is None:
                if self.awk:
                    raise RegexError("missing operand")
                self.add_atom(re.escape(c))
            else:
                self.add_quant(c)
        elif self.extended and c == "{" and self.awk:
            # mawk 1.3.4 20200120 (this machine's self.awk) has no interval expressions.
            self.add_atom(r"\{")
        elif self.extended and c == "{":
            close = pat.find("}", self.i)
            m = _INTERVAL.fullmatch(pat[self.i:close]) if close >= 0 else None
            if m is None or self.atom is None:
                self.add_atom(r"\{")
            else:
                self.add_quant("{" + pat[self.i:close] + "}")
                self.i = close + 1
        elif self.extended and c == "(":
            self.group_starts.append(len(self.out))
            self.out.append("(")
            self.atom = None
        elif self.extended and c == ")":
            if not self.group_starts:
                if self.awk:
                    raise RegexError("Unmatched ) or \\)")
                self.add_atom(r"\)")
                return
            start = self.group_starts.pop()
            if self.longest:
                _longest_first(self.out, start + 1)
            inner = "".join(self.out[start:]) + ")"
            del self.out[start:]
            self.add_atom(inner)
        elif self.extended and c == "|":
            self.out.append("|")
            self.atom = None
        else:
            self.add_atom(re.escape(c), literal=True)


def translate(pat: str, extended: bool, *, awk: bool = False, multiline: bool = False,
              longest: bool = True) -> str:
    """Translate a POSIX BRE/ERE (GNU extensions included) into Python regex syntax.

    ``longest`` reorders all-literal alternations longest first, so the match found is
    the POSIX (longest) one; glibc still fills groups first-alternative-first, so sed
    re-matches the found span with ``longest=False`` to get its groups."""
    return _Translator(pat, extended, awk, multiline, longest).translate()


def compile_posix(pat: str, extended: bool, *, awk: bool = False, icase: bool = False,
                  multiline: bool = False, longest: bool = True) -> re.Pattern[str]:
    """Compile a POSIX pattern; raises RegexError with a POSIX-style message."""
    flags = re.ASCII
    if icase:
        flags |= re.IGNORECASE
    if multiline:
        flags |= re.MULTILINE
    try:
        return re.compile(translate(pat, extended, awk=awk, multiline=multiline, longest=longest), flags)
    except re.error as exc:
        raise RegexError(str(exc)) from None

"""Shell wildcards and find's regular expressions, translated to Python's ``re``.

``glob_regex`` is fnmatch(3) without FNM_PATHNAME or FNM_PERIOD (what ``find -name``,
``-path``, ``tar --exclude`` and ``tree -I`` use). ``find_regex`` accepts the emacs and POSIX
basic syntaxes, where ``\\(`` and ``\\|`` are the operators and bare ``(`` is literal.
"""

from __future__ import annotations

import re


def glob_regex(pattern: str, ignore_case: bool = False) -> re.Pattern[str]:
    """fnmatch(3) without FNM_PATHNAME/FNM_PERIOD: ``*`` also matches ``/`` and dots."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        i += 1
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\" and i < len(pattern):
            out.append(re.escape(pattern[i]))
            i += 1
        elif c == "[":
            j = i
            if j < len(pattern) and pattern[j] in "!^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            while j < len(pattern) and pattern[j] != "]":
                if pattern.startswith("[:", j) and pattern.find(":]", j + 2) > 0:
                    j = pattern.find(":]", j + 2) + 2
                else:
                    j += 1
            if j >= len(pattern):
                out.append(re.escape("["))
                continue
            body = pattern[i:j]
            i = j + 1
            negate = body[:1] in ("!", "^")
            if negate:
                body = body[1:]
            body = _class_body(body)
            if body:
                out.append("[" + ("^" if negate else "") + body + "]")
            else:  # only reversed ranges: nothing matches, so a negated one takes anything
                out.append("." if negate else "(?!)")
        else:
            out.append(re.escape(c))
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    return re.compile("".join(out) + r"\Z", flags)


_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f", "blank": r" \t",
}


def _class_body(body: str) -> str:
    """A bracket expression's body as a Python character class's. A range whose end comes
    before its start matches nothing, as fnmatch(3) has it (Python would refuse to compile it);
    an escaped character stands for itself, and may end a range but never make one."""
    items: list[tuple[str, str, bool]] = []  # (kind, text, escaped): a char or a named class
    i = 0
    while i < len(body):
        if body.startswith("[:", i):
            end = body.find(":]", i + 2)
            if end > 0 and body[i + 2 : end] in _CLASSES:
                items.append(("class", _CLASSES[body[i + 2 : end]], False))
                i = end + 2
                continue
        if body[i] == "\\" and i + 1 < len(body):
            items.append(("char", body[i + 1], True))
            i += 2
            continue
        items.append(("char", body[i], False))
        i += 1
    out: list[str] = []
    k = 0
    while k < len(items):
        kind, text, _ = items[k]
        if (kind == "char" and k + 2 < len(items) and items[k + 1] == ("char", "-", False)
                and items[k + 2][0] == "char"):
            last = items[k + 2][1]
            if text <= last:
                out.append(f"{re.escape(text)}-{re.escape(last)}")
            k += 3
            continue
        out.append(text if kind == "class" else re.escape(text))
        k += 1
    return "".join(out)


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

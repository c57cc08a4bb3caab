"""Docstring parsing: what a Python tool's docstring says about it, in Google, NumPy or
reST style (the prose, one text per parameter, and the return value).

:func:`codemode.callables.tool_from_callable` uses it to describe a tool and its
parameters; nothing here knows about tools.
"""

from __future__ import annotations

import inspect
import re
from typing import NamedTuple

__all__ = [
    "ParsedDocstring",
    "parse_docstring",
]


class ParsedDocstring(NamedTuple):
    """What a tool's docstring says: prose, per-parameter text and the return value."""

    description: str
    params: dict[str, str]
    returns: str


_GOOGLE_HEADER = re.compile(r"^([A-Z][A-Za-z ]*):\s*$")
_GOOGLE_PARAM_SECTIONS = {
    "args", "arguments", "parameters", "params", "keyword args", "keyword arguments",
    "other parameters",
}
_GOOGLE_RETURN_SECTIONS = {"returns", "return", "yields"}
_GOOGLE_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_NUMPY_RULE = re.compile(r"^-{3,}\s*$")
_NUMPY_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(?::.*)?$")
_REST_FIELD = re.compile(r"^:(\w+)((?:\s+[^:]+)?):\s*(.*)$")


def parse_docstring(doc: str) -> ParsedDocstring:
    """Split a Google, NumPy or reST docstring into prose, parameter texts and returns."""
    lines = inspect.cleandoc(doc).splitlines() if doc else []
    prose: list[str] = []
    params: dict[str, str] = {}
    returns: list[str] = []
    i = 0
    in_prose = True
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and not line.startswith(" ") and _NUMPY_RULE.match(nxt):
            in_prose = False
            section = stripped.lower()
            i, entries, body = _numpy_section(lines, i + 2)
            if section in _GOOGLE_PARAM_SECTIONS:
                params.update(entries)
            elif section in _GOOGLE_RETURN_SECTIONS:
                returns.append(body)
            continue
        header = _GOOGLE_HEADER.match(line)
        if header and not line.startswith(" "):
            in_prose = False
            section = header.group(1).lower()
            i, entries, body = _google_section(lines, i + 1)
            if section in _GOOGLE_PARAM_SECTIONS:
                params.update(entries)
            elif section in _GOOGLE_RETURN_SECTIONS:
                returns.append(body)
            continue
        field_match = _REST_FIELD.match(stripped)
        if field_match:
            in_prose = False
            kind, arg, text = field_match.groups()
            i += 1
            while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
                text += " " + lines[i].strip()
                i += 1
            words = arg.split()
            if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and words:
                params[words[-1]] = text.strip()
            elif kind in ("returns", "return"):
                returns.append(text.strip())
            continue
        if in_prose:
            prose.append(line)
        i += 1
    description = "\n".join(prose).strip()
    return ParsedDocstring(description, params, " ".join(r for r in returns if r).strip())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _google_section(lines: list[str], i: int) -> tuple[int, dict[str, str], str]:
    entries: dict[str, str] = {}
    body: list[str] = []
    base: int | None = None
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        if line.strip() and not line.startswith(" "):
            break
        if not line.strip():
            i += 1
            continue
        indent = _indent(line)
        base = indent if base is None else base
        entry = _GOOGLE_ENTRY.match(line.strip())
        if indent == base and entry:
            current = entry.group(1)
            entries[current] = entry.group(3).strip()
        elif current is not None and indent > base:
            entries[current] = (entries[current] + " " + line.strip()).strip()
        body.append(line.strip())
        i += 1
    return i, entries, " ".join(body)


def _numpy_section(lines: list[str], i: int) -> tuple[int, dict[str, str], str]:
    entries: dict[str, str] = {}
    body: list[str] = []
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.strip() and not line.startswith(" ") and _NUMPY_RULE.match(nxt):
            break
        if not line.strip():
            i += 1
            continue
        if not line.startswith(" "):
            entry = _NUMPY_ENTRY.match(line.strip())
            current = entry.group(1) if entry else None
            if current is not None:
                entries[current] = ""
            body.append(line.strip())
        else:
            if current is not None:
                entries[current] = (entries[current] + " " + line.strip()).strip()
            body.append(line.strip())
        i += 1
    return i, entries, " ".join(body)

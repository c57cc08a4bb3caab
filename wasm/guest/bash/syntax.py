"""The syntax tree: the nodes ``parse.py`` builds and ``evaluate.py`` runs, and what an
assignment word (``name=value``, ``a[i]+=v``, ``a=(...)``) means.

Words stay raw source text (``Word.raw``); ``words.py`` parses a word's inner structure when
it is expanded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union


@dataclass(slots=True)
class Word:
    raw: str
    array: list[str] | None = None
    """For ``name=(a b c)`` words: the raw element words."""


@dataclass(slots=True)
class HereDoc:
    delim: str
    quoted: bool
    strip_tabs: bool
    body: str = ""


@dataclass(slots=True)
class Redir:
    fd: int | None
    op: str
    target: str
    heredoc: HereDoc | None = None
    fdvar: str | None = None


@dataclass(slots=True)
class Assign:
    name: str
    index: str | None
    value: str | None
    array: list[str] | None
    append: bool


@dataclass(slots=True)
class Simple:
    assigns: list[Assign]
    words: list[Word]
    redirs: list[Redir]
    line: int


@dataclass(slots=True)
class Pipeline:
    commands: list["Command"]
    negate: bool = False
    timed: bool = False
    stderr_too: list[bool] = field(default_factory=list)


@dataclass(slots=True)
class AndOr:
    first: Pipeline
    rest: list[tuple[str, Pipeline]]


@dataclass(slots=True)
class ListNode:
    items: list[tuple[AndOr, bool]]
    """(and-or list, run in background)."""


@dataclass(slots=True)
class Subshell:
    body: ListNode
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class Group:
    body: ListNode
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class If:
    clauses: list[tuple[ListNode, ListNode]]
    else_body: ListNode | None
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class Loop:
    cond: ListNode
    body: ListNode
    until: bool
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class For:
    var: str
    words: list[Word] | None
    body: ListNode
    line: int
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class ArithFor:
    init: str
    cond: str
    step: str
    body: ListNode
    line: int
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class CaseItem:
    patterns: list[Word]
    body: ListNode
    terminator: str


@dataclass(slots=True)
class Case:
    word: Word
    items: list[CaseItem]
    line: int
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class FuncDef:
    name: str
    body: "Command"
    line: int


@dataclass(slots=True)
class ArithCmd:
    expr: str
    line: int
    redirs: list[Redir] = field(default_factory=list)


@dataclass(slots=True)
class CondWord:
    word: Word


@dataclass(slots=True)
class CondUnary:
    op: str
    operand: Word


@dataclass(slots=True)
class CondBinary:
    op: str
    left: Word
    right: Word


@dataclass(slots=True)
class CondNot:
    inner: "CondExpr"


@dataclass(slots=True)
class CondAndOr:
    op: str
    left: "CondExpr"
    right: "CondExpr"


CondExpr = Union[CondWord, CondUnary, CondBinary, CondNot, CondAndOr]


@dataclass(slots=True)
class CondCmd:
    expr: CondExpr
    line: int
    redirs: list[Redir] = field(default_factory=list)


Command = Union[Simple, Subshell, Group, If, Loop, For, ArithFor, Case, FuncDef, ArithCmd, CondCmd]


_NAME_START_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def match_assignment(text: str) -> tuple[str, str | None, bool, int] | None:
    """(name, subscript, is-append, end of ``=``) when ``text`` starts like an assignment.

    The subscript may itself contain brackets (``a[${#a[@]}]=x``), so it is matched by depth,
    and quoted text, where a bracket is literal (``m["]"]=x``), is skipped.
    """
    m = _NAME_START_RE.match(text)
    if not m:
        return None
    i = m.end()
    index: str | None = None
    if i < len(text) and text[i] == "[":
        j = subscript_end(text, i)
        if j is None:
            return None
        index = text[i + 1 : j]
        i = j + 1
    plus = False
    if text.startswith("+=", i):
        plus = True
        i += 2
    elif text.startswith("=", i):
        i += 1
    else:
        return None
    return m.group(0), index, plus, i


def subscript_end(text: str, i: int, quotes: bool = True) -> int | None:
    """The index of the ``]`` closing the subscript that opens at ``text[i]``, or None.

    Brackets nest (``a[${#a[@]}]``). With ``quotes``, quoted or backslashed text is skipped,
    so a bracket in it is literal (``m["]"]``); bash reads an indexed array's compound
    elements without that (``a=(["]"]=1)`` is the plain word ``[]]=1``).
    """
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if quotes and c == "\\":
            j += 2
            continue
        if quotes and (c == "'" or c == '"'):
            j = _quote_end(text, j)
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return None


def _quote_end(text: str, j: int) -> int:
    """The index after the quoted string opening at ``text[j]`` (the end of text if unclosed)."""
    quote = text[j]
    j += 1
    while j < len(text) and text[j] != quote:
        j += 2 if quote == '"' and text[j] == "\\" else 1
    return j + 1


def parse_assignment(word: Word) -> Assign | None:
    """``name=value``, ``name+=value``, ``name[i]=value`` or ``name=(...)``; else None."""
    found = match_assignment(word.raw)
    if found is None:
        return None
    name, index, plus, end = found
    if word.array is not None:
        return Assign(name, index, None, word.array, plus)
    return Assign(name, index, word.raw[end:], None, plus)

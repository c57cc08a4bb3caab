"""The lexical layer of the command grammar: positions and line numbers, blanks and
comments, operators, one word's raw extent (quotes, ``$(...)``, ``${...}``, ``$((...))``,
backticks, extglob groups, ``a=(...)`` elements) and here-document bodies.

``Parser`` (``parse.py``) builds on ``Scanner``; bash's lexing depends on where the parser
is (a ``)`` ends a word in a subshell but not inside ``$(...)``), so the scanner works on
the text directly instead of producing a token stream first.
"""

from __future__ import annotations

import re

from .errors import ShellSyntaxError
from .syntax import HereDoc, Word

_METACHARS = frozenset(" \t\n;&|<>()")
_CONTROL_OPS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", "&", ";", "(", ")")
REDIR_OPS = ("<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">", "&>>", "&>")
_ASSIGN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Scanner:
    """Scanning state over one source text, and the word-level scanning ``Parser`` calls."""

    def __init__(self, source: str, first_line: int = 1) -> None:
        self.s = source
        self.n = len(source)
        self.i = 0
        self.first_line = first_line
        self._line_pos = 0
        self._line_no = first_line
        self.pending: list[HereDoc] = []
        self.extglob = True
        """Accept ``@(...)``-style patterns in words (bash needs ``shopt -s extglob`` at
        parse time, except inside ``[[ ]]``)."""
        self.in_cond = False

    # -- positions and errors ------------------------------------------------------
    def line(self) -> int:
        """Line number at the current position (incremental: positions only grow)."""
        if self.i < self._line_pos:
            self._line_pos, self._line_no = 0, self.first_line
        self._line_no += self.s.count("\n", self._line_pos, self.i)
        self._line_pos = self.i
        return self._line_no

    def fail(self, token: str | None = None) -> ShellSyntaxError:
        if token is None:
            token = self._token_at()
        if token in ("", "\n") and self.i >= self.n:
            return ShellSyntaxError("syntax error: unexpected end of file", self.line())
        if token == "\n":
            token = "newline"
        return ShellSyntaxError(f"syntax error near unexpected token `{token}'", self.line())

    def _token_at(self) -> str:
        if self.i >= self.n:
            return ""
        op = self.peek_op()
        if op:
            return op
        save = self.i
        try:
            word = self.read_word()
        except ShellSyntaxError:
            word = None
        self.i = save
        return word.raw if word else self.s[self.i]

    # -- low-level scanning -------------------------------------------------------
    def skip_blank(self) -> None:
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c == " " or c == "\t":
                self.i += 1
            elif c == "\\" and s.startswith("\\\n", self.i):
                self.i += 2
            elif c == "#":
                end = s.find("\n", self.i)
                self.i = n if end < 0 else end
            else:
                return

    def newline(self) -> None:
        """Consume one newline and read any here-document bodies that were pending."""
        self.i += 1
        if self.pending:
            docs, self.pending = self.pending, []
            for doc in docs:
                self._read_heredoc(doc)

    def skip_newlines(self) -> None:
        while True:
            self.skip_blank()
            if self.i < self.n and self.s[self.i] == "\n":
                self.newline()
            else:
                return

    def peek_op(self) -> str | None:
        s, i = self.s, self.i
        if i >= self.n:
            return None
        c = s[i]
        if c == "\n":
            return "\n"
        if c not in ";&|<>()":
            return None
        if c in "<>" or s.startswith("&>", i):
            for op in REDIR_OPS:
                if s.startswith(op, i):
                    return op
        for op in _CONTROL_OPS:
            if s.startswith(op, i):
                return op
        return None

    def _scan_squote(self, j: int) -> int:
        end = self.s.find("'", j)
        if end < 0:
            self.i = self.n
            raise ShellSyntaxError("unexpected EOF while looking for matching `''", self.line())
        return end + 1

    def _scan_ansi(self, j: int) -> int:
        s = self.s
        while j < self.n:
            c = s[j]
            if c == "\\":
                j += 2
            elif c == "'":
                return j + 1
            else:
                j += 1
        raise ShellSyntaxError("unexpected EOF while looking for matching `''", self.line())

    def _scan_dquote(self, j: int) -> int:
        s = self.s
        while j < self.n:
            c = s[j]
            if c == "\\":
                j += 2
            elif c == '"':
                return j + 1
            elif c == "$":
                j = self._scan_dollar(j, in_dq=True)
            elif c == "`":
                j = self._scan_backtick(j + 1)
            else:
                j += 1
        raise ShellSyntaxError('unexpected EOF while looking for matching `"\'', self.line())

    def _scan_backtick(self, j: int) -> int:
        s = self.s
        while j < self.n:
            c = s[j]
            if c == "\\":
                j += 2
            elif c == "`":
                return j + 1
            else:
                j += 1
        raise ShellSyntaxError("unexpected EOF while looking for matching ``'", self.line())

    def _scan_dollar(self, j: int, in_dq: bool = False) -> int:
        """``j`` is at ``$``; return the index just after the construct."""
        s = self.s
        nxt = s[j + 1] if j + 1 < self.n else ""
        if nxt == "(":
            if s.startswith("((", j + 1):
                end = self.scan_arith(j + 3)
                if end is not None:
                    return end
            return self._scan_subcommand(j + 2)
        if nxt == "{":
            return self._scan_brace(j + 2, in_dq)
        if nxt == "[":
            depth, k = 0, j + 1
            while k < self.n:
                if s[k] == "[":
                    depth += 1
                elif s[k] == "]":
                    depth -= 1
                    if depth == 0:
                        return k + 1
                k += 1
            return j + 1
        if nxt == "'" and not in_dq:
            return self._scan_ansi(j + 2)
        if nxt == '"' and not in_dq:
            return self._scan_dquote(j + 2)
        return j + 1

    def scan_arith(self, j: int) -> int | None:
        """After ``$((``/``((``: index after the closing ``))``, or None if it is not arithmetic."""
        s, depth = self.s, 0
        while j < self.n:
            c = s[j]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    if s.startswith("))", j):
                        return j + 2
                    return None
                depth -= 1
            elif c == "'":
                j = self._scan_squote(j + 1)
                continue
            elif c == '"':
                j = self._scan_dquote(j + 1)
                continue
            elif c == "$":
                j = self._scan_dollar(j)
                continue
            elif c == "`":
                j = self._scan_backtick(j + 1)
                continue
            j += 1
        return None

    def _scan_subcommand(self, j: int) -> int:
        """After ``$(``/``<(``: the index after the matching ``)``. Finding it means parsing
        the command list inside, which takes the grammar: ``Parser`` provides it."""
        raise NotImplementedError

    def _scan_brace(self, j: int, in_dq: bool) -> int:
        s, depth = self.s, 1
        while j < self.n:
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == "'" and not in_dq:
                j = self._scan_squote(j + 1)
                continue
            if c == '"':
                j = self._scan_dquote(j + 1)
                continue
            if c == "$":
                j = self._scan_dollar(j, in_dq)
                continue
            if c == "`":
                j = self._scan_backtick(j + 1)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise ShellSyntaxError("unexpected EOF while looking for matching `}'", self.line())

    def _scan_parens(self, j: int) -> int:
        """After an extglob ``@(``: index after the matching ``)``."""
        return self._scan_matched(j, "(", ")", extglob=True)

    def _scan_matched(self, j: int, opening: str, closing: str, extglob: bool = False) -> int:
        """After ``opening``: the index after the matching ``closing``, read as bash reads a
        matched pair (an assignment's subscript ``m[a b]``, a group in a ``=~`` regex):
        blanks, ``;`` and newlines in it do not end the word; quotes and ``$`` constructs are
        skipped whole. Unclosed, it is a syntax error. An ``extglob`` pattern's group ends at
        a newline (a syntax error) and takes a backquote as a plain character."""
        s, depth = self.s, 1
        while j < self.n:
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == "'":
                j = self._scan_squote(j + 1)
                continue
            if c == '"':
                j = self._scan_dquote(j + 1)
                continue
            if c == "$":
                j = self._scan_dollar(j)
                continue
            if c == "`" and not extglob:
                j = self._scan_backtick(j + 1)
                continue
            if c == opening:
                depth += 1
            elif c == closing:
                depth -= 1
                if depth == 0:
                    return j + 1
            elif c == "\n" and extglob:
                break
            j += 1
        if extglob:
            raise ShellSyntaxError("syntax error in extended glob pattern", self.line())
        self.i = self.n
        raise ShellSyntaxError(f"unexpected EOF while looking for matching `{closing}'", self.line())

    def read_word(self, cond_regex: bool = False, assignable: bool = False,
                  array_element: bool = False) -> Word | None:
        """Read one word at the current position (None at an operator or the end).

        Where bash would take the word as an assignment (``assignable``: before a simple
        command's first word) a subscript right after a leading name is one matched pair; so is
        a subscript opening an element of ``a=(...)`` (``array_element``).
        """
        s, n = self.s, self.n
        start = j = self.i
        pieces: list[str] = []
        seg_start = j
        while j < n:
            c = s[j]
            if c in _METACHARS:
                # bash's lexer treats only these two specially in a regex: a group is a
                # matched pair, and `|` is a plain character (so `x||y` is one word)
                if cond_regex and c == "(":
                    j = self._scan_matched(j + 1, "(", ")")
                    continue
                if cond_regex and c == "|":
                    j += 1
                    continue
                if c == "(" and j > start and s[j - 1] in "@!?*+" and (self.extglob or self.in_cond) and (j - 1 == start or s[j - 2] != "\\"):
                    j = self._scan_parens(j + 1)
                    continue
                if c == "(" and j > start:
                    text = "".join(pieces) + s[seg_start:j]
                    m = _ASSIGN_RE.match(text)
                    if m and m.end() == len(text):
                        pieces.append(s[seg_start:j])
                        self.i = j + 1
                        elems = self._read_array_elements()
                        raw = text + "(" + " ".join(elems) + ")"
                        return Word(raw, elems)
                if c in "<>" and j == start and j + 1 < n and s[j + 1] == "(":
                    j = self._scan_subcommand(j + 2)
                    continue
                break
            if c == "\\":
                if j + 1 < n and s[j + 1] == "\n":
                    pieces.append(s[seg_start:j])
                    j += 2
                    seg_start = j
                    continue
                j += 2
            elif c == "'":
                j = self._scan_squote(j + 1)
            elif c == '"':
                j = self._scan_dquote(j + 1)
            elif c == "$":
                j = self._scan_dollar(j)
            elif c == "`":
                j = self._scan_backtick(j + 1)
            elif c == "[" and ((array_element and j == start) or (
                    assignable and _NAME_RE.fullmatch("".join(pieces) + s[seg_start:j]))):
                j = self._scan_matched(j + 1, "[", "]")
            else:
                j += 1
        j = min(j, n)
        if j == start:
            return None
        pieces.append(s[seg_start:j])
        self.i = j
        return Word("".join(pieces))

    def _read_array_elements(self) -> list[str]:
        elems: list[str] = []
        while True:
            self.skip_newlines()
            if self.i >= self.n:
                raise self.fail()
            if self.s[self.i] == ")":
                self.i += 1
                return elems
            word = self.read_word(array_element=True)
            if word is None:
                raise self.fail()
            elems.append(word.raw)

    def _read_heredoc(self, doc: HereDoc) -> None:
        s = self.s
        if not doc.strip_tabs:
            pattern = re.compile("^" + re.escape(doc.delim) + "$", re.M)
            m = pattern.search(s, self.i)
            if m is None:
                doc.body = s[self.i :]
                if doc.body and not doc.body.endswith("\n"):
                    doc.body += "\n"
                self.i = self.n
                return
            doc.body = s[self.i : m.start()]
            self.i = m.end() + 1 if m.end() < self.n else self.n
            return
        lines: list[str] = []
        while self.i < self.n:
            end = s.find("\n", self.i)
            line = s[self.i :] if end < 0 else s[self.i : end]
            self.i = self.n if end < 0 else end + 1
            line = line.lstrip("\t")
            if line == doc.delim:
                break
            lines.append(line + "\n")
        doc.body = "".join(lines)

"""The command grammar: turns script text into the syntax tree that ``evaluate.py`` runs.

Why not bashlex alone: bashlex 0.18 (the only module here that imports it) rejects or
mis-parses a large share of everyday bash: ``case`` (NotImplementedError), ``[[ ... ]]``,
``(( ... ))``, C-style ``for ((;;))``, array assignments ``a=(1 2)``, ``declare -A m=([k]=v)``,
``;&`` / ``;;&``, ``|&``, ``{var}>`` redirections, extglob ``@(...)`` and process
substitution. Working around each gap by rewriting the text would change byte offsets and
quoting, so this module parses the command grammar itself (recursive descent over the text,
the way bash's own parser is context dependent). bashlex is still used, in
``bashlex_agrees``, as an independent cross-check of our parse for the scripts it can handle
(tests call it); the interpreter never depends on it.

The nodes it builds live in ``syntax.py``; the lexical layer (words, operators,
here-document bodies) is ``scan.py``'s ``Scanner``, which ``Parser`` extends. Words are
kept as their raw source text (``Word.raw``); ``words.py`` parses a word's inner structure
(quotes, ``$...``) when it is expanded, because brace expansion must see the raw text
first. Here-document bodies are attached to their redirection when the line ends.

Parsing is incremental: ``Parser.next_command`` returns one complete command at a time so
the interpreter can run a script line by line, as bash does (a syntax error on line 10 does
not stop lines 1-9 from running, and ``alias``/``shopt -s extglob`` affect later lines).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .errors import ShellSyntaxError
from .scan import REDIR_OPS, Scanner
from .syntax import (
    AndOr, ArithCmd, ArithFor, Assign, Case, CaseItem, Command, CondAndOr, CondBinary, CondCmd,
    CondExpr, CondNot, CondUnary, CondWord, For, FuncDef, Group, HereDoc, If, ListNode, Loop,
    Pipeline, Redir, Simple, Subshell, Word, parse_assignment,
)

_LIST_TERMINATORS = frozenset(["then", "elif", "else", "fi", "do", "done", "esac", "}"])
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IO_NUMBER_RE = re.compile(r"[0-9]+(?=[<>])|\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
COND_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -z -n -o -v -R".split())
COND_BINARY = frozenset("== = != =~ < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split())


class Parser(Scanner):
    """Recursive-descent parser over one script (or one ``eval``/``$(...)`` string); the
    scanning of words, operators and here-documents it builds on is ``Scanner``'s."""

    def _scan_subcommand(self, j: int) -> int:
        """After ``$(``/``<(``: parse the command list to find the matching ``)``."""
        sub = Parser(self.s)
        sub.i = j
        sub.first_line = 0
        sub.extglob = self.extglob
        sub.parse_list(stop_at_paren=True)
        sub.skip_newlines()
        if sub.i >= self.n or sub.s[sub.i] != ")":
            self.i = sub.i
            raise ShellSyntaxError("unexpected EOF while looking for matching `)'", self.line())
        return sub.i + 1

    def next_command(self) -> ListNode | None:
        """The next complete command (up to an unescaped newline), or None at the end."""
        self.skip_newlines()
        if self.i >= self.n:
            return None
        items: list[tuple[AndOr, bool]] = []
        while True:
            node = self.parse_and_or()
            self.skip_blank()
            op = self.peek_op()
            if op in (";", "&"):
                self.i += 1
                items.append((node, op == "&"))
                self.skip_blank()
                nxt = self.peek_op()
                if self.i >= self.n or nxt == "\n":
                    break
                continue
            items.append((node, False))
            if op == "\n":
                break
            if self.i >= self.n:
                break
            raise self.fail()
        if self.i < self.n and self.s[self.i] == "\n":
            self.newline()
        return ListNode(items)

    def parse_all(self) -> ListNode:
        items: list[tuple[AndOr, bool]] = []
        while True:
            node = self.next_command()
            if node is None:
                return ListNode(items)
            items.extend(node.items)

    def _peek_reserved(self) -> str | None:
        save = self.i
        self.skip_blank()
        try:
            word = self.read_word()
        except ShellSyntaxError:
            word = None
        self.i = save
        return word.raw if word else None

    def parse_list(self, stop_at_paren: bool = False) -> ListNode:
        """A compound list: and-or lists separated by ``;``, ``&`` or newlines."""
        items: list[tuple[AndOr, bool]] = []
        while True:
            self.skip_newlines()
            if self.i >= self.n:
                break
            op = self.peek_op()
            if op in (")", ";;", ";&", ";;&"):
                break
            if op is None and self._peek_reserved() in _LIST_TERMINATORS:
                break
            node = self.parse_and_or()
            self.skip_blank()
            op = self.peek_op()
            if op in (";", "&"):
                self.i += 1
                items.append((node, op == "&"))
            elif op == "\n":
                self.newline()
                items.append((node, False))
            else:
                items.append((node, False))
                break
        return ListNode(items)

    def _compound_list(self, *enders: str) -> ListNode:
        body = self.parse_list()
        if not body.items:
            raise self.fail()
        self.skip_newlines()
        word = self._peek_reserved()
        if word not in enders:
            raise self.fail()
        return body

    def _expect(self, word: str) -> None:
        self.skip_newlines()
        got = self._peek_reserved()
        if got != word:
            raise self.fail()
        self.skip_blank()
        self.read_word()

    def parse_and_or(self) -> AndOr:
        first = self.parse_pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while True:
            self.skip_blank()
            op = self.peek_op()
            if op not in ("&&", "||"):
                return AndOr(first, rest)
            self.i += 2
            self.skip_newlines()
            rest.append((op, self.parse_pipeline()))

    def parse_pipeline(self) -> Pipeline:
        pipe = Pipeline([])
        self.skip_blank()
        while True:
            word = self._peek_reserved()
            if word == "!":
                self.skip_blank()
                self.read_word()
                pipe.negate = not pipe.negate
            elif word == "time" and not pipe.timed:
                self.skip_blank()
                self.read_word()
                pipe.timed = True
                self.skip_blank()
                if self._peek_reserved() == "-p":
                    self.skip_blank()
                    self.read_word()
            else:
                break
        while True:
            pipe.commands.append(self.parse_command())
            self.skip_blank()
            op = self.peek_op()
            if op not in ("|", "|&"):
                return pipe
            self.i += len(op)
            pipe.stderr_too.append(op == "|&")
            self.skip_newlines()

    def parse_command(self) -> Command:
        self.skip_blank()
        if self.i >= self.n:
            raise self.fail()
        line = self.line()
        if self.s.startswith("((", self.i):
            end = self.scan_arith(self.i + 2)
            if end is not None:
                expr = self.s[self.i + 2 : end - 2]
                self.i = end
                return ArithCmd(expr, line, self._trailing_redirs())
        op = self.peek_op()
        if op == "(":
            self.i += 1
            body = self.parse_list(stop_at_paren=True)
            self.skip_newlines()
            if self.peek_op() != ")":
                raise self.fail()
            self.i += 1
            return Subshell(body, self._trailing_redirs())
        if op is not None and op not in REDIR_OPS:
            raise self.fail()
        word = self._peek_reserved()
        if word == "{":
            self.skip_blank()
            self.read_word()
            body = self._compound_list("}")
            self._expect("}")
            return Group(body, self._trailing_redirs())
        if word == "if":
            return self._parse_if()
        if word in ("while", "until"):
            self.skip_blank()
            self.read_word()
            cond = self._compound_list("do")
            self._expect("do")
            body = self._compound_list("done")
            self._expect("done")
            return Loop(cond, body, word == "until", self._trailing_redirs())
        if word == "for":
            return self._parse_for(line)
        if word == "case":
            return self._parse_case(line)
        if word == "[[":
            self.skip_blank()
            self.read_word()
            self.in_cond = True
            try:
                cond_expr = self._cond_or()
                self._cond_skip()
                if self._peek_reserved() != "]]":
                    if self.i >= self.n:
                        raise self.fail()
                    raise self._cond_fail("syntax error in conditional expression")
            finally:
                self.in_cond = False
            self.skip_blank()
            self.read_word()
            return CondCmd(cond_expr, line, self._trailing_redirs())
        if word == "function":
            self.skip_blank()
            self.read_word()
            self.skip_blank()
            name = self.read_word()
            if name is None:
                raise self.fail()
            self.skip_blank()
            if self.s.startswith("(", self.i):
                self.i += 1
                self.skip_blank()
                if self.peek_op() != ")":
                    raise self.fail()
                self.i += 1
            return self._function_body(name.raw, line)
        if word in ("then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]", "!"):
            raise self.fail(word)
        # a function definition `name () body`?
        save = self.i
        self.skip_blank()
        first = self.read_word(assignable=True)
        if first is not None and first.array is None:
            self.skip_blank()
            if self.s.startswith("(", self.i):
                j = self.i + 1
                while j < self.n and self.s[j] in " \t":
                    j += 1
                if j < self.n and self.s[j] == ")":
                    self.i = j + 1
                    return self._function_body(first.raw, line)
        self.i = save
        return self._parse_simple(line)

    def _function_body(self, name: str, line: int) -> FuncDef:
        self.skip_newlines()
        body = self.parse_command()
        if isinstance(body, (Simple, FuncDef)):
            raise self.fail()
        return FuncDef(name, body, line)

    def _trailing_redirs(self) -> list[Redir]:
        redirs: list[Redir] = []
        while True:
            self.skip_blank()
            redir = self._try_redir()
            if redir is None:
                return redirs
            redirs.append(redir)

    def _try_redir(self) -> Redir | None:
        fd: int | None = None
        fdvar: str | None = None
        m = _IO_NUMBER_RE.match(self.s, self.i)
        start = self.i
        if m:
            text = m.group(0)
            if text.startswith("{"):
                fdvar = text[1:-1]
            else:
                fd = int(text)
            self.i = m.end()
        op = self.peek_op()
        if op not in REDIR_OPS or (op in ("<", ">") and self.s.startswith("(", self.i + 1)):
            self.i = start
            return None
        self.i += len(op)
        self.skip_blank()
        target = self.read_word()
        if target is None:
            raise self.fail()
        if op in ("<<", "<<-"):
            raw = target.raw
            quoted = any(ch in raw for ch in "'\"\\")
            delim = _unquote_delim(raw)
            doc = HereDoc(delim, quoted, op == "<<-")
            self.pending.append(doc)
            return Redir(fd, op, raw, doc, fdvar)
        return Redir(fd, op, target.raw, None, fdvar)

    def _parse_simple(self, line: int) -> Simple:
        assigns: list[Assign] = []
        words: list[Word] = []
        redirs: list[Redir] = []
        while True:
            self.skip_blank()
            if self.i >= self.n:
                break
            redir = self._try_redir()
            if redir is not None:
                redirs.append(redir)
                continue
            op = self.peek_op()
            if op is not None and not (op in ("<", ">") and self.s.startswith("(", self.i + 1)):
                break
            word = self.read_word(assignable=not words)
            if word is None:
                break
            if not words:
                assign = parse_assignment(word)
                if assign is not None:
                    assigns.append(assign)
                    continue
            words.append(word)
        if not (assigns or words or redirs):
            raise self.fail()
        return Simple(assigns, words, redirs, line)

    def _parse_if(self) -> If:
        self.skip_blank()
        self.read_word()
        clauses: list[tuple[ListNode, ListNode]] = []
        else_body: ListNode | None = None
        while True:
            cond = self._compound_list("then")
            self._expect("then")
            body = self._compound_list("elif", "else", "fi")
            clauses.append((cond, body))
            self.skip_newlines()
            word = self._peek_reserved()
            self.skip_blank()
            self.read_word()
            if word == "elif":
                continue
            if word == "else":
                else_body = self._compound_list("fi")
                self._expect("fi")
            break
        return If(clauses, else_body, self._trailing_redirs())

    def _parse_for(self, line: int) -> Command:
        self.skip_blank()
        self.read_word()
        self.skip_blank()
        if self.s.startswith("((", self.i):
            end = self.scan_arith(self.i + 2)
            if end is None:
                raise self.fail()
            parts = _split_arith_for(self.s[self.i + 2 : end - 2])
            if parts is None:
                raise self.fail()
            self.i = end
            self.skip_blank()
            if self.peek_op() == ";":
                self.i += 1
            body = self._loop_body()
            return ArithFor(parts[0], parts[1], parts[2], body, line, self._trailing_redirs())
        name = self.read_word()
        # an invalid name is a runtime error (status 1), not a syntax error
        if name is None or name.raw in (";", "do", "in"):
            raise self.fail(name.raw if name else None)
        self.skip_blank()
        words: list[Word] | None = None
        op = self.peek_op()
        if op == ";":
            self.i += 1
        else:
            self.skip_newlines()
            if self._peek_reserved() == "in":
                self.skip_blank()
                self.read_word()
                words = []
                while True:
                    self.skip_blank()
                    op = self.peek_op()
                    if op in (";", "\n"):
                        if op == ";":
                            self.i += 1
                        break
                    if op is not None or self.i >= self.n:
                        raise self.fail()
                    word = self.read_word()
                    if word is None:
                        raise self.fail()
                    words.append(word)
        body = self._loop_body()
        return For(name.raw, words, body, line, self._trailing_redirs())

    def _loop_body(self) -> ListNode:
        self.skip_newlines()
        word = self._peek_reserved()
        if word == "{":
            self.skip_blank()
            self.read_word()
            body = self._compound_list("}")
            self._expect("}")
            return body
        self._expect("do")
        body = self._compound_list("done")
        self._expect("done")
        return body

    def _parse_case(self, line: int) -> Case:
        self.skip_blank()
        self.read_word()
        self.skip_blank()
        subject = self.read_word()
        if subject is None:
            raise self.fail()
        self._expect("in")
        items: list[CaseItem] = []
        while True:
            self.skip_newlines()
            if self._peek_reserved() == "esac":
                self.skip_blank()
                self.read_word()
                break
            self.skip_blank()
            if self.peek_op() == "(":
                self.i += 1
            patterns: list[Word] = []
            while True:
                self.skip_blank()
                word = self.read_word()
                if word is None:
                    raise self.fail()
                patterns.append(word)
                self.skip_blank()
                op = self.peek_op()
                if op == "|":
                    self.i += 1
                    continue
                if op == ")":
                    self.i += 1
                    break
                raise self.fail()
            body = self.parse_list()
            self.skip_newlines()
            op = self.peek_op()
            if op in (";;", ";&", ";;&"):
                self.i += len(op)
                items.append(CaseItem(patterns, body, op))
                continue
            items.append(CaseItem(patterns, body, ";;"))
            self._expect("esac")
            break
        return Case(subject, items, line, self._trailing_redirs())

    # -- [[ ... ]] -------------------------------------------------------------------
    def _cond_skip(self) -> None:
        self.skip_newlines()

    def _cond_fail(self, message: str) -> ShellSyntaxError:
        return ShellSyntaxError(message, self.line(), conditional=True)

    def _cond_or(self) -> CondExpr:
        left = self._cond_and()
        while True:
            self._cond_skip()
            if self.s.startswith("||", self.i):
                self.i += 2
                left = CondAndOr("||", left, self._cond_and())
            else:
                return left

    def _cond_and(self) -> CondExpr:
        left = self._cond_not()
        while True:
            self._cond_skip()
            if self.s.startswith("&&", self.i):
                self.i += 2
                left = CondAndOr("&&", left, self._cond_not())
            else:
                return left

    def _cond_not(self) -> CondExpr:
        self._cond_skip()
        save = self.i
        word = self.read_word()
        if word is not None and word.raw == "!":
            return CondNot(self._cond_not())
        self.i = save
        return self._cond_primary()

    def _cond_token(self) -> Word | None:
        self._cond_skip()
        if self.i < self.n and self.s[self.i] in "<>" and not self.s.startswith("<(", self.i):
            self.i += 1
            return Word(self.s[self.i - 1])
        return self.read_word()

    def _cond_primary(self) -> CondExpr:
        self._cond_skip()
        if self.peek_op() == "(":
            self.i += 1
            inner = self._cond_or()
            self._cond_skip()
            if self.peek_op() != ")":
                raise self._cond_fail("expected `)'")
            self.i += 1
            return inner
        first = self._cond_token()
        if first is None:
            raise self.fail()
        if first.raw == "]]":
            raise self._cond_fail("")
        if first.raw in COND_UNARY:
            operand = self._cond_token()
            if operand is None or operand.raw == "]]":
                raise self._cond_fail("unexpected argument `]]' to conditional unary operator")
            return CondUnary(first.raw, operand)
        save = self.i
        op = self._cond_token()
        if op is not None and op.raw in COND_BINARY:
            self._cond_skip()
            right = self.read_word(cond_regex=op.raw == "=~")
            if right is None:
                raise self.fail()
            return CondBinary(op.raw, first, right)
        self.i = save
        return CondWord(first)


def _unquote_delim(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
        elif c in "'\"":
            i += 1
        elif c == "$" and i + 1 < len(raw) and raw[i + 1] in "'\"":
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _split_arith_for(text: str) -> tuple[str, str, str] | None:
    parts: list[str] = []
    depth, start = 0, 0
    for k, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ";" and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    if len(parts) != 3:
        return None
    return parts[0], parts[1], parts[2]


@lru_cache(maxsize=512)
def parse_cached(source: str, extglob: bool = True, first_line: int = 1) -> ListNode:
    """Parse a whole string, remembering recent ones (``eval`` and ``$(...)`` in loops)."""
    parser = Parser(source, first_line)
    parser.extglob = extglob
    return parser.parse_all()


def parse_script(source: str) -> ListNode:
    """Parse a whole string at once (used for ``$(...)``, ``eval`` and function bodies)."""
    return Parser(source).parse_all()


def bashlex_agrees(source: str) -> bool | None:
    """Cross-check: does bashlex find the same number of top-level commands?

    Returns None when bashlex cannot parse the script at all (one of its known gaps).
    """
    try:
        import bashlex  # the only import of bashlex in the interpreter

        theirs = bashlex.parse(source)
    except Exception:  # bashlex raises many unrelated types for its gaps
        return None
    ours = Parser(source)
    count = 0
    while ours.next_command() is not None:
        count += 1
    return count == len(theirs)

"""jq lexer and parser: filter text to a tuple AST (jq 1.6 grammar).

Precedence, lowest first: ``|`` (and ``def``, ``as``, ``label``), ``,``, ``//``, the
assignment operators, ``or``, ``and``, comparisons, ``+ -``, ``* / %``, unary minus,
postfix terms (``.a``, ``[i]``, ``[]``, ``[a:b]``, ``?``).
"""

from __future__ import annotations

import re
from typing import Any

Node = tuple[Any, ...]


class JqCompileError(Exception):
    """A syntax error; reported as a compile error (exit status 3)."""


KEYWORDS = {"def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try",
            "catch", "label", "import", "include", "and", "or", "__loc__"}
_TOKEN = re.compile(r"""
    (?P<ws>\s+|\#[^\n]*)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<field>\.[A-Za-z_][A-Za-z0-9_]*)
  | (?P<var>\$(?:__loc__|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*))
  | (?P<format>@[A-Za-z0-9_]+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>\?//|\|=|\+=|-=|\*=|/=|%=|//=|==|!=|<=|>=|//|\.\.|[.\[\](){}|,:;=<>+\-*/%?$])
""", re.VERBOSE)

MAX_DEPTH = 512
"""How deep a filter may nest, in the units ``Parser.enter`` counts: a group (``(...)``,
``[...]``, ``{...}``, an ``if``, ``try``, ``reduce`` or ``foreach``, a function's arguments
or body, ``.[...]``, a string interpolation, a destructuring pattern) costs ``GROUP``, a link
of a chain that recurses (``|``, ``as``, ``def``, ``label``, ``//``, an assignment, a unary
minus, ``elif``) costs 1: 64 nested groups, or a pipeline of 512 stages.

Measured in the guest without a bound (under 45 nested command substitutions, which take
stack of their own): an array built in an array in an array... overflows the wasm stack at
310 levels when evaluated (274), one re-entry of the interpreter's C loop per level; a
syntax error at the innermost of ``[1,[1,[1,...`` at 165 (145), when its traceback of about
14 frames a level is freed; chains of 1,900 links when their AST is freed. 64 groups and
512 links stay well inside all of them."""
GROUP = 8


def _too_deep(src: str) -> JqCompileError:
    return JqCompileError(f"filter nesting too deep at <top-level>, line 1:\n{src}")


_HEX = frozenset("0123456789abcdefABCDEF")
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
                   "t": "\t"}
StringMemo = dict[int, tuple[list[Any], int, int]]
"""Strings already lexed, by their position in the whole filter: (parts, end, depth)."""


def _lex_string(src: str, i: int, memo: StringMemo, offset: int = 0, level: int = 0
                ) -> tuple[list[Any], int, int]:
    """Lex a string literal starting at the opening quote; parts are str or Node (interpolation).

    Returns the parts, the index past the closing quote and the nesting its interpolations
    add (0 without any). ``src`` starts ``offset`` characters into the whole filter; a string
    lexed before (while looking for the end of an enclosing interpolation) is taken from
    ``memo`` rather than lexed again, which would double the work at every level.
    ``level`` counts the interpolations around this string.
    """
    known = memo.get(offset + i)
    if known is not None and known[1] - offset <= len(src):
        return known[0], known[1] - offset, known[2]
    start = i
    parts: list[Any] = []
    buf: list[str] = []
    depth = 0
    i += 1
    n = len(src)
    while True:
        if i >= n:
            raise JqCompileError("unterminated string literal")
        c = src[i]
        if c == '"':
            i += 1
            break
        if c == "\\":
            if i + 1 >= n:
                raise JqCompileError("unterminated string literal")
            d = src[i + 1]
            if d == "(":
                if (level + 1) * GROUP > MAX_DEPTH:
                    raise _too_deep(src)
                parens = 1
                j = i + 2
                while j < n and parens:
                    ch = src[j]
                    if ch == '"':
                        _, j, _ = _lex_string(src, j, memo, offset, level + 1)
                        continue
                    if ch == "(":
                        parens += 1
                    elif ch == ")":
                        parens -= 1
                    j += 1
                if parens:
                    raise JqCompileError("unterminated string interpolation")
                if buf:
                    parts.append("".join(buf))
                    buf = []
                inner = Parser(src[i + 2 : j - 1], offset=offset + i + 2, memo=memo, level=level + 1)
                parts.append(inner.parse())
                depth = max(depth, GROUP + inner.max_depth)
                i = j
                continue
            if d in _SIMPLE_ESCAPES:
                buf.append(_SIMPLE_ESCAPES[d])
                i += 2
                continue
            if d == "u":
                hexs = src[i + 2 : i + 6]
                if len(hexs) < 4 or not all(h in _HEX for h in hexs):
                    raise JqCompileError("invalid \\u escape")
                code = int(hexs, 16)
                i += 6
                if 0xD800 <= code < 0xDC00 and src.startswith("\\u", i):
                    low_hexs = src[i + 2 : i + 6]
                    # Not four hex digits: left for the next round, which rejects it.
                    low = int(low_hexs, 16) if len(low_hexs) == 4 and all(h in _HEX for h in low_hexs) else 0
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                buf.append(chr(code))
                continue
            raise JqCompileError(f"invalid escape \\{d}")
        buf.append(c)
        i += 1
    if buf or not parts:
        parts.append("".join(buf))
    memo[offset + start] = (parts, offset + i, depth)
    return parts, i, depth


def tokenize(src: str, offset: int = 0, memo: StringMemo | None = None, level: int = 0,
             string_depths: dict[int, int] | None = None) -> list[tuple[str, Any]]:
    """The tokens of ``src``; for a string token at index k whose interpolations nest,
    ``string_depths[k]`` is how deep (see ``_lex_string`` for the other arguments)."""
    if memo is None:
        memo = {}
    toks: list[tuple[str, Any]] = []
    i = 0
    n = len(src)
    while i < n:
        if src[i] == '"':
            parts, i, depth = _lex_string(src, i, memo, offset, level)
            if depth and string_depths is not None:
                string_depths[len(toks)] = depth
            toks.append(("str", parts))
            continue
        m = _TOKEN.match(src, i)
        if m is None:
            raise JqCompileError(f"syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n{src}")
        kind = m.lastgroup
        text = m.group()
        i = m.end()
        if kind == "ws":
            continue
        if kind == "num":
            toks.append(("num", float(text)))
        elif kind == "field":
            toks.append(("field", text[1:]))
        elif kind == "var":
            toks.append(("var", text[1:]))
        elif kind == "format":
            toks.append(("format", text))
        elif kind == "ident":
            toks.append(("kw" if text in KEYWORDS else "ident", text))
        else:
            toks.append(("op", text))
    toks.append(("eof", None))
    return toks


class Parser:
    def __init__(self, src: str, *, offset: int = 0, memo: StringMemo | None = None,
                 level: int = 0) -> None:
        """``offset``, ``memo`` and ``level``: a string interpolation's place in the whole
        filter (see ``_lex_string``)."""
        self.src = src
        self.string_depths: dict[int, int] = {}
        self.toks = tokenize(src, offset, memo, level, self.string_depths)
        self.pos = 0
        # pipe() tries each term as the source of a binding first; memoising postfix terms
        # (and the message of those that fail) keeps that backtracking linear in nesting depth.
        self.memo: dict[int, tuple[Node, int] | str] = {}
        self.depth = 0
        self.max_depth = 0

    def enter(self, cost: int) -> None:
        """Go ``cost`` deeper (see MAX_DEPTH); the caller pays it back with ``leave``."""
        self.reach(self.depth + cost)
        self.depth += cost

    def leave(self, cost: int) -> None:
        self.depth -= cost

    def reach(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep(self.src)
        if depth > self.max_depth:
            self.max_depth = depth

    def peek(self, offset: int = 0) -> tuple[str, Any]:
        return self.toks[min(self.pos + offset, len(self.toks) - 1)]

    def at(self, kind: str, value: Any = None) -> bool:
        t = self.toks[self.pos]
        return t[0] == kind and (value is None or t[1] == value)

    def at_op(self, *ops: str) -> bool:
        t = self.toks[self.pos]
        return t[0] == "op" and t[1] in ops

    def at_kw(self, *words: str) -> bool:
        t = self.toks[self.pos]
        return t[0] == "kw" and t[1] in words

    def advance(self) -> tuple[str, Any]:
        t = self.toks[self.pos]
        if t[0] == "str" and self.pos in self.string_depths:
            self.reach(self.depth + self.string_depths[self.pos])
        self.pos += 1
        return t

    def error(self) -> JqCompileError:
        # A filter that ends where more must come (``def``) leaves the position past the end.
        t = self.toks[self.pos] if self.pos < len(self.toks) else ("eof", "")
        if t[0] == "eof":
            what = "$end"
        elif t[0] == "str":
            what = "QQSTRING_START"
        elif t[0] == "num":
            what = "LITERAL"
        elif t[0] == "ident":
            what = "IDENT"
        else:
            what = str(t[1])
        return JqCompileError(f"syntax error, unexpected {what} (Unix shell quoting issues?) at <top-level>, line 1:\n{self.src}")

    def expect_op(self, op: str) -> None:
        if not self.at_op(op):
            raise self.error()
        self.pos += 1

    def expect_kw(self, word: str) -> None:
        if not self.at_kw(word):
            raise self.error()
        self.pos += 1

    def parse(self) -> Node:
        if self.at("eof"):
            return ("identity",)
        node = self.pipe()
        if not self.at("eof"):
            raise self.error()
        return node

    # -- pipe level ------------------------------------------------------------------
    def pipe(self, no_comma: bool = False) -> Node:
        if self.at_kw("def"):
            fdef = self.funcdef()
            body = self.chained_pipe(no_comma)
            return ("def", fdef[0], fdef[1], fdef[2], body)
        if self.at_kw("label"):
            self.advance()
            t = self.advance()
            if t[0] != "var":
                raise self.error()
            self.expect_op("|")
            return ("label", t[1], self.chained_pipe(no_comma))
        save = self.pos
        depth = self.depth
        try:
            term = self.postfix()
            is_binding = self.at_kw("as")
        except JqCompileError:
            is_binding = False
            self.depth = depth
        if is_binding:
            self.advance()
            patterns = [self.pattern()]
            while self.at_op("?//"):
                self.advance()
                patterns.append(self.pattern())
            self.expect_op("|")
            body = self.chained_pipe(no_comma)
            return ("as", term, patterns, body)
        self.pos = save
        left = self.comma() if not no_comma else self.alternative()
        if self.at_op("|"):
            self.advance()
            right = self.chained_pipe(no_comma)
            return ("pipe", left, right)
        return left

    def chained_pipe(self, no_comma: bool) -> Node:
        """The rest of a pipeline (after ``|``, a binding, a definition or a label)."""
        self.enter(1)
        node = self.pipe(no_comma)
        self.leave(1)
        return node

    def group_pipe(self) -> Node:
        """A pipeline nested in brackets, arguments or a body."""
        self.enter(GROUP)
        node = self.pipe()
        self.leave(GROUP)
        return node

    def funcdef(self) -> tuple[str, list[str], Node]:
        self.expect_kw("def")
        t = self.advance()
        if t[0] not in ("ident", "kw"):
            raise self.error()
        name = t[1]
        params: list[str] = []
        if self.at_op("("):
            self.advance()
            while True:
                p = self.advance()
                if p[0] == "var":
                    params.append("$" + p[1])
                elif p[0] in ("ident", "kw"):
                    params.append(p[1])
                else:
                    self.pos -= 1
                    raise self.error()
                if self.at_op(";"):
                    self.advance()
                    continue
                self.expect_op(")")
                break
        self.expect_op(":")
        body = self.group_pipe()
        self.expect_op(";")
        return name, params, body

    def pattern(self) -> Node:
        t = self.peek()
        if t[0] == "var":
            self.advance()
            return ("pvar", t[1])
        self.enter(GROUP)
        node = self.nested_pattern()
        self.leave(GROUP)
        return node

    def nested_pattern(self) -> Node:
        if self.at_op("["):
            self.advance()
            items: list[Node] = []
            if not self.at_op("]"):
                while True:
                    items.append(self.pattern())
                    if self.at_op(","):
                        self.advance()
                        continue
                    break
            self.expect_op("]")
            return ("parray", items)
        if self.at_op("{"):
            self.advance()
            entries: list[tuple[Any, Node | None]] = []
            while True:
                t = self.advance()
                if t[0] == "var":
                    key: Any = ("literal", t[1])
                    value: Node | None = ("pvar", t[1])
                    if self.at_op(":"):
                        self.advance()
                        entries.append((("bindkey", t[1]), self.pattern()))
                        if self.at_op(","):
                            self.advance()
                            continue
                        break
                    entries.append((key, value))
                elif t[0] in ("ident", "kw"):
                    self.expect_op(":")
                    entries.append((("literal", t[1]), self.pattern()))
                elif t[0] == "str":
                    self.expect_op(":")
                    entries.append((("string", t[1], None), self.pattern()))
                elif t[0] == "op" and t[1] == "(":
                    key = self.group_pipe()
                    self.expect_op(")")
                    self.expect_op(":")
                    entries.append((key, self.pattern()))
                else:
                    self.pos -= 1
                    raise self.error()
                if self.at_op(","):
                    self.advance()
                    continue
                break
            self.expect_op("}")
            return ("pobject", entries)
        raise self.error()

    def comma(self) -> Node:
        left = self.alternative()
        while self.at_op(","):
            self.advance()
            left = ("comma", left, self.alternative())
        return left

    def alternative(self) -> Node:
        left = self.assignment()
        if self.at_op("//"):
            self.advance()
            self.enter(1)
            right = self.alternative()
            self.leave(1)
            return ("alt", left, right)
        return left

    def assignment(self) -> Node:
        left = self.or_expr()
        if self.at_op("=", "|=", "+=", "-=", "*=", "/=", "%=", "//="):
            op = self.advance()[1]
            self.enter(1)
            right = self.alternative()
            self.leave(1)
            return ("assign", op, left, right)
        return left

    def or_expr(self) -> Node:
        left = self.and_expr()
        while self.at_kw("or"):
            self.advance()
            left = ("or", left, self.and_expr())
        return left

    def and_expr(self) -> Node:
        left = self.compare()
        while self.at_kw("and"):
            self.advance()
            left = ("and", left, self.compare())
        return left

    def compare(self) -> Node:
        left = self.additive()
        if self.at_op("==", "!=", "<", "<=", ">", ">="):
            op = self.advance()[1]
            right = self.additive()
            return ("binop", op, left, right)
        return left

    def additive(self) -> Node:
        left = self.multiplicative()
        while self.at_op("+", "-"):
            op = self.advance()[1]
            left = ("binop", op, left, self.multiplicative())
        return left

    def multiplicative(self) -> Node:
        left = self.unary()
        while self.at_op("*", "/", "%"):
            op = self.advance()[1]
            left = ("binop", op, left, self.unary())
        return left

    def unary(self) -> Node:
        if self.at_op("-"):
            self.advance()
            self.enter(1)
            node = self.unary()
            self.leave(1)
            return ("neg", node)
        return self.postfix()

    # -- terms -------------------------------------------------------------------------
    def postfix(self) -> Node:
        start = self.pos
        cached = self.memo.get(start)
        if cached is not None:
            if isinstance(cached, str):
                raise JqCompileError(cached)
            self.pos = cached[1]
            return cached[0]
        try:
            node = self._postfix()
        except JqCompileError as exc:
            self.memo[start] = str(exc)
            raise
        self.memo[start] = (node, self.pos)
        return node

    def _postfix(self) -> Node:
        node = self.primary()
        while True:
            t = self.peek()
            if t[0] == "field":
                self.advance()
                node = ("index", node, ("literal", t[1]))
            elif t[0] == "op" and t[1] == "." and self.peek(1)[0] == "str":
                self.advance()
                s = self.advance()
                node = ("index", node, ("string", s[1], None))
            elif t[0] == "op" and t[1] == "[":
                node = self.bracket_suffix(node)
            elif t[0] == "op" and t[1] == "?":
                self.advance()
                if node[0] in ("index", "iterate", "slice") and node[-1] != "opt":
                    # jq applies ? to the last suffix only, separately for each input.
                    node = node + ("opt",)
                else:
                    node = ("try", node, None)
            else:
                break
        return node

    def bracket_suffix(self, node: Node) -> Node:
        self.enter(GROUP)
        node = self.bracket_suffix_inner(node)
        self.leave(GROUP)
        return node

    def bracket_suffix_inner(self, node: Node) -> Node:
        self.expect_op("[")
        if self.at_op("]"):
            self.advance()
            return ("iterate", node)
        if self.at_op(":"):
            self.advance()
            upper = self.pipe()
            self.expect_op("]")
            return ("slice", node, None, upper)
        index = self.pipe()
        if self.at_op(":"):
            self.advance()
            if self.at_op("]"):
                self.advance()
                return ("slice", node, index, None)
            upper = self.pipe()
            self.expect_op("]")
            return ("slice", node, index, upper)
        self.expect_op("]")
        return ("index", node, index)

    def primary(self) -> Node:
        t = self.advance()
        kind, value = t
        if kind == "num":
            return ("literal", value)
        if kind == "str":
            return ("string", value, None)
        if kind == "format":
            if self.at("str"):
                s = self.advance()
                return ("string", s[1], value)
            return ("format", value)
        if kind == "field":
            return ("index", ("identity",), ("literal", value))
        if kind == "var":
            if value == "__loc__":
                return ("literal", {"file": "<top-level>", "line": 1})
            return ("var", value)
        if kind == "op":
            if value == ".":
                if self.at("str"):
                    s = self.advance()
                    return ("index", ("identity",), ("string", s[1], None))
                if self.at_op("["):
                    return self.bracket_suffix(("identity",))
                return ("identity",)
            if value == "..":
                return ("call", "recurse", [])
            if value == "(":
                inner = self.group_pipe()
                self.expect_op(")")
                return inner
            if value == "[":
                if self.at_op("]"):
                    self.advance()
                    return ("array", None)
                inner = self.group_pipe()
                self.expect_op("]")
                return ("array", inner)
            if value == "{":
                self.enter(GROUP)
                node = self.object()
                self.leave(GROUP)
                return node
            if value == "-":
                self.enter(1)
                node = self.postfix()
                self.leave(1)
                return ("neg", node)
            if value == "$" and self.at_kw("__loc__"):
                self.advance()
                return ("literal", {"file": "<top-level>", "line": 1})
        if kind == "kw":
            if value in ("if", "try", "reduce", "foreach"):
                self.enter(GROUP)
                node = self.keyword_term(value)
                self.leave(GROUP)
                return node
            if value == "def":
                self.pos -= 1
                fdef = self.funcdef()
                body = self.chained_pipe(False)
                return ("def", fdef[0], fdef[1], fdef[2], body)
            if value == "label":
                self.pos -= 1
                return self.pipe()
        if kind == "ident":
            if value in ("null", "true", "false") and not self.at_op("("):
                return ("literal", {"null": None, "true": True, "false": False}[value])
            if value == "break":
                v = self.advance()
                if v[0] != "var":
                    raise self.error()
                return ("break", v[1])
            args: list[Node] = []
            if self.at_op("("):
                self.advance()
                self.enter(GROUP)
                while True:
                    args.append(self.pipe())
                    if self.at_op(";"):
                        self.advance()
                        continue
                    break
                self.leave(GROUP)
                self.expect_op(")")
            return ("call", value, args)
        self.pos -= 1
        raise self.error()

    def keyword_term(self, word: str) -> Node:
        """The term an ``if``, ``try``, ``reduce`` or ``foreach`` starts (the word consumed)."""
        if word == "if":
            return self.if_expr()
        if word == "try":
            body = self.postfix_for_try()
            handler = None
            if self.at_kw("catch"):
                self.advance()
                handler = self.postfix_for_try()
            return ("try", body, handler)
        source = self.postfix()
        self.expect_kw("as")
        pattern = self.pattern()
        self.expect_op("(")
        init = self.pipe()
        self.expect_op(";")
        update = self.pipe()
        if word == "reduce":
            self.expect_op(")")
            return ("reduce", source, pattern, init, update)
        extract = None
        if self.at_op(";"):
            self.advance()
            extract = self.pipe()
        self.expect_op(")")
        return ("foreach", source, pattern, init, update, extract)

    def postfix_for_try(self) -> Node:
        return self.postfix()

    def if_expr(self) -> Node:
        cond = self.pipe()
        self.expect_kw("then")
        then = self.pipe()
        if self.at_kw("elif"):
            self.advance()
            self.enter(1)
            other = self.if_expr()
            self.leave(1)
            return ("if", cond, then, other)
        # jq 1.6 requires an else branch.
        self.expect_kw("else")
        other_node = self.pipe()
        self.expect_kw("end")
        return ("if", cond, then, other_node)

    def object(self) -> Node:
        entries: list[tuple[Node, Node | None]] = []
        if self.at_op("}"):
            self.advance()
            return ("object", entries)
        while True:
            t = self.advance()
            kind, value = t
            key: Node
            if kind == "var":
                if value == "__loc__":
                    entries.append((("literal", "__loc__"), ("literal", {"file": "<top-level>", "line": 1})))
                else:
                    entries.append((("literal", value), ("var", value)))
                if self.at_op(","):
                    self.advance()
                    continue
                break
            if kind in ("ident", "kw"):
                key = ("literal", value)
            elif kind == "num":
                self.pos -= 1
                raise self.error()
            elif kind == "str":
                key = ("string", value, None)
            elif kind == "format":
                if self.at("str"):
                    s = self.advance()
                    key = ("string", s[1], value)
                else:
                    key = ("format", value)
            elif kind == "op" and value == "(":
                key = self.group_pipe()
                self.expect_op(")")
            else:
                self.pos -= 1
                raise self.error()
            if self.at_op(":"):
                self.advance()
                val = self.object_value()
                entries.append((key, val))
            else:
                entries.append((key, None))
            if self.at_op(","):
                self.advance()
                continue
            break
        self.expect_op("}")
        return ("object", entries)

    def object_value(self) -> Node:
        left = self.object_value_term()
        while self.at_op("|"):
            self.advance()
            left = ("pipe", left, self.object_value_term())
        return left

    def object_value_term(self) -> Node:
        # jq 1.6 grammar: ExpD: ExpD '|' ExpD | '-' ExpD | Term. "{a: 1 + 2}" is an error.
        if self.at_op("-"):
            self.advance()
            self.enter(1)
            node = self.object_value_term()
            self.leave(1)
            return ("neg", node)
        return self.postfix()


def _pattern_vars(pattern: Node, out: set[str]) -> None:
    tag = pattern[0]
    if tag == "pvar":
        out.add(pattern[1])
    elif tag == "parray":
        for p in pattern[1]:
            _pattern_vars(p, out)
    elif tag == "pobject":
        for key, sub in pattern[1]:
            if key[0] == "bindkey":
                out.add(key[1])
            if sub is not None:
                _pattern_vars(sub, out)


def check(node: Node, funcs: frozenset[tuple[str, int]], variables: frozenset[str], src: str) -> None:
    """Compile-time checks jq makes: every function and variable is defined, and constant
    division by zero is rejected. Raises JqCompileError."""
    where = f" at <top-level>, line 1:\n{src}"

    def walk(n: Any, fs: frozenset[tuple[str, int]], vs: frozenset[str]) -> None:
        if not isinstance(n, tuple) or not n:
            if isinstance(n, list):
                for item in n:
                    walk(item, fs, vs)
            return
        tag = n[0]
        if tag == "call":
            if (n[1], len(n[2])) not in fs:
                raise JqCompileError(f"{n[1]}/{len(n[2])} is not defined{where}")
            for a in n[2]:
                walk(a, fs, vs)
            return
        if tag == "var":
            if n[1] not in vs:
                raise JqCompileError(f"${n[1]} is not defined{where}")
            return
        if tag == "def":
            _, name, params, body, rest = n
            inner_fs = fs | {(name, len(params))} | {(p.lstrip("$"), 0) for p in params}
            inner_vs = vs | {p[1:] for p in params if p.startswith("$")}
            walk(body, inner_fs, inner_vs)
            walk(rest, fs | {(name, len(params))}, vs)
            return
        if tag == "as":
            walk(n[1], fs, vs)
            bound: set[str] = set()
            for p in n[2]:
                _pattern_vars(p, bound)
                walk_pattern_keys(p, fs, vs)
            walk(n[3], fs, vs | bound)
            return
        if tag in ("reduce", "foreach"):
            walk(n[1], fs, vs)
            bound = set()
            _pattern_vars(n[2], bound)
            walk(n[3], fs, vs)
            for sub in n[4:]:
                walk(sub, fs, vs | bound)
            return
        if tag == "label":
            walk(n[2], fs, vs | {"*label-" + n[1]})
            return
        if tag == "break":
            if "*label-" + n[1] not in vs:
                raise JqCompileError(f"$*label-{n[1]} is not defined{where}")
            return
        if tag == "binop" and n[1] == "/" and n[2][0] == "literal" and n[3][0] == "literal":
            a, b = n[2][1], n[3][1]
            if isinstance(a, float) and isinstance(b, float) and b == 0:
                raise JqCompileError("Division by zero?" + where)
        if tag == "string":
            for part in n[1]:
                if not isinstance(part, str):
                    walk(part, fs, vs)
            return
        if tag == "object":
            for key, value in n[1]:
                walk(key, fs, vs)
                if value is not None:
                    walk(value, fs, vs)
            return
        for child in n[1:]:
            walk(child, fs, vs)

    def walk_pattern_keys(p: Node, fs: frozenset[tuple[str, int]], vs: frozenset[str]) -> None:
        if p[0] == "pobject":
            for key, sub in p[1]:
                if key[0] not in ("bindkey", "literal"):
                    walk(key, fs, vs)
                if sub is not None:
                    walk_pattern_keys(sub, fs, vs)
        elif p[0] == "parray":
            for sub in p[1]:
                walk_pattern_keys(sub, fs, vs)

    walk(node, funcs, variables)

"""awk lexer and parser: program text to a tuple AST (POSIX awk grammar, mawk flavour).

AST nodes are tuples whose first element names the node (``("num", 1.0)``, ``("binop",
"+", a, b)`` ...); ``runtime.py`` compiles them to closures.
"""

from __future__ import annotations

import re
from typing import Any

from ...escapes import decode

Node = tuple[Any, ...]

KEYWORDS = {
    "BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break",
    "continue", "next", "nextfile", "exit", "return", "delete", "in", "getline", "print",
    "printf",
}
BUILTINS = {
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos",
    "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system",
    "close", "fflush", "systime", "strftime", "mktime",
}
# String escapes. "\/" is not one: mawk keeps it as is in strings (it matters in regexes).
# mawk's one-letter escapes; a backslash before a newline continues the string.
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "a": "\a",
            "b": "\b", "f": "\f", "v": "\v", "\n": ""}
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# Tokens after which '/' is division rather than the start of a regex literal.
_OPERAND_END = {"NAME", "NUMBER", "STRING", "ERE", ")", "]", "BUILTIN", "++", "--", "$"}
_PUNCT = ["+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "++", "--", "&&", "||",
          ">>", "!~", "**=", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/",
          "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "="]


MAX_NESTING = 1024
"""How deep a program may nest, in about the parser's own call frames (``Parser.enter``):
a parenthesised expression, a subscript or an argument list costs ``GROUP`` (the climb
through every precedence level back to a primary), a statement in a statement or block
``STATEMENT``, and a unary operator, an exponent, a ternary branch, an assignment's value,
a ``$`` or a ``getline`` source ``LINK``. So 64 nested parentheses, about 250 nested
statements or ``else if`` links, about 500 unary operators. mawk's own parser stops sooner
for most: near 190 parentheses, 62 ``else if`` links, 31 chained ternaries.

Measured in the guest without a bound: a syntax error at the innermost of 135 unclosed
``(`` (120 under 45 nested command substitutions, which take stack of their own) overflows
the wasm stack when its traceback, about 17 frames a level, is freed; evaluating nested
parentheses holds to 700 levels, statements to 950, the rest to 1,900 (where freeing the
AST overflows)."""
GROUP = 16
STATEMENT = 4
LINK = 2


class AwkSyntaxError(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def unescape(text: str) -> str:
    """Process awk string escapes; unknown ones keep their backslash (as mawk does).

    mawk's dialect: ``\\NNN`` octal and ``\\xHH`` hex give the character with that code (awk
    strings hold one byte per character), there is no ``\\u``, ``\\c`` or ``\\e``.
    """
    if "\\" not in text:
        return text
    return decode(text, simple=_ESCAPES, unicode=False, byte_values="codepoint").text


def tokenize(src: str) -> list[tuple[str, Any, int]]:
    toks: list[tuple[str, Any, int]] = []
    i = 0
    n = len(src)
    line = 1
    while i < n:
        c = src[i]
        if c == "\n":
            toks.append(("NEWLINE", None, line))
            line += 1
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            line += 1
            continue
        if c == "\\" and src.startswith("\\\r\n", i):
            i += 3
            line += 1
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == '"':
            j = i + 1
            buf: list[str] = []
            while True:
                if j >= n or src[j] == "\n":
                    raise AwkSyntaxError("runaway string constant \"" + src[i + 1 : j][:10] + " ...", line)
                if src[j] == "\\" and j + 1 < n:
                    buf.append(src[j : j + 2])
                    if src[j + 1] == "\n":
                        line += 1
                    j += 2
                    continue
                if src[j] == '"':
                    break
                buf.append(src[j])
                j += 1
            toks.append(("STRING", unescape("".join(buf)), line))
            i = j + 1
            continue
        if c == "/" and (not toks or toks[-1][0] not in _OPERAND_END):
            j = i + 1
            buf = []
            in_bracket = False
            while True:
                if j >= n or src[j] == "\n":
                    raise AwkSyntaxError("runaway regular expression /" + src[i + 1 : j][:10] + " ...", line)
                ch = src[j]
                if ch == "\\" and j + 1 < n:
                    if src[j + 1] == "/":
                        buf.append("/")
                    else:
                        buf.append(src[j : j + 2])
                    j += 2
                    continue
                if ch == "[" and not in_bracket:
                    in_bracket = True
                    buf.append(ch)
                    j += 1
                    if j < n and src[j] == "^":
                        buf.append("^")
                        j += 1
                    if j < n and src[j] == "]":
                        buf.append("]")
                        j += 1
                    continue
                if ch == "]" and in_bracket:
                    in_bracket = False
                elif ch == "/" and not in_bracket:
                    break
                buf.append(ch)
                j += 1
            toks.append(("ERE", "".join(buf), line))
            i = j + 1
            continue
        # ASCII only, as the patterns are: str.isdigit and str.isalpha also take "²" and "é".
        if (c.isascii() and c.isdigit()) or (c == "." and i + 1 < n and src[i + 1].isascii()
                                             and src[i + 1].isdigit()):
            m = _NUMBER.match(src, i)
            assert m is not None
            toks.append(("NUMBER", float(m.group()), line))
            i = m.end()
            continue
        if (c.isascii() and c.isalpha()) or c == "_":
            m = _NAME.match(src, i)
            assert m is not None
            word = m.group()
            i = m.end()
            if word in KEYWORDS:
                toks.append((word if word != "func" else "function", word, line))
            elif word in BUILTINS:
                toks.append(("BUILTIN", word, line))
            elif i < n and src[i] == "(":
                toks.append(("FUNC_NAME", word, line))
            else:
                toks.append(("NAME", word, line))
            continue
        for p in _PUNCT:
            if src.startswith(p, i):
                if p == "**":
                    p2 = "^"
                elif p == "**=":
                    p2 = "^="
                else:
                    p2 = p
                toks.append((p2, p2, line))
                i += len(p)
                break
        else:
            raise AwkSyntaxError(f"syntax error at or near {c}", line)
    toks.append(("NEWLINE", None, line))
    toks.append(("EOF", None, line))
    return toks


class Parser:
    def __init__(self, src: str) -> None:
        self.toks = tokenize(src)
        self.pos = 0
        self.functions: dict[str, Node] = {}
        self.items: list[Node] = []
        self.in_function: set[str] | None = None
        self.no_in = False
        self.loop_depth = 0
        self.section = ""  # "BEGIN", "END", "main" or "" inside a function
        self.nesting = 0

    # -- helpers ---------------------------------------------------------------------
    @property
    def tok(self) -> str:
        return self.toks[self.pos][0]

    def next(self) -> tuple[str, Any, int]:
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def error(self, what: str = "syntax error") -> AwkSyntaxError:
        t = self.toks[self.pos]
        text = {"NEWLINE": "end of line", "EOF": "end of file"}.get(t[0])
        if text is None:
            text = str(t[1]) if t[1] is not None else t[0]
            if t[0] == "NUMBER":
                text = f"{t[1]:g}"
        return AwkSyntaxError(f"{what} at or near {text}", t[2])

    def enter(self, cost: int) -> None:
        """Go ``cost`` deeper (see MAX_NESTING); the caller pays it back with ``leave``."""
        self.nesting += cost
        if self.nesting > MAX_NESTING:
            raise self.error("nesting too deep")

    def leave(self, cost: int) -> None:
        self.nesting -= cost

    def expect(self, kind: str) -> tuple[str, Any, int]:
        if self.tok != kind:
            raise self.error()
        return self.next()

    def newlines(self) -> None:
        while self.tok == "NEWLINE":
            self.pos += 1

    def terminators(self) -> None:
        while self.tok in ("NEWLINE", ";"):
            self.pos += 1

    # -- program ---------------------------------------------------------------------
    def parse(self) -> tuple[list[Node], dict[str, Node]]:
        self.terminators()
        while self.tok != "EOF":
            self.item()
            self.terminators()
        return self.items, self.functions

    def item(self) -> None:
        t = self.tok
        if t == "function":
            self.next()
            name_tok = self.next()
            if name_tok[0] not in ("NAME", "FUNC_NAME"):
                raise self.error()
            name = name_tok[1]
            self.expect("(")
            params: list[str] = []
            while self.tok != ")":
                self.newlines()
                params.append(self.expect("NAME")[1])
                self.newlines()
                if self.tok == ",":
                    self.next()
                elif self.tok != ")":
                    raise self.error()
            self.next()
            self.newlines()
            self.in_function = set(params)
            self.section = ""
            fbody = self.block()
            self.in_function = None
            self.functions[name] = ("function", name, params, fbody)
            return
        if t == "BEGIN" or t == "END":
            self.next()
            self.newlines()
            if self.tok != "{":
                raise self.error()
            self.section = t
            self.items.append((t, self.block()))
            return
        pattern: Node | None = None
        pattern2: Node | None = None
        self.section = "main"
        if t != "{":
            pattern = self.expr()
            if self.tok == ",":
                self.next()
                self.newlines()
                pattern2 = self.expr()
        if self.tok == "{":
            body: Node | None = self.block()
        else:
            body = None
        if pattern2 is not None:
            self.items.append(("range", pattern, pattern2, body))
        else:
            self.items.append(("main", pattern, body))

    def block(self) -> Node:
        self.expect("{")
        stmts: list[Node] = []
        self.terminators()
        while self.tok != "}":
            stmts.append(self.statement())
            self.terminators()
        self.next()
        return ("block", stmts)

    def simple_end(self) -> None:
        """A simple statement ends at ; newline } or EOF."""
        if self.tok in (";", "NEWLINE"):
            self.next()
        elif self.tok not in ("}", "EOF"):
            raise self.error()

    def statement(self) -> Node:
        self.enter(STATEMENT)
        node = self.statement_body()
        self.leave(STATEMENT)
        return node

    def statement_body(self) -> Node:
        t = self.tok
        if t == "{":
            return self.block()
        if t == "if":
            self.next()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            self.newlines()
            then = self.statement_or_empty()
            save = self.pos
            self.terminators()
            if self.tok == "else":
                self.next()
                self.newlines()
                other = self.statement_or_empty()
                return ("if", cond, then, other)
            self.pos = save
            return ("if", cond, then, None)
        if t == "while":
            self.next()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            if self.tok == ";":
                self.next()
                return ("while", cond, ("block", []))
            self.newlines()
            return ("while", cond, self.loop_body())
        if t == "do":
            self.next()
            self.newlines()
            body = self.loop_body()
            self.terminators()
            self.expect("while")
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            self.simple_end()
            return ("do", body, cond)
        if t == "for":
            self.next()
            self.expect("(")
            if self.tok == "NAME" and self.toks[self.pos + 1][0] == "in":
                save = self.pos
                var = self.next()[1]
                self.next()
                if self.tok == "NAME" and self.toks[self.pos + 1][0] == ")":
                    arr = self.next()[1]
                    self.next()
                    self.newlines()
                    return ("forin", self.lvalue_name(var), self.name_ref(arr), self.loop_body())
                self.pos = save
            init: Node | None = None if self.tok == ";" else self.simple_statement()
            self.expect(";")
            self.newlines()
            for_cond = None if self.tok == ";" else self.expr()
            self.expect(";")
            self.newlines()
            step = None if self.tok == ")" else self.simple_statement()
            self.expect(")")
            if self.tok == ";":
                self.next()
                return ("for", init, for_cond, step, ("block", []))
            self.newlines()
            return ("for", init, for_cond, step, self.loop_body())
        if t == ";":
            self.next()
            return ("block", [])
        if t in ("break", "continue", "next", "nextfile"):
            line = self.toks[self.pos][2]
            if t in ("break", "continue") and self.loop_depth == 0:
                raise AwkSyntaxError(f"{t} statement outside of loop", line)
            if t in ("next", "nextfile") and self.section != "main":
                raise AwkSyntaxError(f"improper use of {t}", line)
            self.next()
            self.simple_end()
            return (t,)
        if t == "exit":
            self.next()
            value = None if self.tok in (";", "NEWLINE", "}", "EOF") else self.expr()
            self.simple_end()
            return ("exit", value)
        if t == "return":
            if self.in_function is None:
                raise AwkSyntaxError("return outside function body", self.toks[self.pos][2])
            self.next()
            value = None if self.tok in (";", "NEWLINE", "}", "EOF") else self.expr()
            self.simple_end()
            return ("return", value)
        node = self.simple_statement()
        self.simple_end()
        return node

    def loop_body(self) -> Node:
        self.loop_depth += 1
        try:
            return self.statement_or_empty()
        finally:
            self.loop_depth -= 1

    def statement_or_empty(self) -> Node:
        if self.tok == ";":
            self.next()
            return ("block", [])
        return self.statement()

    def simple_statement(self) -> Node:
        t = self.tok
        if t == "print" or t == "printf":
            return self.print_statement()
        if t == "delete":
            self.next()
            name = self.expect("NAME")[1]
            ref = self.name_ref(name)
            if self.tok == "[":
                self.next()
                subs = self.group_list()
                self.expect("]")
                return ("delete", ref, subs)
            return ("delete", ref, None)
        return ("expr", self.expr())

    def print_statement(self) -> Node:
        kind = self.next()[0]
        args: list[Node] = []
        if self.tok == "(":
            save = self.pos
            nesting = self.nesting
            self.next()
            try:
                inner = self.group_list(no_gt=False)
                self.expect(")")
                ok = self.tok in (";", "NEWLINE", "}", ">", ">>", "|", "EOF")
            except AwkSyntaxError:
                ok = False
                self.nesting = nesting
            if ok:
                args = inner
            else:
                self.pos = save
                args = self.expr_list(no_gt=True)
        elif self.tok not in (";", "NEWLINE", "}", ">", ">>", "|", "EOF"):
            args = self.expr_list(no_gt=True)
        dest: Node | None = None
        mode = ""
        if self.tok in (">", ">>", "|"):
            mode = self.next()[0]
            dest = self.concat(no_gt=True)
        if kind == "printf" and not args:
            raise self.error()
        return (kind, args, mode, dest)

    def expr_list(self, no_gt: bool = False) -> list[Node]:
        items = [self.expr(no_gt)]
        while self.tok == ",":
            self.next()
            self.newlines()
            items.append(self.expr(no_gt))
        return items

    def group_list(self, no_gt: bool = False) -> list[Node]:
        """``expr_list`` nested in brackets: parentheses, a subscript, arguments."""
        self.enter(GROUP)
        items = self.expr_list(no_gt)
        self.leave(GROUP)
        return items

    # -- names -----------------------------------------------------------------------
    def name_ref(self, name: str) -> Node:
        if self.in_function is not None and name in self.in_function:
            return ("local", name)
        return ("global", name)

    def lvalue_name(self, name: str) -> Node:
        return ("var", self.name_ref(name))

    # -- expressions -----------------------------------------------------------------
    def expr(self, no_gt: bool = False) -> Node:
        return self.ternary(no_gt)

    def ternary(self, no_gt: bool) -> Node:
        cond = self.or_expr(no_gt)
        if self.tok == "?":
            self.next()
            self.newlines()
            self.enter(LINK)
            a = self.ternary(no_gt)
            self.newlines()
            self.expect(":")
            self.newlines()
            b = self.ternary(no_gt)
            self.leave(LINK)
            return ("cond", cond, a, b)
        if self.tok in ("=", "+=", "-=", "*=", "/=", "%=", "^="):
            if cond[0] in ("var", "field", "index"):
                op = self.next()[0]
                self.newlines()
                self.enter(LINK)
                value = self.ternary(no_gt)
                self.leave(LINK)
                return ("assign", op, cond, value)
        return cond

    def or_expr(self, no_gt: bool) -> Node:
        left = self.and_expr(no_gt)
        while self.tok == "||":
            self.next()
            self.newlines()
            left = ("or", left, self.and_expr(no_gt))
        return left

    def and_expr(self, no_gt: bool) -> Node:
        left = self.in_expr(no_gt)
        while self.tok == "&&":
            self.next()
            self.newlines()
            left = ("and", left, self.in_expr(no_gt))
        return left

    def in_expr(self, no_gt: bool) -> Node:
        left = self.match_expr(no_gt)
        while self.tok == "in" and not self.no_in:
            self.next()
            name = self.expect("NAME")[1]
            left = ("in", [left], self.name_ref(name))
        return left

    def match_expr(self, no_gt: bool) -> Node:
        left = self.compare(no_gt)
        while self.tok in ("~", "!~"):
            op = self.next()[0]
            right = self.compare(no_gt)
            left = ("match", op == "!~", left, right)
        return left

    def compare(self, no_gt: bool) -> Node:
        left = self.pipe_getline(no_gt)
        t = self.tok
        if t in ("<", "<=", "!=", "==", ">=") or (t == ">" and not no_gt):
            self.next()
            right = self.pipe_getline(no_gt)
            return ("cmp", t, left, right)
        return left

    def pipe_getline(self, no_gt: bool) -> Node:
        left = self.concat(no_gt)
        while self.tok == "|" and self.toks[self.pos + 1][0] == "getline":
            self.next()
            self.next()
            target = self.optional_lvalue()
            left = ("getline_cmd", left, target)
        return left

    # Tokens that can start the right operand of an implicit concatenation. "+", "-" and
    # "!" are excluded: after an operand they are binary operators (or "!=", "!~").
    _CONCAT_START = ("NUMBER", "STRING", "ERE", "NAME", "FUNC_NAME", "BUILTIN", "$", "(", "++", "--")

    def concat(self, no_gt: bool) -> Node:
        left = self.additive()
        while self.tok in self._CONCAT_START:
            left = ("concat", left, self.additive())
        return left

    def additive(self) -> Node:
        left = self.multiplicative()
        while self.tok in ("+", "-"):
            op = self.next()[0]
            left = ("binop", op, left, self.multiplicative())
        return left

    def multiplicative(self) -> Node:
        left = self.unary()
        while self.tok in ("*", "/", "%"):
            op = self.next()[0]
            left = ("binop", op, left, self.unary())
        return left

    _UNARY = {"!": "not", "-": "neg", "+": "pos"}

    def unary(self) -> Node:
        t = self.tok
        if t in self._UNARY:
            self.next()
            return (self._UNARY[t], self.unary_operand())
        return self.power()

    def unary_operand(self) -> Node:
        self.enter(LINK)
        node = self.unary()
        self.leave(LINK)
        return node

    def power(self) -> Node:
        base = self.postfix()
        if self.tok == "^":
            self.next()
            self.enter(LINK)
            # Right associative, and binds tighter than unary minus on its left only.
            if self.tok == "-":
                self.next()
                exponent: Node = ("neg", self.power_operand())
            elif self.tok == "+":
                self.next()
                exponent = self.power_operand()
            elif self.tok == "!":
                self.next()
                exponent = ("not", self.power_operand())
            else:
                exponent = self.power_operand()
            self.leave(LINK)
            return ("binop", "^", base, exponent)
        return base

    def power_operand(self) -> Node:
        return self.power()

    def postfix(self) -> Node:
        node = self.primary()
        if node[0] in ("var", "field", "index") and self.tok in ("++", "--"):
            op = self.next()[0]
            return ("postinc", op, node)
        return node

    def optional_lvalue(self) -> Node | None:
        t = self.tok
        if t == "NAME" or t == "$":
            return self.lvalue()
        return None

    def lvalue(self) -> Node:
        if self.tok == "$":
            self.next()
            return ("field", self.field_operand())
        name = self.expect("NAME")[1]
        if self.tok == "[":
            self.next()
            subs = self.group_list()
            self.expect("]")
            return ("index", self.name_ref(name), subs)
        return self.lvalue_name(name)

    def field_operand(self) -> Node:
        self.enter(LINK)
        t = self.tok
        if t in ("++", "--"):
            op = self.next()[0]
            node: Node = ("preinc", op, self.lvalue())
        elif t == "-":
            self.next()
            node = ("neg", self.field_operand())
        else:
            node = self.primary()
        self.leave(LINK)
        return node

    def primary(self) -> Node:
        tok = self.next()
        t, value = tok[0], tok[1]
        if t == "NUMBER":
            return ("num", value)
        if t == "STRING":
            return ("str", value)
        if t == "ERE":
            return ("regex", value)
        if t == "$":
            return ("field", self.field_operand())
        if t in ("++", "--"):
            return ("preinc", t, self.lvalue())
        if t == "(":
            save_no_in = self.no_in
            self.no_in = False
            self.newlines()
            items = self.group_list()
            self.newlines()
            self.expect(")")
            self.no_in = save_no_in
            if len(items) > 1:
                if self.tok != "in":
                    raise self.error()
                self.next()
                name = self.expect("NAME")[1]
                return ("in", items, self.name_ref(name))
            return ("group", items[0])
        if t in self._UNARY:
            return (self._UNARY[t], self.unary_operand())
        if t == "NAME":
            if self.tok == "[":
                self.next()
                subs = self.group_list()
                self.expect("]")
                return ("index", self.name_ref(value), subs)
            return self.lvalue_name(value)
        if t == "FUNC_NAME":
            self.expect("(")
            args: list[Node] = []
            self.newlines()
            if self.tok != ")":
                args = self.group_list()
            self.newlines()
            self.expect(")")
            return ("call", value, args)
        if t == "BUILTIN":
            return self.builtin(value)
        if t == "getline":
            target = self.optional_lvalue()
            if self.tok == "<":
                self.next()
                source = self.getline_source()
                return ("getline_file", target, source)
            return ("getline", target)
        self.pos -= 1
        raise self.error()

    def getline_source(self) -> Node:
        t = self.tok
        if t == "$":
            self.next()
            return ("field", self.field_operand())
        self.enter(LINK)
        node = self.primary()
        self.leave(LINK)
        return node

    def builtin(self, name: str) -> Node:
        if name == "length" and self.tok != "(":
            return ("builtin", "length", [])
        self.expect("(")
        self.newlines()
        args: list[Node] = []
        if self.tok != ")":
            args = self.group_list()
        self.newlines()
        self.expect(")")
        return ("builtin", name, args)

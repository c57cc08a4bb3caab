"""Shell arithmetic: ``$(( ))``, ``(( ))``, ``let``, array subscripts, ``declare -i``.

64-bit signed integers with C operators and precedence, bases (``16#ff``, ``0x1f``, ``017``),
variables whose values are themselves expressions, and short-circuit ``&& || ?:``.
The expression text arrives with ``$`` expansions already done by ``expand.py``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Protocol

from .errors import ExpansionError

Node = tuple[Any, ...]
"""('num', v) | ('var', name, index) | ('un', op, x) | ('bin', op, a, b) | ..."""

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>[0-9][0-9A-Za-z_@#]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*=|<<=|>>=|\+\+|--|\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|[-+*/%<>=!~&^|?:,()\[\]]))"
)
_ASSIGN_OPS = frozenset(["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**="])
_BINARY_PREC = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10, "**": 11,
}


class Variables(Protocol):
    def arith_get(self, name: str, index: str | None) -> str: ...

    def arith_set(self, name: str, index: str | None, value: int) -> None: ...


def wrap(value: int) -> int:
    """Reduce to a signed 64-bit integer, as bash's intmax_t arithmetic does."""
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >= 1 << 63 else value


def parse_number(text: str, expr: str) -> int:
    try:
        if "#" in text:
            base_s, _, digits = text.partition("#")
            base = int(base_s)
            if not 2 <= base <= 64 or not digits:
                raise ValueError
            value = 0
            for ch in digits:
                if ch.isdigit():
                    d = ord(ch) - 48
                elif "a" <= ch <= "z":
                    d = ord(ch) - 87
                elif "A" <= ch <= "Z":
                    d = ord(ch) - 29 if base > 36 else ord(ch) - 55
                elif ch == "@":
                    d = 62
                elif ch == "_":
                    d = 63
                else:
                    raise ValueError
                if d >= base:
                    raise ValueError
                value = value * base + d
            return wrap(value)
        if text.startswith(("0x", "0X")):
            return wrap(int(text[2:], 16)) if len(text) > 2 else 0  # bash reads a bare 0x as 0
        if len(text) > 1 and text.startswith("0"):
            return wrap(int(text, 8))
        return wrap(int(text, 10))
    except ValueError:
        raise ExpansionError(f"{expr}: value too great for base (error token is \"{text}\")") from None


class _Parser:
    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = expr
        while True:
            m = _TOKEN_RE.match(text, pos)
            if not m or m.end() == pos:
                rest = text[pos:].strip()
                if rest:
                    raise ExpansionError(f"{expr.strip()}: syntax error: invalid arithmetic operator (error token is \"{rest}\")")
                break
            pos = m.end()
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind)))
        self.k = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.k] if self.k < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.k]
        self.k += 1
        return tok

    def error(self) -> ExpansionError:
        tok = self.peek()
        where = " ".join(t[1] for t in self.tokens[self.k :]) if tok else ""
        if tok is None:
            return ExpansionError(f"{self.expr.strip()}: syntax error: operand expected (error token is \"{where}\")")
        return ExpansionError(f"{self.expr.strip()}: syntax error in expression (error token is \"{where}\")")

    def parse(self) -> Node:
        if not self.tokens:
            return ("num", 0)
        node = self.comma()
        if self.peek() is not None:
            raise self.error()
        return node

    def comma(self) -> Node:
        node = self.assign()
        while self.peek() == ("op", ","):
            self.take()
            node = ("comma", node, self.assign())
        return node

    def assign(self) -> Node:
        start = self.k
        left = self.ternary()
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in _ASSIGN_OPS:
            if left[0] != "var":
                self.k = start
                raise ExpansionError(f"{self.expr.strip()}: attempted assignment to non-variable (error token is \"{tok[1]} \")")
            self.take()
            return ("assign", tok[1], left, self.assign())
        return left

    def ternary(self) -> Node:
        cond = self.binary(1)
        if self.peek() == ("op", "?"):
            self.take()
            yes = self.assign()
            if self.peek() != ("op", ":"):
                raise self.error()
            self.take()
            no = self.assign()
            return ("cond", cond, yes, no)
        return cond

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            if not tok or tok[0] != "op" or tok[1] not in _BINARY_PREC:
                return left
            prec = _BINARY_PREC[tok[1]]
            if prec < min_prec:
                return left
            self.take()
            right = self.binary(prec if tok[1] == "**" else prec + 1)
            if tok[1] == "&&":
                left = ("and", left, right)
            elif tok[1] == "||":
                left = ("or", left, right)
            else:
                left = ("bin", tok[1], left, right)

    def unary(self) -> Node:
        tok = self.peek()
        if tok and tok[0] == "op":
            if tok[1] in ("++", "--"):
                self.take()
                target = self.unary()
                if target[0] != "var":
                    raise self.error()
                return ("pre", tok[1], target)
            if tok[1] in ("-", "+", "!", "~"):
                self.take()
                return ("un", tok[1], self.unary())
        return self.postfix()

    def postfix(self) -> Node:
        node = self.primary()
        tok = self.peek()
        if node[0] == "var" and tok and tok[1] in ("++", "--"):
            self.take()
            return ("post", tok[1], node)
        return node

    def primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.error()
        if tok[0] == "num":
            self.take()
            return ("num", parse_number(tok[1], self.expr.strip()))
        if tok[0] == "name":
            self.take()
            if self.peek() == ("op", "["):
                self.take()
                depth, start = 1, self.k
                while self.k < len(self.tokens):
                    if self.tokens[self.k] == ("op", "["):
                        depth += 1
                    elif self.tokens[self.k] == ("op", "]"):
                        depth -= 1
                        if depth == 0:
                            break
                    self.k += 1
                if self.k >= len(self.tokens):
                    raise self.error()
                index = " ".join(t[1] for t in self.tokens[start : self.k])
                self.take()
                return ("var", tok[1], index)
            return ("var", tok[1], None)
        if tok == ("op", "("):
            self.take()
            node = self.comma()
            if self.peek() != ("op", ")"):
                raise self.error()
            self.take()
            return node
        raise self.error()


@lru_cache(maxsize=2048)
def parse(expr: str) -> Node:
    return _Parser(expr).parse()


def evaluate(expr: str, env: Variables, depth: int = 0) -> int:
    """Evaluate ``expr`` (already ``$``-expanded) against ``env``."""
    if depth > 64:
        raise ExpansionError(f"{expr}: expression recursion level exceeded")
    node = parse(expr)
    return _Eval(env, expr, depth).run(node)


class _Eval:
    def __init__(self, env: Variables, expr: str, depth: int) -> None:
        self.env = env
        self.expr = expr.strip()
        self.depth = depth

    def value_of(self, name: str, index: str | None) -> int:
        text = self.env.arith_get(name, index).strip()
        if not text:
            return 0
        if text.lstrip("-").isdigit() and not (text.lstrip("-").startswith("0") and len(text.lstrip("-")) > 1):
            return wrap(int(text))
        return evaluate(text, self.env, self.depth + 1)

    def run(self, node: Node) -> int:
        kind = node[0]
        if kind == "num":
            return int(node[1])
        if kind == "var":
            return self.value_of(node[1], self._index(node[2]))
        if kind == "bin":
            return self.binop(node[1], self.run(node[2]), self.run(node[3]))
        if kind == "un":
            v = self.run(node[2])
            op = node[1]
            if op == "-":
                return wrap(-v)
            if op == "+":
                return v
            if op == "!":
                return int(not v)
            return wrap(~v)
        if kind == "and":
            return int(bool(self.run(node[1])) and bool(self.run(node[2])))
        if kind == "or":
            return int(bool(self.run(node[1])) or bool(self.run(node[2])))
        if kind == "cond":
            return self.run(node[2]) if self.run(node[1]) else self.run(node[3])
        if kind == "comma":
            self.run(node[1])
            return self.run(node[2])
        if kind in ("pre", "post"):
            target = node[2]
            index = self._index(target[2])
            old = self.value_of(target[1], index)
            new = wrap(old + 1 if node[1] == "++" else old - 1)
            self.env.arith_set(target[1], index, new)
            return new if kind == "pre" else old
        if kind == "assign":
            op, target = node[1], node[2]
            index = self._index(target[2])
            # bash reads the old value of ``x`` before evaluating the right side of ``x op= e``
            old = self.value_of(target[1], index) if op != "=" else 0
            value = self.run(node[3])
            if op != "=":
                value = self.binop(op[:-1], old, value)
            self.env.arith_set(target[1], index, value)
            return value
        raise ExpansionError(f"{self.expr}: syntax error")

    def _index(self, index: str | None) -> str | None:
        return index

    def binop(self, op: str, a: int, b: int) -> int:
        if op == "+":
            return wrap(a + b)
        if op == "-":
            return wrap(a - b)
        if op == "*":
            return wrap(a * b)
        if op in ("/", "%"):
            if b == 0:
                raise ExpansionError(f"{self.expr}: division by 0 (error token is \"{self.expr.split(op)[-1].strip()}\")")
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return wrap(q) if op == "/" else wrap(a - q * b)
        if op == "**":
            if b < 0:
                raise ExpansionError(f"{self.expr}: exponent less than 0 (error token is \"{b}\")")
            return wrap(pow(a, b, 1 << 64))
        if op == "<<":
            return wrap(a << (b & 63))
        if op == ">>":
            return wrap(a >> (b & 63))
        if op == "&":
            return wrap(a & b)
        if op == "|":
            return wrap(a | b)
        if op == "^":
            return wrap(a ^ b)
        compare: dict[str, Callable[[int, int], bool]] = {
            "<": lambda x, y: x < y, ">": lambda x, y: x > y, "<=": lambda x, y: x <= y,
            ">=": lambda x, y: x >= y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y,
        }
        return int(compare[op](a, b))

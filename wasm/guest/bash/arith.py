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
                if ch.isascii() and ch.isdigit():
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


_VARIABLE_AHEAD = re.compile(r"\s*[A-Za-z_]")


def _is_step(tokens: list[tuple[str, str]], text: str, after: int) -> bool:
    """Whether the ``++``/``--`` just read (ending at ``after``) is an increment: only beside
    a variable, after its name (or subscript) or before a name. Anywhere else bash reads its
    first character as a sign and reads on from the second (``1--5`` is 6, ``---x`` is
    ``-(--x)``)."""
    if tokens and (tokens[-1][0] == "name" or tokens[-1] == ("op", "]")):
        return True
    return _VARIABLE_AHEAD.match(text, after) is not None


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
            kind = m.lastgroup or ""
            token = m.group(kind)
            if kind == "op" and token in ("++", "--") and not _is_step(self.tokens, text, m.end()):
                token = token[0]
                pos = m.end() - 1
            else:
                pos = m.end()
            self.tokens.append((kind, token))
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
            # as bash's grammar has it: a comma list between ? and :, a conditional after
            # (``c ? a : x = 0`` assigns to the conditional, an error)
            yes = self.comma()
            if self.peek() != ("op", ":"):
                raise self.error()
            self.take()
            no = self.ternary()
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


def parse(expr: str) -> Node:
    return _Parser(expr).parse()


Code = Callable[[Variables, int], int]
"""An expression compiled: its value against the shell's variables, at a recursion depth
(a variable's value is itself an expression, evaluated one level deeper)."""

_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
"""A variable's value that is a plain decimal number, read without parsing an expression."""


def evaluate(expr: str, env: Variables, depth: int = 0) -> int:
    """Evaluate ``expr`` (already ``$``-expanded) against ``env``."""
    if depth > 64:
        raise ExpansionError(f"{expr}: expression recursion level exceeded")
    return compiled(expr)(env, depth)


@lru_cache(maxsize=2048)
def compiled(expr: str) -> Code:
    """``expr`` parsed and compiled to closures, once per text: a loop's condition and body
    are evaluated on every iteration, and walking the tree each time cost twice as much."""
    return _compile(parse(expr), expr.strip())


def value_of(env: Variables, name: str, index: str | None, depth: int) -> int:
    """A variable's value as a number: empty is 0, any other text an expression."""
    text = env.arith_get(name, index).strip()
    if not text:
        return 0
    if _DECIMAL.match(text):
        return wrap(int(text))
    return evaluate(text, env, depth + 1)


def _compile(node: Node, expr: str) -> Code:
    kind = node[0]
    if kind == "num":
        number: int = node[1]
        return lambda env, depth: number
    if kind == "var":
        name, index = node[1], node[2]
        return lambda env, depth: value_of(env, name, index, depth)
    if kind == "bin":
        combine = binary(node[1], expr)
        left, right = _compile(node[2], expr), _compile(node[3], expr)
        return lambda env, depth: combine(left(env, depth), right(env, depth))
    if kind == "un":
        return _unary(node[1], _compile(node[2], expr))
    if kind in ("and", "or", "cond", "comma"):
        return _control(kind, [_compile(n, expr) for n in node[1:]])
    if kind in ("pre", "post"):
        return _step(kind, 1 if node[1] == "++" else -1, node[2][1], node[2][2])
    if kind == "assign":
        return _assignment(node[1], node[2][1], node[2][2], _compile(node[3], expr), expr)
    raise ExpansionError(f"{expr}: syntax error")


def _unary(op: str, operand: Code) -> Code:
    if op == "-":
        return lambda env, depth: wrap(-operand(env, depth))
    if op == "+":
        return operand
    if op == "!":
        return lambda env, depth: int(not operand(env, depth))
    return lambda env, depth: wrap(~operand(env, depth))


def _control(kind: str, codes: list[Code]) -> Code:
    """The operators that decide which operands are evaluated: ``&& || ?: ,``."""
    if kind == "cond":
        test, yes, no = codes
        return lambda env, depth: yes(env, depth) if test(env, depth) else no(env, depth)
    first, second = codes
    if kind == "and":
        return lambda env, depth: int(bool(first(env, depth)) and bool(second(env, depth)))
    if kind == "or":
        return lambda env, depth: int(bool(first(env, depth)) or bool(second(env, depth)))
    return lambda env, depth: (first(env, depth), second(env, depth))[1]


def _step(kind: str, by: int, name: str, index: str | None) -> Code:
    """``++x --x x++ x--``."""
    def step(env: Variables, depth: int) -> int:
        old = value_of(env, name, index, depth)
        new = wrap(old + by)
        env.arith_set(name, index, new)
        return new if kind == "pre" else old
    return step


def _assignment(op: str, name: str, index: str | None, value: Code, expr: str) -> Code:
    if op == "=":
        def assign(env: Variables, depth: int) -> int:
            result = value(env, depth)
            env.arith_set(name, index, result)
            return result
        return assign
    combine = binary(op[:-1], expr)

    def assign_with(env: Variables, depth: int) -> int:
        # bash reads the old value of ``x`` before evaluating the right side of ``x op= e``
        old = value_of(env, name, index, depth)
        result = combine(old, value(env, depth))
        env.arith_set(name, index, result)
        return result
    return assign_with


def binary(op: str, expr: str) -> Callable[[int, int], int]:
    """The function of two numbers that ``op`` is (``expr``: the text its errors name)."""
    simple = _SIMPLE_BINARY.get(op)
    if simple is not None:
        return simple
    if op in ("/", "%"):
        def divide(a: int, b: int) -> int:
            if b == 0:
                raise ExpansionError(f"{expr}: division by 0 (error token is \"{expr.split(op)[-1].strip()}\")")
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return wrap(q) if op == "/" else wrap(a - q * b)
        return divide
    if op == "**":
        def power(a: int, b: int) -> int:
            if b < 0:
                raise ExpansionError(f"{expr}: exponent less than 0 (error token is \"{b}\")")
            return wrap(pow(a, b, 1 << 64))
        return power
    raise ExpansionError(f"{expr}: syntax error")


_SIMPLE_BINARY: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: wrap(a + b), "-": lambda a, b: wrap(a - b), "*": lambda a, b: wrap(a * b),
    "<<": lambda a, b: wrap(a << (b & 63)), ">>": lambda a, b: wrap(a >> (b & 63)),
    "&": lambda a, b: wrap(a & b), "|": lambda a, b: wrap(a | b), "^": lambda a, b: wrap(a ^ b),
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
}

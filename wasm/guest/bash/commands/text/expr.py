"""expr: GNU coreutils expression evaluator over its argument words.

Precedence, lowest first: ``|``, ``&``, comparisons, ``+ -``, ``* / %``, ``:``, then the
keyword forms ``match substr index length`` and ``+ TOKEN``. Integers are arbitrary
precision (GNU built with GMP). Exit status: 0 for a non-null, non-zero result, 1 for null
or zero, 2 for a syntax error, 3 for other errors (division by zero counts as 2 in GNU).
"""

from __future__ import annotations

import re

from ..base import CommandContext, CommandResult
from .common import arg_latin
from .regex import RegexError, compile_posix

_INT = re.compile(r"-?\d+")


class ExprError(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _is_int(value: str | int) -> bool:
    return isinstance(value, int) or bool(_INT.fullmatch(value))


def _as_int(value: str | int) -> int:
    if isinstance(value, int):
        return value
    if not _INT.fullmatch(value):
        raise ExprError("non-integer argument")
    return int(value)


def _truthy(value: str | int) -> bool:
    if isinstance(value, int):
        return value != 0
    if value == "":
        return False
    return not (_INT.fullmatch(value) and int(value) == 0)


class _Parser:
    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.pos = 0

    def peek(self) -> str | None:
        return self.args[self.pos] if self.pos < len(self.args) else None

    def take(self) -> str:
        if self.pos >= len(self.args):
            raise ExprError(f"syntax error: missing argument after '{self.args[-1]}'" if self.args else "syntax error: missing argument")
        token = self.args[self.pos]
        self.pos += 1
        return token

    def parse(self) -> str | int:
        value = self.or_expr(True)
        if self.pos < len(self.args):
            raise ExprError(f"syntax error: unexpected argument '{self.args[self.pos]}'")
        return value

    # ``ev`` is False inside the side of | or & that GNU parses but does not evaluate.
    def or_expr(self, ev: bool) -> str | int:
        left = self.and_expr(ev)
        while self.peek() == "|":
            self.pos += 1
            right = self.and_expr(ev and not _truthy(left))
            if not _truthy(left):
                left = right if _truthy(right) else 0
        return left

    def and_expr(self, ev: bool) -> str | int:
        left = self.compare(ev)
        while self.peek() == "&":
            self.pos += 1
            right = self.compare(ev and _truthy(left))
            if not _truthy(left) or not _truthy(right):
                left = 0
        return left

    def compare(self, ev: bool) -> str | int:
        left = self.additive(ev)
        while self.peek() in ("<", "<=", "=", "==", "!=", ">=", ">"):
            op = self.take()
            right = self.additive(ev)
            if _is_int(left) and _is_int(right):
                a: object = _as_int(left)
                b: object = _as_int(right)
            else:
                a, b = str(left).encode("latin-1"), str(right).encode("latin-1")
            result = {
                "<": a < b, "<=": a <= b, "=": a == b, "==": a == b,  # type: ignore[operator]
                "!=": a != b, ">=": a >= b, ">": a > b,  # type: ignore[operator]
            }[op]
            left = 1 if result else 0
        return left

    def additive(self, ev: bool) -> str | int:
        left = self.multiplicative(ev)
        while self.peek() in ("+", "-"):
            op = self.take()
            right = self.multiplicative(ev)
            if not ev:
                left = 0
                continue
            a, b = _as_int(left), _as_int(right)
            left = a + b if op == "+" else a - b
        return left

    def multiplicative(self, ev: bool) -> str | int:
        left = self.match_expr(ev)
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            right = self.match_expr(ev)
            if not ev:
                left = 0
                continue
            a, b = _as_int(left), _as_int(right)
            if op == "*":
                left = a * b
                continue
            if b == 0:
                raise ExprError("division by zero")
            quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            left = quotient if op == "/" else a - b * quotient
        return left

    def match_expr(self, ev: bool) -> str | int:
        left = self.primary(ev)
        while self.peek() == ":":
            self.pos += 1
            right = self.primary(ev)
            left = _match(str(left), str(right)) if ev else 0
        return left

    def primary(self, ev: bool) -> str | int:
        token = self.take()
        if token == "(":
            value = self.or_expr(ev)
            if self.peek() != ")":
                if self.peek() is None:
                    raise ExprError("syntax error: expecting ')' after " + f"'{self.args[self.pos - 1]}'")
                raise ExprError(f"syntax error: expecting ')' instead of '{self.peek()}'")
            self.pos += 1
            return value
        if token == "+":
            return self.take()
        if token == "match":
            string = self.primary(ev)
            pattern = self.primary(ev)
            return _match(str(string), str(pattern)) if ev else 0
        if token == "substr":
            string, start, length = str(self.primary(ev)), self.primary(ev), self.primary(ev)
            if not _is_int(start) or not _is_int(length):
                return ""
            begin, count = _as_int(start), _as_int(length)
            if begin <= 0 or count <= 0:
                return ""
            return string[begin - 1 : begin - 1 + count]
        if token == "index":
            string, chars = str(self.primary(ev)), str(self.primary(ev))
            for position, char in enumerate(string, 1):
                if char in chars:
                    return position
            return 0
        if token == "length":
            return len(str(self.primary(ev)))
        if token == ")":
            raise ExprError("syntax error: unexpected ')'")
        return token


def _match(string: str, pattern: str) -> str | int:
    try:
        regex = compile_posix(pattern, extended=False)
    except RegexError as err:
        raise ExprError(str(err)) from None
    found = regex.match(string)
    if regex.groups:
        if not found or found.group(1) is None:
            return ""
        return found.group(1)
    return found.end() if found else 0


def expr(ctx: CommandContext, argv: list[str]) -> CommandResult:
    args = [arg_latin(a) for a in argv[1:]]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        ctx.error("expr: missing operand")
        ctx.error("Try 'expr --help' for more information.")
        return 2
    try:
        value = _Parser(args).parse()
    except ExprError as err:
        ctx.error(f"expr: {err}")
        return err.status
    yield str(value).encode("latin-1") + b"\n"
    return 0 if _truthy(value) else 1


COMMANDS = {"expr": expr}

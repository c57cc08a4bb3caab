"""``test`` and ``[``, and the unary and binary file/string/number tests that ``[[ ]]`` shares.
"""

from __future__ import annotations

import os
import re
import stat as stat_mod
from typing import TYPE_CHECKING

from ..errors import BashError, ExpansionError
from ..state import arith_view
from ..streams import can_access
from ._common import Builtin, Entry, encode, file_modes, print_error
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def unary_test(sh: Shell, op: str, arg: str) -> bool:
    """``-f arg``, ``-z arg``, ``-v name``...: a file, string, variable or option test."""
    if op == "-z":
        return arg == ""
    if op == "-n":
        return arg != ""
    if op == "-v":
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\Z", arg)
        if not m:
            return False
        values, _, _ = sh.expander.values(m.group(1), m.group(2))
        return values is not None and (m.group(2) not in ("@", "*") or bool(values))
    if op == "-o":
        return bool(sh.state.options.get(arg))
    if op == "-t":
        return False
    if op == "-R":
        var = sh.state.lookup(arg)
        return var is not None and "n" in var.attrs
    if arg == "":
        return False
    if arg in ("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"):
        return op in ("-e", "-a", "-c", "-r", "-w")
    host = sh.host_path(arg)
    try:
        st = fs.lstat(host) if op in ("-h", "-L") else fs.stat(host)
    except OSError:
        return False
    mode = st.st_mode
    if op in ("-e", "-a"):
        return True
    if op == "-f":
        return stat_mod.S_ISREG(mode)
    if op == "-d":
        return stat_mod.S_ISDIR(mode)
    if op in ("-h", "-L"):
        return stat_mod.S_ISLNK(mode)
    if op == "-s":
        return st.st_size > 0
    if op == "-r":
        return can_access(host, os.R_OK, file_modes(sh))
    if op == "-w":
        return can_access(host, os.W_OK, file_modes(sh))
    if op == "-x":
        return can_access(host, os.X_OK, file_modes(sh))
    if op == "-p":
        return stat_mod.S_ISFIFO(mode)
    if op == "-b":
        return stat_mod.S_ISBLK(mode)
    if op == "-c":
        return stat_mod.S_ISCHR(mode)
    if op == "-S":
        return stat_mod.S_ISSOCK(mode)
    if op == "-g":
        return bool(mode & stat_mod.S_ISGID)
    if op == "-u":
        return bool(mode & stat_mod.S_ISUID)
    if op == "-k":
        return bool(mode & stat_mod.S_ISVTX)
    if op in ("-O", "-G"):
        return True
    if op == "-N":
        return st.st_mtime > st.st_atime
    raise BashError(f"{op}: unary operator expected", 2)


class OperandError(BashError):
    """An ``[[ a -eq b ]]`` operand is not a valid arithmetic expression: the test fails
    (status 1), unlike an expansion error in its words, which abandons the command."""


def _int_operand(sh: Shell, text: str, arithmetic: bool) -> int:
    if arithmetic:
        from ..arith import evaluate

        try:
            return evaluate(text, arith_view(sh.state)) if text.strip() else 0
        except ExpansionError as exc:
            raise OperandError(exc.message, 1) from None
    stripped = text.strip()
    if re.match(r"[-+]?[0-9]+\Z", stripped) and -(2**63) <= int(stripped) < 2**63:
        return int(stripped)
    raise BashError(f"{text}: integer expression expected", 2)


def binary_test(sh: Shell, op: str, a: str, b: str, arithmetic_operands: bool = False) -> bool:
    """``a = b``, ``a -lt b``, ``a -nt b``...; ``[[ ]]`` evaluates -eq's operands as arithmetic."""
    if op in ("=", "=="):
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return encode(a) < encode(b)
    if op == ">":
        return encode(a) > encode(b)
    numeric = {"-eq": lambda x, y: x == y, "-ne": lambda x, y: x != y, "-lt": lambda x, y: x < y, "-le": lambda x, y: x <= y, "-gt": lambda x, y: x > y, "-ge": lambda x, y: x >= y}
    if op in numeric:
        return bool(numeric[op](_int_operand(sh, a, arithmetic_operands), _int_operand(sh, b, arithmetic_operands)))
    if op in ("-nt", "-ot", "-ef"):
        try:
            sa = fs.stat(sh.host_path(a))
        except OSError:
            sa = None
        try:
            sb = fs.stat(sh.host_path(b))
        except OSError:
            sb = None
        if op == "-ef":
            return sa is not None and sb is not None and (sa.st_ino, sa.st_dev) == (sb.st_ino, sb.st_dev)
        if op == "-nt":
            return sa is not None and (sb is None or sa.st_mtime > sb.st_mtime)
        return sb is not None and (sa is None or sa.st_mtime < sb.st_mtime)
    raise BashError(f"{op}: binary operator expected", 2)


_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -z -n -o -v -R".split())
_BINARY = frozenset("= == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split())


class _TestParser:
    def __init__(self, sh: Shell, args: list[str]) -> None:
        self.sh = sh
        self.args = args
        self.k = 0

    def run(self) -> bool:
        n = len(self.args)
        if n == 0:
            return False
        result = self.fixed(self.args) if n <= 4 else None
        if result is not None:
            return result
        value = self.expr_or()
        if self.k != n:
            raise BashError(f"{self.args[self.k]}: too many arguments" if self.k < n else "syntax error", 2)
        return value

    def fixed(self, a: list[str]) -> bool | None:
        n = len(a)
        if n == 1:
            return a[0] != ""
        if n == 2:
            if a[0] == "!":
                return a[1] == ""
            if a[0] in _UNARY:
                return unary_test(self.sh, a[0], a[1])
            raise BashError(f"{a[0]}: unary operator expected", 2)
        if n == 3:
            if a[1] in _BINARY:
                return binary_test(self.sh, a[1], a[0], a[2])
            if a[1] in ("-a", "-o"):
                left, right = a[0] != "", a[2] != ""
                return (left and right) if a[1] == "-a" else (left or right)
            if a[0] == "!":
                r = self.fixed(a[1:])
                return None if r is None else not r
            if a[0] == "(" and a[2] == ")":
                return a[1] != ""
            raise BashError(f"{a[1]}: binary operator expected", 2)
        if n == 4:
            if a[0] == "!":
                r = self.fixed(a[1:])
                return None if r is None else not r
            if a[0] == "(" and a[3] == ")":
                return self.fixed(a[1:3])
        return None

    def peek(self) -> str | None:
        return self.args[self.k] if self.k < len(self.args) else None

    def expr_or(self) -> bool:
        value = self.expr_and()
        while self.peek() == "-o":
            self.k += 1
            right = self.expr_and()
            value = value or right
        return value

    def expr_and(self) -> bool:
        value = self.expr_not()
        while self.peek() == "-a":
            self.k += 1
            right = self.expr_not()
            value = value and right
        return value

    def expr_not(self) -> bool:
        if self.peek() == "!":
            self.k += 1
            return not self.expr_not()
        return self.primary()

    def primary(self) -> bool:
        tok = self.peek()
        if tok is None:
            raise BashError("argument expected", 2)
        if tok == "(":
            self.k += 1
            value = self.expr_or()
            if self.peek() != ")":
                raise BashError("`)' expected", 2)
            self.k += 1
            return value
        if self.k + 2 < len(self.args) + 1 and self.k + 1 < len(self.args) and self.args[self.k + 1] in _BINARY and self.k + 2 < len(self.args):
            a, op, b = self.args[self.k : self.k + 3]
            self.k += 3
            return binary_test(self.sh, op, a, b)
        if tok in _UNARY and self.k + 1 < len(self.args):
            self.k += 2
            return unary_test(self.sh, tok, self.args[self.k - 1])
        self.k += 1
        return tok != ""


def run_test(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            print_error(io, "[: missing `]'")
            return 2
        args = args[:-1]
    try:
        return 0 if _TestParser(sh, args).run() else 1
    except BashError as exc:
        print_error(io, f"{argv[0]}: {exc.message}")
        return 2


BUILTINS: dict[str, Entry] = {
    "test": Builtin(run_test),
    "[": Builtin(run_test),
}

"""Shell builtins and the commands bound to the interpreter (echo, printf, test, cd, read,
declare, set, trap, eval, source, xargs, timeout, ...).

Builtins need the running shell, so the evaluator calls them directly: ``BUILTINS`` take
``(shell, argv, io)`` and return a status (writing to ``io``); ``GEN_BUILTINS`` run other
commands and are generators. ``COMMANDS`` wraps both in the common protocol of ``base.py``
(the shell reaches them through ``ctx.extras["shell"]``) so the registry, ``type``,
``command -v`` and ``ctx.run_command`` see them like any other command.
"""

from __future__ import annotations

import os
import re
import stat as stat_mod
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Generator, Iterator

from ..errors import (
    BashError, BreakLoop, ContinueLoop, ExitShell, LimitExceeded, ReturnFromFunction,
    ShellSyntaxError, TimeoutExpired,
)
from ..escapes import decode_echo, decode_printf_b, decode_printf_format
from ..expand import quote_for_shell
from ..state import OPTION_LETTERS, SHELL_OPTIONS, SHOPT_NAMES, Var, arith_view
from ..streams import Channel, InputStream, can_access
from .base import Command, CommandContext

if TYPE_CHECKING:
    from ..evaluate import IO, Shell

Gen = Generator[bytes, None, int]
Builtin = Callable[["Shell", list[str], "IO"], int]
GenBuiltin = Callable[["Shell", list[str], "IO"], Gen]

KEYWORD_ORDER = "if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc".split()
KEYWORDS = frozenset(KEYWORD_ORDER)
SPECIAL_BUILTINS = frozenset("break : . continue eval exec exit export readonly return set shift trap unset source".split())


def _enc(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _err(io: "IO", text: str) -> None:
    io.out(2).write(_enc(f"bash: {text}\n"))


# ============================================================================ echo / printf

def b_echo(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    newline = True
    escapes = bool(sh.state.shopts.get("xpg_echo"))
    while args and re.match(r"-[neE]+\Z", args[0]):
        for flag in args[0][1:]:
            if flag == "n":
                newline = False
            elif flag == "e":
                escapes = True
            else:
                escapes = False
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stop = decode_echo(text)
        if stop:
            io.out(1).write(_enc(text))
            return 0
        data = _enc(text)
    else:
        data = _enc(text)
    io.out(1).write(data + b"\n" if newline else data)
    return 0


_PRINTF_TIME = re.compile(r"%([-+ #0]*)([0-9]+)?(?:\.([0-9]+))?\(([^)]*)\)T")
_PRINTF_SPEC = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([hlLqjzt]*)([diouxXeEfFgGaAcsbqQ%])")


def _printf_number(arg: str, io: "IO", errors: list[bool]) -> int:
    text = arg.strip()
    if not text:
        return 0
    if text[0] in "'\"":
        return ord(text[1]) if len(text) > 1 else 0
    try:
        if re.match(r"[-+]?0[xX][0-9a-fA-F]+\Z", text):
            return int(text, 16)
        if re.match(r"[-+]?0[0-7]+\Z", text):
            return int(text, 8)
        return int(text, 10)
    except ValueError:
        m = re.match(r"[-+]?[0-9]+", text)
        _err(io, f"printf: {arg}: invalid number")
        errors.append(True)
        return int(m.group(0)) if m else 0


def _printf_float(arg: str, io: "IO", errors: list[bool]) -> Decimal | str:
    text = arg.strip()
    if not text:
        return Decimal(0)
    if text[0] in "'\"":
        return Decimal(ord(text[1])) if len(text) > 1 else Decimal(0)
    lowered = text.lower().lstrip("+")
    if lowered in ("inf", "infinity", "-inf", "-infinity", "nan", "-nan"):
        return lowered.replace("infinity", "inf")
    try:
        if re.match(r"[-+]?0[xX]", text):
            return _long_double(Fraction(int(text, 16)))
        exact = Fraction(Decimal(text))
        if exact == 0 and text.startswith("-"):
            return Decimal("-0")
        return _long_double(exact)
    except (ValueError, ArithmeticError):
        m = re.match(r"[-+]?[0-9]*\.?[0-9]+", text)
        _err(io, f"printf: {arg}: invalid number")
        errors.append(True)
        return _long_double(Fraction(Decimal(m.group(0)))) if m else Decimal(0)


def _long_double(exact: Fraction) -> Decimal:
    """``exact`` rounded to an x87 long double (64-bit mantissa), as bash's strtold does;
    returned as a Decimal precise enough that formatting rounds exactly like glibc."""
    if exact == 0:
        return Decimal(0)
    sign = -1 if exact < 0 else 1
    a = abs(exact)
    shift = a.numerator.bit_length() - a.denominator.bit_length() - 63
    while True:
        scaled = a / (Fraction(2) ** shift)
        if scaled >= 2**64:
            shift += 1
        elif scaled < 2**63:
            shift -= 1
        else:
            break
    value = Fraction(round(scaled)) * Fraction(2) ** shift * sign
    with localcontext() as ctx:
        ctx.prec = 90
        return Decimal(value.numerator) / Decimal(value.denominator)


def _fix_exponent(text: str) -> str:
    m = re.search(r"e([+-])(\d+)$", text)
    if not m:
        return text
    return text[: m.start()] + "e" + m.group(1) + m.group(2).zfill(2)


def _format_float(value: Decimal | str, flags: str, width: str | None, prec: str | None, conv: str) -> str:
    p = 6 if prec is None else int(prec or "0")
    if isinstance(value, str):
        negative = value.startswith("-")
        body = value.lstrip("-")
    else:
        negative = value < 0 or (value == 0 and value.is_signed())
        magnitude = abs(value)
        low = conv.lower()
        if low == "f":
            body = format(magnitude, f".{p}f")
            if "#" in flags and p == 0:
                body += "."
        elif low == "e" and magnitude == 0:
            body = ("0." + "0" * p if p else "0") + "e+00"
        elif low == "e":
            body = _fix_exponent(format(magnitude, f".{p}e"))
            if "#" in flags and p == 0:
                body = body.replace("e", ".e", 1)
        else:
            sig = p or 1
            probe = format(magnitude, f".{sig - 1}e")
            exponent = int(probe.split("e")[1]) if magnitude != 0 else 0
            if sig > exponent >= -4:
                body = format(magnitude, f".{sig - 1 - exponent}f")
                if "#" not in flags and "." in body:
                    body = body.rstrip("0").rstrip(".")
            else:
                mantissa, _, exp = probe.partition("e")
                if "#" not in flags and "." in mantissa:
                    mantissa = mantissa.rstrip("0").rstrip(".")
                body = _fix_exponent(mantissa + "e" + exp)
    if conv.isupper():
        body = body.upper()
    sign = "-" if negative else ("+" if "+" in flags else (" " if " " in flags else ""))
    w = int(width) if width else 0
    if "-" in flags:
        return (sign + body).ljust(w)
    if "0" in flags and body[:1].isdigit():
        return sign + body.rjust(w - len(sign), "0")
    return (sign + body).rjust(w)


def printf_format(fmt: str, args: list[str], io: "IO") -> tuple[str, bool]:
    """Format like bash's printf; returns (output, had-errors)."""
    out: list[str] = []
    errors: list[bool] = []
    fmt_text = decode_printf_format(fmt)
    pos = 0
    used = 0

    def next_time_arg() -> str | None:
        nonlocal pos, used
        if pos < len(args):
            pos += 1
            used += 1
            return args[pos - 1]
        return None

    while True:
        used = 0
        i = 0
        stop = False
        while i < len(fmt_text):
            c = fmt_text[i]
            if c != "%":
                out.append(c)
                i += 1
                continue
            tm = _PRINTF_TIME.match(fmt_text, i)
            if tm:
                i = tm.end()
                stamp = next_time_arg()
                when = datetime.now(timezone.utc) if stamp in (None, "-1", "") else datetime.fromtimestamp(int(stamp), timezone.utc)
                text = _strftime(tm.group(4), when)
                if tm.group(3):
                    text = text[: int(tm.group(3))]
                time_width = int(tm.group(2) or 0)
                out.append(text.ljust(time_width) if "-" in tm.group(1) else text.rjust(time_width))
                continue
            m = _PRINTF_SPEC.match(fmt_text, i)
            if not m:
                out.append(c)
                i += 1
                continue
            i = m.end()
            flags, width, prec, _, conv = m.groups()
            if conv == "%":
                out.append("%")
                continue

            def next_arg() -> str | None:
                nonlocal pos, used
                if pos < len(args):
                    pos += 1
                    used += 1
                    return args[pos - 1]
                return None

            if width == "*":
                w = next_arg()
                width = str(_printf_number(w or "0", io, errors))
            if prec == "*":
                p = next_arg()
                prec = str(_printf_number(p or "0", io, errors))
            arg = next_arg()
            spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
            if conv in "s":
                value = arg if arg is not None else ""
                out.append(spec.replace("0", "") % value if "0" in flags else (spec + "s") % value)
            elif conv == "b":
                value, stop = decode_printf_b(arg or "")
                out.append((spec + "s") % value)
                if stop:
                    break
            elif conv in "qQ":
                if not arg:
                    value = "''"
                elif any(ord(ch) < 32 or ord(ch) == 127 for ch in arg):
                    value = quote_for_shell(arg)
                else:
                    value = _backslash_quote(arg)
                out.append((spec + "s") % value)
            elif conv == "c":
                value = arg[:1] if arg else "\0"
                out.append((spec + "s") % value)
            elif conv in "diouxX":
                number = _printf_number(arg, io, errors) if arg is not None else 0
                if conv in "ouxX" and number < 0:
                    number &= 0xFFFFFFFFFFFFFFFF
                pyconv = "d" if conv in "iu" else conv
                if conv == "o" and "#" in flags:
                    spec = spec.replace("#", "")
                    text = (spec + "o") % number
                    out.append(text if number == 0 else _octal_alt(text))
                else:
                    out.append((spec + pyconv) % number)
            else:
                number_f = _printf_float(arg, io, errors) if arg is not None else Decimal(0)
                out.append(_format_float(number_f, flags, width, prec, conv if conv not in "aA" else "e"))
        if stop or used == 0 or pos >= len(args):
            break
    return "".join(out), bool(errors)


def _octal_alt(text: str) -> str:
    stripped = text.lstrip()
    return text[: len(text) - len(stripped)] + "0" + stripped if not stripped.startswith("0") else text


def _backslash_quote(arg: str) -> str:
    out = []
    for k, ch in enumerate(arg):
        if ch in " \t\n'\"\\$`!&|;<>()[]{}*?^," or (k == 0 and ch in "#~"):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def b_printf(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    target: str | None = None
    if args and args[0] == "-v":
        if len(args) < 2:
            _err(io, "printf: -v: option requires an argument")
            return 2
        target = args[1]
        args = args[2:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        _err(io, "printf: usage: printf [-v var] format [arguments]")
        return 2
    text, had_errors = printf_format(args[0], args[1:], io)
    if target is not None:
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\Z", target)
        if not m:
            _err(io, f"printf: `{target}': not a valid identifier")
            return 2
        if m.group(2) is not None:
            sh.state.set_element(m.group(1), m.group(2), text)
        else:
            sh.state.set(m.group(1), text)
    else:
        io.out(1).write(_enc(text))
    return 1 if had_errors else 0


# ============================================================================ test / [

def _host(sh: "Shell", path: str) -> str:
    return sh.host_path(path)


def _modes(sh: "Shell") -> dict[str, int] | None:
    """Permission bits ``chmod`` recorded during this run (see ``streams.can_access``)."""
    table = getattr(sh.state.counters, "file_modes", None)
    return table if isinstance(table, dict) else None


def unary_test(sh: "Shell", op: str, arg: str) -> bool:
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
    host = _host(sh, arg)
    try:
        st = os.lstat(host) if op in ("-h", "-L") else os.stat(host)
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
        return can_access(host, os.R_OK, _modes(sh))
    if op == "-w":
        return can_access(host, os.W_OK, _modes(sh))
    if op == "-x":
        return can_access(host, os.X_OK, _modes(sh))
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


def _int_operand(sh: "Shell", text: str, arithmetic: bool) -> int:
    if arithmetic:
        from ..arith import evaluate

        return evaluate(text, arith_view(sh.state)) if text.strip() else 0
    stripped = text.strip()
    if re.match(r"[-+]?[0-9]+\Z", stripped):
        return int(stripped)
    raise BashError(f"{text}: integer expression expected", 2)


def binary_test(sh: "Shell", op: str, a: str, b: str, arithmetic_operands: bool = False) -> bool:
    if op in ("=", "=="):
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return _enc(a) < _enc(b)
    if op == ">":
        return _enc(a) > _enc(b)
    numeric = {"-eq": lambda x, y: x == y, "-ne": lambda x, y: x != y, "-lt": lambda x, y: x < y, "-le": lambda x, y: x <= y, "-gt": lambda x, y: x > y, "-ge": lambda x, y: x >= y}
    if op in numeric:
        return bool(numeric[op](_int_operand(sh, a, arithmetic_operands), _int_operand(sh, b, arithmetic_operands)))
    if op in ("-nt", "-ot", "-ef"):
        try:
            sa = os.stat(_host(sh, a))
        except OSError:
            sa = None
        try:
            sb = os.stat(_host(sh, b))
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
    def __init__(self, sh: "Shell", args: list[str]) -> None:
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


def b_test(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            _err(io, "[: missing `]'")
            return 2
        args = args[:-1]
    try:
        return 0 if _TestParser(sh, args).run() else 1
    except BashError as exc:
        _err(io, f"{argv[0]}: {exc.message}")
        return 2


# ============================================================================ simple ones

def b_true(sh: "Shell", argv: list[str], io: "IO") -> int:
    return 0


def b_false(sh: "Shell", argv: list[str], io: "IO") -> int:
    return 1


def _set_cwd(sh: "Shell", new: str) -> None:
    st = sh.state
    old = st.get("PWD") or "/"
    st.set("OLDPWD", old)
    st.set("PWD", new)
    var = st.lookup("OLDPWD")
    if var is not None:
        var.attrs.add("x")


def b_cd(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = [a for a in argv[1:] if a not in ("-L", "-P", "-e", "-@")]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        _err(io, "cd: too many arguments")
        return 1
    print_dir = False
    if not args:
        target = sh.state.get("HOME")
        if target is None:
            _err(io, "cd: HOME not set")
            return 1
    elif args[0] == "-":
        target = sh.state.get("OLDPWD")
        if not target:
            _err(io, "cd: OLDPWD not set")
            return 1
        print_dir = True
    else:
        target = args[0]
    if target == "":
        return 0
    new = sh.resolve(target)
    host = sh.host_path(new)
    if not os.path.exists(host):
        _err(io, f"cd: {target}: No such file or directory")
        return 1
    if not os.path.isdir(host):
        _err(io, f"cd: {target}: Not a directory")
        return 1
    _set_cwd(sh, new)
    if print_dir:
        io.out(1).write(_enc(new + "\n"))
    return 0


def b_pwd(sh: "Shell", argv: list[str], io: "IO") -> int:
    io.out(1).write(_enc(sh.state.cwd + "\n"))
    return 0


def _tilde_dir(sh: "Shell", path: str) -> str:
    home = sh.state.get("HOME")
    if home and home != "/" and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def b_dirs(sh: "Shell", argv: list[str], io: "IO") -> int:
    stack = [sh.state.cwd] + list(reversed(sh.state.dirstack))
    args = argv[1:]
    if "-c" in args:
        sh.state.dirstack.clear()
        return 0
    full = "-l" in args
    shown = [d if full else _tilde_dir(sh, d) for d in stack]
    if "-v" in args:
        io.out(1).write(_enc("".join(f"{k:2d}  {d}\n" for k, d in enumerate(shown))))
    elif "-p" in args:
        io.out(1).write(_enc("".join(d + "\n" for d in shown)))
    else:
        io.out(1).write(_enc(" ".join(shown) + "\n"))
    return 0


def b_pushd(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = [a for a in argv[1:] if a != "-n"]
    st = sh.state
    if not args:
        if not st.dirstack:
            _err(io, "pushd: no other directory")
            return 1
        top = st.dirstack.pop()
        st.dirstack.append(st.cwd)
        _set_cwd(sh, top)
    elif re.match(r"[+-][0-9]+\Z", args[0]):
        stack = [st.cwd] + list(reversed(st.dirstack))
        n = int(args[0][1:])
        if n >= len(stack):
            _err(io, f"pushd: {args[0]}: directory stack index out of range")
            return 1
        k = n if args[0][0] == "+" else len(stack) - 1 - n
        rotated = stack[k:] + stack[:k]
        _set_cwd(sh, rotated[0])
        st.dirstack = list(reversed(rotated[1:]))
    else:
        new = sh.resolve(args[0])
        if not os.path.isdir(sh.host_path(new)):
            _err(io, f"pushd: {args[0]}: No such file or directory")
            return 1
        st.dirstack.append(st.cwd)
        _set_cwd(sh, new)
    return b_dirs(sh, ["dirs"], io)


def b_popd(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    args = [a for a in argv[1:] if a != "-n"]
    if not st.dirstack:
        _err(io, "popd: directory stack empty")
        return 1
    if args and re.match(r"[+-][0-9]+\Z", args[0]):
        stack = [st.cwd] + list(reversed(st.dirstack))
        n = int(args[0][1:])
        k = n if args[0][0] == "+" else len(stack) - 1 - n
        if not 0 <= k < len(stack):
            _err(io, f"popd: {args[0]}: directory stack index out of range")
            return 1
        del stack[k]
        if k == 0:
            _set_cwd(sh, stack[0])
        st.dirstack = list(reversed(stack[1:]))
    else:
        top = st.dirstack.pop()
        _set_cwd(sh, top)
    return b_dirs(sh, ["dirs"], io)


def b_exit(sh: "Shell", argv: list[str], io: "IO") -> int:
    if len(argv) > 1:
        try:
            status = int(argv[1]) & 0xFF
        except ValueError:
            _err(io, f"exit: {argv[1]}: numeric argument required")
            status = 2
    else:
        status = sh.state.last_status
    raise ExitShell(status)


def b_return(sh: "Shell", argv: list[str], io: "IO") -> int:
    if sh.state.call_depth == 0 and not getattr(sh.state, "sourcing", 0):
        _err(io, "return: can only `return' from a function or sourced script")
        return 2
    if len(argv) > 1:
        try:
            status = int(argv[1]) & 0xFF
        except ValueError:
            _err(io, f"return: {argv[1]}: numeric argument required")
            status = 2
    else:
        status = sh.state.last_status
    raise ReturnFromFunction(status)


def _loop_levels(sh: "Shell", argv: list[str], io: "IO") -> int | None:
    levels = 1
    if len(argv) > 1:
        try:
            levels = int(argv[1])
        except ValueError:
            _err(io, f"{argv[0]}: {argv[1]}: numeric argument required")
            raise ExitShell(128) from None
        if levels < 1:
            _err(io, f"{argv[0]}: {argv[1]}: loop count out of range")
            return None
    if sh.state.loop_depth == 0:
        _err(io, f"{argv[0]}: only meaningful in a `for', `while', or `until' loop")
        return None
    return min(levels, sh.state.loop_depth)


def b_break(sh: "Shell", argv: list[str], io: "IO") -> int:
    levels = _loop_levels(sh, argv, io)
    if levels is None:
        return 0 if sh.state.loop_depth == 0 else 1
    sh.state.pipestatus = [0]
    raise BreakLoop(levels)


def b_continue(sh: "Shell", argv: list[str], io: "IO") -> int:
    levels = _loop_levels(sh, argv, io)
    if levels is None:
        return 0 if sh.state.loop_depth == 0 else 1
    sh.state.pipestatus = [0]
    raise ContinueLoop(levels)


def b_shift(sh: "Shell", argv: list[str], io: "IO") -> int:
    n = 1
    if len(argv) > 1:
        try:
            n = int(argv[1])
        except ValueError:
            _err(io, f"shift: {argv[1]}: numeric argument required")
            return 1
    if n < 0:
        _err(io, f"shift: {argv[1]}: shift count out of range")
        return 1
    if n > len(sh.state.positional):
        return 1
    sh.state.positional = sh.state.positional[n:]
    return 0


def b_let(sh: "Shell", argv: list[str], io: "IO") -> int:
    if len(argv) < 2:
        _err(io, "let: expression expected")
        return 1
    from ..arith import evaluate

    value = 0
    for expr in argv[1:]:
        try:
            value = evaluate(expr, arith_view(sh.state))
        except BashError as exc:
            _err(io, f"let: {exc.message}")
            return 1
    return 0 if value else 1


def b_hostname(sh: "Shell", argv: list[str], io: "IO") -> int:
    io.out(1).write(b"sandbox\n")
    return 0


def b_whoami(sh: "Shell", argv: list[str], io: "IO") -> int:
    io.out(1).write(_enc((sh.state.get("USER") or "user") + "\n"))
    return 0


def b_wait(sh: "Shell", argv: list[str], io: "IO") -> int:
    return 0


def b_noop(sh: "Shell", argv: list[str], io: "IO") -> int:
    return 0


def b_ulimit(sh: "Shell", argv: list[str], io: "IO") -> int:
    """Resource limits are the sandbox's (BashLimits); queries report "unlimited"."""
    args = [a for a in argv[1:] if a.startswith("-")]
    values = [a for a in argv[1:] if not a.startswith("-")]
    if not values:
        io.out(1).write(b"unlimited\n" if "-a" not in args else b"")
    return 0


def b_umask(sh: "Shell", argv: list[str], io: "IO") -> int:
    if len(argv) == 1:
        io.out(1).write(b"0022\n")
    return 0


def b_sleep(sh: "Shell", argv: list[str], io: "IO") -> int:
    if len(argv) < 2:
        io.out(2).write(b"sleep: missing operand\n")
        return 1
    total = 0.0
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    for arg in argv[1:]:
        m = re.match(r"([0-9]*\.?[0-9]+)([smhd]?)\Z", arg)
        if not m:
            io.out(2).write(_enc(f"sleep: invalid time interval '{arg}'\n"))
            return 1
        total += float(m.group(1)) * units[m.group(2) or "s"]
    deadline = sh.state.counters.deadline
    remaining = deadline - time.monotonic()
    if total > remaining:
        time.sleep(max(0.0, remaining))
        raise TimeoutExpired(f"script timed out after {sh.limits.timeout_ms} ms")
    time.sleep(total)
    return 0


# ============================================================================ date

_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def _strftime(fmt: str, dt: datetime) -> str:
    out: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%" or i + 1 >= len(fmt):
            out.append(c)
            i += 1
            continue
        i += 1
        pad = None
        if fmt[i] in "-_0^#":
            pad = fmt[i]
            i += 1
        d = fmt[i]
        i += 1
        table = {
            "Y": f"{dt.year}", "m": f"{dt.month:02d}", "d": f"{dt.day:02d}", "H": f"{dt.hour:02d}",
            "M": f"{dt.minute:02d}", "S": f"{dt.second:02d}", "y": f"{dt.year % 100:02d}",
            "e": f"{dt.day:2d}", "j": f"{dt.timetuple().tm_yday:03d}", "a": _WEEKDAYS[dt.weekday()][:3],
            "A": _WEEKDAYS[dt.weekday()], "b": _MONTHS[dt.month - 1][:3], "h": _MONTHS[dt.month - 1][:3],
            "B": _MONTHS[dt.month - 1], "p": "AM" if dt.hour < 12 else "PM", "Z": "UTC", "z": "+0000",
            "s": str(int(dt.timestamp())), "N": f"{dt.microsecond * 1000:09d}", "n": "\n", "t": "\t", "%": "%",
            "u": str(dt.isoweekday()), "w": str(dt.isoweekday() % 7), "I": f"{(dt.hour % 12) or 12:02d}",
            "l": f"{(dt.hour % 12) or 12:2d}", "k": f"{dt.hour:2d}", "C": f"{dt.year // 100:02d}",
            "D": f"{dt.month:02d}/{dt.day:02d}/{dt.year % 100:02d}", "F": f"{dt.year}-{dt.month:02d}-{dt.day:02d}",
            "T": f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}", "R": f"{dt.hour:02d}:{dt.minute:02d}",
            "r": f"{(dt.hour % 12) or 12:02d}:{dt.minute:02d}:{dt.second:02d} {'AM' if dt.hour < 12 else 'PM'}",
            "c": f"{_WEEKDAYS[dt.weekday()][:3]} {_MONTHS[dt.month - 1][:3]} {dt.day:2d} {dt.hour:02d}:{dt.minute:02d}:{dt.second:02d} {dt.year}",
            "x": f"{dt.month:02d}/{dt.day:02d}/{dt.year % 100:02d}", "X": f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}",
            "V": f"{dt.isocalendar()[1]:02d}", "G": str(dt.isocalendar()[0]), "U": dt.strftime("%U"), "W": dt.strftime("%W"),
            "P": "am" if dt.hour < 12 else "pm",
        }
        value = table.get(d)
        if value is None:
            out.append("%" + (pad or "") + d)
            continue
        if pad == "-":
            value = value.lstrip("0 ") or "0"
        elif pad == "_":
            stripped = value.lstrip("0")
            value = stripped.rjust(len(value)) if stripped else "0".rjust(len(value))
        elif pad == "^":
            value = value.upper()
        out.append(value)
    return "".join(out)


def _parse_date(text: str, now: datetime) -> datetime | None:
    text = text.strip()
    if text.startswith("@"):
        try:
            return datetime.fromtimestamp(float(text[1:]), timezone.utc)
        except ValueError:
            return None
    lowered = text.lower()
    if lowered in ("now", "today", ""):
        return now
    if lowered == "yesterday":
        return now - timedelta(days=1)
    if lowered == "tomorrow":
        return now + timedelta(days=1)
    m = re.match(r"([+-]?\d+)\s*(second|sec|minute|min|hour|day|week|month|year)s?(\s+ago)?\Z", lowered)
    if m:
        n = int(m.group(1)) * (-1 if m.group(3) else 1)
        unit = m.group(2)
        seconds = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "day": 86400, "week": 604800}
        if unit in seconds:
            return now + timedelta(seconds=n * seconds[unit])
        if unit == "month":
            month = now.month - 1 + n
            return now.replace(year=now.year + month // 12, month=month % 12 + 1)
        return now.replace(year=now.year + n)
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y/%m/%d", "%Y-%m-%dT%H:%M:%SZ"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def b_date(sh: "Shell", argv: list[str], io: "IO") -> int:
    now = datetime.now(timezone.utc)
    fmt = "%a %b %e %H:%M:%S %Z %Y"
    args = argv[1:]
    k = 0
    while k < len(args):
        a = args[k]
        if a.startswith("+"):
            fmt = a[1:]
        elif a in ("-u", "--utc", "--universal"):
            pass
        elif a in ("-d", "--date") and k + 1 < len(args):
            k += 1
            parsed = _parse_date(args[k], now)
            if parsed is None:
                io.out(2).write(_enc(f"date: invalid date '{args[k]}'\n"))
                return 1
            now = parsed
        elif a.startswith("--date="):
            parsed = _parse_date(a[7:], now)
            if parsed is None:
                io.out(2).write(_enc(f"date: invalid date '{a[7:]}'\n"))
                return 1
            now = parsed
        elif a in ("-I", "--iso-8601", "-Idate"):
            fmt = "%Y-%m-%d"
        elif a in ("-Iseconds", "--iso-8601=seconds"):
            fmt = "%Y-%m-%dT%H:%M:%S+00:00"
        elif a in ("-R", "--rfc-email"):
            fmt = "%a, %d %b %Y %H:%M:%S +0000"
        elif a == "-r" and k + 1 < len(args):
            k += 1
            try:
                now = datetime.fromtimestamp(os.stat(sh.host_path(args[k])).st_mtime, timezone.utc)
            except OSError:
                io.out(2).write(_enc(f"date: {args[k]}: No such file or directory\n"))
                return 1
        else:
            io.out(2).write(_enc(f"date: invalid option -- '{a}'\n"))
            return 1
        k += 1
    io.out(1).write(_enc(_strftime(fmt, now) + "\n"))
    return 0


# ============================================================================ variables

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _dq(value: str) -> str:
    return '"' + re.sub(r'(["\\$`])', r"\\\1", value) + '"'


def _declare_line(name: str, var: Var) -> str:
    flags = ""
    if var.array is not None:
        flags += "a"
    if var.assoc is not None:
        flags += "A"
    for f in "ilnrtux":
        if f in var.attrs:
            flags += f
    flag_text = "-" + flags if flags else "--"
    if "unassigned" in var.attrs and not var.array and not var.assoc:
        return f"declare {flag_text} {name}"
    if var.array is not None:
        body = " ".join(f"[{k}]={_dq(v)}" for k, v in sorted(var.array.items()))
        return f"declare {flag_text} {name}=({body})"
    if var.assoc is not None:
        body = "".join(f"[{_assoc_key(k)}]={_dq(var.assoc[k])} " for k in var.keys())
        return f"declare {flag_text} {name}=({body})"
    if var.value is None:
        return f"declare {flag_text} {name}"
    return f"declare {flag_text} {name}={_dq(var.value)}"


def _assoc_key(key: str) -> str:
    if re.match(r"[A-Za-z0-9_./-]+\Z", key):
        return key
    return _dq(key)


def _print_function(sh: "Shell", name: str) -> str:
    from ..unparse import function_text

    return function_text(sh.state.functions[name])


def b_declare(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    cmd = argv[0]
    args = argv[1:]
    set_flags: set[str] = set()
    unset_flags: set[str] = set()
    print_mode = False
    funcs = False
    func_names = False
    global_scope = cmd in ("readonly", "export")
    if cmd == "readonly":
        set_flags.add("r")
    if cmd == "export":
        set_flags.add("x")
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            k += 1
            break
        if len(a) > 1 and a[0] in "-+" and re.match(r"[-+][aAfFgilnprtuxw]+\Z", a):
            for f in a[1:]:
                if f == "p":
                    print_mode = True
                elif f == "f":
                    funcs = True
                elif f == "F":
                    funcs = func_names = True
                elif f == "g":
                    global_scope = True
                elif cmd == "export" and f == "n":
                    unset_flags.add("x")
                elif a[0] == "-":
                    set_flags.add(f)
                else:
                    unset_flags.add(f)
            k += 1
            continue
        break
    names = args[k:]
    decl_arrays: dict[int, list[str]] = {}
    ctx_arrays = getattr(sh, "_decl_arrays", None)
    if isinstance(ctx_arrays, dict):
        decl_arrays = ctx_arrays
    if cmd == "local" and st.call_depth == 0:
        _err(io, "local: can only be used in a function")
        return 1
    if funcs:
        selected = names or sorted(st.functions)
        status = 0
        for name in selected:
            if name not in st.functions:
                status = 1
                continue
            if func_names:
                io.out(1).write(_enc(f"declare -f {name}\n" if print_mode or not names else f"{name}\n"))
            else:
                io.out(1).write(_enc(_print_function(sh, name) + "\n"))
        return status
    if not names:
        if print_mode or cmd in ("declare", "typeset", "readonly", "export", "local"):
            for name in st.all_names():
                var = st.lookup(name)
                if var is None:
                    continue
                if set_flags - {"g"} and not all((f in var.attrs) or (f == "a" and var.array is not None) or (f == "A" and var.assoc is not None) for f in set_flags - {"g"}):
                    continue
                if cmd == "local" and name not in st.scopes[-1]:
                    continue
                line = _declare_line(name, var)
                if not print_mode and cmd in ("declare", "typeset") and not set_flags:
                    line = _set_line(name, var)
                io.out(1).write(_enc(line + "\n"))
        return 0
    status = 0
    arg_base = len(argv) - len(names)
    for offset, item in enumerate(names):
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?=)?", item)
        if not m or (m.end() != len(item) and not m.group(3)):
            _err(io, f"{cmd}: `{item}': not a valid identifier")
            status = 1
            continue
        name = m.group(1)
        index = m.group(2)[1:-1] if m.group(2) else None
        op = m.group(3)
        value = item[m.end() :] if op else None
        if print_mode:
            var = st.lookup(name)
            if var is None:
                _err(io, f"declare: {name}: not found")
                status = 1
            else:
                io.out(1).write(_enc(_declare_line(name, var) + "\n"))
            continue
        # choose the scope: functions create locals unless -g (export/readonly write through)
        if st.call_depth > 0 and not global_scope and cmd in ("declare", "typeset", "local"):
            scope = st.scopes[-1]
            if st.scopes[-1] is not None and name not in scope:
                existing = st.lookup(name)
                var = Var()
                if existing is not None and cmd == "local" and False:
                    var = existing.copy()
                scope[name] = var
        elif global_scope and cmd in ("declare", "typeset"):
            if name not in st.scopes[0]:
                st.scopes[0][name] = Var()
        var = st.lookup(name) if not (global_scope and cmd in ("declare", "typeset")) else st.scopes[0].get(name)
        if var is None:
            var = Var()
            st.scope_for_write(name)[name] = var
        if "r" in var.attrs and (op or (set_flags - {"r", "x"}) or unset_flags):
            _err(io, f"{cmd}: {name}: readonly variable")
            status = 1
            continue
        if "a" in set_flags and var.array is None and var.assoc is None:
            if var.value is None and not op:
                var.attrs.add("unassigned")
            var.array = {} if var.value is None else {0: var.value}
            var.value = None
        if "A" in set_flags and var.assoc is None:
            if var.array is not None and var.array:
                _err(io, f"{cmd}: {name}: cannot convert indexed to associative array")
                status = 1
                continue
            if not op:
                var.attrs.add("unassigned")
            var.assoc = {}
            var.array = None
            var.value = None
        for f in set_flags:
            if f in "ilnrtux":
                if f == "l":
                    var.attrs.discard("u")
                if f == "u":
                    var.attrs.discard("l")
                if f != "r" or op is None:
                    var.attrs.add(f)
        for f in unset_flags:
            var.attrs.discard(f)
        if op:
            arg_index = arg_base + offset
            try:
                if arg_index in decl_arrays:
                    from ..parse import Assign

                    sh._assign(Assign(name, None, None, decl_arrays[arg_index], op == "+="), io)
                else:
                    from ..parse import Assign

                    if index is not None:
                        if var.assoc is None and var.array is None:
                            var.array = {} if var.value is None else {0: var.value}
                            var.value = None
                        st.set_element(name, sh.expander.string(index) if var.assoc is not None else index, value or "")
                    elif op == "+=":
                        if var.array is not None:
                            st.set_element(name, "0", (var.array.get(0) or "") + (value or ""))
                        else:
                            st.set(name, (var.value or "") + (value or "") if "i" not in var.attrs else str(int(var.value or "0") + int(value or "0")))
                    else:
                        st.set(name, value or "")
            except BashError as exc:
                _err(io, f"{cmd}: {exc.message}")
                status = 1
                continue
            if "r" in set_flags:
                var.attrs.add("r")
        elif cmd == "export" and "x" in set_flags and var.value is None and var.array is None:
            pass
    return status


def _set_line(name: str, var: Var) -> str:
    if var.array is not None:
        body = " ".join(f"[{k}]={_dq(v)}" for k, v in sorted(var.array.items()))
        return f"{name}=({body})"
    if var.assoc is not None:
        body = "".join(f"[{_assoc_key(k)}]={_dq(var.assoc[k])} " for k in var.keys())
        return f"{name}=({body})"
    value = var.value or ""
    if re.match(r"[A-Za-z0-9_./:=,%+@^-]*\Z", value) and value:
        return f"{name}={value}"
    return f"{name}={quote_for_shell(value)}"


def b_export(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    if args and args[0] in ("-f", "-fn", "-nf"):
        status = 0
        for name in args[1:]:
            if name not in sh.state.functions:
                _err(io, f"export: {name}: not a function")
                status = 1
            elif "n" in args[0]:
                sh.state.exported_functions.discard(name)
            else:
                sh.state.exported_functions.add(name)
        return status
    if not args or args == ["-p"]:
        for name, value in sorted(sh.state.exported().items()):
            io.out(1).write(_enc(f"declare -x {name}={_dq(value)}\n"))
        return 0
    return b_declare(sh, argv, io)


def b_readonly(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    if not args or args == ["-p"]:
        for name in sh.state.all_names():
            var = sh.state.lookup(name)
            if var is not None and "r" in var.attrs:
                io.out(1).write(_enc(_declare_line(name, var) + "\n"))
        return 0
    return b_declare(sh, argv, io)


def b_unset(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    mode = "v"
    status = 0
    for a in argv[1:]:
        if a in ("-v", "-f", "-n"):
            mode = a[1]
            continue
        if mode == "f":
            st.functions.pop(a, None)
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\Z", a, re.S)
        if not m:
            _err(io, f"unset: `{a}': not a valid identifier")
            status = 1
            continue
        name, index = m.group(1), m.group(2)
        try:
            if index is None:
                var = st.lookup(name)
                if var is None and name in st.functions:
                    st.functions.pop(name)
                    continue
                if mode == "n" and var is not None:
                    for scope in reversed(st.scopes):
                        if name in scope:
                            del scope[name]
                            break
                    continue
                st.unset(name)
            else:
                var = st.lookup(st.resolve_nameref(name))
                if var is None:
                    continue
                if "r" in var.attrs:
                    raise BashError(f"unset: {name}: cannot unset: readonly variable")
                if index in ("@", "*"):
                    st.unset(name)
                elif var.assoc is not None:
                    var.assoc.pop(sh.expander.string(index), None)
                elif var.array is not None:
                    var.array.pop(st.array_index(name, index, var), None)
                elif st.array_index(name, index, var) == 0:
                    st.unset(name)
        except BashError as exc:
            _err(io, exc.message)
            status = 1
    return status


# ============================================================================ read / mapfile

def _read_fd(sh: "Shell", io: "IO", fd_text: str | None) -> InputStream:
    if fd_text is None:
        return io.stdin()
    if not fd_text.isdigit():
        raise BashError(f"{fd_text}: invalid file descriptor specification")
    fd = io.fds.get(int(fd_text))
    return fd if isinstance(fd, InputStream) else InputStream.empty()


def b_read(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    raw = False
    array: str | None = None
    delim = "\n"
    nchars: int | None = None
    exact = False
    prompt = ""
    fd_text: str | None = None
    k = 0
    try:
        while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
            a = args[k]
            if a == "--":
                k += 1
                break
            j = 1
            while j < len(a):
                f = a[j]
                if f in "adnNptu":
                    value = a[j + 1 :] if j + 1 < len(a) else args[k + 1]
                    if j + 1 >= len(a):
                        k += 1
                    if f == "a":
                        array = value
                    elif f == "d":
                        delim = value[:1] if value else "\0"
                    elif f in "nN":
                        nchars = int(value)
                        exact = f == "N"
                    elif f == "p":
                        prompt = value
                    elif f == "u":
                        fd_text = value
                    break
                if f == "r":
                    raw = True
                elif f in "se":
                    pass
                else:
                    _err(io, f"read: -{f}: invalid option")
                    return 2
                j += 1
            k += 1
    except (IndexError, ValueError):
        _err(io, "read: option requires an argument")
        return 2
    names = args[k:]
    if prompt:
        io.out(2).write(_enc(prompt))
    stream = _read_fd(sh, io, fd_text)
    delim_b = delim.encode("utf-8", "surrogateescape") if delim != "\0" else b"\0"
    chars: list[tuple[str, bool]] = []
    eof = False
    # read byte-exactly so the rest of the input stays for the next command
    while True:
        if nchars is not None and len(chars) >= nchars:
            break
        data, hit_end = stream.read_until(None if exact else delim_b, 1 if nchars is not None else None)
        if nchars is None:
            text = data.decode("utf-8", "surrogateescape")
            ended_with_delim = text.endswith(delim) and not hit_end
            if ended_with_delim:
                text = text[: -len(delim)]
            if raw:
                chars.extend((c, False) for c in text)
            else:
                i = 0
                continued = False
                while i < len(text):
                    c = text[i]
                    if c == "\\" and i + 1 < len(text):
                        chars.append((text[i + 1], True))
                        i += 2
                        continue
                    if c == "\\" and i + 1 == len(text):
                        if ended_with_delim and delim == "\n":
                            continued = True
                        i += 1
                        continue
                    chars.append((c, False))
                    i += 1
                if continued:
                    continue
            eof = hit_end
            break
        if not data:
            eof = True
            break
        c = data.decode("utf-8", "surrogateescape")
        if not exact and c == delim:
            break
        if not raw and c == "\\":
            nxt, end2 = stream.read_until(None, 1)
            if not nxt:
                eof = True
                break
            c2 = nxt.decode("utf-8", "surrogateescape")
            if c2 == "\n":
                continue
            chars.append((c2, True))
            continue
        chars.append((c, False))
    st = sh.state
    ifs = st.get("IFS")
    if ifs is None:
        ifs = " \t\n"
    line = "".join(c for c, _ in chars)
    if array is not None:
        fields = _split_read(chars, ifs, None)
        try:
            st.set_array(array, fields)
        except BashError as exc:
            _err(io, f"read: {exc.message}")
            return 1
        return 1 if eof and not chars else (1 if eof else 0)
    if not names:
        st.set("REPLY", line)
        return 1 if eof else 0
    fields = _split_read(chars, ifs, len(names))
    try:
        for idx, name in enumerate(names):
            if not _IDENT.match(name):
                _err(io, f"read: `{name}': not a valid identifier")
                return 1
            st.set(name, fields[idx] if idx < len(fields) else "")
    except BashError as exc:
        _err(io, f"read: {exc.message}")
        return 1
    return 1 if eof else 0


def _split_read(chars: list[tuple[str, bool]], ifs: str, count: int | None) -> list[str]:
    ws = set(c for c in ifs if c in " \t\n")
    delims = set(ifs)
    n = len(chars)
    i = 0
    while i < n and not chars[i][1] and chars[i][0] in ws:
        i += 1
    fields: list[str] = []
    while i < n:
        if count is not None and len(fields) == count - 1:
            end = n
            while end > i and not chars[end - 1][1] and chars[end - 1][0] in ws:
                end -= 1
            # a lone field followed by one delimiter loses that delimiter ("x:y:" -> "y")
            if end > i and not chars[end - 1][1] and chars[end - 1][0] in delims:
                cut = end - 1
                while cut > i and not chars[cut - 1][1] and chars[cut - 1][0] in ws:
                    cut -= 1
                if not any(not esc and c in delims for c, esc in chars[i:cut]):
                    end = cut
            fields.append("".join(c for c, _ in chars[i:end]))
            return fields
        buf: list[str] = []
        while i < n and (chars[i][1] or chars[i][0] not in delims):
            buf.append(chars[i][0])
            i += 1
        fields.append("".join(buf))
        if i >= n:
            break
        # consume one delimiter: surrounding IFS whitespace plus at most one non-whitespace
        while i < n and not chars[i][1] and chars[i][0] in ws:
            i += 1
        if i < n and not chars[i][1] and chars[i][0] in delims and chars[i][0] not in ws:
            i += 1
            while i < n and not chars[i][1] and chars[i][0] in ws:
                i += 1
    return fields


def b_mapfile(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    strip = False
    delim = "\n"
    count = 0
    skip = 0
    origin: int | None = None
    fd_text: str | None = None
    k = 0
    try:
        while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
            a = args[k]
            f = a[1]
            value = None
            if f in "dnsOuCc":
                value = a[2:] if len(a) > 2 else args[k + 1]
                if len(a) <= 2:
                    k += 1
            if f == "t":
                strip = True
            elif f == "d":
                delim = value[:1] if value else "\0"
            elif f == "n":
                count = int(value or "0")
            elif f == "s":
                skip = int(value or "0")
            elif f == "O":
                origin = int(value or "0")
            elif f == "u":
                fd_text = value
            k += 1
    except (IndexError, ValueError):
        _err(io, f"{argv[0]}: option requires an argument")
        return 2
    name = args[k] if k < len(args) else "MAPFILE"
    stream = _read_fd(sh, io, fd_text)
    delim_b = delim.encode() if delim != "\0" else b"\0"
    lines: list[str] = []
    seen = 0
    while True:
        if count and len(lines) >= count:
            break
        data, hit_end = stream.read_until(delim_b)
        if not data:
            break
        sh.state.counters.check_time()
        seen += 1
        if seen <= skip:
            continue
        text = data.decode("utf-8", "surrogateescape")
        if strip and text.endswith(delim):
            text = text[: -len(delim)]
        lines.append(text)
        if hit_end:
            break
    st = sh.state
    try:
        if origin is None:
            st.set_array(name, lines)
        else:
            for j, line in enumerate(lines):
                st.set_element(name, str(origin + j), line)
    except BashError as exc:
        _err(io, f"{argv[0]}: {exc.message}")
        return 1
    return 0


# ============================================================================ getopts

def b_getopts(sh: "Shell", argv: list[str], io: "IO") -> int:
    if len(argv) < 3:
        _err(io, "getopts: usage: getopts optstring name [arg ...]")
        return 2
    optstring, name = argv[1], argv[2]
    args = argv[3:] if len(argv) > 3 else list(sh.state.positional)
    st = sh.state
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    try:
        optind = int(st.get("OPTIND") or "1")
    except ValueError:
        optind = 1
    pos = getattr(st, "getopts_pos", 1)
    if getattr(st, "getopts_last_optind", None) != optind:
        pos = 1
    if optind < 1:
        optind = 1

    def finish(ind: int, p: int) -> None:
        st.set("OPTIND", str(ind))
        st.getopts_pos = p  # type: ignore[attr-defined]
        st.getopts_last_optind = ind  # type: ignore[attr-defined]

    if optind > len(args):
        st.set(name, "?")
        st.unset("OPTARG")
        finish(optind, 1)
        return 1
    arg = args[optind - 1]
    if pos == 1:
        if arg == "--":
            st.set(name, "?")
            finish(optind + 1, 1)
            return 1
        if not arg.startswith("-") or arg == "-":
            st.set(name, "?")
            finish(optind, 1)
            return 1
    opt = arg[pos]
    next_pos = pos + 1
    at_end = next_pos >= len(arg)
    k = optstring.find(opt)
    if k < 0 or opt == ":":
        if silent:
            st.set("OPTARG", opt)
        else:
            st.unset("OPTARG")
            io.out(2).write(_enc(f"{st.script_name}: illegal option -- {opt}\n"))
        st.set(name, "?")
        finish(optind + 1 if at_end else optind, 1 if at_end else next_pos)
        return 0
    if k + 1 < len(optstring) and optstring[k + 1] == ":":
        if not at_end:
            st.set("OPTARG", arg[next_pos:])
            finish(optind + 1, 1)
        elif optind < len(args):
            st.set("OPTARG", args[optind])
            finish(optind + 2, 1)
        else:
            if silent:
                st.set(name, ":")
                st.set("OPTARG", opt)
            else:
                st.set(name, "?")
                st.unset("OPTARG")
                io.out(2).write(_enc(f"{st.script_name}: option requires an argument -- {opt}\n"))
            finish(optind + 1, 1)
            return 0
        st.set(name, opt)
        return 0
    st.unset("OPTARG")
    st.set(name, opt)
    finish(optind + 1 if at_end else optind, 1 if at_end else next_pos)
    return 0


# ============================================================================ set / shopt

def b_set(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    args = argv[1:]
    if not args:
        for name in st.all_names():
            var = st.lookup(name)
            if var is not None and var.is_set:
                io.out(1).write(_enc(_set_line(name, var) + "\n"))
        return 0
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            st.positional = args[k + 1 :]
            return 0
        if a in ("-", "+"):
            st.options["xtrace"] = False
            st.options["verbose"] = False
            k += 1
            if k < len(args) or a == "-":
                st.positional = args[k:]
            return 0
        if a[0] in "-+" and len(a) > 1:
            on = a[0] == "-"
            for f in a[1:]:
                if f == "o":
                    k += 1
                    if k >= len(args):
                        for opt in SHELL_OPTIONS:
                            if on:
                                io.out(1).write(_enc(f"{opt:<15}\t{'on' if st.options.get(opt) else 'off'}\n"))
                            else:
                                io.out(1).write(_enc(f"set {'-' if st.options.get(opt) else '+'}o {opt}\n"))
                        return 0
                    opt = args[k]
                    if opt not in SHELL_OPTIONS:
                        _err(io, f"set: {opt}: invalid option name")
                        return 1
                    st.options[opt] = on
                elif f in OPTION_LETTERS:
                    st.options[OPTION_LETTERS[f]] = on
                else:
                    _err(io, f"set: {a[0]}{f}: invalid option")
                    return 2
            k += 1
            continue
        st.positional = args[k:]
        return 0
    return 0


def b_shopt(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    args = argv[1:]
    mode: str | None = None
    quiet = False
    use_o = False
    printable = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for f in args[0][1:]:
            if f in "su":
                mode = f
            elif f == "q":
                quiet = True
            elif f == "o":
                use_o = True
            elif f == "p":
                printable = True
        args = args[1:]
    table = st.options if use_o else st.shopts
    valid = SHELL_OPTIONS if use_o else SHOPT_NAMES
    status = 0
    if mode is None:
        names = args or list(valid)
        for name in names:
            if name not in valid:
                _err(io, f"shopt: {name}: invalid shell option name")
                status = 1
                continue
            on = bool(table.get(name))
            if not on and args:
                status = 1
            if quiet:
                continue
            if printable:
                io.out(1).write(_enc(f"shopt {'-s' if on else '-u'} {name}\n"))
            else:
                io.out(1).write(_enc(f"{name:<15}\t{'on' if on else 'off'}\n"))
        return status
    if not args:
        for name in valid:
            on = bool(table.get(name))
            if on == (mode == "s") and not quiet:
                io.out(1).write(_enc(f"{name:<15}\t{'on' if on else 'off'}\n"))
        return 0
    for name in args:
        if name not in valid:
            _err(io, f"shopt: {name}: invalid shell option name")
            status = 1
            continue
        table[name] = mode == "s"
    return status


# ============================================================================ trap / alias

_SIGNALS = {"EXIT": "EXIT", "0": "EXIT", "ERR": "ERR", "DEBUG": "DEBUG", "RETURN": "RETURN"}
_SIGNAL_NUMBERS = {"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "CHLD": 17}


def _signal_name(text: str) -> str | None:
    upper = text.upper()
    if upper in _SIGNALS:
        return _SIGNALS[upper]
    if upper.startswith("SIG"):
        upper = upper[3:]
    if upper in _SIGNAL_NUMBERS:
        return "SIG" + upper
    for name, number in _SIGNAL_NUMBERS.items():
        if text == str(number):
            return "SIG" + name
    return None


def b_trap(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or args == ["-p"]:
        for trapped, trap_action in st.traps.items():
            io.out(1).write(_enc(f"trap -- {quote_for_shell(trap_action)} {trapped}\n"))
        return 0
    if args[0] == "-l":
        io.out(1).write(_enc(" ".join(f"{n}) SIG{s}" for s, n in _SIGNAL_NUMBERS.items()) + "\n"))
        return 0
    if args[0] == "-p":
        for a in args[1:]:
            sig = _signal_name(a)
            if sig in st.traps:
                io.out(1).write(_enc(f"trap -- {quote_for_shell(st.traps[sig])} {sig}\n"))
        return 0
    if len(args) == 1:
        action, signals = "-", args
    else:
        action, signals = args[0], args[1:]
    status = 0
    for s in signals:
        sig = _signal_name(s)
        if sig is None:
            _err(io, f"trap: {s}: invalid signal specification")
            status = 1
            continue
        if action == "-":
            st.traps.pop(sig, None)
        else:
            st.traps[sig] = action
    return status


def b_alias(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        for name in sorted(st.aliases):
            io.out(1).write(_enc(f"alias {name}={quote_for_shell(st.aliases[name])}\n"))
        return 0
    status = 0
    for a in args:
        if "=" in a:
            name, _, value = a.partition("=")
            st.aliases[name] = value
        elif a in st.aliases:
            io.out(1).write(_enc(f"alias {a}={quote_for_shell(st.aliases[a])}\n"))
        else:
            _err(io, f"alias: {a}: not found")
            status = 1
    return status


def b_unalias(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    status = 0
    for a in argv[1:]:
        if a == "-a":
            st.aliases.clear()
        elif a in st.aliases:
            del st.aliases[a]
        else:
            _err(io, f"unalias: {a}: not found")
            status = 1
    return status


# ============================================================================ type / which / command

def _kind(sh: "Shell", name: str) -> str | None:
    if name in sh.state.aliases and sh.state.shopts.get("expand_aliases"):
        return "alias"
    if name in KEYWORDS:
        return "keyword"
    if name in sh.state.functions:
        return "function"
    if name in BUILTIN_NAMES:
        return "builtin"
    from . import COMMANDS

    if name in COMMANDS:
        return "file"
    if "/" in name and can_access(sh.host_path(name), os.X_OK, _modes(sh)) and os.path.isfile(sh.host_path(name)):
        return "file"
    return None


def _command_path(name: str) -> str:
    return name if "/" in name else f"/usr/bin/{name}"


def b_type(sh: "Shell", argv: list[str], io: "IO") -> int:
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flags += args[0][1:]
        args = args[1:]
    status = 0
    for name in args:
        kind = _kind(sh, name)
        if kind is None:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                _err(io, f"type: {name}: not found")
            status = 1
            continue
        if "t" in flags:
            io.out(1).write(_enc(kind + "\n"))
        elif "p" in flags or "P" in flags:
            if kind == "file":
                io.out(1).write(_enc(_command_path(name) + "\n"))
        elif kind == "alias":
            io.out(1).write(_enc(f"{name} is aliased to `{sh.state.aliases[name]}'\n"))
        elif kind == "keyword":
            io.out(1).write(_enc(f"{name} is a shell keyword\n"))
        elif kind == "function":
            io.out(1).write(_enc(f"{name} is a function\n" + _print_function(sh, name) + "\n"))
        elif kind == "builtin":
            io.out(1).write(_enc(f"{name} is a shell builtin\n"))
        else:
            io.out(1).write(_enc(f"{name} is {_command_path(name)}\n"))
    return status


def b_which(sh: "Shell", argv: list[str], io: "IO") -> int:
    from . import COMMANDS

    status = 0
    for name in argv[1:]:
        if name.startswith("-"):
            continue
        if name in COMMANDS and name not in SHELL_ONLY:
            io.out(1).write(_enc(_command_path(name) + "\n"))
        elif "/" in name and can_access(sh.host_path(name), os.X_OK, _modes(sh)):
            io.out(1).write(_enc(name + "\n"))
        else:
            status = 1
    return status


SHELL_ONLY = frozenset(
    "cd source . eval exec exit export readonly return set shift trap unset break continue "
    "declare typeset local let read mapfile readarray getopts shopt alias unalias pushd popd "
    "dirs type command builtin wait hash umask :".split()
)


def gen_command(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1 and args[0] != "--":
        flags += args[0][1:]
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if "v" in flags or "V" in flags:
        status = 0
        for name in args:
            kind = _kind(sh, name)
            if kind is None:
                if "V" in flags:
                    _err(io, f"command: {name}: not found")
                status = 1
                continue
            if "V" in flags:
                b_type(sh, ["type", name], io)
            elif kind == "file":
                io.out(1).write(_enc(_command_path(name) + "\n"))
            elif kind == "alias":
                io.out(1).write(_enc(f"alias {name}={quote_for_shell(sh.state.aliases[name])}\n"))
            else:
                io.out(1).write(_enc(name + "\n"))
        return status
    if not args:
        return 0
    return (yield from sh.invoke_no_functions(args, io))


def gen_builtin(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    if len(argv) < 2:
        return 0
    name = argv[1]
    if name not in BUILTIN_NAMES:
        _err(io, f"builtin: {name}: not a shell builtin")
        return 1
    return (yield from sh.invoke_no_functions(argv[1:], io))


# ============================================================================ eval / source / exec / bash

def gen_eval(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    source = " ".join(argv[1:])
    if not source.strip():
        return 0
    st = sh.state
    if st.call_depth >= sh.limits.max_call_depth:
        raise LimitExceeded(f"eval: maximum nesting level exceeded ({sh.limits.max_call_depth})")
    st.call_depth += 1
    try:
        return (yield from sh.run_string(source, io))
    finally:
        st.call_depth -= 1


def gen_source(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    if len(argv) < 2:
        _err(io, f"{argv[0]}: filename argument required")
        return 2
    path = argv[1]
    host = sh.host_path(path)
    if not os.path.isfile(host):
        _err(io, f"{path}: No such file or directory")
        return 1
    with open(host, "rb") as handle:
        source = handle.read().decode("utf-8", "surrogateescape")
    st = sh.state
    if st.call_depth >= sh.limits.max_call_depth:
        raise LimitExceeded(f"{argv[0]}: maximum nesting level exceeded ({sh.limits.max_call_depth})")
    saved = st.positional
    if len(argv) > 2:
        st.positional = argv[2:]
    st.call_depth += 1
    st.sourcing = getattr(st, "sourcing", 0) + 1  # type: ignore[attr-defined]
    try:
        status = yield from sh.run_string(source, io, first_line=1)
    except ReturnFromFunction as ret:
        status = ret.status
    finally:
        st.call_depth -= 1
        st.sourcing -= 1  # type: ignore[attr-defined]
        if len(argv) > 2:
            st.positional = saved
    return status


def gen_exec(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    while args and args[0].startswith("-") and args[0] != "--":
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return 0
    status = yield from sh.invoke(args, io)
    raise ExitShell(status)


def gen_bash(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    options: dict[str, bool] = {}
    command: str | None = None
    check_only = False
    while args and args[0].startswith(("-", "+")) and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        if a in ("-o", "+o") and args:
            options[args.pop(0)] = a == "-o"
            continue
        for f in a[1:]:
            if f == "c":
                command = ""
            elif f == "n":
                check_only = True
            elif f in OPTION_LETTERS:
                options[OPTION_LETTERS[f]] = a[0] == "-"
    if command is not None:
        if not args:
            _err(io, f"{argv[0]}: -c: option requires an argument")
            return 2
        command = args.pop(0)
        name = args.pop(0) if args else argv[0]
        source, script_args = command, args
    elif args:
        name = args[0]
        host = sh.host_path(name)
        if not os.path.isfile(host):
            _err(io, f"{name}: No such file or directory")
            return 127
        with open(host, "rb") as handle:
            source = handle.read().decode("utf-8", "surrogateescape")
        script_args = args[1:]
    else:
        name = argv[0]
        source = b"".join(io.stdin().chunks()).decode("utf-8", "surrogateescape")
        script_args = []
    if check_only:
        from ..parse import Parser

        try:
            Parser(source).parse_all()
        except ShellSyntaxError as exc:
            _err(io, f"{name}: line {exc.line}: {exc.message}")
            return 2
        return 0
    return (yield from sh.run_child_script(source, name, script_args, io, options))


# ============================================================================ env / printenv

def gen_env(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    clear = False
    removed: list[str] = []
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a in ("-i", "-", "--ignore-environment"):
            clear = True
        elif a == "-u" and args:
            removed.append(args.pop(0))
        elif a.startswith("-u"):
            removed.append(a[2:])
        elif a == "--":
            break
    assigns: dict[str, str] = {}
    while args and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", args[0]):
        name, _, value = args.pop(0).partition("=")
        assigns[name] = value
    env = {} if clear else sh.state.exported()
    for name in removed:
        env.pop(name, None)
    env.update(assigns)
    if not args:
        io.out(1).write(_enc("".join(f"{k}={v}\n" for k, v in env.items())))
        return 0
    return (yield from sh.invoke_with_env(args, io, env))


def b_printenv(sh: "Shell", argv: list[str], io: "IO") -> int:
    env = sh.state.exported()
    if len(argv) == 1:
        io.out(1).write(_enc("".join(f"{k}={v}\n" for k, v in env.items())))
        return 0
    status = 0
    for name in argv[1:]:
        if name in env:
            io.out(1).write(_enc(env[name] + "\n"))
        else:
            status = 1
    return status


# ============================================================================ xargs / timeout / time

def _xargs_items(data: str, mode: str, delim: str | None) -> list[str]:
    if mode == "null":
        items = data.split("\0")
        return items[:-1] if items and items[-1] == "" else items
    if mode == "delim":
        assert delim is not None
        items = data.split(delim)
        if items and items[-1] in ("", "\n"):
            items = items[:-1]
        return items
    items = []
    buf: list[str] = []
    have = False
    quote: str | None = None
    i = 0
    while i < len(data):
        c = data[i]
        if quote:
            if c == quote:
                quote = None
            else:
                buf.append(c)
        elif c in "'\"":
            quote = c
            have = True
        elif c == "\\" and i + 1 < len(data):
            buf.append(data[i + 1])
            have = True
            i += 1
        elif c in " \t\n":
            if buf or have:
                items.append("".join(buf))
                buf, have = [], False
        else:
            buf.append(c)
        i += 1
    if quote:
        raise BashError(f"unmatched {'single' if quote == chr(39) else 'double'} quote; by default quotes are special to xargs unless you use the -0 option")
    if buf or have:
        items.append("".join(buf))
    return items


def gen_xargs(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    max_args: int | None = None
    max_lines: int | None = None
    replace: str | None = None
    mode = "blank"
    delim: str | None = None
    no_empty = False
    trace = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        try:
            if a.startswith("-n"):
                max_args = int(a[2:] or args.pop(0))
            elif a.startswith("--max-args="):
                max_args = int(a.split("=", 1)[1])
            elif a.startswith("-L"):
                max_lines = int(a[2:] or args.pop(0))
            elif a.startswith("-I"):
                replace = a[2:] or args.pop(0)
            elif a.startswith("-i"):
                replace = a[2:] or "{}"
            elif a.startswith("--replace"):
                replace = a.split("=", 1)[1] if "=" in a else "{}"
            elif a in ("-0", "--null"):
                mode = "null"
            elif a.startswith("-d"):
                spec = a[2:] or args.pop(0)
                delim = decode_echo(spec).text[:1] if spec.startswith("\\") else spec[:1]
                mode = "delim"
            elif a in ("-r", "--no-run-if-empty"):
                no_empty = True
            elif a in ("-t", "--verbose"):
                trace = True
            elif a.startswith("-P"):
                if len(a) == 2:
                    args.pop(0)
            elif a.startswith("-s"):
                if len(a) == 2:
                    args.pop(0)
            elif a in ("-x", "-p", "--exit"):
                pass
            elif a.startswith("-E") or a.startswith("-e"):
                if len(a) == 2:
                    args.pop(0)
            else:
                io.out(2).write(_enc(f"xargs: invalid option -- '{a.lstrip('-')}'\n"))
                return 1
        except (IndexError, ValueError):
            io.out(2).write(_enc(f"xargs: option requires an argument -- '{a[1:2]}'\n"))
            return 1
    command = args or ["echo"]
    data = b"".join(io.stdin().chunks()).decode("utf-8", "surrogateescape")
    try:
        if replace is not None:
            items = [line for line in (data.split("\0") if mode == "null" else data.split("\n"))]
            if items and items[-1] == "":
                items.pop()
            items = [it.lstrip(" \t") for it in items] if mode == "blank" else items
            batches = [[it] for it in items if it != "" or mode != "blank"]
        elif max_lines is not None:
            lines = [ln for ln in data.split("\n") if ln.strip()]
            batches = []
            for k in range(0, len(lines), max_lines):
                group = []
                for ln in lines[k : k + max_lines]:
                    group.extend(_xargs_items(ln, mode, delim))
                batches.append(group)
        else:
            items = _xargs_items(data, mode, delim)
            if max_args:
                batches = [items[k : k + max_args] for k in range(0, len(items), max_args)]
            else:
                batches = [items] if items else []
    except BashError as exc:
        io.out(2).write(_enc(f"xargs: {exc.message}\n"))
        return 1
    if not batches and not no_empty and replace is None:
        batches = [[]]
    status = 0
    for batch in batches:
        if replace is not None:
            cmd = [a.replace(replace, batch[0]) for a in command]
        else:
            cmd = command + batch
        if trace:
            io.out(2).write(_enc(" ".join(cmd) + "\n"))
        sub = io.copy()
        sub.fds[0] = InputStream.empty()
        from . import COMMANDS

        if cmd[0] not in COMMANDS and "/" not in cmd[0]:
            io.out(2).write(_enc(f"xargs: {cmd[0]}: No such file or directory\n"))
            return 127
        try:
            code = yield from sh.invoke_no_functions(cmd, sub)
        except ExitShell as exc:
            code = exc.status
        if code == 255:
            io.out(2).write(_enc(f"xargs: {cmd[0]}: exited with status 255; aborting\n"))
            return 124
        if code != 0:
            status = 123
    return status


def _duration(text: str) -> float | None:
    m = re.match(r"([0-9]*\.?[0-9]+)([smhd]?)\Z", text)
    if not m:
        return None
    return float(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2) or "s"]


def gen_timeout(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    args = argv[1:]
    preserve = False
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a in ("-s", "-k", "--signal", "--kill-after") and args:
            args.pop(0)
        elif a == "--preserve-status":
            preserve = True
        elif a == "--":
            break
    if len(args) < 2:
        io.out(2).write(b"timeout: missing operand\n")
        return 125
    seconds = _duration(args[0])
    if seconds is None:
        io.out(2).write(_enc(f"timeout: invalid time interval '{args[0]}'\n"))
        return 125
    counters = sh.state.counters
    outer = counters.deadline
    mine = time.monotonic() + seconds if seconds > 0 else outer
    counters.deadline = min(outer, mine)
    try:
        status = yield from sh.invoke_no_functions(args[1:], io)
    except TimeoutExpired:
        if time.monotonic() >= outer:
            raise
        status = 143 if preserve else 124
    finally:
        counters.deadline = outer
    return status


def gen_time(sh: "Shell", argv: list[str], io: "IO") -> Gen:
    started = time.monotonic()
    status = 0
    if len(argv) > 1:
        status = yield from sh.invoke(argv[1:], io)
    spent = time.monotonic() - started
    io.out(2).write(_enc(f"\nreal\t0m{spent:.3f}s\nuser\t0m0.000s\nsys\t0m0.000s\n"))
    return status


# ============================================================================ compgen / help / caller

def b_compgen(sh: "Shell", argv: list[str], io: "IO") -> int:
    """``compgen -c|-v|-f|-d|-b|-k|-a|-A function|-W list [prefix]``: candidate words."""
    from . import COMMANDS

    args = argv[1:]
    actions: list[str] = []
    wordlist: list[str] = []
    k = 0
    while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
        a = args[k]
        if a == "-A" and k + 1 < len(args):
            actions.append({"function": "F", "variable": "v", "command": "c", "builtin": "b", "keyword": "k", "alias": "a", "file": "f", "directory": "d", "export": "e"}.get(args[k + 1], ""))
            k += 2
            continue
        if a == "-W" and k + 1 < len(args):
            ifs = sh.state.get("IFS")
            wordlist.extend(args[k + 1].split() if ifs is None else [w for w in re.split("[" + re.escape(ifs) + "]+", args[k + 1]) if w] if ifs else [args[k + 1]])
            k += 2
            continue
        actions.extend(a[1:])
        k += 1
    prefix = args[k] if k < len(args) else ""
    st = sh.state
    found: list[str] = list(wordlist)
    for action in actions:
        if action == "c":
            found += sorted(set(COMMANDS) | set(st.functions) | set(st.aliases) | KEYWORDS)
        elif action == "b":
            found += sorted(BUILTIN_NAMES)
        elif action == "k":
            found += KEYWORD_ORDER
        elif action == "a":
            found += sorted(st.aliases)
        elif action == "F":
            found += sorted(st.functions)
        elif action == "v":
            found += st.all_names()
        elif action == "e":
            found += sorted(st.exported())
        elif action in "fd":
            base, _, stem = prefix.rpartition("/")
            listing = sh.host_path(base or ".")
            try:
                names = sorted(os.listdir(listing))
            except OSError:
                names = []
            for name in names:
                full = (base + "/" if base else "") + name
                if action == "d" and not os.path.isdir(os.path.join(listing, name)):
                    continue
                found.append(full)
    matches = [w for w in found if w.startswith(prefix)]
    for word in dict.fromkeys(matches):
        io.out(1).write(_enc(word + "\n"))
    return 0 if matches else 1


def b_help(sh: "Shell", argv: list[str], io: "IO") -> int:
    from . import COMMANDS

    if len(argv) > 1:
        name = argv[1]
        if name in BUILTIN_NAMES or name in KEYWORDS:
            io.out(1).write(_enc(f"{name}: a shell builtin; it behaves as in GNU bash 5.2.\n"))
            return 0
        _err(io, f"help: no help topics match `{name}'.")
        return 1
    io.out(1).write(_enc(
        "GNU bash, version 5.2.15(1)-release compatible interpreter (sandboxed: no processes, no network).\n"
        "Builtins: " + " ".join(sorted(BUILTIN_NAMES)) + "\n"
        "Commands: " + " ".join(sorted(n for n in COMMANDS if n not in BUILTIN_NAMES)) + "\n"
    ))
    return 0


def b_caller(sh: "Shell", argv: list[str], io: "IO") -> int:
    st = sh.state
    if not st.funcnames:
        return 1
    frame = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 0
    names = list(reversed(st.funcnames)) + ["main"]
    if frame + 1 >= len(names):
        return 1
    caller = names[frame + 1]
    io.out(1).write(_enc(f"{st.lineno} {caller} {st.script_name}\n" if len(argv) > 1 else f"{st.lineno} {st.script_name}\n"))
    return 0


# ============================================================================ tables

BUILTINS: dict[str, Builtin] = {
    "echo": b_echo, "printf": b_printf, "test": b_test, "[": b_test, "true": b_true,
    "false": b_false, ":": b_true, "cd": b_cd, "pwd": b_pwd, "exit": b_exit, "return": b_return,
    "break": b_break, "continue": b_continue, "shift": b_shift, "let": b_let,
    "declare": b_declare, "typeset": b_declare, "local": b_declare, "export": b_export,
    "readonly": b_readonly, "unset": b_unset, "read": b_read, "mapfile": b_mapfile,
    "readarray": b_mapfile, "getopts": b_getopts, "set": b_set, "shopt": b_shopt,
    "trap": b_trap, "alias": b_alias, "unalias": b_unalias, "type": b_type, "which": b_which,
    "pushd": b_pushd, "popd": b_popd, "dirs": b_dirs, "hostname": b_hostname,
    "whoami": b_whoami, "wait": b_wait, "hash": b_noop, "umask": b_umask, "sleep": b_sleep,
    "date": b_date, "printenv": b_printenv, "compgen": b_compgen, "help": b_help, "caller": b_caller,
    "jobs": b_noop, "disown": b_noop, "ulimit": b_ulimit,
}

GEN_BUILTINS: dict[str, GenBuiltin] = {
    "eval": gen_eval, "source": gen_source, ".": gen_source, "exec": gen_exec,
    "bash": gen_bash, "sh": gen_bash, "command": gen_command, "builtin": gen_builtin,
    "env": gen_env, "xargs": gen_xargs, "timeout": gen_timeout, "time": gen_time,
}

_NOT_BUILTIN = frozenset(["which", "hostname", "whoami", "sleep", "date", "printenv", "bash", "sh", "env", "xargs", "timeout", "time"])
BUILTIN_NAMES = frozenset(n for n in list(BUILTINS) + list(GEN_BUILTINS) if n not in _NOT_BUILTIN)


def _protocol(name: str) -> Command:
    """Wrap a builtin in the ``base.py`` protocol (used via the registry and run_command)."""

    def run(ctx: CommandContext, argv: list[str]) -> Gen:
        from ..evaluate import IO

        sh = ctx.extras.get("shell")
        if sh is None:
            ctx.error(f"{name}: needs the shell interpreter")
            return 1
        io = ctx.extras.get("io")
        if not isinstance(io, IO):
            channel = Channel()
            io = IO({0: InputStream(iter(ctx.stdin)), 1: channel, 2: ctx.stderr}, channel)
        sub = io.copy()
        sub.channel = Channel()
        sub.fds[1] = sub.channel
        if name in GEN_BUILTINS:
            box: list[int] = []
            for chunk in _drive(GEN_BUILTINS[name](sh, argv, sub), sub, box):  # type: ignore[arg-type]
                yield chunk
            return box[0] if box else 0
        status = BUILTINS[name](sh, argv, sub)  # type: ignore[arg-type]
        if sub.channel.buf:
            yield sub.channel.take()
        return status

    return run


def _drive(gen: Gen, io: "IO", box: list[int]) -> Iterator[bytes]:
    status = yield from gen
    box.append(status)
    if io.channel.buf:
        yield io.channel.take()


COMMANDS: dict[str, Command] = {name: _protocol(name) for name in list(BUILTINS) + list(GEN_BUILTINS)}

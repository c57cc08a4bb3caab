"""``echo`` and ``printf``: their options, printf's conversions (bash's number parsing, long
double rounding) and the escapes of ``escapes.py``.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from ..errors import BashError
from ..escapes import decode_echo, decode_printf_b, decode_printf_format
from ..expand import quote_for_shell
from ._common import Builtin, Entry, encode, print_error
from .date import shell_zone
from ..timefmt import moment, strftime
from ..tz import UTC, Zone

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_echo(sh: Shell, argv: list[str], io: IO) -> int:
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
            io.out(1).write(encode(text))
            return 0
        data = encode(text)
    else:
        data = encode(text)
    io.out(1).write(data + b"\n" if newline else data)
    return 0


_PRINTF_TIME = re.compile(r"%([-+ #0']*)([0-9]+)?(?:\.([0-9]*))?\(([^)]*)\)T")
_PRINTF_TIME_START = re.compile(r"%[-+ #0']*[0-9]*(?:\.[0-9]*)?\(")
_PRINTF_SPEC = re.compile(r"%([-+ #0']*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([hlLjzt]*)([diouxXeEfFgGaAcsbqQn%])")


_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = (-(2**64 - 1), 2**64 - 1)


def _printf_integer(arg: str, io: IO, errors: list[bool], unsigned: bool) -> int:
    """bash's strtoimax/strtoumax: out-of-range values saturate, with a warning."""
    number = _printf_number(arg, io, errors)
    low, high = _UINT64 if unsigned else _INT64
    if not low <= number <= high:
        print_error(io, f"printf: warning: {arg}: Numerical result out of range")
        number = max(low, min(high, number))
    return number


def _printf_number(arg: str, io: IO, errors: list[bool]) -> int:
    text = arg.strip()
    if not text:
        if arg:  # blanks alone are not a number (an empty argument is zero)
            print_error(io, f"printf: {arg}: invalid number")
            errors.append(True)
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
        print_error(io, f"printf: {arg}: invalid number")
        errors.append(True)
        return int(m.group(0)) if m else 0


def _printf_float(arg: str, io: IO, errors: list[bool]) -> Decimal | str:
    text = arg.strip()
    if not text:
        if arg:
            print_error(io, f"printf: {arg}: invalid number")
            errors.append(True)
        return Decimal(0)
    if text[0] in "'\"":
        return Decimal(ord(text[1])) if len(text) > 1 else Decimal(0)
    lowered = text.lower().lstrip("+")
    if lowered in ("inf", "infinity", "-inf", "-infinity", "nan", "-nan"):
        return lowered.replace("infinity", "inf")
    hex_float = _HEX_FLOAT.match(text)
    if hex_float:
        value = _hex_fraction(hex_float)
        if hex_float.end() != len(text) or not (hex_float.group(2) or hex_float.group(3)):
            print_error(io, f"printf: {arg}: invalid number")
            errors.append(True)
        return _long_double(value) if value or not text.startswith("-") else Decimal("-0")
    try:
        exact = Fraction(Decimal(text))
        if exact == 0 and text.startswith("-"):
            return Decimal("-0")
        return _long_double(exact)
    except (ValueError, ArithmeticError):
        m = re.match(r"[-+]?[0-9]*\.?[0-9]+", text)
        print_error(io, f"printf: {arg}: invalid number")
        errors.append(True)
        return _long_double(Fraction(Decimal(m.group(0)))) if m else Decimal(0)


_HEX_FLOAT = re.compile(r"([-+]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([-+]?[0-9]+))?")


def _hex_fraction(m: re.Match[str]) -> Fraction:
    """strtold's hexadecimal form (``0x1.8p3``), as far as it reads: no digits is 0."""
    sign, whole, frac, power = m.groups()
    digits = (whole or "") + (frac or "")
    if not digits:
        return Fraction(0)
    value = Fraction(int(digits, 16), 16 ** len(frac or "")) * Fraction(2) ** int(power or "0")
    return -value if sign == "-" else value


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
        elif low == "a":
            body = _hex_float(magnitude, prec, "#" in flags)
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
    if "0" in flags and (body[:1].isascii() and body[:1].isdigit()):
        prefix = body[:2] if conv in "aA" else ""  # the zeros go after the 0x
        return sign + prefix + body[len(prefix):].rjust(w - len(sign) - len(prefix), "0")
    return (sign + body).rjust(w)


def _hex_float(magnitude: Decimal, prec: str | None, point: bool) -> str:
    """glibc's ``%La`` of an x87 long double: the 64-bit mantissa's top four bits are the
    digit before the point (``0xap-1`` for 5), the other 60 the fifteen after it."""
    exact = Fraction(magnitude)
    lead, frac, power = 0, 0, 0
    if exact:
        shift = exact.numerator.bit_length() - exact.denominator.bit_length() - 63
        while exact / Fraction(2) ** shift >= 2**64:
            shift += 1
        while exact / Fraction(2) ** shift < 2**63:
            shift -= 1
        mantissa = round(exact / Fraction(2) ** shift)
        lead, frac, power = mantissa >> 60, mantissa & (2**60 - 1), shift + 60
    digits = f"{frac:015x}"
    if prec is None:
        digits = digits.rstrip("0")
    elif int(prec or "0") >= 15:
        digits += "0" * (int(prec or "0") - 15)
    else:
        keep_count = int(prec or "0")
        dropped = 4 * (15 - keep_count)
        kept, rest, half = frac >> dropped, frac & ((1 << dropped) - 1), 1 << (dropped - 1)
        # to nearest, ties to even: a carry out of the fraction bumps the leading digit
        if rest > half or (rest == half and (kept if keep_count else lead) & 1):
            kept += 1
            if kept >> (4 * keep_count):
                kept, lead = 0, lead + 1
        if lead == 16:
            lead, power = 1, power + 4
        digits = f"{kept:0{keep_count}x}" if keep_count else ""
    return f"0x{lead:x}" + ("." + digits if digits or point else "") + f"p{power:+d}"


def printf_format(fmt: str, args: list[str], io: IO, where: Zone = UTC,
                  assign: Callable[[str, int], bool] = lambda name, count: False) -> tuple[str, bool]:
    """Format like bash's printf (``%(...)T`` in the zone ``where``); returns (output,
    had-errors). ``%n`` hands ``assign`` a variable's name and the bytes this pass of the
    format has written; False (not a name) stops the printf as a bad directive does."""
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
        pass_start = len(out)
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
                when = -1 if stamp is None else _printf_integer(stamp, io, errors, False)
                text = _strftime_arg(tm.group(4) or "%X", int(time.time()) if when == -1 else when, where)
                if tm.group(3) is not None:
                    text = text[: int(tm.group(3) or "0")]
                time_width = int(tm.group(2) or 0)
                out.append(text.ljust(time_width) if "-" in tm.group(1) else text.rjust(time_width))
                continue
            if _PRINTF_TIME_START.match(fmt_text, i):
                # no ")T" to end it: bash warns and reads on from the "%" as plain text
                print_error(io, "printf: warning: invalid time format specification")
                out.append("%")
                i += 1
                continue
            m = _PRINTF_SPEC.match(fmt_text, i)
            if not m:
                _bad_directive(fmt_text, i, io)
                return "".join(out), True
            i = m.end()
            flags, width, prec, _, conv = m.groups()
            flags = flags.replace("'", "")  # thousands grouping: none in the C locale
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
            star_prec = prec == "*"
            if star_prec:
                p = next_arg()
                prec = str(_printf_number(p or "0", io, errors))
            arg = next_arg()
            spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
            if conv in "s":
                value = arg if arg is not None else ""
                # the 0 flag pads numbers only: a string is padded with spaces
                plain = "%" + flags.replace("0", "") + spec[1 + len(flags):]
                out.append((plain + "s") % value)
            elif conv == "b":
                value, stop = decode_printf_b(arg or "")
                out.append((spec + "s") % value)
                if stop:
                    break
            elif conv == "n":
                if arg is not None and not assign(arg, len("".join(out[pass_start:]).encode("utf-8", "surrogateescape"))):
                    return "".join(out), True
            elif conv in "qQ":
                out.append(_quoted(arg, spec, flags + (width or ""), prec if conv == "Q" else None, star_prec))
            elif conv == "c":
                value = arg[:1] if arg else "\0"
                out.append((spec + "s") % value)
            elif conv in "diouxX":
                number = _printf_integer(arg, io, errors, conv in "ouxX") if arg is not None else 0
                if conv in "ouxX" and number < 0:
                    number &= 0xFFFFFFFFFFFFFFFF
                if number == 0 and conv in "xX":
                    spec = spec.replace("#", "")  # C prints no 0x prefix for zero
                pyconv = "d" if conv in "iu" else conv
                if conv == "o" and "#" in flags:
                    spec = spec.replace("#", "")
                    text = (spec + "o") % number
                    out.append(text if number == 0 else _octal_alt(text))
                else:
                    out.append((spec + pyconv) % number)
            else:
                number_f = _printf_float(arg, io, errors) if arg is not None else Decimal(0)
                out.append(_format_float(number_f, flags, width, prec, conv))
        if stop or used == 0 or pos >= len(args):
            break
    return "".join(out), bool(errors)


def _strftime_arg(fmt: str, when: int, where: Zone) -> str:
    """bash's ``%(fmt)T``: a time ``localtime`` cannot show is shown as the epoch, and a
    text its 128-byte buffer cannot hold is empty."""
    shown = moment(when, where) or moment(0, where)
    assert shown is not None
    text = strftime(fmt, shown)
    return text if len(text.encode("utf-8", "surrogateescape")) < 128 else ""


def _bad_directive(fmt_text: str, i: int, io: IO) -> None:
    rest = fmt_text[i + 1:].lstrip("-+ #0'")
    rest = rest.lstrip("0123456789*.").lstrip("hlLjzt")
    if rest:
        print_error(io, f"printf: `{rest[0]}': invalid format character")
    else:
        print_error(io, "printf: `%': missing format character")


def _octal_alt(text: str) -> str:
    stripped = text.lstrip()
    return text[: len(text) - len(stripped)] + "0" + stripped if not stripped.startswith("0") else text


def _quoted(arg: str | None, spec: str, unbounded: str, cut: str | None, star: bool) -> str:
    """``%q``, or ``%Q`` with ``cut`` its precision: ``%Q`` cuts the argument where ``%q``
    cuts the quoted text (``unbounded``: the flags and width alone); bash 5.2 drops a ``*``
    precision of ``%Q``."""
    if cut and (arg or star):
        arg = arg if star else (arg or "")[:int(cut)]
        spec = "%" + unbounded
    if not arg:
        value = "''"
    elif any(ord(ch) < 32 or ord(ch) == 127 for ch in arg):
        value = quote_for_shell(arg)
    else:
        value = _backslash_quote(arg)
    return (spec + "s") % value


def _backslash_quote(arg: str) -> str:
    out = []
    for k, ch in enumerate(arg):
        if ch in " \t\n'\"\\$`!&|;<>()[]{}*?^," or (k == 0 and ch in "#~"):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def run_printf(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    target: str | None = None
    if args and args[0] == "-v":
        if len(args) < 2:
            print_error(io, "printf: -v: option requires an argument")
            return 2
        target = args[1]
        args = args[2:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        print_error(io, "printf: usage: printf [-v var] format [arguments]")
        return 2
    def assign(name: str, count: int) -> bool:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            print_error(io, f"printf: `{name}': not a valid identifier")
            return False
        try:
            sh.state.set(name, str(count))
        except BashError as exc:  # a readonly name: reported, and the printf goes on
            print_error(io, exc.message)
        return True

    text, had_errors = printf_format(args[0], args[1:], io, shell_zone(sh), assign)
    if target is not None:
        text = text.split("\0", 1)[0]  # a variable holds a C string: it ends at a NUL
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\Z", target)
        if not m:
            print_error(io, f"printf: `{target}': not a valid identifier")
            return 2
        if m.group(2) is not None:
            sh.state.set_element(m.group(1), m.group(2), text)
        else:
            sh.state.set(m.group(1), text)
    else:
        io.out(1).write(encode(text))
    return 1 if had_errors else 0


BUILTINS: dict[str, Entry] = {
    "echo": Builtin(run_echo),
    "printf": Builtin(run_printf),
}

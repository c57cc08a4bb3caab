"""awk printf/sprintf formatting with C semantics as mawk applies them."""

from __future__ import annotations

import math
import re
from typing import Callable

from .value import StrNum, d_to_int, fmt_special, to_num

_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|q|j|z|t)?([a-zA-Z%])?")


# Widths beyond this would only build huge strings (mawk itself caps sprintf at 8 KiB).
_MAX_WIDTH = 1_000_000


class FormatError(Exception):
    def __init__(self, message: str, partial: str) -> None:
        super().__init__(message)
        self.partial = partial


def _d_to_unsigned(d: float) -> int:
    if d != d:
        return 0
    if d >= 4294967295.0:
        return 4294967295
    if d > 0:
        return int(d)
    return 0


def awk_format(fmt: str, args: list[object], to_str: Callable[[object], str], name: str = "printf") -> str:
    out: list[str] = []
    pos = 0
    argi = 0

    def next_arg() -> object:
        nonlocal argi
        if argi >= len(args):
            raise FormatError(f"not enough arguments passed to {name}(\"{fmt}\")", "".join(out))
        value = args[argi]
        argi += 1
        return value

    n = len(fmt)
    while pos < n:
        cut = fmt.find("%", pos)
        if cut < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:cut])
        m = _SPEC.match(fmt, cut)
        assert m is not None
        flags, width, prec, _length, conv = m.groups()
        if conv is None or (conv == "%" and m.end() - cut > 2) or conv not in "%cdiouxXeEfFgGs":
            # mawk rejects "%5%" and unknown conversions such as "%z".
            raise FormatError(f"improper conversion(number {argi + 1}) in {name}(\"{fmt}\")", "".join(out))
        pos = m.end()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            w = d_to_int(to_num(next_arg()))
            if w < 0:
                flags += "-"
                w = -w
            width = str(w)
        if prec == "*":
            p = d_to_int(to_num(next_arg()))
            prec = str(p) if p >= 0 else None
        if int(width or 0) > _MAX_WIDTH or int(prec or 0) > _MAX_WIDTH:
            raise FormatError(f"{name}: field width or precision too large", "".join(out))
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        if conv in "di":
            value = d_to_int(to_num(next_arg()))
            out.append((spec + "d") % value)
        elif conv in "ouxX":
            value = _d_to_unsigned(to_num(next_arg()))
            if conv == "o" and "#" in flags:
                # C's "%#o" prefixes a 0 (Python would write "0o").
                digits = ("%" + ("." + prec if prec is not None else "") + "o") % value
                if not digits.startswith("0"):
                    digits = "0" + digits
                out.append(("%" + flags.replace("#", "").replace("0", "") + (width or "") + "s") % digits
                           if "0" not in flags or "-" in flags else digits.rjust(int(width or 0), "0"))
            else:
                out.append((spec + ("d" if conv == "u" else conv)) % value)
        elif conv in "eEfFgG":
            x = to_num(next_arg())
            special = fmt_special(x)
            if special is not None:
                if conv in "EFG":
                    special = special.upper()
                out.append((("%" + flags.replace("0", "") + (width or "") + "s") % special))
            else:
                out.append((spec + conv) % x)
        elif conv == "c":
            arg = next_arg()
            if isinstance(arg, StrNum) and arg != "":
                # mawk prints a numeric-looking field ("65") as a character code too.
                arg = arg.num
            if isinstance(arg, float):
                ch = chr(int(arg) % 256) if math.isfinite(arg) else ""
            else:
                text = to_str(arg)
                ch = text[:1] or "\0"
            out.append(("%" + flags + (width or "") + "s") % ch)
        elif conv == "s":
            text = to_str(next_arg())
            out.append((spec + "s") % text)
        else:
            out.append(fmt[cut:pos])
    return "".join(out)

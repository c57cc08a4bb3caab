"""``strftime`` for ``date`` and printf's ``%(...)T``, over any year a 32-bit ``tm_year``
holds: Python's ``datetime`` stops at 9999, GNU date and bash go to year 2147485547; and
``c_strftime``, the C library's for the commands that call it (awk, jq, find, ls).

The two callers use two different C implementations, which differ outside years 0-9999:
GNU date's (gnulib's ``nstrftime``, ``gnu=True``) pads ``%Y`` to four places with the sign
(``-001``), takes a ``+`` flag, and shows ``%F`` as ``%+4Y-%m-%d``; glibc's, which bash's
printf calls, prints the year as an ``int`` (wrapping past 2147483647) without padding.
gnulib hands ``%c``, ``%x`` and ``%X`` to glibc, so those are glibc's in both.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, NamedTuple

from .tz import Local, Zone, civil, format_offset

_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
_TM_YEAR = (-2**31 + 1900, 2**31 - 1 + 1900)
"""The years a C ``struct tm`` holds: ``localtime`` fails outside them."""


class Wall(NamedTuple):
    """A local clock reading, broken down as ``struct tm`` is."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    weekday: int
    """Monday is 0."""
    yday: int
    """January 1 is 1."""


@dataclass(frozen=True)
class Moment:
    """An instant as a zone shows it: what ``strftime`` formats."""

    wall: Wall
    epoch: int
    nanos: int
    local: Local


def moment(epoch: int, where: Zone, nanos: int = 0) -> Moment | None:
    """``epoch`` in ``where``; None where ``localtime`` fails (the year outside ``tm_year``)."""
    local = where.at(epoch)
    wall = Wall(*civil(epoch + local.offset))
    if not _TM_YEAR[0] <= wall.year <= _TM_YEAR[1]:
        return None
    return Moment(wall, epoch, nanos, local)


def _int32(value: int) -> int:
    """C's ``int`` arithmetic as glibc does it on ``tm_year + 1900``: it wraps."""
    return (value + 2**31) % 2**32 - 2**31


def _cmod(a: int, b: int) -> int:
    """C's ``%`` (the sign of the dividend)."""
    r = abs(a) % b
    return -r if a < 0 else r


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _iso_week_days(yday0: int, sunday_wday: int) -> int:
    """glibc's ``iso_week_days``: days since the Monday starting the ISO year's first week."""
    return yday0 - (yday0 - sunday_wday + 4) % 7 + 3


def _iso(w: Wall) -> tuple[int, int]:
    """The ISO year's shift from ``w.year`` (-1, 0, 1) and the ISO week."""
    yday0, wday = w.yday - 1, (w.weekday + 1) % 7
    days = _iso_week_days(yday0, wday)
    adjust = 0
    if days < 0:
        adjust = -1
        days = _iso_week_days(yday0 + 365 + _leap(w.year - 1), wday)
    else:
        later = _iso_week_days(yday0 - 365 - _leap(w.year), wday)
        if later >= 0:
            adjust, days = 1, later
    return adjust, days // 7 + 1


class _Number(NamedTuple):
    negative: bool
    magnitude: int
    width: int
    pad: str
    """The padding without a flag: ``0`` or ``_`` (blanks)."""


def _signed(value: int, width: int, pad: str = "0") -> _Number:
    return _Number(value < 0, abs(value), width, pad)


def _hour12(w: Wall) -> int:
    return (w.hour % 12) or 12


_NUMBERS: dict[str, Callable[[Wall], _Number]] = {
    "m": lambda w: _signed(w.month, 2), "d": lambda w: _signed(w.day, 2), "e": lambda w: _signed(w.day, 2, "_"),
    "H": lambda w: _signed(w.hour, 2), "M": lambda w: _signed(w.minute, 2), "S": lambda w: _signed(w.second, 2),
    "k": lambda w: _signed(w.hour, 2, "_"), "I": lambda w: _signed(_hour12(w), 2),
    "l": lambda w: _signed(_hour12(w), 2, "_"), "j": lambda w: _signed(w.yday, 3),
    "u": lambda w: _signed(w.weekday + 1, 1), "w": lambda w: _signed((w.weekday + 1) % 7, 1),
    "U": lambda w: _signed((w.yday - 1 - (w.weekday + 1) % 7 + 7) // 7, 2),
    "W": lambda w: _signed((w.yday - 1 - w.weekday + 7) // 7, 2),
    "V": lambda w: _signed(_iso(w)[1], 2), "q": lambda w: _signed((w.month - 1) // 3 + 1, 1),
}


def _glibc_year(d: str, w: Wall) -> _Number:
    """glibc's year fields: the year an ``int``, ``%y`` from ``tm_year``."""
    tm_year = w.year - 1900
    if d == "Y":
        return _signed(_int32(w.year), 1)
    if d == "C":
        year = _int32(w.year)
        return _signed(_cdiv(year, 100) - (_cmod(year, 100) < 0), 1)
    if d == "y":
        return _signed((_cmod(tm_year, 100) + 100) % 100, 2)
    iso_year = _int32(w.year + _iso(w)[0])
    return _signed(iso_year, 1) if d == "G" else _signed((_cmod(iso_year, 100) + 100) % 100, 2)


def _cdiv(a: int, b: int) -> int:
    """C's ``/`` (toward zero)."""
    q = abs(a) // b
    return -q if a < 0 else q


def _gnulib_year(d: str, w: Wall) -> _Number:
    """gnulib's year fields (``DO_YEARISH``): sign and magnitude apart, so that year -1's
    century is ``-0``."""
    tm_year = w.year - 1900
    if d == "Y":
        return _Number(w.year < 0, abs(w.year), 4, "0")
    if d == "C":
        negative = w.year < 0
        below_1900 = not negative and tm_year < 0
        century = _cdiv(tm_year - 99 * below_1900, 100) + 19
        return _Number(negative, abs(century), 2, "0")
    if d == "y":
        yy = _cmod(tm_year, 100)
        return _Number(False, (-yy if w.year < 0 else yy + 100) if yy < 0 else yy, 2, "0")
    adjust = _iso(w)[0]
    if d == "G":
        return _Number(w.year + adjust < 0, abs(w.year + adjust), 4, "0")
    yy = _cmod(_cmod(tm_year, 100) + adjust, 100)
    return _Number(False, yy if yy >= 0 else -yy if w.year + adjust < 0 else yy + 100, 2, "0")


class _Spec(NamedTuple):
    """One conversion as written: ``%`` flags, width, ``E``/``O``, colons, the letter."""

    pad: str | None
    """``_`` (blanks), ``-`` (none), ``0`` or gnulib's ``+``; None: the conversion's own."""
    upcase: bool
    change_case: bool
    width: int
    """-1 when none is written."""
    modifier: str | None
    colons: int
    conv: str
    text: str
    """The whole sequence, printed as written when strftime does not know it."""


def _parse_spec(fmt: str, i: int, gnu: bool) -> tuple[_Spec, int]:
    """The conversion whose ``%`` is at ``i``, and the index after it."""
    start = i
    i += 1
    pad: str | None = None
    upcase = change_case = False
    flags = "-_0^#+" if gnu else "-_0^#"
    while i < len(fmt) and fmt[i] in flags:
        if fmt[i] == "^":
            upcase = True
        elif fmt[i] == "#":
            change_case = True
        else:
            pad = fmt[i]
        i += 1
    digits = i
    while i < len(fmt) and (fmt[i].isascii() and fmt[i].isdigit()):
        i += 1
    width = min(int(fmt[digits:i]), 2**31 - 1) if i > digits else -1
    modifier = None
    if i < len(fmt) and fmt[i] in "EO":
        modifier = fmt[i]
        i += 1
    colons = 0
    while gnu and i + colons < len(fmt) and fmt[i + colons] == ":":
        colons += 1
    conv = fmt[i + colons] if i + colons < len(fmt) else ""
    if colons and (conv != "z" or colons > 3):
        conv, colons = ":", 0  # only %z takes colons: gnulib calls the rest a bad format
        return _Spec(pad, upcase, change_case, width, modifier, 0, conv, fmt[start:i + 1]), i + 1
    end = min(i + colons + 1, len(fmt))
    return _Spec(pad, upcase, change_case, width, modifier, colons, conv, fmt[start:end]), end


def _cpy(text: str, spec: _Spec, upper: bool = False, lower: bool = False, gnu: bool = True) -> str:
    """gnulib's ``cpy``: text padded on the left to the width (zeros for ``0`` and ``+``);
    glibc's pads to a width written even with the ``-`` flag."""
    text = text.lower() if lower else text.upper() if upper else text
    width = 0 if (spec.pad == "-" and gnu) or spec.width < 0 else spec.width
    if len(text) < width:
        text = ("0" if spec.pad in ("0", "+") else " ") * (width - len(text)) + text
    return text


def _number(n: _Number, spec: _Spec, yearish: bool = False, yr_spec: str | None = None, sign: bool = False,
            gnu: bool = True) -> str:
    """gnulib's ``do_number_sign_and_padding``: the sign goes after blanks, before zeros;
    a year (``do_yearish``) takes ``+`` for a sign when it outgrows its digits or width.
    glibc's ``-`` drops the zeros but not the blanks of a width written."""
    if not gnu and spec.pad == "-" and spec.width >= 0:
        return _cpy(_number(n, spec._replace(width=-1)), spec, gnu=False)
    pad = spec.pad
    if pad is None:
        pad = yr_spec if yearish and yr_spec is not None else n.pad
    width = spec.width if spec.width >= 0 else n.width
    if yearish and pad == "+":
        sign = n.magnitude > (99 if n.width == 2 else 9999) or n.width < width
    sign_char = "-" if n.negative else "+" if sign else ""
    digits = str(n.magnitude)
    out = ""
    if sign_char:
        shortage = width - 1 - len(digits)
        if pad == "_" and shortage > 0:
            out += " " * shortage
            width -= shortage
        out += sign_char
        width -= 1
    fill = 0 if pad == "-" else width - len(digits)
    if fill > 0:
        out += ("0" if pad in ("0", "+") else " ") * fill
    return out + digits


def _offset(spec: _Spec, offset: int, gnu: bool) -> str | None:
    """``%z`` and gnulib's ``%:z``, ``%::z``, ``%:::z`` (``DO_TZ_OFFSET``): one signed number
    with its colons among the digits, padded as a number."""
    negative = offset < 0
    hours, rest = divmod(abs(offset), 3600)
    minutes, seconds = divmod(rest, 60)
    colons = spec.colons
    if colons == 3:
        colons = 2 if seconds else 1 if minutes else 3
    digits, mask, value = {0: (5, 0, hours * 100 + minutes), 1: (6, 0o4, hours * 100 + minutes),
                           2: (9, 0o24, hours * 10000 + minutes * 100 + seconds), 3: (3, 0, hours)}[colons]
    if not gnu:
        # glibc writes the sign apart (padded to the width itself), then a four-digit number
        return _cpy("-" if negative else "+", spec, gnu=False) + _number(
            _Number(False, hours * 100 + minutes, 4, "0"), spec, gnu=False)
    text = ""
    while True:
        if mask & 1:
            text = ":" + text
        mask >>= 1
        text = str(value % 10) + text
        value //= 10
        if value == 0 and mask == 0:
            break
    # the sign and padding of a number as long as the digits and colons together
    padded = _number(_Number(negative, 0, digits, "0"), spec._replace(width=spec.width - len(text) + 1
                     if spec.width >= 0 else digits - len(text) + 1), sign=True)
    return padded[:-1] + text


def _nanos(spec: _Spec, nanos: int) -> str:
    """gnulib's ``%N``: the width says how many digits (9 by default); trailing zeros are
    dropped and come back as padding."""
    if spec.pad == "-" and spec.width <= 0:
        return f"{nanos:09d}"  # coreutils' date keeps all nine digits for a bare %-N
    width = spec.width if spec.width > 0 else 9
    ndigits, n = 9, nanos
    while width < ndigits or (ndigits > 1 and n % 10 == 0):
        ndigits -= 1
        n //= 10
    text = str(n).rjust(ndigits, "0")
    pad = spec.pad or "0"
    fill = 0 if pad == "-" else width - ndigits
    return text + ("0" if pad in ("0", "+") else " ") * max(fill, 0)


def _bad(spec: _Spec, gnu: bool) -> str:
    """A conversion strftime does not know, printed as written (padded to its width; for
    ``%5%`` gnulib pads one more, glibc prints one ``%``)."""
    if spec.conv == "%" and spec.width >= 0:
        return _cpy(spec.text, spec._replace(width=spec.width + 1)) if gnu else _cpy("%", spec, gnu=False)
    return _cpy(spec.text, spec, gnu=gnu)


_PLAIN = _Spec(None, False, False, -1, None, 0, "", "")


def _two(value: int) -> str:
    return f"{value:02d}"


def _field(d: str, w: Wall, gnu: bool, flag: str | None) -> str | None:
    """A conversion of the local clock with no width (C locale); None for one strftime does
    not know. ``flag`` is the padding flag of a number."""
    spec = _PLAIN._replace(pad=flag)
    number = _NUMBERS.get(d)
    if number is not None:
        return _number(number(w), spec)
    if d in "YCyGg":
        return _number((_gnulib_year if gnu else _glibc_year)(d, w), spec, yearish=gnu)
    if d in "Dx":
        # gnulib hands %x to glibc, so only %D is gnulib's in date
        yy = _field("y", w, gnu and d == "D", None)
        return f"{_two(w.month)}/{_two(w.day)}/{yy}"
    if d == "F":
        year = _number(_gnulib_year("Y", w), spec._replace(pad="+"), yearish=True) if gnu else _number(_glibc_year("Y", w), spec)
        return f"{year}-{_two(w.month)}-{_two(w.day)}"
    if d in "TX":
        return f"{_two(w.hour)}:{_two(w.minute)}:{_two(w.second)}"
    if d == "R":
        return f"{_two(w.hour)}:{_two(w.minute)}"
    if d == "c":
        return (f"{_WEEKDAYS[w.weekday][:3]} {_MONTHS[w.month - 1][:3]} {w.day:2d} "
                f"{_two(w.hour)}:{_two(w.minute)}:{_two(w.second)} {_int32(w.year)}")
    if d == "r":
        return f"{_two(_hour12(w))}:{_two(w.minute)}:{_two(w.second)} {'AM' if w.hour < 12 else 'PM'}"
    return _TEXTS[d](w) if d in _TEXTS else None


_SUBFORMATS = {"D": "%m/%d/%y", "R": "%H:%M", "T": "%H:%M:%S", "r": "%I:%M:%S %p"}


def _convert(spec: _Spec, when: Moment, gnu: bool, yr_spec: str | None, upcase: bool) -> str:
    """One conversion of ``when``, flags and width applied."""
    d, w = spec.conv, when.wall
    if not d:  # the format ends inside the conversion
        return _bad(spec, gnu)
    if upcase and not spec.upcase:
        spec = spec._replace(upcase=True)
    if spec.modifier == "E" and d in "CyYxXc" or d in "cxX" and spec.modifier is None:
        # gnulib hands these to the C library, then pads its text
        text = _field(d, w, gnu, None)
        return _cpy(text or "", spec, upper=spec.upcase, gnu=gnu)
    if spec.modifier is not None and not (spec.modifier == "O" and d in "deHIklmMSuUVwWy" or gnu and d == "z"):
        return _bad(spec, gnu)
    if d in _NUMBERS and (gnu or d != "q"):
        return _number(_NUMBERS[d](w), spec, gnu=gnu)
    if d in "YCyGg":
        return _number((_gnulib_year if gnu else _glibc_year)(d, w), spec, yearish=gnu, yr_spec=yr_spec, gnu=gnu)
    if d == "s":
        return _number(_signed(when.epoch, 1), spec, gnu=gnu)
    if d == "z":
        return _offset(spec, when.local.offset, gnu) or ""
    if d == "N" and gnu:
        return _nanos(spec, when.nanos)
    if d in "aAbBh":
        return _cpy(_TEXTS[d](w), spec, upper=spec.upcase or spec.change_case, gnu=gnu)
    if d in "pZ":
        text = _TEXTS[d](w) if d == "p" else when.local.name
        return _cpy(text, spec, upper=spec.upcase, lower=spec.change_case, gnu=gnu)
    if d == "P":
        return _cpy(_TEXTS[d](w), spec, lower=True, gnu=gnu)
    if d in "nt" or (d == "%" and (spec.text == "%%" or not gnu)):
        return _cpy(_TEXTS[d](w), spec, gnu=gnu)
    if d in _SUBFORMATS or d == "F":
        return _subformat(spec, when, gnu)
    return _bad(spec, gnu)


def _subformat(spec: _Spec, when: Moment, gnu: bool) -> str:
    """``%D``, ``%R``, ``%T``, ``%r`` and ``%F``: formatted with the flags passed down, then
    padded as one text; gnulib's ``%F`` gives its width, less the ``-mm-dd``, to the year."""
    if d := _SUBFORMATS.get(spec.conv):
        return _cpy(strftime(d, when, gnu, spec.pad, spec.upcase), spec, gnu=gnu)
    if not gnu:
        return _cpy(strftime("%Y-%m-%d", when, gnu, spec.pad, spec.upcase), spec, gnu=False)
    pad, width = spec.pad, max(spec.width - 6, 0)
    if pad is None and spec.width < 0:
        pad, width = "+", 4
    text = strftime("%Y-%m-%d", when, gnu, pad, spec.upcase, width)
    return _cpy(text, spec)


_TEXTS: dict[str, Callable[[Wall], str]] = {
    "a": lambda w: _WEEKDAYS[w.weekday][:3], "A": lambda w: _WEEKDAYS[w.weekday],
    "b": lambda w: _MONTHS[w.month - 1][:3], "h": lambda w: _MONTHS[w.month - 1][:3],
    "B": lambda w: _MONTHS[w.month - 1], "p": lambda w: "AM" if w.hour < 12 else "PM",
    "P": lambda w: "am" if w.hour < 12 else "pm", "n": lambda w: "\n", "t": lambda w: "\t", "%": lambda w: "%",
}


def strftime(fmt: str, when: Moment, gnu: bool = False, yr_spec: str | None = None, upcase: bool = False,
             first_width: int = -1) -> str:
    """``fmt`` for ``when``; ``gnu``: GNU date's (gnulib's) strftime, with its ``+`` flag,
    ``%N``, ``%:z``, ``%::z`` and ``%:::z`` (glibc's, which bash's printf uses, prints those
    as written). ``yr_spec``, ``upcase`` and ``first_width`` are what a subformat such as
    ``%F`` passes down: the years' padding, upper case, the first conversion's width."""
    out: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            j = fmt.find("%", i)
            j = len(fmt) if j < 0 else j
            out.append(fmt[i:j].upper() if upcase else fmt[i:j])
            i = j
            continue
        spec, i = _parse_spec(fmt, i, gnu)
        if first_width >= 0 and spec.width < 0:
            spec = spec._replace(width=first_width)
        first_width = -1
        out.append(_convert(spec, when, gnu, yr_spec, upcase))
    return "".join(out)


_C_YEARS = "YCyGgFcDx"
"""The conversions that show the year, which the guest's C library (musl's, in WASI) pads
as glibc does not (``0005``, ``+10000``), and Python's ``time.strftime`` refuses past a C
``int``: they are glibc's, from here."""


def c_strftime(fmt: str, tm: time.struct_time, local: Local) -> str:
    """glibc's ``strftime`` for ``tm``, with ``%z`` and ``%Z`` taken from ``local`` (a
    struct_time built here carries no zone, and the guest's C library knows only UTC)."""
    wall = Wall(tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday, tm.tm_yday)
    out: list[str] = []
    i = 0
    while i < len(fmt):
        pair = fmt[i:i + 2]
        if pair == "%z":
            out.append(format_offset(local.offset))
        elif pair == "%Z":
            out.append(local.name.replace("%", "%%"))
        elif pair == "%%":
            out.append("%%")
        elif len(pair) == 2 and pair[0] == "%" and pair[1] in _C_YEARS:
            out.append((_field(pair[1], wall, False, None) or "").replace("%", "%%"))
        else:
            out.append(fmt[i])
            i += 1
            continue
        i += 2
    fmt = "".join(out)
    if not fmt:
        return ""
    if not -2**31 <= tm.tm_year <= 2**31 - 1:
        # no conversion left reads the year, but Python checks it fits an int: a stand-in
        # of the same length of year keeps %j, %U and the rest as they were
        tm = time.struct_time((2000 if _leap(tm.tm_year) else 2001,) + tuple(tm)[1:])
    return time.strftime(fmt, tm)

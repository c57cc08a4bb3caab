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


def _pad(n: _Number, flag: str | None, width: int | None = None) -> str:
    """A number as strftime pads it: the sign before the zeros, after the blanks; gnulib's
    ``+`` shows a plus sign when the value has more digits than the field."""
    digits = str(n.magnitude)
    size = n.width if width is None else width
    sign = "-" if n.negative else ""
    if flag == "+" and not sign and (n.magnitude > (99 if n.width == 2 else 9999) or size > n.width):
        sign = "+"
    pad = n.pad if flag in (None, "^", "#", "+") else flag
    if pad == "-":
        return sign + digits
    if pad == "_":
        return (sign + digits).rjust(size)
    return sign + digits.rjust(size - len(sign), "0")


def _two(value: int) -> str:
    return f"{value:02d}"


def _field(d: str, w: Wall, gnu: bool, flag: str | None) -> str | None:
    """A conversion of the local clock (C locale); None for one strftime does not know."""
    number = _NUMBERS.get(d)
    if number is not None:
        return _pad(number(w), flag)
    if d in "YCyGg":
        return _pad((_gnulib_year if gnu else _glibc_year)(d, w), flag)
    if d in "Dx":
        # gnulib hands %x to glibc, so only %D is gnulib's in date
        yy = _field("y", w, gnu and d == "D", None)
        return f"{_two(w.month)}/{_two(w.day)}/{yy}"
    if d == "F":
        year = _pad(_gnulib_year("Y", w), "+") if gnu else _pad(_glibc_year("Y", w), None)
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


_TEXTS: dict[str, Callable[[Wall], str]] = {
    "a": lambda w: _WEEKDAYS[w.weekday][:3], "A": lambda w: _WEEKDAYS[w.weekday],
    "b": lambda w: _MONTHS[w.month - 1][:3], "h": lambda w: _MONTHS[w.month - 1][:3],
    "B": lambda w: _MONTHS[w.month - 1], "p": lambda w: "AM" if w.hour < 12 else "PM",
    "P": lambda w: "am" if w.hour < 12 else "pm", "n": lambda w: "\n", "t": lambda w: "\t", "%": lambda w: "%",
}


def _zone_field(d: str, when: Moment, colons: int) -> str | None:
    if d == "z":
        return format_offset(when.local.offset, colons)
    if colons:
        return None
    if d == "Z":
        return when.local.name
    if d == "s":
        return str(when.epoch)
    if d == "N":
        return f"{when.nanos:09d}"
    return None


def strftime(fmt: str, when: Moment, gnu: bool = False) -> str:
    """``fmt`` for ``when``; ``gnu``: GNU date's (gnulib's) strftime, with its ``+`` flag,
    ``%:z``, ``%::z`` and ``%:::z`` (glibc's, which bash's printf uses, prints those as
    written)."""
    out: list[str] = []
    flags = "-_0^#+" if gnu else "-_0^#"
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%" or i + 1 >= len(fmt):
            out.append(c)
            i += 1
            continue
        i += 1
        pad = None
        if fmt[i] in flags:
            pad = fmt[i]
            i += 1
            if i == len(fmt):  # a flag with no conversion after it: printed as written
                out.append("%" + pad)
                break
        colons = 0
        while gnu and colons < 3 and fmt.startswith(":", i + colons) and i + colons + 1 < len(fmt):
            colons += 1
        d = fmt[i + colons]
        i += colons + 1
        if d in "zZsN":
            value = _zone_field(d, when, colons)
        else:
            value = _field(d, when.wall, gnu, pad) if not colons else None
        if value is None:
            out.append("%" + (pad or "") + ":" * colons + d)
            continue
        if d not in _NUMBERS and d not in "YCyGg":
            value = _flag_text(value, pad, d)
        out.append(value)
    return "".join(out)


def _flag_text(value: str, pad: str | None, d: str) -> str:
    """A flag on a conversion that is not one number: the blanks or zeros of its text."""
    if pad == "-":
        return value.lstrip("0 ") or "0"
    if pad == "_":
        stripped = value.lstrip("0")
        return stripped.rjust(len(value)) if stripped else "0".rjust(len(value))
    if pad == "^":
        return value.upper()
    if pad == "#" and d == "Z":
        return value.lower()
    return value


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

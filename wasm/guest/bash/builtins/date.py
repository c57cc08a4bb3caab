"""``date``: GNU date's formats (``strftime``, shared with printf's ``%(...)T``), the
relative dates ``-d`` understands, and the zone both read from the shell's exported ``TZ``
(``tz.py``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Callable

from ._common import Builtin, Entry, encode
from .. import fs
from ..tz import UTC, Local, Zone, format_offset, wall_seconds, zone

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
_EPOCH = datetime(1970, 1, 1)


def _ampm(dt: datetime) -> str:
    return "AM" if dt.hour < 12 else "PM"


def _hour12(dt: datetime) -> int:
    return (dt.hour % 12) or 12


_FIELDS: dict[str, Callable[[datetime], str]] = {
    "Y": lambda dt: f"{dt.year}", "m": lambda dt: f"{dt.month:02d}", "d": lambda dt: f"{dt.day:02d}",
    "H": lambda dt: f"{dt.hour:02d}", "M": lambda dt: f"{dt.minute:02d}", "S": lambda dt: f"{dt.second:02d}",
    "y": lambda dt: f"{dt.year % 100:02d}", "e": lambda dt: f"{dt.day:2d}",
    "j": lambda dt: f"{dt.timetuple().tm_yday:03d}", "a": lambda dt: _WEEKDAYS[dt.weekday()][:3],
    "A": lambda dt: _WEEKDAYS[dt.weekday()], "b": lambda dt: _MONTHS[dt.month - 1][:3],
    "h": lambda dt: _MONTHS[dt.month - 1][:3], "B": lambda dt: _MONTHS[dt.month - 1], "p": _ampm,
    "n": lambda dt: "\n", "t": lambda dt: "\t",
    "%": lambda dt: "%", "u": lambda dt: str(dt.isoweekday()), "w": lambda dt: str(dt.isoweekday() % 7),
    "I": lambda dt: f"{_hour12(dt):02d}", "l": lambda dt: f"{_hour12(dt):2d}", "k": lambda dt: f"{dt.hour:2d}",
    "C": lambda dt: f"{dt.year // 100:02d}", "D": lambda dt: f"{dt.month:02d}/{dt.day:02d}/{dt.year % 100:02d}",
    "F": lambda dt: f"{dt.year}-{dt.month:02d}-{dt.day:02d}",
    "T": lambda dt: f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}", "R": lambda dt: f"{dt.hour:02d}:{dt.minute:02d}",
    "r": lambda dt: f"{_hour12(dt):02d}:{dt.minute:02d}:{dt.second:02d} {_ampm(dt)}",
    "c": lambda dt: (f"{_WEEKDAYS[dt.weekday()][:3]} {_MONTHS[dt.month - 1][:3]} {dt.day:2d} "
                     f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d} {dt.year}"),
    "x": lambda dt: f"{dt.month:02d}/{dt.day:02d}/{dt.year % 100:02d}",
    "X": lambda dt: f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}",
    "V": lambda dt: f"{dt.isocalendar()[1]:02d}", "G": lambda dt: str(dt.isocalendar()[0]),
    "U": lambda dt: dt.strftime("%U"), "W": lambda dt: dt.strftime("%W"),
    "P": lambda dt: "am" if dt.hour < 12 else "pm", "q": lambda dt: str((dt.month - 1) // 3 + 1),
}
"""What each conversion of the local clock prints (the C locale), looked up per directive:
building them all for every directive was most of a plain ``date``. The zone's own
conversions (``%z %Z %s %N``) read the ``Moment``."""


@dataclass(frozen=True)
class Moment:
    """An instant as a zone shows it: what ``strftime`` formats."""

    wall: datetime
    """The local clock (naive; microseconds kept)."""
    epoch: int
    nanos: int
    local: Local


def moment(epoch: int, where: Zone, nanos: int = 0) -> Moment:
    local = where.at(epoch)
    wall = _EPOCH + timedelta(seconds=epoch + local.offset, microseconds=nanos // 1000)
    return Moment(wall, epoch, nanos, local)


def shell_zone(sh: Shell) -> Zone:
    """The zone of the shell's ``TZ`` if exported: what ``date`` (a process in bash) sees,
    and what bash's ``tzset`` reads through its own ``getenv``, which sees exported
    variables only."""
    for scope in reversed(sh.state.scopes):
        var = scope.get("TZ")
        if var is not None:
            return zone(var.scalar() if "x" in var.attrs else None)
    return UTC


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
    """``fmt`` for ``when``; ``gnu``: GNU date's ``%:z``, ``%::z`` and ``%:::z`` too (glibc's
    strftime, which bash's printf uses, prints those as written)."""
    dt = when.wall
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
            field = _FIELDS.get(d) if not colons else None
            value = field(dt) if field is not None else None
        if value is None:
            out.append("%" + (pad or "") + ":" * colons + d)
            continue
        if pad == "-":
            value = value.lstrip("0 ") or "0"
        elif pad == "_":
            stripped = value.lstrip("0")
            value = stripped.rjust(len(value)) if stripped else "0".rjust(len(value))
        elif pad == "^":
            value = value.upper()
        elif pad == "#" and d == "Z":
            value = value.lower()
        out.append(value)
    return "".join(out)


_RELATIVE = re.compile(r"([+-]?\d+)\s*(second|sec|minute|min|hour|day|week|month|year)s?(\s+ago)?\Z")
_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600}
_CALENDAR = {"day": (0, 0, 1), "week": (0, 0, 7), "month": (0, 1, 0), "year": (1, 0, 0)}
_LOCAL_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y/%m/%d")
_EPOCH_TEXT = re.compile(r"([+-]?)(\d+)(?:\.(\d*))?\Z")


def _epoch(text: str) -> tuple[int, int] | None:
    """``@N`` (fractions too): whole seconds, floored as GNU's ``%s`` shows them, and
    nanoseconds."""
    m = _EPOCH_TEXT.match(text.strip())
    if not m:
        try:
            value = float(text)
        except ValueError:
            return None
        whole = int(value // 1)
        return whole, int(round((value - whole) * 1e9))
    sign, whole_text, frac = m.groups()
    nanos = int((frac or "")[:9].ljust(9, "0"))
    whole = int(whole_text)
    if sign == "-":
        whole, nanos = (-whole - 1, 1_000_000_000 - nanos) if nanos else (-whole, 0)
    return whole, nanos


def _shift(when: int, where: Zone, years: int, months: int, days: int) -> int:
    """Calendar arithmetic on the local clock, as GNU date moves by days, months and years
    (the clock time is kept across a change of offset; Jan 31 + 1 month is March 2 or 3)."""
    tm, _ = where.localtime(when)
    wall = wall_seconds(tm.tm_year + years, tm.tm_mon + months, tm.tm_mday + days, tm.tm_hour, tm.tm_min, tm.tm_sec)
    return where.mktime(wall)


def _parse_date(text: str, now: tuple[int, int], where: Zone) -> tuple[int, int] | None:
    """``-d``: seconds and nanoseconds since the epoch; None for a date GNU date calls
    invalid (including a local time the clocks skip)."""
    text = text.strip()
    if text.startswith("@"):
        return _epoch(text[1:])
    lowered = text.lower()
    if lowered in ("now", "today", ""):
        return now
    if lowered in ("yesterday", "tomorrow"):
        return _shift(now[0], where, 0, 0, 1 if lowered == "tomorrow" else -1), now[1]
    m = _RELATIVE.match(lowered)
    if m:
        n = int(m.group(1)) * (-1 if m.group(3) else 1)
        unit = m.group(2)
        if unit in _SECONDS:
            return now[0] + n * _SECONDS[unit], now[1]
        years, months, days = (n * part for part in _CALENDAR[unit])
        return _shift(now[0], where, years, months, days), now[1]
    try:
        utc = datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        pass
    else:
        return wall_seconds(utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second), 0
    for fmt in _LOCAL_FORMATS:
        try:
            fields = datetime.strptime(text, fmt)
        except ValueError:
            continue
        when = where.exact(wall_seconds(fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second))
        return None if when is None else (when, 0)
    return None


def run_date(sh: Shell, argv: list[str], io: IO) -> int:
    fmt = "%a %b %e %H:%M:%S %Z %Y"
    where = shell_zone(sh)
    # the date is read once every option is, in the zone they leave (-u after -d counts)
    source: tuple[str, str] | None = None
    args = argv[1:]
    k = 0
    while k < len(args):
        a = args[k]
        if a.startswith("+"):
            fmt = a[1:]
        elif a in ("-u", "--utc", "--universal"):
            where = UTC
        elif a in ("-d", "--date") and k + 1 < len(args):
            k += 1
            source = ("d", args[k])
        elif a.startswith("--date="):
            source = ("d", a[7:])
        elif a in ("-I", "--iso-8601", "-Idate"):
            fmt = "%Y-%m-%d"
        elif a in ("-Iseconds", "--iso-8601=seconds"):
            fmt = "%Y-%m-%dT%H:%M:%S%:z"
        elif a in ("-R", "--rfc-email"):
            fmt = "%a, %d %b %Y %H:%M:%S %z"
        elif a == "-r" and k + 1 < len(args):
            k += 1
            source = ("r", args[k])
        else:
            io.out(2).write(encode(f"date: invalid option -- '{a}'\n"))
            return 1
        k += 1
    now = divmod(time.time_ns(), 1_000_000_000)
    when: tuple[int, int] | None = now
    if source is not None and source[0] == "d":
        when = _parse_date(source[1], now, where)
    elif source is not None:
        try:
            when = divmod(fs.stat(sh.host_path(source[1])).st_mtime_ns, 1_000_000_000)
        except OSError:
            io.out(2).write(encode(f"date: {source[1]}: No such file or directory\n"))
            return 1
    if when is None:
        io.out(2).write(encode(f"date: invalid date '{source[1] if source else ''}'\n"))
        return 1
    io.out(1).write(encode(strftime(fmt, moment(when[0], where, when[1]), gnu=True) + "\n"))
    return 0


BUILTINS: dict[str, Entry] = {
    "date": Builtin(run_date, bash_builtin=False),
}

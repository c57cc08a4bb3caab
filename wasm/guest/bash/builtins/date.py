"""``date``: GNU date's formats (``strftime``, shared with printf's ``%(...)T``) and the
relative dates ``-d`` understands.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Callable

from ._common import Builtin, Entry, encode
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


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
    "Z": lambda dt: "UTC", "z": lambda dt: "+0000", "s": lambda dt: str(int(dt.timestamp())),
    "N": lambda dt: f"{dt.microsecond * 1000:09d}", "n": lambda dt: "\n", "t": lambda dt: "\t",
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
"""What each conversion prints (UTC, the C locale), looked up per directive: building them
all for every directive was most of a plain ``date``."""


def strftime(fmt: str, dt: datetime) -> str:
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
        d = fmt[i]
        i += 1
        field = _FIELDS.get(d)
        value = field(dt) if field is not None else None
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


def run_date(sh: Shell, argv: list[str], io: IO) -> int:
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
                io.out(2).write(encode(f"date: invalid date '{args[k]}'\n"))
                return 1
            now = parsed
        elif a.startswith("--date="):
            parsed = _parse_date(a[7:], now)
            if parsed is None:
                io.out(2).write(encode(f"date: invalid date '{a[7:]}'\n"))
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
                now = datetime.fromtimestamp(fs.stat(sh.host_path(args[k])).st_mtime, timezone.utc)
            except OSError:
                io.out(2).write(encode(f"date: {args[k]}: No such file or directory\n"))
                return 1
        else:
            io.out(2).write(encode(f"date: invalid option -- '{a}'\n"))
            return 1
        k += 1
    io.out(1).write(encode(strftime(fmt, now) + "\n"))
    return 0


BUILTINS: dict[str, Entry] = {
    "date": Builtin(run_date, bash_builtin=False),
}

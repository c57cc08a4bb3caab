"""``date``: GNU date's formats (``strftime``, shared with printf's ``%(...)T``) and the
relative dates ``-d`` understands.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


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

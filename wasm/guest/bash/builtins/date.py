"""``date``: GNU date's formats (``strftime``, shared with printf's ``%(...)T``), the
relative dates ``-d`` understands, and the zone both read from the shell's exported ``TZ``
(``tz.py``).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode
from ..timefmt import moment, strftime
from .. import fs
from ..tz import UTC, Zone, civil, wall_seconds, zone

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def shell_zone(sh: Shell) -> Zone:
    """The zone of the shell's ``TZ`` if exported: what ``date`` (a process in bash) sees,
    and what bash's ``tzset`` reads through its own ``getenv``, which sees exported
    variables only."""
    for scope in reversed(sh.state.scopes):
        var = scope.get("TZ")
        if var is not None:
            return zone(var.scalar() if "x" in var.attrs else None)
    return UTC


_RELATIVE = re.compile(r"([+-]?\d+)\s*(second|sec|minute|min|hour|day|week|month|year)s?(\s+ago)?\Z")
_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600}
_CALENDAR = {"day": (0, 0, 1), "week": (0, 0, 7), "month": (0, 1, 0), "year": (1, 0, 0)}
_CALENDAR_DATE = re.compile(
    r"(\d+)(?:-(\d\d?)-(\d\d?)|/(\d\d?)/(\d\d?))(?:[ T](\d\d?):(\d\d?)(?::(\d\d?)(?:[.,](\d+))?)?)?( ?Z)?\Z")
_EPOCH_TEXT = re.compile(r"([+-]?)(\d+)(?:\.(\d+))?\Z")
_TIME_T = (-2**63, 2**63 - 1)
_LAST_TM_YEAR = 2**31 - 1 + 1900


def _epoch(text: str) -> tuple[int, int] | None:
    """``@N`` (fractions too): whole seconds, floored as GNU's ``%s`` shows them, and
    nanoseconds."""
    m = _EPOCH_TEXT.match(text.strip())
    if not m:
        return None
    sign, whole_text, frac = m.groups()
    nanos = int((frac or "")[:9].ljust(9, "0"))
    whole = int(whole_text)
    if sign == "-":
        whole, nanos = (-whole - 1, 1_000_000_000 - nanos) if nanos else (-whole, 0)
    # a time_t holds it, or GNU date calls the date invalid
    return (whole, nanos) if _TIME_T[0] <= whole <= _TIME_T[1] else None


def _shift(when: int, where: Zone, years: int, months: int, days: int) -> int | None:
    """Calendar arithmetic on the local clock, as GNU date moves by days, months and years
    (the clock time is kept across a change of offset; Jan 31 + 1 month is March 2 or 3).
    None where GNU date calls it an invalid date: a ``struct tm`` field (an ``int``) that
    overflows, or a year no ``struct tm`` holds."""
    tm, _ = where.localtime(when)
    fields = (tm.tm_year - 1900 + years, tm.tm_mon - 1 + months, tm.tm_mday + days)
    if not all(-2**31 <= field < 2**31 for field in fields):
        return None
    wall = wall_seconds(tm.tm_year + years, tm.tm_mon + months, tm.tm_mday + days, tm.tm_hour, tm.tm_min, tm.tm_sec)
    if not -2**31 + 1900 <= civil(wall)[0] <= _LAST_TM_YEAR:
        return None
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
        day = _shift(now[0], where, 0, 0, 1 if lowered == "tomorrow" else -1)
        return None if day is None else (day, now[1])
    m = _RELATIVE.match(lowered)
    if m:
        n = int(m.group(1)) * (-1 if m.group(3) else 1)
        unit = m.group(2)
        if unit in _SECONDS:
            # GNU date adds in time_t: an overflow is an invalid date
            moved = n * _SECONDS[unit]
            fits = _TIME_T[0] <= moved <= _TIME_T[1] and _TIME_T[0] <= now[0] + moved <= _TIME_T[1]
            return (now[0] + moved, now[1]) if fits else None
        years, months, days = (n * part for part in _CALENDAR[unit])
        shifted = _shift(now[0], where, years, months, days)
        return None if shifted is None else (shifted, now[1])
    return _calendar_date(text, where)


def _calendar_date(text: str, where: Zone) -> tuple[int, int] | None:
    """``YYYY-MM-DD`` or ``YYYY/MM/DD``, then ``[ HH:MM[:SS[.frac]]]`` (or a ``T`` before it), then
    a ``Z`` for UTC: any year a ``struct tm`` holds, two digits meaning 1969-2068 as GNU
    date reads them."""
    m = _CALENDAR_DATE.match(text)
    if not m:
        return None
    year_text, month_text, day_text, slash_month, slash_day, hour, minute, second, fraction, utc = m.groups()
    nanos = int((fraction or "")[:9].ljust(9, "0"))
    year = int(year_text)
    if len(year_text) == 2:
        year += 1900 if year >= 69 else 2000
    month, day = int(month_text or slash_month), int(day_text or slash_day)
    clock = [int(v or 0) for v in (hour, minute, second)]
    if not (1 <= month <= 12 and 1 <= day <= _month_days(year, month) and clock[0] < 24 and clock[1] < 60
            and clock[2] < 60 and year <= _LAST_TM_YEAR):
        return None
    wall = wall_seconds(year, month, day, *clock)
    if utc:
        return wall, nanos
    when = where.exact(wall)
    return None if when is None else (when, nanos)


def _month_days(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


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
    shown = moment(when[0], where, when[1])
    if shown is None:
        io.out(2).write(encode(f"date: time '{when[0]}' is out of range\n"))
        return 1
    io.out(1).write(encode(strftime(fmt, shown, gnu=True) + "\n"))
    return 0


BUILTINS: dict[str, Entry] = {
    "date": Builtin(run_date, bash_builtin=False),
}

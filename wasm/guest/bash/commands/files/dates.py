"""Date strings for ``touch -d/-t`` and ``find -newermt``: the forms people write, in the
local time of the ``TZ`` the command runs with (``tz.py``; UTC when it names none).

GNU's ``parse_datetime`` grammar is large; this covers absolute ISO dates and times,
``@epoch``, month-name dates, ``now/today/yesterday/tomorrow`` and relative offsets such as
``2 days ago`` or ``+3 hours``. Anything else is rejected as GNU would reject garbage.
"""

from __future__ import annotations

import calendar
import re
import time

from ...tz import UTC, Zone, civil, wall_seconds


class DateError(ValueError):
    """The text is not a date this parser understands."""


_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_UNITS = {
    "sec": 1, "second": 1, "min": 60, "minute": 60, "hour": 3600, "day": 86400,
    "week": 604800, "fortnight": 1209600,
}
_ISO = re.compile(
    r"(\d{4,})-(\d{1,2})-(\d{1,2})"
    r"(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?"
    r"\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$",
    re.IGNORECASE,
)
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_TIME_T = (-2**63, 2**63 - 1)
_TM_YEARS = (-2**31 + 1900, 2**31 - 1 + 1900)
"""The years a C ``struct tm`` holds: GNU's ``parse_datetime`` calls a date past them invalid."""
_CALENDAR_UNITS = {"day": (0, 0, 1), "week": (0, 0, 7), "fortnight": (0, 0, 14), "month": (0, 1, 0), "year": (1, 0, 0)}
_REL = re.compile(r"([+-]?\d+)?\s*([a-z]+?)s?\b(\s+ago)?", re.IGNORECASE)


def parse_date(text: str, now: float | None = None, where: Zone = UTC) -> float:
    """Seconds since the epoch for a ``-d`` style date string, local times in ``where``."""
    now = time.time() if now is None else now
    s = " ".join(text.strip().split())
    if s.startswith("@"):
        m = re.fullmatch(r"([+-]?\d+)(\.\d+)?", s[1:].strip())
        if m is None or not _TIME_T[0] <= int(m[1]) <= _TIME_T[1]:
            raise DateError(text)  # a time_t holds it or it is no date
        return int(m[1]) + (float(m[2]) if m[2] else 0.0) * (-1 if m[1].startswith("-") else 1)
    low = s.lower()
    if low in ("", "now"):
        return now if low == "now" else _day(where, now, 0, 0, text)
    if low == "today":
        return now
    if low in ("yesterday", "tomorrow"):
        # a day on the local clock: the same time of day across a change of offset
        tm, _ = where.localtime(int(now // 1))
        moved = where.mktime(wall_seconds(tm.tm_year, tm.tm_mon, tm.tm_mday + (1 if low == "tomorrow" else -1),
                                          tm.tm_hour, tm.tm_min, tm.tm_sec))
        return moved + now % 1
    m = _ISO.match(s)
    if m:
        return _from_iso(m, text, where)
    m = re.match(r"(\d{4})(\d{2})(\d{2})$", s)
    if m:
        return _local(where, int(m[1]), int(m[2]), int(m[3]), 0, 0, 0, text)
    m = re.match(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$", s)
    if m:
        year = int(m[3])
        if len(m[3]) == 2:
            year += 1900 if year >= 69 else 2000
        return _local(where, year, int(m[1]), int(m[2]), int(m[4] or 0), int(m[5] or 0),
                      int(m[6] or 0), text)
    weekday = _weekday(low, now, where, text)
    if weekday is not None:
        return weekday
    named = _month_name_date(s, now, text, where)
    if named is not None:
        return named
    m = _TIME.match(s)
    if m:
        return _day(where, now, 0, int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3] or 0), text)
    return _relative(s, text, now, where)


def _from_iso(m: re.Match[str], text: str, where: Zone) -> float:
    fields = (int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0), int(m[5] or 0), int(m[6] or 0))
    zone = (m[8] or "").upper()
    stamp = _utc(*fields, text) if zone else _local(where, *fields, text)
    if m[7]:
        stamp += float("0." + m[7])
    if zone and zone not in ("Z", "UTC", "GMT"):
        sign = -1 if zone[0] == "+" else 1
        digits = zone[1:].replace(":", "")
        stamp += sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return stamp


def _month_name_date(s: str, now: float, text: str, where: Zone) -> float | None:
    parts = s.replace(",", " ").split()
    if len(parts) < 2:
        return None
    month = day = year = None
    clock = (0, 0, 0)
    rest: list[str] = []
    for part in parts:
        key = part[:3].lower()
        if month is None and key in _MONTHS and part.isalpha():
            month = _MONTHS[key]
        elif _TIME.match(part):
            t = _TIME.match(part)
            assert t is not None
            clock = (int(t[1]), int(t[2]), int(t[3] or 0))
        elif (part.isascii() and part.isdigit()) and day is None and len(part) <= 2:
            day = int(part)
        elif (part.isascii() and part.isdigit()) and year is None and len(part) == 4:
            year = int(part)
        else:
            rest.append(part)
    if month is None or day is None or rest:
        return None
    if year is None:
        year = where.localtime(int(now // 1))[0].tm_year
    return _local(where, year, month, day, *clock, text)


_DAYS = {d.lower(): i for i, d in enumerate(calendar.day_abbr)}


def _weekday(low: str, now: float, where: Zone, text: str) -> float | None:
    """``monday``, ``next friday``, ``last sunday``: midnight of that day."""
    words = low.split()
    shift = 0
    if len(words) == 2 and words[0] in ("next", "last", "this"):
        shift = {"next": 1, "last": -1, "this": 0}[words[0]]
        words = words[1:]
    if len(words) != 1 or words[0][:3] not in _DAYS or not words[0].isalpha():
        return None
    target = _DAYS[words[0][:3]]
    today = where.localtime(int(now // 1))[0].tm_wday
    ahead = (target - today) % 7
    if shift == -1:
        ahead = ahead - 7 if ahead else -7
    elif shift == 1 and ahead == 0:
        ahead = 7
    return _day(where, now, ahead, 0, text)


def _relative(s: str, text: str, now: float, where: Zone) -> float:
    """``2 days ago``, ``+3 hours``, ``next month``: days, months and years move the local
    calendar (each an ``int`` field of a ``struct tm``, which must not overflow), the rest
    are seconds added to a ``time_t``, as GNU's ``parse_datetime`` does."""
    shift = [0, 0, 0]
    seconds = 0
    pos = 0
    found = False
    while pos < len(s):
        if s[pos] == " ":
            pos += 1
            continue
        word = re.match(r"(next|last|this)\s+", s[pos:], re.IGNORECASE)
        factor = 1
        if word:
            factor = {"next": 1, "last": -1, "this": 0}[word[1].lower()]
            pos += word.end()
        m = _REL.match(s, pos)
        if not m or m.end() == pos:
            raise DateError(text)
        unit = m[2].lower()
        count = (int(m[1]) if m[1] else 1) * factor * (-1 if m[3] else 1)
        if unit in _CALENDAR_UNITS:
            shift = [a + count * b for a, b in zip(shift, _CALENDAR_UNITS[unit])]
        elif unit in _UNITS:
            seconds += count * _UNITS[unit]
        else:
            raise DateError(text)
        found = True
        pos = m.end()
    if not found:
        raise DateError(text)
    whole = int(now // 1)
    tm, _ = where.localtime(whole)
    fields = (tm.tm_year - 1900 + shift[0], tm.tm_mon - 1 + shift[1], tm.tm_mday + shift[2])
    if not all(-2**31 <= f < 2**31 for f in fields):
        raise DateError(text)
    wall = wall_seconds(tm.tm_year + shift[0], tm.tm_mon + shift[1], tm.tm_mday + shift[2], tm.tm_hour, tm.tm_min, tm.tm_sec)
    if not _TM_YEARS[0] <= civil(wall)[0] <= _TM_YEARS[1]:
        raise DateError(text)
    when = (where.mktime(wall) if shift != [0, 0, 0] else whole) + seconds
    if not (_TIME_T[0] <= seconds <= _TIME_T[1] and _TIME_T[0] <= when <= _TIME_T[1]):
        raise DateError(text)
    return when + now % 1


def _day(where: Zone, now: float, days: int, seconds: int, text: str) -> float:
    """``seconds`` into the local day ``days`` after today's."""
    tm, _ = where.localtime(int(now // 1))
    when = where.exact(wall_seconds(tm.tm_year, tm.tm_mon, tm.tm_mday + days) + seconds)
    if when is None:
        raise DateError(text)
    return float(when)


def _local(where: Zone, year: int, month: int, day: int, hour: int, minute: int, sec: int, text: str) -> float:
    """Those fields on the local clock; a time the clocks skip is no date, as for GNU."""
    when = where.exact(int(_utc(year, month, day, hour, minute, sec, text)))
    if when is None:
        raise DateError(text)
    return float(when)


def _utc(year: int, month: int, day: int, hour: int, minute: int, sec: int, text: str) -> float:
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and sec < 61):
        raise DateError(text)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day > (29 if leap else 28) if month == 2 else day > (30 if month in (4, 6, 9, 11) else 31):
        raise DateError(text)
    if year > _TM_YEARS[1]:
        raise DateError(text)
    return float(wall_seconds(year, month, day, hour, minute, sec))


def parse_touch_stamp(text: str, now: float | None = None, where: Zone = UTC) -> float:
    """``touch -t [[CC]YY]MMDDhhmm[.ss]``, on the local clock of ``where``."""
    now = time.time() if now is None else now
    m = re.fullmatch(r"(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?", text)
    if not m:
        raise DateError(text)
    digits = m[1]
    if len(digits) == 12:
        year = int(digits[:4])
        digits = digits[4:]
    elif len(digits) == 10:
        yy = int(digits[:2])
        year = 1900 + yy if yy >= 69 else 2000 + yy
        digits = digits[2:]
    else:
        year = where.localtime(int(now // 1))[0].tm_year
    month, day, hour, minute = (int(digits[i : i + 2]) for i in range(0, 8, 2))
    return _local(where, year, month, day, hour, minute, int(m[2] or 0), text)

"""Local time from the ``TZ`` variable: this module owns reading a POSIX ``TZ`` string as
glibc 2.36's ``tzset`` reads it, the offset and abbreviation in effect at an instant
(``localtime``), the way back from a local wall clock to an instant (``mktime``), and the
``%z`` text (``timefmt.py`` formats the rest). Every command that shows or reads local time (``date``, printf's
``%(...)T``, ``ls``, ``stat``, ``find``, ``diff``, ``tar``, ``gzip -l``, ``touch -d``,
awk, jq, git) asks :func:`zone` with the ``TZ`` its process would see.

The guest has no time-zone database, so only a ``TZ`` that needs none is honoured:

* ``std offset`` (``UTC-2``, ``EST5``, ``<+0530>-5:30``, ``FOO+3:15:10``) and
  ``std offset dst [offset][,start[/time],end[/time]]`` with the ``Jn``, ``n`` and
  ``Mm.w.d`` rule forms. Without a rule glibc reads the database's ``posixrules`` (America/
  New_York); we use the rule glibc falls back on without it, ``M3.2.0,M11.1.0``, which is the
  same for 2007 on. Invalid strings give what glibc makes of them: ``TZ=FOO`` is ``FOO`` at
  UTC, ``TZ=ab`` an unnamed UTC, ``FOO3BAR;`` daylight time nearly all year.
* unset, empty or ``:``: UTC, named ``UTC`` (the system zone here and in the guest).
* a zone of the database (``Europe/Paris``, ``:Asia/Tokyo``, any value with a ``/`` before
  its first ``,``, and the database's top-level names such as ``Japan`` or ``EST``): UTC,
  named ``UTC``, as before this module existed. The top-level names that are POSIX strings
  too (``EST5EDT``, ``CST6CDT``, ``MST7MDT``, ``PST8PDT``, ``GMT``, ``GMT0``, ``GMT+0``,
  ``GMT-0``, ``UTC``) are read as POSIX strings, which gives what the database gives (for
  2007 on).

Times are seconds since the epoch as ints; a "wall" time is a local clock reading counted
the same way (the seconds ``calendar.timegm`` would give for those fields). Everything is
integer arithmetic, so it needs nothing from the C library's time-zone code.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Mapping, NamedTuple

__all__ = ["UTC", "Local", "Rule", "Zone", "civil", "format_offset", "wall_seconds", "zone", "zone_of"]

_DAY = 86400

_DATABASE_ONLY = frozenset((
    "CET Cuba EET EST Egypt Eire Factory GB GB-Eire Greenwich HST Hongkong Iceland Iran "
    "Israel Jamaica Japan Kwajalein Libya MET MST NZ NZ-CHAT Navajo PRC Poland Portugal ROC "
    "ROK Singapore Turkey UCT Universal W-SU WET Zulu localtime posixrules").split())
"""The zones tzdata 2025b keeps at the top of the database: names, not POSIX strings, that
glibc would find as files."""


@dataclass(frozen=True)
class Rule:
    """One half of a zone: its abbreviation and offset, and when the change *into the other
    half* happens (the standard half holds daylight time's start). The defaults are glibc's
    zeroed rule, which is what a rule it could not read is left as."""

    name: str
    offset: int
    """Seconds east of UTC."""
    kind: str = "n"
    """``J`` (``Jn``: 1-365, February 29 never counted), ``n`` (0-365) or ``M`` (``Mm.w.d``)."""
    day: int = 0
    month: int = 0
    week: int = 0
    secs: int = 0
    """The local time of day of the change, in the time then in effect."""


class Local(NamedTuple):
    """What is in effect at an instant."""

    offset: int
    name: str
    isdst: bool


@dataclass(frozen=True)
class Zone:
    """A ``TZ`` as glibc keeps it: two halves, the same one twice when there is no daylight
    time."""

    std: Rule
    dst: Rule

    @property
    def std_name(self) -> str:
        """glibc's ``tzname[0]`` (what jq's ``%Z`` prints)."""
        return self.std.name

    @property
    def has_dst(self) -> bool:
        """Whether daylight time is ever in effect (what glibc's ``mktime`` looks for when
        asked for it)."""
        return not (self.std.offset == self.dst.offset and _is_zero(self.std) and _is_zero(self.dst))

    def at(self, when: int) -> Local:
        """The offset and abbreviation at ``when`` (glibc's ``__tz_compute``)."""
        std, dst = self.std, self.dst
        if std == dst:
            return Local(std.offset, std.name, False)
        year = _utc_year(when)
        start, end = _change(std, year), _change(dst, year)
        # start > end: the southern hemisphere's order, daylight time across the new year
        isdst = (when < end or when >= start) if start > end else (start <= when < end)
        half = dst if isdst else std
        return Local(half.offset, half.name, isdst)

    def mktime(self, wall: int, isdst: int = -1, guess: int = 0) -> int:
        """The instant whose local clock reads ``wall``, as glibc's ``mktime`` finds it
        (``isdst``: -1 unknown, else tm_isdst). glibc probes first with the offset its last
        call found, 0 in a fresh process: ``guess`` (seconds east; ``wall - result`` after a
        call), which decides which of a repeated hour's two instants is returned."""
        if isdst >= 0:
            if self.has_dst:
                return wall - (self.dst.offset if isdst else self.std.offset)
            # no daylight time to be found: glibc takes the request as an hour's shift
            return wall - self.std.offset - 3600 * (isdst > 0)
        first = wall - self.at(wall - guess).offset
        found = self.at(first)
        if first + found.offset == wall:
            return first
        second = wall - found.offset
        if second + self.at(second).offset == wall:
            return second
        # in a spring-forward gap the probes oscillate: glibc keeps the daylight one
        return first if found.isdst else second

    def exact(self, wall: int) -> int | None:
        """``mktime`` for a date parser: None when ``wall`` falls in a gap (GNU ``date -d``
        and ``touch -d`` call that an invalid date)."""
        when = self.mktime(wall)
        return when if when + self.at(when).offset == wall else None

    def localtime(self, when: int) -> tuple[time.struct_time, Local]:
        """The broken-down local time (tm_isdst set; no zone in it: see ``timefmt.c_strftime``)."""
        local = self.at(when)
        fields = civil(when + local.offset)
        return time.struct_time(fields + (int(local.isdst),)), local


def _is_zero(rule: Rule) -> bool:
    return rule.kind == "n" and rule.day == 0 and rule.secs == 0


UTC = Zone(Rule("UTC", 0), Rule("UTC", 0))


def zone_of(env: Mapping[str, str]) -> Zone:
    """The zone of a process with the exported variables ``env``."""
    return zone(env.get("TZ"))


@functools.lru_cache(maxsize=32)
def zone(value: str | None) -> Zone:
    """The zone ``TZ=value`` selects (None: TZ unset)."""
    if not value:
        return UTC
    # glibc ignores the leading colon: a file first, then the POSIX reading
    text = value[1:] if value.startswith(":") else value
    # a "/" before any rule (where "/time" may follow a ",") makes a path in the database
    if not text or "/" in text.split(",", 1)[0] or text in _DATABASE_ONLY:
        return UTC
    return _parse(text)


def _parse(text: str) -> Zone:
    """glibc's ``__tzset_parse_tz``: each part read in turn, and what could not be read left
    as glibc leaves it (names empty, offsets 0, rules zeroed)."""
    std_name, pos = _name(text, 0)
    if std_name is None:
        return Zone(Rule("", 0), Rule("", 0))
    std_offset = None
    if pos < len(text) and (text[pos] in "+-" or "0" <= text[pos] <= "9"):
        std_offset, pos = _offset(text, pos)
    if std_offset is None:
        return Zone(Rule(std_name, 0), Rule("", 0))
    std = Rule(std_name, std_offset)
    if pos >= len(text):
        return Zone(std, std)
    dst = Rule("", 0)
    dst_name, after = _name(text, pos)
    if dst_name is not None:
        dst_offset, pos = _offset(text, after)
        dst = Rule(dst_name, std_offset + 3600 if dst_offset is None else dst_offset)
    # an empty rule (no rule, or a lone comma) is glibc's default, US rules since 2007
    start, pos, ok = _rule(text, pos, std, (3, 2, 0))
    if not ok:
        return Zone(start, dst)
    # the end rule as far as it could be read; glibc reads nothing after it
    return Zone(start, _rule(text, pos, dst, (11, 1, 0))[0])


def _name(text: str, pos: int) -> tuple[str | None, int]:
    end = pos
    while end < len(text) and ("a" <= text[end] <= "z" or "A" <= text[end] <= "Z"):
        end += 1
    if end - pos >= 3:
        return text[pos:end], end
    if not text.startswith("<", pos):
        return None, pos
    end = pos + 1
    while end < len(text) and (text[end].isascii() and (text[end].isalnum() or text[end] in "+-")):
        end += 1
    if end >= len(text) or text[end] != ">" or end - (pos + 1) < 3:
        return None, pos
    return text[pos + 1:end], end + 1


def _offset(text: str, pos: int) -> tuple[int | None, int]:
    """``[+|-]hh[:mm[:ss]]`` as seconds east (POSIX counts west), each part capped as glibc
    caps it (24 hours, 59 minutes, 59 seconds); None when no hour is there."""
    sign = 1 if text.startswith("-", pos) else -1
    if pos < len(text) and text[pos] in "+-":
        pos += 1
    parts, end = _scan_clock(text, pos)
    if not parts:
        return None, pos
    caps = (24, 59, 59)
    hh, mm, ss = (min(v, cap) for v, cap in zip(parts + [0] * (3 - len(parts)), caps))
    return sign * (hh * 3600 + mm * 60 + ss), end


def _scan_clock(text: str, pos: int) -> tuple[list[int], int]:
    """sscanf's ``%hu%n:%hu%n:%hu%n``: the numbers read and where the last one ended."""
    return _scan_three(text, pos, ":")


def _scan_three(text: str, pos: int, separator: str) -> tuple[list[int], int]:
    """Up to three ``%hu`` numbers with ``separator`` between them: those read, and where
    the last one ended."""
    values: list[int] = []
    end = pos
    while len(values) < 3:
        if values:
            if not text.startswith(separator, end):
                break
            number = _scan_hu(text, end + 1)
        else:
            number = _scan_hu(text, end)
        if number is None:
            break
        value, end = number
        values.append(value)
    return values, end


def _scan_hu(text: str, pos: int) -> tuple[int, int] | None:
    """sscanf's ``%hu``: blanks, a sign, digits; the value wraps to 16 bits as C's does."""
    while pos < len(text) and text[pos] in " \t\n\v\f\r":
        pos += 1
    negative = text.startswith("-", pos)
    if pos < len(text) and text[pos] in "+-":
        pos += 1
    end = pos
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    if end == pos:
        return None
    value = min(int(text[pos:end]), 2 ** 64 - 1)
    return (-value if negative else value) % 2 ** 64 % 2 ** 16, end


def _rule(text: str, pos: int, half: Rule, default: tuple[int, int, int]) -> tuple[Rule, int, bool]:
    """glibc's ``parse_rule`` for one change: the rule as far as it was read (glibc fills
    the fields in place, so a failed rule keeps those it reached) and whether it was read."""
    if text.startswith(",", pos):
        pos += 1
    if pos >= len(text):
        month, week, day = default
        return Rule(half.name, half.offset, "M", day, month, week, 7200), pos, True
    c = text[pos]
    if c == "J" or "0" <= c <= "9":
        kind = "J" if c == "J" else "n"
        if kind == "J":
            pos += 1
            if pos >= len(text) or not "0" <= text[pos] <= "9":
                return Rule(half.name, half.offset, kind), pos, False
        end = pos
        while end < len(text) and "0" <= text[end] <= "9":
            end += 1
        day = int(text[pos:end])
        if day > 365 or (kind == "J" and day == 0):
            return Rule(half.name, half.offset, kind), pos, False
        rule, pos = Rule(half.name, half.offset, kind, day), end
    elif c == "M":
        values, pos = _scan_month_rule(text, pos + 1)
        month, week, day = values + [0] * (3 - len(values))
        rule = Rule(half.name, half.offset, "M", day, month, week)
        if len(values) < 3 or not (1 <= month <= 12 and 1 <= week <= 5 and day <= 6):
            return rule, pos, False
    else:
        return half, pos, False
    if pos < len(text) and text[pos] not in "/,":
        return rule, pos, False
    secs = 7200
    if text.startswith("/", pos):
        pos += 1
        if pos >= len(text):
            return rule, pos, False
        negative = text[pos] == "-"
        pos += negative
        parts, end = _scan_clock(text, pos)
        hh, mm, ss = (parts + [2, 0, 0][len(parts):]) if parts else [2, 0, 0]
        secs = (-1 if negative else 1) * (hh * 3600 + mm * 60 + ss)
        pos = end if parts else pos
    return Rule(rule.name, rule.offset, rule.kind, rule.day, rule.month, rule.week, secs), pos, True


def _scan_month_rule(text: str, pos: int) -> tuple[list[int], int]:
    """``m.w.d`` after the ``M`` (sscanf's ``M%hu.%hu.%hu%n``): the numbers it assigned
    (glibc keeps them, and uses them, even when the rule then fails) and where the third
    ended."""
    values, end = _scan_three(text, pos, ".")
    return values, end if len(values) == 3 else pos


_MONTH_START = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365,
                0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366)
"""glibc's ``__mon_yday``: days before each month, a common year's row then a leap year's.
One flat tuple, because a rule read with a month outside 1-12 is still used, and glibc then
reads the neighbouring row."""


def _month_start(index: int) -> int:
    """``_MONTH_START[index]`` as glibc 2.36 reads it for any month (``M0``, ``M13``...
    are read, then rejected, then used all the same). Outside the table: what this build of
    glibc was seen to behave as if it read: 0 before the table, the year's end after it."""
    if index < 0:
        return 0
    return _MONTH_START[index] if index < len(_MONTH_START) else 366


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _cdiv(a: int, b: int) -> int:
    """C's division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _change(rule: Rule, year: int) -> int:
    """When ``rule``'s change happens in ``year`` (glibc's ``compute_change``; like glibc it
    counts from 1970 for any earlier year)."""
    t = 0
    if year > 1970:
        t = ((year - 1970) * 365 + (_cdiv(year - 1, 4) - 1970 // 4) - (_cdiv(year - 1, 100) - 1970 // 100)
             + (_cdiv(year - 1, 400) - 1970 // 400)) * _DAY
    leap = _leap(year)
    if rule.kind == "J":
        t += (rule.day - 1) * _DAY + (_DAY if rule.day >= 60 and leap else 0)
    elif rule.kind == "n":
        t += rule.day * _DAY
    else:
        index = 13 * leap + rule.month
        t += _month_start(index - 1) * _DAY
        # Zeller's congruence: the weekday of the month's first day
        m1 = (rule.month + 9) % 12 + 1
        yy0 = year - 1 if rule.month <= 2 else year
        yy1, yy2 = _cdiv(yy0, 100), yy0 - _cdiv(yy0, 100) * 100
        dow = _cdiv(26 * m1 - 2, 10) + 1 + yy2 + _cdiv(yy2, 4) + _cdiv(yy1, 4) - 2 * yy1
        dow -= _cdiv(dow, 7) * 7
        if dow < 0:
            dow += 7
        d = rule.day - dow
        if d < 0:
            d += 7
        length = _month_start(index) - _month_start(index - 1)
        for _ in range(1, rule.week):
            if d + 7 >= length:
                break
            d += 7
        t += d * _DAY
    return t - rule.offset + rule.secs


def _days_from_civil(year: int, month: int, day: int) -> int:
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def _utc_year(when: int) -> int:
    return _civil_from_days(when // _DAY)[0]


def civil(wall: int) -> tuple[int, int, int, int, int, int, int, int]:
    """struct_time's first eight fields for a wall time (Monday is weekday 0)."""
    days, secs = divmod(wall, _DAY)
    year, month, day = _civil_from_days(days)
    yday = days - _days_from_civil(year, 1, 1) + 1
    return (year, month, day, secs // 3600, secs // 60 % 60, secs % 60, (days + 3) % 7, yday)


def wall_seconds(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    """The wall time of those fields, out-of-range ones carried as ``mktime`` carries them
    (month 13 is January of the next year, day 0 the last of the month before)."""
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return (_days_from_civil(year, month, 1) + day - 1) * _DAY + hour * 3600 + minute * 60 + second


def format_offset(offset: int, colons: int = 0) -> str:
    """``%z`` (``+hhmm``), ``%:z`` (``+hh:mm``), ``%::z`` (``+hh:mm:ss``) and ``%:::z``
    (as few parts as say it: ``+05:30``, ``-03``). Seconds are dropped, not rounded."""
    sign = "-" if offset < 0 else "+"
    hours, rest = divmod(abs(offset), 3600)
    minutes, seconds = divmod(rest, 60)
    if colons == 0:
        return f"{sign}{hours:02d}{minutes:02d}"
    if colons == 1:
        return f"{sign}{hours:02d}:{minutes:02d}"
    if colons == 2 or seconds:
        return f"{sign}{hours:02d}:{minutes:02d}:{seconds:02d}"
    return f"{sign}{hours:02d}" + (f":{minutes:02d}" if minutes else "")

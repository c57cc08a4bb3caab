"""Date builtins: ``gmtime``, ``localtime``, ``mktime``, ``strftime``, ``strptime`` (jq 1.6 on glibc)."""

from __future__ import annotations

import calendar
import math
import re
import time
from typing import Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value
from ..operators import is_number
from .registry import each, native, simple
from ....timefmt import c_strftime
from ....tz import UTC, Local, Zone, civil, wall_seconds, zone


def _zone(interp: Interp) -> Zone:
    return zone(interp.env_vars.get("TZ"))


_TM_YEARS = (-2**31 + 1900, 2**31 - 1 + 1900)
"""The years a C ``struct tm`` holds: ``gmtime_r`` and ``localtime_r`` fail outside them."""
_CONVERTING = {"gmtime": "errror converting number of seconds since epoch to datetime",
               "localtime": "error converting number of seconds since epoch to datetime"}
"""jq 1.6's messages when the C library cannot break a time down (gmtime's typo included)."""


def _broken_down(v: Value, where: Zone | None = None, name: str = "gmtime") -> list[Value]:
    """jq's ``gmtime`` (``where`` None) and ``localtime``: C's ``time_t secs = v`` truncates,
    then the fraction below ``floor(v)`` is added to the seconds."""
    if not is_number(v):
        raise JqError(f"{name}() requires numeric inputs")
    # x86 turns NaN, an infinity or a double past time_t's range into INT64_MIN, which no
    # year holds
    if not math.isfinite(v) or not -2**63 <= v < 2**63:
        raise JqError(_CONVERTING[name])
    seconds = int(v)
    frac = v - math.floor(v)
    local = (where or UTC).at(seconds)
    year, month, day, hour, minute, second, weekday, yday = civil(seconds + local.offset)
    if not _TM_YEARS[0] <= year <= _TM_YEARS[1]:
        raise JqError(_CONVERTING[name])
    return [float(year), float(month - 1), float(day), float(hour), float(minute),
            float(second) + frac, float((weekday + 1) % 7), float(yday - 1)]


def _to_struct(v: Value, name: str) -> time.struct_time:
    if is_number(v):
        v = _broken_down(v)
    if not isinstance(v, list) or len(v) < 6 or not all(is_number(x) for x in v[:6]):
        raise JqError(f"{name} requires parsed datetime inputs")
    year, mon, mday, hour, minute, sec = (int(x) for x in v[:6])
    wday = int(v[6]) if len(v) > 6 else 0
    yday = int(v[7]) if len(v) > 7 else 0
    return time.struct_time((year, mon + 1, mday, hour, minute, sec, (wday - 1) % 7, yday + 1, 0))


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_DIRECTIVES = {
    "Y": r"(?P<Y>[+-]?\d{1,4})", "m": r"(?P<m>\d{1,2})", "d": r"(?P<d>\d{1,2})", "e": r"\s*(?P<d>\d{1,2})",
    "H": r"(?P<H>\d{1,2})", "M": r"(?P<M>\d{1,2})", "S": r"(?P<S>\d{1,2})", "j": r"(?P<j>\d{1,3})",
    "y": r"(?P<y>\d{2})", "b": r"(?P<b>[A-Za-z]{3,9})", "B": r"(?P<b>[A-Za-z]{3,9})", "h": r"(?P<b>[A-Za-z]{3,9})",
    "a": r"(?P<a>[A-Za-z]{3,9})", "A": r"(?P<a>[A-Za-z]{3,9})", "Z": r"(?P<Z>[A-Za-z]+)",
    "z": r"(?P<z>[+-]\d{2}:?\d{2}|Z)", "p": r"(?P<p>[AaPp][Mm])", "%": "%",
    "T": r"(?P<H>\d{1,2}):(?P<M>\d{1,2}):(?P<S>\d{1,2})", "F": r"(?P<Y>[+-]?\d{1,4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})",
    "D": r"(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{2})", "s": r"(?P<s>-?\d+)",
}


def _parse_time(text: str, fmt: str, where: Zone = UTC) -> time.struct_time:
    """strptime for the C locale without the _strptime module (which needs threads).
    Like glibc, fields the format does not mention stay at their defaults, and ``%s`` gives
    the local time in ``where``."""
    parts: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d not in _DIRECTIVES:
                raise ValueError(fmt)
            parts.append(_DIRECTIVES[d])
            i += 2
        elif c.isspace():
            parts.append(r"\s*")
            i += 1
        else:
            parts.append(re.escape(c))
            i += 1
    m = re.fullmatch("".join(parts), text, re.IGNORECASE)
    if m is None:
        raise ValueError(text)
    g = m.groupdict()
    if g.get("s") is not None:
        return where.localtime(int(g["s"]))[0]
    year = int(g["Y"]) if g.get("Y") else (int(g["y"]) + (2000 if int(g["y"]) < 69 else 1900) if g.get("y") else 1900)
    month = int(g["m"]) if g.get("m") else 1
    if g.get("b"):
        month = _MONTHS.index(g["b"][:3].lower()) + 1
    day = int(g["d"]) if g.get("d") else 1
    hour = int(g["H"]) if g.get("H") else 0
    if g.get("p") and g["p"].lower() == "pm" and hour < 12:
        hour += 12
    minute = int(g["M"]) if g.get("M") else 0
    second = int(g["S"]) if g.get("S") else 0
    if g.get("j"):
        stamp = calendar.timegm((year, 1, 1, hour, minute, second, 0, 0, 0)) + (int(g["j"]) - 1) * 86400
        return time.gmtime(stamp)
    stamp = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    return time.gmtime(stamp)


@simple("gmtime")
def _gmtime(v: Value) -> Value:
    return _broken_down(v)


@native("localtime")
def _localtime(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield _broken_down(v, _zone(interp), "localtime")


@native("mktime")
def _mktime(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    """jq 1.6 as Debian builds it (no ``timegm``): C's ``mktime`` of the fields as standard
    time, plus the offset then in effect, which is the fields read as UTC except in
    daylight time."""
    if not isinstance(v, list):
        raise JqError("mktime requires array inputs")
    st = _to_struct(v, "mktime")
    where = _zone(interp)
    when = where.mktime(wall_seconds(*st[:6]), 0)
    yield float(when + where.at(when).offset)


def _format(interp: Interp, v: Value, f: Closure, name: str, where: Zone | None) -> Iterator[Value]:
    """``strftime``/``strflocaltime``: the fields go through jq's array, so the C library
    sees no zone in them: ``%Z`` is ``tzname[0]``, ``%z`` is ``+0000``."""
    for fmt in each(interp, f, v):
        if not isinstance(fmt, str):
            raise JqError(f"{name} requires a string format")
        fields = _broken_down(v, where, "localtime") if is_number(v) and where is not None else v
        yield c_strftime(fmt, _to_struct(fields, name), Local(0, _zone(interp).std_name, False))


@native("strftime", 1)
def _strftime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    yield from _format(interp, v, f, "strftime/1", None)


@native("strflocaltime", 1)
def _strflocaltime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    yield from _format(interp, v, f, "strflocaltime/1", _zone(interp))


@native("strptime", 1)
def _strptime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for fmt in each(interp, f, v):
        if not isinstance(v, str) or not isinstance(fmt, str):
            raise JqError("strptime/1 requires string inputs and arguments")
        try:
            t = _parse_time(v, fmt, _zone(interp))
        except ValueError:
            raise JqError(f"date \"{v}\" does not match format \"{fmt}\"") from None
        seconds = float(calendar.timegm(t))
        if not any(d in fmt for d in ("%d", "%e", "%j", "%F", "%D", "%x", "%c", "%s")):
            # glibc leaves tm_mday at 0 when the format has no day (Python assumes 1).
            seconds -= 86400
        yield _broken_down(seconds)

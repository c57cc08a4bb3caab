"""``bash/tz.py``: POSIX ``TZ`` strings read as glibc reads them.

The parser's structure is pinned directly below; what the zones answer is compared with
glibc 2.36's own answers, recorded on this machine into ``fixtures/tz_glibc.json`` by
running this file as a script (``PYTHONPATH=wasm/guest python tests/bash/test_tz.py
--record``): ``localtime`` in process (Python's ``time`` module is glibc's), ``mktime``
from a fresh ``mawk`` per call (glibc's ``mktime`` remembers its last offset within a
process) and ``date -d`` for the parser's strictness. ``TZDIR`` names no directory while
recording, so glibc has no database, as the guest has none: a daylight-time string
without rules then takes glibc's built-in rule rather than the database's ``posixrules``.
The tests themselves run no C library code.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bash.timefmt import c_strftime
from bash.tz import UTC, Local, Rule, Zone, format_offset, wall_seconds, zone

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "tz_glibc.json"
NO_DATABASE = "/nonexistent-zoneinfo"

CURATED = [
    "UTC-2", "UTC+3", "EST5", "<+0530>-5:30", "<-03>3", "FOO+3:15:10", "FOO-0", "FOO24", "FOO25",
    "FOO-24:59:59", "FOO+1:99", "FOO+1:60:60", "FOO+ 3", "FOO+-3", "FOO 3", "FOO", "FOO+", "ab",
    "<ab>3", "<abc>3", "<a-b>3", "<FOO3BAR", "FOO3<BAR>", "FOO3<BA>,M3.2.0,M11.1.0", ":FOO3",
    "FOO3BAR", "FOO3BAR,", "FOO3BAR,,", "FOO3BAR;", "FOO3BAR+,M3.2.0,M11.1.0", "ABC3XY",
    "FOO3BAR,M3.2.0,M11.1.0", "FOO3BAR,M3.2.0", "FOO3BAR,M3", "FOO3BAR,M3.2", "FOO3BAR,M3.2.0,M11",
    "AAA-10BBB,M10.1.0,M4.1.0/3", "NZST-12:00:00NZDT-13:00:00,M10.1.0,M3.3.0",
    "FOO-1BAR-2:30,M3.5.0/1,M10.5.0/2", "FOO3BAR,J60/0,J300/0", "FOO3BAR,59,300", "FOO3BAR,J59/0,J60/0",
    "FOO-14BAR,0,365", "FOO3BAR,0/0,365/24", "FOO3BAR4:30,J1,J365", "WART4WARST,J1/0,J365/25",
    "FOO3BAR,M3.2.0/-1,M11.1.0/26", "FOO3BAR,M3.2.0/167,M11.1.0/-167", "IST-2IDT,M3.4.4/26,M10.5.0",
    "FOO3BAR,M3.2.0/1:30:15,M11.1.0/-0:30", "FOO3BAR,M3.2.0/ 4,M11.1.0", "FOO3BAR,M3.2.0/", "FOO3BAR,M3.2.0/-",
    "FOO3BAR,M3.2.0/xx", "FOO3BAR,M3.2.0x,M11.1.0", "FOO3BAR,M3.2.0,M11.1.0junk",
    "FOO3BAR,M3.2.0,M11.1.0/3junk", "FOO3BAR,Jx", "FOO3BAR,J0", "FOO3BAR,366", "FOO3BAR,M3.6.0,M11.1.0",
    "FOO3BAR,M3.0.0,M11.1.0", "FOO3BAR,M3.5.9,M11.1.0", "FOO3BAR,M2.5.4,M2.5.6", "FOO3BAR,M12.5.0/23,M1.1.0",
    "FOO3BAR-5:30,M3.2.0/-1,M11.1.0/26", "UTC", "GMT", "GMT0", "GMT+0", "EST5EDT", "A B C",
]
"""Every form the parser reads, and what glibc makes of strings it cannot read."""

INSTANTS = [
    -2208988800, -1000000000, -86400, -1, 0, 1, 86399, 951782400, 1677639600, 1680364800,
    1704067200, 1709182800, 1709262000, 1710036000, 1710046799, 1710046800, 1711846800,
    1712419199, 1712419200, 1717243200, 1728143999, 1728144000, 1729992600, 1729994400,
    1730602800, 1730606399, 1730606400, 1730692800, 1735600000, 2000000000, 4102444800,
]

MKTIME = [
    ("FOO3BAR,M3.2.0,M11.1.0", "2024 03 10 02 30 00"), ("FOO3BAR,M3.2.0,M11.1.0", "2024 11 03 01 30 00"),
    ("FOO3BAR,M3.2.0,M11.1.0", "2024 06 01 12 00 00 0"), ("FOO3BAR,M3.2.0,M11.1.0", "2024 01 01 12 00 00 1"),
    ("FOO3BAR,M3.2.0,M11.1.0", "2024 03 10 02 30 00 0"), ("FOO3BAR,M3.2.0,M11.1.0", "2024 03 10 02 30 00 1"),
    ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024 04 07 02 30 00"), ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024 10 06 02 30 00"),
    ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024 04 07 02 30 00 1"), ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024 04 07 02 30 00 0"),
    ("UTC-2", "2024 06 01 12 00 00"), ("UTC-2", "2024 06 01 12 00 00 1"), ("UTC", "2024 06 01 12 00 00 1"),
    ("ab", "2024 06 01 12 00 00 1"), ("FOO", "1970 01 01 00 00 00"), ("UTC-2", "2024 13 01 00 00 00"),
    ("UTC-2", "2024 02 30 25 61 61"), ("FOO-1BAR-2:30,M3.5.0/1,M10.5.0/2", "2024 10 27 02 00 00"),
    ("FOO-1BAR-2:30,M3.5.0/1,M10.5.0/2", "2024 03 31 02 00 00"),
]
"""(TZ, mawk's ``mktime`` argument: the fields, then tm_isdst if given)."""

DATES = [
    ("FOO3BAR,M3.2.0,M11.1.0", "2024-03-10 01:59:59"), ("FOO3BAR,M3.2.0,M11.1.0", "2024-03-10 02:00:00"),
    ("FOO3BAR,M3.2.0,M11.1.0", "2024-03-10 02:59:59"), ("FOO3BAR,M3.2.0,M11.1.0", "2024-03-10 03:00:00"),
    ("FOO3BAR,M3.2.0,M11.1.0", "2024-11-03 00:59:59"), ("FOO3BAR,M3.2.0,M11.1.0", "2024-11-03 01:00:00"),
    ("FOO3BAR,M3.2.0,M11.1.0", "2024-11-03 01:59:59"), ("FOO3BAR,M3.2.0,M11.1.0", "2024-11-03 02:00:00"),
    ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024-04-07 02:30:00"), ("AAA-10BBB,M10.1.0,M4.1.0/3", "2024-10-06 02:30:00"),
    ("FOO-1BAR-2:30,M3.5.0/1,M10.5.0/2", "2024-03-31 01:15:00"), ("UTC-2", "2024-01-01 12:00:00"),
]
"""(TZ, a local time for ``date -d``: the instant, or none when the clocks skip it)."""


def _random_strings(count: int, seed: int) -> list[str]:
    """Strings built from the grammar's parts, some of them broken; months stay in 1-12
    (outside it glibc reads past its table, which nothing can promise)."""
    rnd = random.Random(seed)

    def name() -> str:
        return rnd.choice(["FOO", "BAR", "EST", "ABCD", "xyz", "Ab", "<+0530>", "<-03>", "<AB>", "<ab", ""])

    def offset() -> str:
        text = rnd.choice(["", "+", "-"]) + str(rnd.choice([0, 1, 3, 5, 12, 14, 23, 24, 25, 99]))
        if rnd.random() < 0.4:
            text += ":" + str(rnd.choice([0, 30, 45, 59, 60, 99]))
        if rnd.random() < 0.2:
            text += ":" + str(rnd.choice([0, 10, 59, 60]))
        return text

    def rule() -> str:
        kind = rnd.random()
        if kind < 0.5:
            text = f"M{rnd.randint(1, 12)}.{rnd.choice([0, 1, 2, 4, 5, 6])}.{rnd.choice([0, 1, 4, 6, 7])}"
        elif kind < 0.75:
            text = f"J{rnd.choice([0, 1, 59, 60, 61, 200, 365, 366])}"
        else:
            text = str(rnd.choice([0, 1, 58, 59, 60, 200, 364, 365, 366]))
        if rnd.random() < 0.4:
            text += "/" + rnd.choice(["", "-"]) + str(rnd.choice([0, 1, 2, 23, 24, 25, 26, 167]))
            text += rnd.choice(["", ":30", ":00:15", ":xx"])
        return text

    strings: list[str] = []
    while len(strings) < count:
        text = name() + offset()
        if rnd.random() > 0.15:
            text += name() + (offset() if rnd.random() < 0.5 else "")
            text += "," + rule() + rnd.choice([",", ",", ";", ""]) + rule()
        if "/" not in text.split(",", 1)[0]:
            strings.append(text)
    return strings


STRINGS = CURATED + _random_strings(40, 20261204)


def _glibc_localtime(value: str) -> list[list[Any]]:
    os.environ["TZ"] = value
    time.tzset()
    answers: list[list[Any]] = []
    for when in INSTANTS:
        tm = time.localtime(when)
        assert tm[:6] == time.gmtime(when + tm.tm_gmtoff)[:6]  # the fields follow from the offset
        answers.append([tm.tm_gmtoff, tm.tm_zone, tm.tm_isdst])
    return answers


def _run(argv: list[str], value: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TZ": value, "TZDIR": NO_DATABASE}
    return subprocess.run(argv, env=env, capture_output=True, text=True, check=False)


def record() -> None:
    saved = {name: os.environ.get(name) for name in ("TZ", "TZDIR")}
    os.environ["TZDIR"] = NO_DATABASE
    try:
        localtime = {value: _glibc_localtime(value) for value in STRINGS}
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old
        time.tzset()
    mktime = [[value, fields, int(_run(["mawk", f'BEGIN {{ print mktime("{fields}") }}'], value).stdout)]
              for value, fields in MKTIME]
    dates = []
    for value, text in DATES:
        done = _run(["date", "-d", text, "+%s"], value)
        dates.append([value, text, int(done.stdout) if done.returncode == 0 else None])
    lines = [f"  {json.dumps(value)}: {json.dumps(answers, separators=(',', ':'))}"
             for value, answers in localtime.items()]
    FIXTURE.write_text('{"instants": ' + json.dumps(INSTANTS) + ',\n"localtime": {\n' + ",\n".join(lines)
                       + "\n},\n" + f'"mktime": {json.dumps(mktime)},\n"date": {json.dumps(dates)}}}\n')


RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}


@pytest.mark.parametrize("value", sorted(RECORDED.get("localtime", {})))
def test_localtime_matches_glibc(value: str) -> None:
    where = zone(value)
    for when, (offset, name, isdst) in zip(RECORDED["instants"], RECORDED["localtime"][value]):
        tm, local = where.localtime(when)
        assert (local.offset, local.name, int(local.isdst)) == (offset, name, isdst), when
        assert tm[:6] == time.gmtime(when + offset)[:6], when


@pytest.mark.parametrize("value, fields, expected", RECORDED.get("mktime", []))
def test_mktime_matches_glibc_from_a_fresh_process(value: str, fields: str, expected: int) -> None:
    numbers = [int(n) for n in fields.split()]
    isdst = numbers[6] if len(numbers) > 6 else -1
    assert zone(value).mktime(wall_seconds(*numbers[:6]), isdst) == expected


@pytest.mark.parametrize("value, text, expected", RECORDED.get("date", []))
def test_exact_refuses_what_date_refuses(value: str, text: str, expected: int | None) -> None:
    day, clock = text.split()
    assert zone(value).exact(wall_seconds(*map(int, day.split("-")), *map(int, clock.split(":")))) == expected


def test_the_standard_forms() -> None:
    assert zone("UTC-2") == Zone(Rule("UTC", 7200), Rule("UTC", 7200))
    assert zone("EST5") == Zone(Rule("EST", -18000), Rule("EST", -18000))
    assert zone("<+0530>-5:30") == Zone(Rule("+0530", 19800), Rule("+0530", 19800))
    assert zone("FOO+3:15:10").std.offset == -(3 * 3600 + 15 * 60 + 10)


def test_the_rule_forms() -> None:
    assert zone("NZST-12NZDT,M9.5.0,M4.1.0/3") == Zone(
        Rule("NZST", 43200, "M", day=0, month=9, week=5, secs=7200),
        Rule("NZDT", 46800, "M", day=0, month=4, week=1, secs=10800))
    assert zone("AAA3BBB,J60/-1:30,300/26") == Zone(
        Rule("AAA", -10800, "J", day=60, secs=-5400), Rule("BBB", -7200, "n", day=300, secs=93600))


def test_daylight_time_without_a_rule_takes_the_us_rule() -> None:
    us = (Rule("FOO", -10800, "M", day=0, month=3, week=2, secs=7200),
          Rule("BAR", -7200, "M", day=0, month=11, week=1, secs=7200))
    assert zone("FOO3BAR") == zone("FOO3BAR,") == Zone(*us)


def test_what_glibc_makes_of_broken_strings() -> None:
    assert zone("FOO") == Zone(Rule("FOO", 0), Rule("", 0))
    assert zone("ab") == Zone(Rule("", 0), Rule("", 0))
    assert zone("FOO25").std.offset == -24 * 3600
    # a rule that fails keeps the fields read before the failure, and the next is not read
    assert zone("FOO3BAR,M3.2.0x,M11.1.0") == Zone(
        Rule("FOO", -10800, "M", day=0, month=3, week=2, secs=0), Rule("BAR", -7200))


def test_unset_empty_colon_and_database_zones_are_utc() -> None:
    for value in (None, "", ":", "Europe/Paris", ":Asia/Tokyo", "/usr/share/zoneinfo/Japan", "Japan",
                  "EST", "Zulu"):
        assert zone(value) is UTC, value
    assert zone(":FOO3") == zone("FOO3")
    # a "/" after the first "," is a rule's time, not a path
    assert zone("FOO3BAR,M3.2.0/1,M11.1.0").std.secs == 3600


def test_offsets_as_date_prints_them() -> None:
    # from the fixture of fid_tz's date-colon-z-forms, recorded from GNU date
    seconds = -(3 * 3600 + 15 * 60 + 10)
    assert [format_offset(seconds, n) for n in range(4)] == ["-0315", "-03:15", "-03:15:10", "-03:15:10"]
    assert format_offset(7200, 3) == "+02" and format_offset(19800, 3) == "+05:30"
    assert format_offset(24 * 3600 + 59 * 60 + 59) == "+2459"


def test_c_strftime_takes_the_zone_from_local_not_the_struct() -> None:
    tm, _ = UTC.localtime(0)
    assert c_strftime("%H %Z %z %%z %%%Z", tm, Local(-7200, "BAR", True)) == "00 BAR -0200 %z %BAR"


def test_wall_seconds_carries_fields_as_mktime_does() -> None:
    assert wall_seconds(2024, 13, 1) == wall_seconds(2025, 1, 1)
    assert wall_seconds(2024, 3, 0) == wall_seconds(2024, 2, 29)
    assert wall_seconds(1969, 12, 31, 23, 59, 59) == -1


if __name__ == "__main__" and "--record" in sys.argv:
    record()


def test_c_strftime_years_are_glibc_s_whatever_the_c_library() -> None:
    # glibc 2.36 here: the year unpadded and an int (musl, the guest's, pads it); Python's
    # own strftime refuses a year past a C int
    def tm(year: int, wday: int, yday: int) -> time.struct_time:
        return time.struct_time((year, 1, 1, 0, 0, 0, wday, yday, 0))
    assert c_strftime("%Y|%C|%y|%F|%c", tm(5, 0, 1), Local(0, "UTC", False)) == "5|0|05|5-01-01|Mon Jan  1 00:00:00 5"
    assert c_strftime("%Y|%G|%g|%j", tm(2147483648, 2, 1), Local(0, "UTC", False)) == \
        "-2147483648|-2147483648|52|001"

"""``date``: each format prints what GNU coreutils 9.1's ``date -u`` printed for the same
instant (recorded on this machine; fixed instants, so nothing here depends on the clock)."""

from __future__ import annotations

import pytest

from bash import run_script

RECORDED = [
    (86399, "+%a %b %e %H:%M:%S %Z %Y|%-d|%_m|%^a|%I %l %p %r|%c|%j %U %W %V %G|%s %N|%q|%D %F %T "
            "%R %x %X %C %y %k %u %w %P %h %B %A",
     "Thu Jan  1 23:59:59 UTC 1970|1| 1|THU|11 11 PM 11:59:59 PM|Thu Jan  1 23:59:59 1970|001 00 00 "
     "01 1970|86399 000000000|1|01/01/70 1970-01-01 23:59:59 23:59 01/01/70 23:59:59 19 70 23 4 4 pm "
     "Jan January Thursday\n"),
    (0, "+x%-", "x%-\n"),
    (20000000, "+%q %-j %_j %^B %-e %n%t%%", "3 232 232 AUGUST 20 \n\t%\n"),
    (1700000000, "+%Y-%m-%dT%H:%M:%S%z", "2023-11-14T22:13:20+0000\n"),
    (951782400, "+%j %U %W %V %G %u %w %a", "060 09 09 09 2000 2 2 Tue\n"),
]


@pytest.mark.parametrize("epoch, fmt, expected", RECORDED, ids=[f for _, f, _ in RECORDED])
def test_date_formats_as_gnu_date(epoch: int, fmt: str, expected: str) -> None:
    result = run_script(f"date -u -d @{epoch} '{fmt}'", root="/")
    assert (result.stdout.decode(), result.stderr, result.exit_code) == (expected, b"", 0)

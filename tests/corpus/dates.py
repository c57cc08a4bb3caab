"""Dates and times across time zones: zoneinfo, pytz, dateutil, calendar, parsing."""

from __future__ import annotations

from corpus import case

CASES = [
    case("meeting_across_zones", """
from datetime import datetime
from zoneinfo import ZoneInfo
meeting = datetime(2024, 3, 15, 9, 0, tzinfo=ZoneInfo("America/New_York"))
{city: meeting.astimezone(ZoneInfo(zone)).strftime("%H:%M %a")
 for city, zone in [("London", "Europe/London"), ("Tokyo", "Asia/Tokyo"), ("Sydney", "Australia/Sydney")]}
""", {"London": "13:00 Fri", "Tokyo": "22:00 Fri", "Sydney": "00:00 Sat"}),
    case("dst_gap_fold", """
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo
tz = ZoneInfo("Europe/Berlin")
before = datetime(2024, 3, 31, 1, 30, tzinfo=tz)
after = (before.astimezone(ZoneInfo("UTC")) + timedelta(hours=1)).astimezone(tz)
[before.utcoffset().seconds // 3600, after.isoformat()]
""", [1, "2024-03-31T03:30:00+02:00"]),
    case("fold_ambiguous_hour", """
from datetime import datetime
from zoneinfo import ZoneInfo
tz = ZoneInfo("America/Chicago")
first = datetime(2024, 11, 3, 1, 30, tzinfo=tz, fold=0)
second = datetime(2024, 11, 3, 1, 30, tzinfo=tz, fold=1)
[first.tzname(), second.tzname()]
""", ["CDT", "CST"]),
    case("pytz_localize_normalize", """
import pytz
from datetime import datetime, timedelta
eastern = pytz.timezone("US/Eastern")
dt = eastern.localize(datetime(2024, 3, 10, 1, 30))
later = eastern.normalize(dt + timedelta(hours=1))
[dt.tzname(), later.strftime("%H:%M %Z")]
""", ["EST", "03:30 EDT"]),
    case("pytz_utc_convert", """
import pytz
from datetime import datetime
utc = pytz.utc.localize(datetime(2024, 6, 1, 12, 0))
utc.astimezone(pytz.timezone("Asia/Kolkata")).isoformat()
""", "2024-06-01T17:30:00+05:30"),
    case("dateutil_parse_many_formats", """
from dateutil import parser
texts = ["2024-02-29", "March 3, 2024 5pm", "03/04/2024", "Tue, 05 Mar 2024 10:20:30 GMT"]
[parser.parse(t).strftime("%Y-%m-%d %H:%M") for t in texts]
""", ["2024-02-29 00:00", "2024-03-03 17:00", "2024-03-04 00:00", "2024-03-05 10:20"]),
    case("dateutil_dayfirst", """
from dateutil import parser
parser.parse("03/04/2024", dayfirst=True).date().isoformat()
""", "2024-04-03"),
    case("relativedelta_month_ends", """
from datetime import date
from dateutil.relativedelta import relativedelta
start = date(2024, 1, 31)
[(start + relativedelta(months=n)).isoformat() for n in range(1, 4)]
""", ["2024-02-29", "2024-03-31", "2024-04-30"]),
    case("rrule_every_other_friday", """
from datetime import datetime
from dateutil.rrule import rrule, WEEKLY, FR
[d.date().isoformat() for d in rrule(WEEKLY, interval=2, byweekday=FR, count=3, dtstart=datetime(2024, 1, 1))]
""", ["2024-01-05", "2024-01-19", "2024-02-02"]),
    case("business_days_between", """
from datetime import date, timedelta
def business_days(a, b):
    days = 0
    d = a
    while d < b:
        if d.weekday() < 5:
            days += 1
        d += timedelta(days=1)
    return days
business_days(date(2024, 5, 1), date(2024, 5, 15))
""", 10),
    case("iso_week_numbers", """
from datetime import date
[date(2024, 12, 30).isocalendar()[:2], date(2021, 1, 3).isocalendar()[:2]]
""", [[2025, 1], [2020, 53]]),
    case("calendar_month_text", """
import calendar
calendar.TextCalendar(calendar.MONDAY).formatmonth(2024, 2).splitlines()[:3]
""", ["   February 2024", "Mo Tu We Th Fr Sa Su", "          1  2  3  4"]),
    case("age_in_years", """
from datetime import date
def age(born, today):
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))
[age(date(1990, 6, 15), date(2024, 6, 14)), age(date(1990, 6, 15), date(2024, 6, 15))]
""", [33, 34]),
    case("strptime_and_strftime", """
from datetime import datetime
d = datetime.strptime("2024-07-04 18:05", "%Y-%m-%d %H:%M")
[d.strftime("%A %d %B %Y, %I:%M %p"), d.timetuple().tm_yday]
""", ["Thursday 04 July 2024, 06:05 PM", 186]),
    case("durations_humanised", """
from datetime import timedelta
def human(td):
    s = int(td.total_seconds())
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        n, s = divmod(s, size)
        if n:
            parts.append(f"{n}{unit}")
    return " ".join(parts) or "0s"
[human(timedelta(days=1, hours=2, seconds=5)), human(timedelta(minutes=90)), human(timedelta())]
""", ["1d 2h 5s", "1h 30m", "0s"]),
    case("unix_timestamps", """
from datetime import datetime, timezone
ts = 1_700_000_000
d = datetime.fromtimestamp(ts, tz=timezone.utc)
[d.isoformat(), int(datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp())]
""", ["2023-11-14T22:13:20+00:00", 1704067200]),
    case("zone_offsets_table", """
from datetime import datetime
from zoneinfo import ZoneInfo
moment = datetime(2024, 1, 15, 12, tzinfo=ZoneInfo("UTC"))
sorted((z, moment.astimezone(ZoneInfo(z)).strftime("%z")) for z in ["Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham"])
""", [["America/St_Johns", "-0330"], ["Asia/Kathmandu", "+0545"], ["Pacific/Chatham", "+1345"]]),
    case("dateutil_gettz_and_utc", """
from datetime import datetime
from dateutil import tz
d = datetime(2024, 8, 1, 8, 0, tzinfo=tz.gettz("Europe/Madrid"))
[d.astimezone(tz.UTC).strftime("%H:%M"), tz.gettz("Not/AZone") is None]
""", ["06:00", True]),
    case("datetime_isoformat_parse", """
from datetime import datetime
d = datetime.fromisoformat("2024-05-06T07:08:09.123+02:00")
[d.utcoffset().total_seconds(), d.microsecond]
""", [7200.0, 123000]),
]

# fid_date: date and printf's %(...)T over every year a struct tm holds: past 9999, before year 1, out of range
# Known divergences: none
### m-epoch-past-9999
date -d @253402300800; echo "s=$?"; date -u -d @99999999999999; echo "s=$?"
### m-epoch-far-negative
date -d @-99999999999; date -d @-1000000000000 '+%F %T'; date -d @-62167219201; echo "s=$?"
### m-epoch-last-years
date -d @67768036191676799; date -d @-67768040609740800; echo "s=$?"
### m-epoch-out-of-range
date -d @67768036191676800; echo "s=$?"; date -d @-67768040609740801; echo "s=$?"
### m-epoch-time-t-limits
date -d @9223372036854775807; echo "s=$?"; date -d @9223372036854775808; echo "s=$?"; date -d @-9223372036854775808; echo "s=$?"
### m-epoch-zone-pushes-out
TZ=UTC-5 date -d @67768036191658800; echo "s=$?"; TZ=UTC+5 date -d @-67768040609740800; echo "s=$?"
### m-epoch-int-year-wrap
date -d @67767976233532800 '+%Y|%c|%x'; date -d @67768036191676799 '+%G|%g|%c'
### m-epoch-bad-forms
for d in @inf @nan @1e3 @0x10 @1. @.5 @; do date -d "$d"; echo "s=$?"; done
### m-epoch-fractions
date -u -d @-0.5 +%s.%N; date -u -d '@ -5' +%s; date -u -d @+7.25 +%s.%N
### m-year-fields
for t in -62135596800 -62167219200 -62198755200 -61000000000 -99999999999 -1000000000000 253402300800 99999999999999 67767976233532799; do date -d @$t '+%Y|%C|%y|%G|%g|%F|%D|%x|%c|%j|%U|%W|%V|%u|%w|%a %b %e'; done
### m-year-flags
for t in -62135596800 -62167219200 -62198755200 -99999999999 253402300800; do date -d @$t '+%_Y|%-Y|%0Y|%_C|%-C|%+Y|%+C|%^a|%_y|%-y|%-G|%_g'; done
### m-year-strings
for d in 10000-01-01 99999-12-31 '10000-01-01 10:00' 10000-01-01T10:00:00 10000-01-01T10:00 12345-06-07T08:09:10Z 10000/01/01 10000-02-29 2147485547-12-31 5-01-01 100-01-01 69-01-01 68-12-31 0069-01-01 0000-01-01; do date -d "$d" '+%F %T %s'; echo "s=$?"; done
### m-year-strings-invalid
for d in 10000-02-30 10100-02-29 2147485548-01-01 -1-01-01 2024-13-01 2024-00-10 2024-02-30 '2024-01-01 24:00' '2024-01-01 10:60' 2024-01-01Z; do date -d "$d"; echo "s=$?"; done
### m-relative-overflow
for d in '99999999999 years' '-99999999999 days' '9999999999999999999 seconds' '99999999999999999999 days' '3000000000 years' '-3000000000 years ago' '9000000000000000000 seconds' '2000000000 days' '2147483648 days' '-2147483648 days' '2147481747 years' '2147483648 months' '100000000000 hours' '99999999999999999 hours' '-9000000000000000000 seconds'; do date -d "$d" +%Y >/dev/null; echo "$d s=$?"; done
### m-year-string-utc
for d in 2024-01-01Z '2024-01-01 10:00Z' 2024-01-01T10:00Z '2024-01-01 10:00:00Z' 2024/01/02Z '2024-01-01 Z' 10000-01-01Z '2024/01/02 10:30'; do TZ=UTC-3 date -d "$d" '+%F %T %z'; echo "s=$?"; done
### m-year-string-in-zone
TZ=UTC-5 date -d '2147485547-12-31 23:00' '+%F %T %z'; echo "s=$?"; TZ=UTC+3 date -d '10000-01-01' +%s
### m-printf-year-fields
printf '%(%Y|%C|%y|%G|%g|%F|%D|%x)T\n' -62135596800 -62167219200 -62198755200 -61000000000 -99999999999 -1000000000000 253402300800 99999999999999
### m-printf-int-year-wrap
printf '%(%Y|%C|%y|%G|%g|%F)T\n' 67767976233532799 67767976233532800 67768036191676799 -67768040609740800
### m-printf-year-c-and-flags
printf '%(%c|%_Y|%-Y|%0Y|%_C|%-C|%^a|%+Y)T\n' -62198755200 -99999999999 253402300800 67767976233532800
### m-printf-out-of-range-is-epoch
printf '%(%F %T)T\n' 67768036191676800 -67768040609740801 9223372036854775807 -9223372036854775808; echo "s=$?"
### m-printf-zone-pushes-out
TZ=UTC-5 printf '%(%F)T\n' 67768036191658800; TZ=UTC+5 printf '%(%F)T\n' -67768040609740800
### m-printf-time-arg-too-big
printf '%(%Y)T\n' 99999999999999999999 -99999999999999999999; echo "s=$?"
### m-printf-time-arg-invalid
printf '%(%Y)T|\n' 12abc; echo "s=$?"; printf '%(%Y)T|\n' '' ' 5' x; echo "s=$?"
### m-printf-time-arg-bases
printf '%(%s)T\n' 0x10 010 "'A" ' 5' -0
### m-printf-time-text-too-long
printf "%(%Y$(printf '%0120d' 0))T|\n" 0 253402300800 -62198755200 -99999999999

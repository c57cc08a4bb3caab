# fid_datefmt: GNU date 9.1's conversion flags and widths (gnulib's nstrftime), bash printf's %(...)T with glibc's, and touch -d / date -d past year 9999 or out of range
# Known divergences: none
### date-widths-numbers
for f in %10Y %-d %_H %010s %-10d %_10d %010d %-j %_j %3j %-m %_m %-I %_I %-e %0e %-S %-M %1H %3H %0H %-0H %0-H %_0H %0_H %10k %-k %10l %-l %10u %10w %10V %10G %10g %10C %_C %-C %5q %-q %_5s %-s; do printf '%s=[%s]\n' "$f" "$(date -u -d @1709622489 "+$f")"; done
### date-case-flags
for f in %^a %#b %^10a %#10A %#Z %^Z %^#b %#^b %#p %^p %#a %^B %#B %^h %#h %10P %^P %#P %^-a %^_10a %-10a %^c %#c %^x %^r %#x; do printf '%s=[%s]\n' "$f" "$(date -u -d @1709622489 "+$f")"; done
### date-zone-colons
for f in %z %:z %::z %:::z %10z %_z %-z %_10z %-5z %:10z %_:z %-:z %10::z %-::z %0:z %5:z %-10:z %010::z %_::z; do for tz in UTC0 UTC-5:30 UTC+3 UTC-5:30:15 UTC+0:45; do printf '%s ' "$(TZ=$tz date -d @0 "+$f|")"; done; echo; done
### date-nanoseconds
for f in %N %10N %3N %1N %-N %_N %010N %0N %_3N %-12N %-5N %-9N %-1N %-0N %_0N; do printf '%s=[%s] [%s]\n' "$f" "$(date -u -d @1709622489.012345678 "+$f")" "$(date -u -d @1.5 "+$f")"; done
### date-subformats
for t in 1709622489 1117584000 -1 -62167219200 253402300800 -62198755200; do date -u -d @$t '+%12F|%_12F|%-F|%_F|%+F|%+12F|%010F|%10D|%_D|%-D|%0D|%10T|%10R|%10r|%10x|%10c|%_c|%-10c'; done
### date-years-widths
for t in -1 -62167219200 253402300800 -62198755200; do date -u -d @$t '+%10Y|%-Y|%_10Y|%010s|%-s|%_s|%+12Y|%+2Y|%+4Y|%+Y|%+10Y|%10G|%_C|%5y|%_y|%-y'; done
### date-bad-conversions
for f in %Q %5Q %05Q %5% %3% %1% %_5% %-5% %05% %10% %5E %5Ey %5OY %5EY %_EY %Ez %5Ez %:5z %O5d %OH %Ec %Ey %E %5n %5t %:Y %::Y %:::Y %::::z %Oz %O5z %E:z %:::::z; do printf '%s=[%s]\n' "$f" "$(date -u -d @0 "+x$f")"; done
### date-format-ends-in-conversion
for f in % %5 %- %_ %^ %# %+ %0 %10 %^10 %+10 %: %E %O %-E; do printf '%s=[%s]\n' "$f" "$(date -u -d @0 "+x$f")"; done
### printf-time-widths
for f in %10Y %-d %_H %010s %^a %#b %-10d %_10d %010d %^10a %#10A %#Z %#p %^p %-j %_j %3j %-e %0e %10N %+Y %_5s %5% %%5 %5n %-5z %_z %10z %:z %E %Ey %OH %Ec %10c %_c %10x %10F %-F %_F %010F %^c %10D %10T %10R %10r %10P %10u %10C %^B %#B %10k %-l %0_H %^-a %10% %Q %5Q %q %_12F %12F %-12F %^r %_D %#x; do printf '%s=[%(x'"$f"')T]\n' "$f" 1709622489; done
### printf-time-year-widths
for t in -3600 -62167219200 253402300800 -62198755200; do printf '%(%10Y|%-Y|%_10Y|%-s|%_s|%10G|%_C|%5y|%_y|%12F|%_12F|%-F)T\n' $t; done
### date-fractional-seconds
date -d '2024-03-05 07:08:09.5' '+%T.%N'; date -d '2024-03-05 07:08:09,25' '+%T.%3N'; date -d '2024-03-05T07:08:09.123Z' '+%T.%N'; date -d '2024-03-05 07:08:09.1234567891' +%N
### touch-d-past-9999
touch -d 10000-01-01 f; echo "s=$?"; touch -d '99999-12-31 10:00' g; echo "s=$?"; touch -d @253402300800 h; echo "s=$?"; touch -d @99999999999999999 i; echo "s=$?"; touch -d '2147485547-12-31' j; echo "s=$?"; ls
### touch-d-out-of-range
touch -d 2147485548-01-01 f; echo "s=$?"; touch -d @9223372036854775808 g; echo "s=$?"; touch -d @-9223372036854775809 g2; echo "s=$?"; touch -d 'garbage' h; echo "s=$?"; touch -d 2024-13-01 i; echo "s=$?"; touch -d 10000-02-30 k; echo "s=$?"; ls
### touch-d-out-of-range-errors
exec 2>&1; touch -d 2147485548-01-01 f; touch -d @9223372036854775808 g; touch -d 'garbage' h; touch -d '3000000000 years' i
### touch-d-relative-overflow
for d in '3000000000 years' '-99999999999 days' '2147483648 months' '9999999999999999999 seconds' '99999999999999999 hours' '2 days ago' '+3 hours' '1 year' '1000000000 days'; do touch -d "$d" f; echo "$d s=$?"; done; ls
### touch-d-month-arithmetic
touch -d '2024-01-31 12:00' ref; touch -d '2024-01-31 12:00' f; for d in '1 month' '1 year' '-1 month' '1 fortnight' '2 weeks ago'; do echo "$d: $(touch -d "$d" g 2>&1; echo $?)"; done; rm -f g ref f
### date-d-out-of-range-errors
exec 2>&1; date -d 2147485548-01-01; echo "s=$?"; date -d @67768036191676800; echo "s=$?"; date -d '10000-01-01 25:00'; echo "s=$?"; date -d 10000-01-01 +%s; echo "s=$?"

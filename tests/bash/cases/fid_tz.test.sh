# fid_tz: POSIX TZ strings (std offset [dst [offset] [,start[/time],end[/time]]]) as glibc reads them, in date, printf's %(...)T and every command that shows or reads local time
# Known divergences:
#   tz-database-zone: a zone of the tz database (Europe/Paris) needs the database, which the guest lacks: it stays UTC, named UTC
#   tz-database-top-level-name: the database's top-level names (Japan) are zones of the database too: UTC, named UTC
### printf-east-of-utc
TZ=UTC-2 printf '%(%F %T %Z %z)T\n' 0
### printf-west-named
TZ=EST5 printf '%(%F %T %Z %z|%a %b %e %H:%M:%S %Y)T\n' 0
### printf-angle-bracket-name
TZ='<+0530>-5:30' printf '%(%F %T %Z %z)T\n' 0
TZ='<-03>3' printf '%(%F %T %Z %z)T\n' 0
### printf-seconds-in-offset
TZ=FOO+3:15:10 printf '%(%F %T %Z %z)T\n' 0 86399
### printf-offset-with-plus-and-limits
for z in FOO+0 FOO-0 FOO24 FOO-24:59:59 FOO25 FOO+1:99 FOO+1:60:60 'FOO+ 3' FOO+-3; do TZ=$z printf '%s|%(%F %T %Z %z)T\n' "$z" 0; done
### printf-tz-must-be-exported
unset TZ; TZ=UTC-4; printf '%(%H %Z)T\n' 0; date -d @0 '+%H %Z'
export TZ; printf '%(%H %Z)T\n' 0; date -d @0 '+%H %Z'
### printf-tz-assigned-when-exported
TZ=UTC-3; printf '%(%H %Z %z)T\n' 0; TZ=UTC+3; printf '%(%H %Z %z)T\n' 0
### printf-tz-local-in-function
f() { local TZ=UTC-5; printf '%(%H %Z)T\n' 0; date -d @0 +%H; }; f; printf '%(%H %Z)T\n' 0
### printf-tz-in-subshell-and-env
(export TZ=UTC-6; printf '%(%H)T\n' 0); env TZ=UTC-7 date -d @0 +%H; printf '%(%H)T\n' 0
### printf-gnu-only-conversions-are-literal
TZ=FOO+3:15:10 printf '%(%:z|%#Z|%^Z|%s)T\n' 0
### printf-empty-and-colon-tz
TZ= printf '%(%T %Z %z)T\n' 3600; TZ=: printf '%(%T %Z %z)T\n' 3600; TZ=:FOO3 printf '%(%T %Z %z)T\n' 3600
### printf-dst-northern-transitions
TZ='FOO3BAR,M3.2.0,M11.1.0' printf '%(%F %T %Z %z)T\n' 1710046799 1710046800 1730606399 1730606400 1704067200 1717243200
### printf-dst-southern-transitions
TZ='AAA-10BBB,M10.1.0,M4.1.0/3' printf '%(%F %T %Z %z)T\n' 1712419199 1712419200 1728143999 1728144000 1704067200 1717243200
### printf-dst-julian-rules
TZ='FOO3BAR,J60/0,J300/0' printf '%(%F %T %Z)T\n' 1709261999 1709262000 1729994399 1729994400 1677639599 1677639600
TZ='FOO3BAR,59,300' printf '%(%F %T %Z)T\n' 1709182799 1709182800 1730001599 1730001600 1677646799 1677646800
### printf-dst-rule-times-outside-the-day
TZ='FOO3BAR,M3.2.0/-1,M11.1.0/26' printf '%(%F %T %Z)T\n' 1710035999 1710036000 1730692799 1730692800
TZ='FOO3BAR,M3.2.0/1:30:15,M11.1.0/-0:30' printf '%(%F %T %Z)T\n' 1710048614 1710048615
### printf-dst-explicit-offset
TZ='FOO-1BAR-2:30,M3.5.0/1,M10.5.0/2' printf '%(%F %T %Z %z)T\n' 1711846799 1711846800 1729992599 1729992600
### printf-dst-without-rule-mid-season
TZ=FOO5BAR printf '%(%F %T %Z %z)T\n' 1704067200 1717243200; TZ='FOO5BAR,' printf '%(%Z)T\n' 1717243200
TZ=FOO3BAR,M3.2.0 printf '%(%F %T %Z)T\n' 1717243200 1735600000
### printf-invalid-tz-strings
for z in FOO ab '<ab>3' '<FOO3BAR' FOO3BAR\; 'FOO3BAR,,' ABC3XY 'FOO3<BA>,M3.2.0,M11.1.0' 'FOO 3' FOO+ 'FOO3BAR,M3.2.0x,M11.1.0' 'FOO3BAR,Jx' 'FOO3BAR,366' 'FOO3BAR,M3.6.0,M11.1.0' 'FOO3BAR,M3.2.0,M11.1.0junk'; do TZ=$z printf '%s|%(%F %T %Z %z)T|%(%Z)T\n' "$z" 0 1717243200; done
### tz-database-zone
TZ=Europe/Paris printf '%(%F %T %Z %z)T\n' 0
### tz-database-top-level-name
TZ=Japan date -d @0 '+%F %T %Z %z'
### date-default-format-and-epoch
TZ=UTC-2 date -d @0; TZ='FOO3BAR,M3.2.0,M11.1.0' date -d @1717243200; TZ=UTC-2 date -d @86400 +%s
### date-iso-and-rfc-formats
TZ='<+0530>-5:30' date -Iseconds -d @0; TZ=UTC-2 date -R -d @0; TZ=FOO3 date -I -d @0; TZ=FOO3 date --iso-8601=seconds -d @0
### date-colon-z-forms
TZ=FOO+3:15:10 date -d @0 +'%z %:z %::z %:::z %#Z %^Z'; TZ=UTC-2 date -d @0 +%:::z; TZ='<+0530>-5:30' date -d @0 +%:::z; TZ=FOO-24:59:59 date -d @0 +'%z %:::z'
### date-utc-option-overrides-tz
TZ=UTC-2 date -u -d @0; TZ=UTC-2 date -d '2024-01-01 12:00' -u +%s; TZ=FOO3 date --utc -d @0 '+%H %Z %z'
### date-reads-local-time
TZ=UTC-2 date -d '2024-01-01 12:00' +%s; TZ='FOO3BAR,M3.2.0,M11.1.0' date -d '2024-06-01' '+%F %T %Z %s'; TZ=FOO3 date -d '2024-06-01T12:00:00' +%s; TZ=FOO3 date -d '2024-06-01T12:00:00Z' +%s
### date-skipped-local-time-is-invalid
TZ='FOO3BAR,M3.2.0,M11.1.0' date -d '2024-03-10 02:30' +%s; echo "s=$?"; TZ='FOO3BAR,M3.2.0,M11.1.0' date -d '2024-03-10 03:00' '+%s %Z'
### date-repeated-local-time
TZ='FOO3BAR,M3.2.0,M11.1.0' date -d '2024-11-03 01:30' '+%s %Z'; TZ='AAA-10BBB,M10.1.0,M4.1.0/3' date -d '2024-04-07 02:30' '+%s %Z'
### date-fractional-epoch
TZ=UTC-2 date -d @-1.5 +%s.%N; TZ=UTC-2 date -d @1.123456789 '+%s.%N %T'
### date-file-time
touch -d @1717243200 f; TZ='FOO3BAR,M3.2.0,M11.1.0' date -r f '+%F %T %Z'
### awk-strftime-and-mktime
for z in UTC-2 'FOO3BAR,M3.2.0,M11.1.0' ab; do TZ=$z awk 'BEGIN { print strftime("%Z %z %H", 0, 1) "|" strftime("%Z %z %H|%c", 1717250400) "|" mktime("1970 01 01 00 00 00") "|" mktime("2024 06 01 12 00 00 0") "|" mktime("2024 06 01 12 00 00 1") "|" mktime("2024 03 10 02 30 00") "|" mktime("2024 13 01 00 00 00") }' < /dev/null; done
### awk-mktime-repeated-hour-follows-last-call
TZ='FOO3BAR,M3.2.0,M11.1.0' awk 'BEGIN { print mktime("2024 11 03 01 30 00"); print mktime("2024 01 01 00 00 00"), mktime("2024 11 03 01 30 00") }' < /dev/null
### jq-local-time
for z in UTC-2 'FOO3BAR,M3.2.0,M11.1.0' ab; do TZ=$z jq -nc '[(1717250400.25 | localtime), (1717250400 | strflocaltime("%F %T %Z %z")), ([2024,5,1,12,0,0,0,0] | strftime("%H %Z %z")), ([2024,5,1,12,0,0,0,0] | mktime), (1717250400 | localtime | mktime), ("2024-06-01T12:00:00Z" | fromdate), ("0" | strptime("%s")), (-1.5 | localtime)]'; done
### ls-shows-local-time
touch -d @1717250400 f; touch -d @1704121200 g
TZ='FOO3BAR,M3.2.0,M11.1.0' ls -l --time-style=+'%F_%T_%Z_%z' f g | awk '{print $6, $7}'
TZ='FOO3BAR,M3.2.0,M11.1.0' ls -l --full-time f g | awk '{print $6, $7, $8, $9}'
TZ=UTC-2 ls -l --time-style=long-iso f | awk '{print $6, $7, $8}'
### stat-shows-local-time
touch -d @1717250400 f; TZ='FOO3BAR,M3.2.0,M11.1.0' stat -c '%y|%Y' f; TZ='<+0530>-5:30' stat -c '%y' f
### find-printf-local-time
touch -d @1717250400 f; TZ='FOO3BAR,M3.2.0,M11.1.0' find . -name f -printf '%t|%TZ|%Tz|%T+|%TH|%TY-%Tm-%Td\n'
### find-newermt-reads-local-time
touch -d @1717250400 f; find . -name f -newermt '2024-06-01 12:30'; echo --; TZ='FOO3BAR,M3.2.0,M11.1.0' find . -name f -newermt '2024-06-01 12:30'; echo --; TZ='FOO3BAR,M3.2.0,M11.1.0' find . -name f -newermt '2024-06-01 11:30'
### touch-reads-local-time
TZ='FOO3BAR,M3.2.0,M11.1.0' touch -d '2024-06-01 12:00' a; TZ=UTC-2 touch -t 202401011200 b; TZ=FOO3 touch -d '2024-06-01T12:00:00Z' c; stat -c '%n %Y' a b c
TZ='FOO3BAR,M3.2.0,M11.1.0' touch -d '2024-03-10 02:30' d; echo "s=$?"; ls
### diff-headers-local-time
printf 'a\n' > f; printf 'b\n' > g; touch -d @1717250400 f; touch -d @1704121200 g
TZ='FOO3BAR,M3.2.0,M11.1.0' diff -u f g | head -2; TZ=UTC-2 diff -c f g | head -2
### tar-listing-local-time
echo a > f; touch -d @1717250400 f; tar cf t.tar f; TZ='FOO3BAR,M3.2.0,M11.1.0' tar tvf t.tar | awk '{print $4, $5, $6}'; rm t.tar
### gzip-listing-local-time
echo a > f; touch -d @1717250400 f; gzip f; TZ='FOO3BAR,M3.2.0,M11.1.0' gzip -lv f.gz | awk 'NR == 2 {print $3, $4, $5}'; rm f.gz
### git-dates-without-offset-are-local
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com TZ='FOO3BAR,M3.2.0,M11.1.0'
git init -q; echo a > a; git add a
GIT_AUTHOR_DATE='2024-06-01 12:00:00' GIT_COMMITTER_DATE='@1704121200' git commit -q -m m
git log --format='%ad|%cd|%H'; git log | grep '^Date'; rm -rf .git
### find-daystart-local-day
z=UTC-14; day=$(TZ=$z date +%F); TZ=$z touch -d "$day 00:01" f
TZ=$z find . -name f -daystart -mtime 0; TZ=$z find . -name f -daystart -mtime 1; echo --; TZ=UTC10 find . -name f -daystart -mtime 0

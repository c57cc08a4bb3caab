# lang_mixed2: traps, errexit inheritance, printf formats, patterns (differential exploration)
# Known divergences: none
### t5-a
trap 'echo "err trap"' ERR; f() { false; echo inside; }; f; echo after
### t5-b
f() { local x=$(false); echo "local st $?"; }; f
### t5-c
set -e; f() { echo start; false; echo nope; }; x=$(f); echo "got [$x]"
### t5-d
set -e; trap 'echo trapped $?' EXIT; false
### t5-e
trap 'echo sub-exit' EXIT; (echo in-sub); echo main
### t5-f
(trap 'echo sub-trap' EXIT; echo body); echo after
### t5-g
x=$(trap 'echo from-trap' EXIT; echo value); echo "[$x]"
### t5-h
set -E; trap 'echo err-$LINENO' ERR; f() { false; }; f; echo done
### t5-i
f() { trap 'echo ret' RETURN; echo body; }; f; echo after
### t5-j
echo $(( 1 + $(echo 2) ))
### t5-k
v=$(exit 4) || echo "failed $?"
### t5-l
if x=$(false); then echo t; else echo "f $?"; fi
### t5-m
declare x=$(false); echo $?
### t5-n
false; echo ${PIPESTATUS[0]} $?
### t5-o
set -o errexit; for x in a; do false; done; echo not
### t5-p
set -u; declare -a arr=(); echo "${#arr[@]}"; echo "${arr[@]:-}"
### t5-q
set -u; a=(); for x in "${a[@]}"; do :; done; echo ok
### t5-r
f() { echo $1; }; f $'multi\nline'
### t5-s
printf 'a\nb\n' | while read -r x; do printf '%s-' "$x"; done; echo
### t5-t
i=0; while read -r; do ((i++)); done < /dev/null; echo $i
### t5-u
echo "${var:-}"; set -u; echo "${var:-x}${var2-y}"
### t5-v
set -- a b c; shift 2; echo "$@" $#
### t5-w
x="one two"; arr=($x); echo ${#arr[@]}; arr2=("$x"); echo ${#arr2[@]}
### t5-x
for i in 3 2 1; do echo -n "$i.."; sleep 0; done; echo liftoff
### t5-y
echo "$((3/2)) $((3%2)) $((-3/2))"
### t5-z
echo "a	b" | while IFS=$'\t' read -r c1 c2; do echo "$c2|$c1"; done
### t6-a
case "]" in []]) echo bracket;; esac; case "-" in [a-]) echo dash;; esac
### t6-b
case "x" in [!]]) echo notbracket;; esac
### t6-c
touch 'a b' 'c*d'; for f in *; do echo "[$f]"; done
### t6-d
touch file; x='fi*'; echo $x "$x"
### t6-e
touch '[x]'; echo [x] '[x]' \[x\]
### t6-f
set -- "$(printf 'a\nb')"; echo $#
### t6-g
cat <<EOF
args: $* and $@ and $#
EOF
### t6-h
set -- 1 2; cat <<EOF
"$1" '$2' \$3 \\ \`
EOF
### t6-i
printf '%s\n' "${!BASH*}" | head -1 | cut -c1-4
### t6-j
printf '%-3s|%3s|\n' abcdef ab
### t6-k
printf '%.3d|%+d|% d|%#x|%#o\n' 5 5 5 255 8
### t6-l
printf '%s %s %s\n' a b
### t6-m
printf '%5s%%\n' 50
### t6-n
printf 'x\ty\n' | od -An -c
### t6-o
printf '%d\n' 3.5 2>/dev/null; echo $?
### t6-p
printf '%.1f\n' 0.05 0.15 0.25
### t6-q
printf '%e\n' 0
### t6-r
printf '[%c]\n' ""
### t6-s
printf '%q\n' 'a$b' '~home' 'x=y' 'semi;colon'
### t6-t
printf '%b' 'a\n' '\0101\n'
### t6-u
printf "%s\n" $'\x7f' | od -An -tx1
### t6-v
echo -e "a\x" 2>&1 | od -c | head -1
### t6-w
echo -e '\e[0m' | od -An -tx1
### t6-x
printf '%(%Y)T\n' 0 2>/dev/null || echo unsupported
### t6-y
printf '%5.2s|\n' abc
### t6-z
printf '%x\n' -1
### t7-a
printf '%.1f %.1f %.2f %.0f %.0f %g %g %g %G %e\n' 2.45 0.35 1.005 0.5 1.5 100000 1000000 0.0001 1e-10 123.456
### t7-b
printf '%10.3e|%-12g|%+.2f|%08.3f|%-8.2f|\n' 1234.5 0.5 3 -3.14159 2.5
### t7-c
printf '%f %f %.3g %g\n' 1 -0.0 3.14159 123456789
### t7-d
printf '%.2f\n' 1.125 1.135 2.675 10.005
### t7-e
printf '%g %g %g\n' 0.00001 1e100 12.50
### t7-f
printf '%#.0f %#g\n' 3 1.5

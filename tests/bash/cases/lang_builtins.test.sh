# lang_builtins: read, mapfile, printf, getopts, declare, set, shopt, cd, pushd, eval, source
# Known divergences: none
### printf-basic
printf '%s-%s\n' a b c d
### printf-numbers
printf '%d %5d %-5d| %05d %x %X %o\n' 42 42 42 42 255 255 8
### printf-floats
printf '%.2f %8.3f %e %g\n' 3.14159 2.5 12345.678 0.0001
### printf-strings-width
printf '[%10s][%-10s][%.2s]\n' abc abc abcdef
### printf-reuse-format
printf '%s\n' one two three
### printf-missing-args
printf '%s|%d|%s\n' only
### printf-escapes
printf 'a\tb\\n\n\x41\101\n'
### printf-b
printf '%b\n' 'tab\there' 'nl\\n'
### printf-percent
printf '100%%\n'
### printf-char-code
printf '%d %d\n' "'A" '"a'
### printf-v
printf -v out '%03d' 7; echo "$out"
### printf-v-array
printf -v 'arr[2]' '%s' x; echo ${arr[2]}
### printf-invalid-number
printf '%d\n' abc; echo "st $?"
### printf-star-width
printf '%*s|\n' 6 hi
### printf-c
printf '%c%c\n' hello world
### printf-no-newline
printf 'no newline'
### printf-q-roundtrip
s='a "b" $c'; eval "t=$(printf '%q' "$s")"; [ "$s" = "$t" ] && echo same
### read-basic
read a b c <<< "1 2 3 4 5"; echo "$a|$b|$c"
### read-reply
read <<< "  spaced  "; echo "[$REPLY]"
### read-r-backslash
read -r x <<< 'a\b'; echo "$x"; read y <<< 'a\b'; echo "$y"
### read-delim
read -d , x <<< "first,second"; echo $x
### read-n
read -n 3 x <<< "abcdef"; echo $x
### read-eof-status
read x < /dev/null; echo "st $? [$x]"
### read-last-partial-line
printf 'a\nb' > f; while read l; do echo "$l"; done < f; echo "last=[$l]"
### read-partial-line-idiom
printf 'a\nb' > f; while read l || [ -n "$l" ]; do echo "$l"; done < f
### read-p-prompt
read -p "prompt: " x <<< val 2>/dev/null; echo $x
### read-ifs-custom-trailing
IFS=: read a b <<< "1:2:3"; echo "$a/$b"
### mapfile-basic
printf 'a\nb\nc\n' > f; mapfile arr < f; echo ${#arr[@]}; printf '[%s]' "${arr[@]}"; echo
### mapfile-t-n-s
printf '1\n2\n3\n4\n5\n' > f; mapfile -t -s 1 -n 2 arr < f; echo ${arr[@]}
### readarray-alias
printf 'x\ny\n' > f; readarray -t a < f; echo ${a[1]}
### getopts-basic
set -- -a -b val -c file; while getopts "ab:c" opt; do case $opt in a) echo A;; b) echo "B=$OPTARG";; c) echo C;; esac; done; shift $((OPTIND-1)); echo "rest: $@"
### getopts-combined
set -- -ab -c; while getopts "abc" o; do echo $o; done; echo $OPTIND
### getopts-invalid
set -- -x; while getopts "a" o 2>/dev/null; do echo "got $o"; done
### getopts-silent
set -- -x -b; while getopts ":ab:" o; do case $o in \?) echo "bad $OPTARG";; :) echo "missing $OPTARG";; esac; done
### getopts-attached-arg
set -- -bVALUE; getopts "b:" o; echo "$o $OPTARG"
### shift-basic
set -- 1 2 3 4; shift; echo $@; shift 2; echo $@; shift 5; echo "st $?"
### set-positional
set -- x y z; echo $2; set a; echo $# $1
### declare-print
declare x=5; declare -p x; declare -i n=3; declare -p n
### declare-lower-upper
declare -l lo=HeLLo; declare -u up=HeLLo; echo $lo $up
### declare-readonly
declare -r c=1; c=2; echo "st $? c=$c"
### readonly-builtin
readonly R=1; (R=2) 2>/dev/null; echo "st $?"; unset R; echo "st $?"
### export-and-env
export MYVAR=exported; printenv MYVAR; env | grep -c '^MYVAR='
### export-n
export V=1; export -n V; printenv V; echo "st $?"
### unset-variable
x=1; unset x; echo "[${x-gone}]"
### eval-basic
cmd='echo evaluated'; eval $cmd; eval "x=1; y=2"; echo $x$y
### eval-nested-quotes
eval 'echo "a  b"'
### eval-syntax-error
eval 'if then'; echo "st $?"
### source-file
echo 'sourced_var=hi; echo in-source' > lib.sh; source lib.sh; echo $sourced_var; . ./lib.sh
### source-with-args
echo 'echo "args: $@"' > s.sh; source s.sh a b
### source-return
printf 'echo one\nreturn 3\necho two\n' > r.sh; . ./r.sh; echo "st $?"
### cd-and-pwd
mkdir -p a/b; cd a/b; pwd | sed 's|.*/a/b$|ends-a-b|'; cd ..; basename "$(pwd)"
### cd-dash
mkdir x y; cd x; cd ../y; cd - >/dev/null; basename "$PWD"
### cd-missing
cd nowhere; echo "st $?"
### pushd-popd
mkdir -p p1 p2; pushd p1 >/dev/null; pushd ../p2 >/dev/null; basename $PWD; popd >/dev/null; basename $PWD; popd >/dev/null; dirs | wc -w
### shopt-query
shopt -q nullglob; echo $?; shopt -s nullglob; shopt -q nullglob; echo $?; shopt nullglob
### set-o-pipefail-query
set -o pipefail; set -o | grep pipefail
### type-builtin
type echo; type cd
### command-v
command -v echo; command -v nonexistent_xyz; echo "st $?"
### command-bypasses-function
ls() { echo func; }; command -v ls; unset -f ls
### let-multiple
let a=1 b=a+1 'c = a + b'; echo $a $b $c
### alias-noninteractive
shopt -s expand_aliases
alias hi='echo alias-hi'
hi
### true-colon-status
:; echo $?
### wait-noop
wait; echo $?
### trap-exit
trap 'echo bye' EXIT; echo main
### trap-print
trap 'echo x' EXIT; trap
### trap-reset
trap 'echo no' EXIT; trap - EXIT; echo end
### trap-err
trap 'echo caught-err' ERR; false; echo after
### exit-trap-sees-status
trap 'echo "status=$?"' EXIT; false; exit 3
### date-format-fixed
date -u -d @0 '+%Y-%m-%d %H:%M:%S'
### date-epoch-seconds
date -d @86400 +%s
### printf-repeat-pad
printf '%-5s|%5s|\n' a b cc dd
### compgen-caller-a
compgen -W "alpha beta alphabet" al
### compgen-caller-b
myfunc_one() { :; }; myfunc_two() { :; }; compgen -A function myfunc
### compgen-caller-d
compgen -k | head -3
### compgen-caller-e
VARX=1 ; VARY=2; compgen -v VAR
### compgen-caller-f
f() { g; }; g() { caller 0 >/dev/null && echo has-caller; }; f
### read-escaped-trailing-whitespace
printf '%s\n' 'a\ ' 'a \ ' 'a b\ ' 'a\ b \ ' '\ ' 'x: \ y:' 'x:\ ' > in.txt
while read v; do echo "1[$v]"; done < in.txt
while read v w; do echo "2[$v][$w]"; done < in.txt
while IFS=': ' read v w; do echo "3[$v][$w]"; done < in.txt
### read-loop-over-a-here-string
s=$(seq 1 2000)
n=0; while read -r x; do n=$((n + x)); done <<< "$s"; echo "$n"

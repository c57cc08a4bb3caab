# lang_mixed4: options listings, getopts, declare, aliases, case and [[ ]] corners
# Known divergences: none
### t10-a
set -o | head -5
### t10-b
shopt | head -5
### t10-c
set +o | head -3
### t10-d
f() { local OPTIND o; while getopts "x:" o; do echo "$o=$OPTARG"; done; }; f -x 1; f -x 2
### t10-e
while getopts "a:b" opt -a val -b extra; do echo "$opt ${OPTARG:-}"; done
### t10-f
set -- -a -- -b; while getopts "ab" o; do echo $o; done; echo "idx $OPTIND"
### t10-g
set -- file -a; while getopts "a" o; do echo $o; done; echo "idx $OPTIND"
### t10-h
declare -a arr; arr[2]=x; declare -p arr
### t10-i
declare -A m; declare -p m; m[k]=1; declare -p m
### t10-j
x=1; declare -p x; export x; declare -p x; readonly x; declare -p x
### t10-k
declare -i n="2+3"; echo $n; n="n*2"; echo $n
### t10-l
declare -l s; s="MiXeD"; echo $s; declare +l s; s="MiXeD"; echo $s
### t10-m
f() { declare x=local; echo $x; }; x=global; f; echo $x
### t10-n
declare -n ref=target; target=5; echo $ref; ref=6; echo $target
### t10-o
unset -v nothing; echo $?; unset -f nofunc; echo $?
### t10-p
a=(1 2 3); unset 'a[@]'; echo "${#a[@]}"
### t10-q
type -a echo 2>/dev/null | head -1
### t10-r
type nosuch 2>/dev/null; echo $?
### t10-s
command echo direct; builtin echo builtin-direct
### t10-t
alias; shopt -s expand_aliases; alias ll='echo ll-alias'; alias ll; alias
### t10-u
x=5; readonly x; unset x 2>/dev/null; echo "st $? x=$x"
### t10-v
export A=1 B=2; env | grep -E '^(A|B)=' | sort
### t10-w
f() { echo "$0"; }; f
### t10-x
echo $((RANDOM >= 0))
### t10-y
(( a = 5, b = a * 2 )); echo $a $b
### t10-z
let "x = 5 % 3" "y = x ** 3"; echo $x $y
### t11-a
f() { echo "$@"; }; f "${arr[@]}" end
### t11-b
case "a.b" in *.*) echo dot;; esac; case "" in "") echo empty;; esac
### t11-c
case x in *) echo first;& y) echo second;; esac
### t11-d
x=hello; case $x in h?l*) echo ok;; esac
### t11-e
case "A" in [[:upper:]]) echo up;; esac
### t11-f
for x in a b; do case $x in a) continue;; esac; echo $x; done
### t11-g
i=0; while :; do ((i++)); case $i in 3) break;; esac; done; echo $i
### t11-h
n=0; for ((;;)); do ((n++ > 4)) && break; done; echo $n
### t11-i
for i in 1 2 3; do for j in 1 2 3; do (( j == 2 )) && continue 2; echo "$i$j"; done; done
### t11-j
until [[ ${#s} -ge 3 ]]; do s+=x; done; echo $s
### t11-k
if [[ -z "" ]] && [[ -n x ]] || false; then echo chain; fi
### t11-l
[[ a < b && ! b < a ]] && echo strcmp
### t11-m
x=007; [[ $x -eq 7 ]] && echo octal-is-decimal-in-test; (( x == 7 )) && echo arith-octal
### t11-n
[[ "a b" == a\ b ]] && echo esc
### t11-o
[[ abc =~ ^a(b)?c$ ]] && echo "${BASH_REMATCH[@]}"
### t11-p
re='a b'; [[ "a b" =~ $re ]] && echo spaced
### t11-q
[[ "x" =~ [[:alpha:]] ]] && echo class
### t11-r
[[ "hello" =~ l+ ]] && echo "${BASH_REMATCH[0]}"
### t11-s
[ -e . ] && [ -d . ] && echo dot
### t11-t
[[ 1 -eq 1 ]] && [[ 2 -ne 3 ]] && echo nums
### t11-u
test 1 -eq 1 -a 2 -eq 2; echo $?
### t11-v
[ "$undefined" = "" ] && echo unset-empty
### t11-w
[[ $undefined == "" ]] && echo dbl-unset
### t11-x
v=5; [[ v -gt 3 ]] && echo var-arith
### t11-y
[ ! -f nofile ] && echo notfile
### t11-z
[[ "foo" == @(foo|bar) ]] && echo extglob-in-cond

# lang_mixed: assorted behaviours found by differential exploration
# Known divergences: none
### t1-a
set -x; echo hi; x=$(echo y)
### t1-b
printf '%s\n' "${!BASH_VERSINFO[@]}" | head -2
### t1-c
a=(3 1 2); IFS=$'\n' sorted=($(sort <<<"${a[*]}")); unset IFS; echo "${sorted[@]}"
### t1-d
str="a-b-c"; echo "${str//-/ }"; arr=(${str//-/ }); echo ${#arr[@]}
### t1-e
f() { echo "$#"; }; f "${undefined[@]}"; f "${undefined[@]:-}"
### t1-f
x=5; [[ $x -gt 3 && $x -lt 10 ]] && echo between
### t1-g
echo $(( 5 > 3 ? 1 : 0 ))
### t1-h
v="line1
line2"; echo "$v" | while read -r l; do echo ">$l"; done
### t1-i
declare -A m=([a]=1 [b]=2); echo "${!m[@]}" | tr ' ' '\n' | sort | tr '\n' ' '; echo
### t1-j
for i in 1 2 3; do echo $i; done | tac
### t1-k
echo "$(printf '%s,' a b c)" | sed 's/,$//'
### t1-l
s="Hello"; echo "${s:0:1}${s:1}" "${s: -1}" "${s:10}"
### t1-m
set -- one two three; echo "${!#}" "${@: -1}"
### t1-n
x="  a b  "; echo "[${x// /}]" "[${x%% *}]"
### t1-o
echo $((2#101 + 8#17 + 16#a))
### t1-p
printf "%s\n" {a..c} | paste -sd,
### t1-q
n=$(printf '%s\n' a b c | wc -l); echo $((n))
### t1-r
f() { local i; for i in "$@"; do echo "$i"; done; }; f "x y" z
### t1-s
echo ${#PIPESTATUS[@]}
### t1-t
a=1; b=2; (( a < b )) && echo less
### t1-u
arr=(); arr[${#arr[@]}]=x; arr[${#arr[@]}]=y; echo ${arr[@]}
### t1-w
x=$'a\tb'; printf '%q\n' "$x"
### t1-x
set -e; f() { return 1; }; if f; then echo y; else echo n; fi; f || echo handled; echo end
### t1-y
echo 'single '\''quote'\'' escape'
### t1-z
mkdir -p a/b/c && cd a/b/c && cd ../.. && ls
### t2-a
x=10; while ((x-- > 7)); do echo $x; done
### t2-b
echo $(( x = 3, x * x ))
### t2-d
read -n1 c <<< "xyz"; echo $c
### t2-e
IFS= read -r line <<< "   spaced   "; echo "[$line]"
### t2-f
echo "${HOME:+home-set}"
### t2-g
echo -n "a" ; echo -n "" ; echo "b"
### t2-h
printf '%5.1f|%-8.3e|\n' 3.14159 31415.9
### t2-i
printf '%s %s\n' "a b" c d
### t2-j
printf '%i %u\n' -5 7
### t2-k
set -- 1 2 3; echo $(( $1 + $2 + $3 ))
### t2-l
echo "${@:-none}"
### t2-m
v=abc; echo "${v:1:1}" "${v::2}"
### t2-n
v=abcdef; echo "${v:(-2)}" "${v:-2}"
### t2-o
a=(x y); echo "${a[@]/#/pre-}" "${a[@]/%/-suf}"
### t2-p
s=AbC; echo "${s~~}" "${s~}"
### t2-q
declare -u U; U=abc; U+=def; echo $U
### t2-r
x=1; declare -n r=x; r=5; echo $x; echo ${!r}
### t2-s
echo "$((1 << 62)) $(( (1<<63) - 1 ))"
### t2-t
a=(1 2 3); unset a[1]; echo "${a[@]}" "${!a[@]}"
### t2-u
f() { echo "${FUNCNAME[0]} ${#FUNCNAME[@]}"; }; f
### t2-v
echo ${RANDOM:+set}
### t2-x
x=ab; y=${x/b/\\}; echo "$y"
### t2-y
echo "a\\b" 'a\\b' a\\b
### t2-z
echo ${x-"quoted default"} "${x-'single in dq'}"
### t3-a
declare -A m=([b]=2 [a]=1); declare -p m
### t3-b
trap 'echo "a b"' EXIT; trap -p EXIT
### t3-c
f() { echo "in f: $1"; }; export -f f 2>/dev/null; bash -c 'f x' 2>/dev/null; echo "st $?"
### t3-d
echo $(( 07 + 0x0A ))
### t3-e
x="a*b"; case "a*b" in $x) echo unquoted-match;; esac; case "axb" in "$x") echo q;; $x) echo uq;; esac
### t3-f
for i in "${!undefined[@]}"; do echo never; done; echo done
### t3-g
echo "$(( $# ))"
### t3-h
a=(1 2 3); echo "${a[*]:1}"
### t3-i
x=$'line1\nline2'; echo "${x%%$'\n'*}"
### t3-j
test -n; echo $?; test -z; echo $?; test; echo $?
### t3-k
[ -n "" -o -z "" ] && echo or-ok
### t3-l
echo ${#} ${#*}
### t3-m
unset x; echo ${x:-$((1+2))}
### t3-n
s="x=1 y=2"; for kv in $s; do echo "${kv%%=*} -> ${kv#*=}"; done
### t3-o
echo "tab:	:end" | cut -f2 -d:
### t3-p
cmd="echo"; $cmd via-var; "$cmd" quoted-var
### t3-q
args=(-n "no newline"); echo "${args[@]}"; echo
### t3-r
f() { return; }; false; f; echo $?
### t3-s
i=0; ((i++)); echo $?; ((i++)); echo $?
### t3-t
x=5; x+=3; echo $x; declare -i y=5; y+=3; echo $y
### t3-u
echo "${x:-a}""${x:-b}"
### t3-v
[[ "abc" == a* ]] && [[ "abc" != b* ]] && echo both
### t3-w
a="hello world"; echo ${a^^[lo]}
### t3-x
set -- a "b c"; echo "$@" | wc -w; printf '[%s]' "$*"; echo
### t3-y
while read -r a b; do echo "$a+$b"; done <<< $'1 2\n3 4'
### t3-z
echo foo > f; [ f -nt nonexist ] && echo newer; [ nonexist -ot f ] && echo older
### t4-a
f() { echo "in f: $1"; }; export -f f; bash -c 'f x'; echo "st $?"
### t4-b
echo 'echo "script args: $# $1"' > s.sh; bash ./s.sh "a b" c
### t4-c
bash -c 'echo $0 $#' zero a b
### t4-d
echo 'exit 7' | bash; echo $?
### t4-e
bash -c 'set -e; false; echo no'; echo $?
### t4-f
x=outer; bash -c 'echo "[$x]"'; export x; bash -c 'echo "[$x]"'
### t4-g
bash -n -c 'if then' 2>/dev/null; echo $?
### t4-h
sh -c 'echo from sh'
### t4-i
(cd /tmp 2>/dev/null; true); echo ok
### t4-j
echo "a b c" | { read -a arr; echo ${arr[1]}; }
### t4-k
printf '%s\n' 1 2 3 | { sum=0; while read n; do sum=$((sum+n)); done; echo $sum; }
### t4-l
f() { local x; x=$1; shift; echo "$x:$*"; }; f a b c
### t4-m
exec 3< <(printf 'fd3\n'); read l <&3; echo $l
### t4-n
echo hi >&1; echo err >&2 2>&1 | cat
### t4-o
{ echo one; echo two >&2; } 2>&1 >/dev/null
### t4-p
true > /dev/null 2>&1 < /dev/null; echo $?
### t4-q
x=$(echo hi; exit 3); echo "$x $?"
### t4-r
ls -d . ; echo *
### t4-s
echo $(echo a; echo b)
### t4-t
echo "$(echo a; echo b)"
### t4-u
printf '%s' "$(printf 'x\n\n')" | od -c | head -1
### t4-v
f() { cat; }; echo piped | f
### t4-w
echo abc | (read x; echo $x)
### t4-x
: $((n=5)); echo $n
### t4-y
cat <<< 'here string'
### t4-z
readarray -t -d , parts <<< "a,b,c"; echo "${#parts[@]} [${parts[2]}]"

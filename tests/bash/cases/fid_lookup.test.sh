# fid_lookup: command lookup, status codes, read/for errors, |&
# Known divergences:
#   m-command-v-path: the sandbox's commands are built in and found whatever PATH says; GNU bash cannot find sed once PATH is only $PWD/bin
### m-non-exec-on-path
mkdir bin; printf 'echo hi\n' > bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
### m-dir-on-path
mkdir -p bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
### m-exec-on-path
mkdir bin; printf '#!/bin/bash\necho ran\n' > bin/tool; chmod +x bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
### m-command-v-path
mkdir bin; printf 'echo\n' > bin/t; chmod +x bin/t; PATH=$PWD/bin; command -v t | sed "s|$PWD|W|"
### m-command-v-builtin
command -v echo; command -v if; command -v nope; echo "s=$?"
### m-command-v-func
f() { :; }; command -v f; alias l=ls; command -v l; echo "s=$?"
### m-command-V-kinds
f() { :; }; command -V f | head -1; command -V cd; command -V nope; echo "s=$?"
### m-type-kinds
type -t echo if f nope; echo "s=$?"
### m-type-a
type -a printf | head -1
### m-exit-cmdsub
$(exit 42); echo "s=$?"
### m-exit-cmdsub-empty
$(true); echo "s=$?"; $(false); echo "s=$?"
### m-empty-expansion-cmd
x=; $x; echo "s=$?"
### m-name-too-long
x=$(printf 'a%.0s' {1..300}); $x 2>/dev/null; echo "s=$?"
### m-slash-not-found
./nope; echo "s=$?"
### m-slash-not-exec
echo 'echo x' > s; ./s; echo "s=$?"
### m-slash-dir
mkdir d; ./d; echo "s=$?"
### m-hash-missing
hash nosuch; echo "s=$?"
### m-read-bad-option
read -Z x < /dev/null; echo "s=$?"
### m-read-bad-name
echo a | read 1x; echo "s=$?"
### m-read-bad-timeout
read -t abc x < /dev/null; echo "s=$?"
### m-read-bad-n
read -n abc x < /dev/null; echo "s=$?"
### m-read-eof
read x < /dev/null; echo "s=$? x=$x"
### m-read-partial
printf 'abc' | { read x; echo "s=$? x=$x"; }
### m-read-array-assoc
declare -A m; read -a m <<< "a b"; echo "s=$?"
### m-read-d
printf 'a:b:c' | { read -d : x; echo "$x"; }
### m-read-n-count
echo abcdef | { read -n 3 x; echo "$x"; }
### m-read-N
printf 'ab\ncd' | { read -N 4 x; printf '%q\n' "$x"; }
### m-read-backslash
printf 'a\\\nb\n' | { read x; echo "$x"; }
### m-read-r-backslash
printf 'a\\tb\n' | { read -r x; echo "$x"; }
### m-read-readonly
readonly r; echo v | { read r; echo "s=$?"; }
### m-for-invalid-name
for 1x in a; do echo hi; done; echo "s=$?"
### m-for-invalid-name-dash
for a-b in a; do echo hi; done; echo "s=$?"
### m-for-readonly
readonly r=1; for r in a b; do echo $r; done; echo "s=$?"
### m-for-empty-list
for x in; do echo never; done; echo "s=$?"
### m-pipe-amp
{ echo out; echo err >&2; } |& cat
### m-pipe-amp-chain
{ echo o; echo e >&2; } |& sort |& cat
### m-pipe-amp-func
f() { echo e1 >&2; echo o1; }; f |& tr a-z A-Z
### m-right-brace-arg
echo }; echo a } b; echo {}
### m-right-brace-after-group
{ echo x; } ; echo }
### m-brace-word-literal
echo {a}; echo {a,}; echo {,}
### m-dollar-single-octal
printf '%s' $'\101\102' | od -An -c | tr -s ' '
### m-dollar-single-highbyte
printf '%s' $'\377' | od -An -tx1 | tr -d ' '
### m-dollar-single-hex
printf '%s\n' $'\x41\x4a' $'\u0041'
### m-dollar-single-c
printf '%s' $'\ca' | od -An -tx1 | tr -d ' '
### m-lc-all-c-question
LC_ALL=C; x=$'\303\251'; [[ $x == ?? ]] && echo two-bytes; echo ${#x}
### m-pattern-slash-replace
x=a/b/c; echo "${x//\//|}"; echo "${x/\/b/X}"
### m-pattern-tilde-replace
HOME=/h; x=/h/f; echo "${x/#$HOME/\~}"; echo "${x/#\/h/~}"
### m-nameref-loop
a=1 b=2; for n in a b; do declare -n r=$n; echo $r; done
### m-nameref-invalid
declare -n r=1bad; echo "s=$?"
### m-printf-v-idx-expr
i=2; printf -v "arr[i+1]" '%s' z; declare -p arr
### m-cmd-not-found-status
nosuchcommand_x; echo "s=$?"
### m-cmd-not-found-in-pipe
nosuchcommand_x | cat; echo "s=${PIPESTATUS[*]}"
### m-exec-not-found
(exec nosuch_x); echo "s=$?"
### m-command-not-found-handle
command_not_found_handle() { echo "handled $1"; return 7; }; zz_nope a; echo "s=$?"

# lang_idioms: everyday script idioms as agents write them
# Known divergences: none
### strict-mode-happy-path
set -euo pipefail
main() { local name=${1:-world}; echo "hello $name"; }
main "$@"
### strict-mode-unset-default
set -euo pipefail; echo "[${MAYBE_UNSET:-}]"
### while-ifs-read-r
printf '  lead\ttab\\back  \n' > f; while IFS= read -r line; do echo "[$line]"; done < f
### rename-loop
touch a.txt b.txt; for f in *.txt; do mv "$f" "${f%.txt}.md"; done; echo *
### file-exists-check
touch present; for f in present absent; do if [[ -f "$f" ]]; then echo "$f yes"; else echo "$f no"; fi; done
### count-with-grep
printf 'a\nb\na\n' > f; n=$(grep -c a f); echo "count=$n"
### cat-heredoc-quoted-to-file
cat > script.sh <<'EOF'
#!/bin/bash
echo "$HOME $(date)"
EOF
echo done
### sort-uniq-count
printf '%s\n' b a b c b | sort | uniq -c | sort -rn | head -1
### assoc-count-words
declare -A seen; for w in x y x z x; do seen[$w]=$(( ${seen[$w]:-0} + 1 )); done; for k in x y z; do echo "$k ${seen[$k]}"; done
### dollar-lt-file
printf 'content\n' > f; x=$(< f); echo "[$x]"
### truncate-file-colon
echo data > f; : > f; echo "size=$(wc -c < f)"
### bare-redirect-creates-file
> created.txt; ls
### here-string-to-read-array
IFS=, read -ra parts <<< "a,b,c"; echo "${#parts[@]} ${parts[2]}"
### mapfile-from-procsub
mapfile -t lines < <(printf 'one\ntwo\n'); echo "${lines[1]}"
### shift-and-run-args
run() { local tag=$1; shift; echo "[$tag]"; "$@"; }; run T echo hello world
### forward-args-quoted
f() { printf '<%s>' "$@"; echo; }; g() { f "$@"; }; g "a b" "" c
### string-repeat-printf
printf '=%.0s' {1..10}; echo
### ifs-newline-split
data=$'l1 a\nl2 b'; IFS=$'\n'; for l in $data; do echo "[$l]"; done
### pwd-basename
mkdir -p proj/sub; cd proj/sub; echo ${PWD##*/}
### command-v-check
if command -v nosuchtool >/dev/null 2>&1; then echo have; else echo missing; fi
### error-trap-lineno
trap 'echo "error at line $LINENO"' ERR
true
false
echo end
### cleanup-trap
cleanup() { echo "cleaning up"; }; trap cleanup EXIT; echo working; exit 0
### arithmetic-increment-errexit
set -e; count=0; ((count++)) || true; echo $count
### read-d-empty-heredoc
read -r -d '' text <<'EOF' || true
line one
line two
EOF
echo "$text"
### nameref
f() { local -n ref=$1; ref=changed; }; v=orig; f v; echo $v
### nameref-array
add() { local -n arr=$1; arr+=("$2"); }; list=(a); add list b; echo "${list[@]}"
### exec-fd-dup
exec 3>&1; echo via-3 >&3; exec 3>&-
### true-and-group-or
true && { echo a; false; } || echo b
### wait-background
sleep 0.01 & pid=$!; wait $pid; echo "waited $?"
### json-like-output
name=app; ver=1.2; printf '{"name": "%s", "version": "%s"}\n' "$name" "$ver"
### color-escape
echo -e "\033[1mbold\033[0m" | od -c | head -1
### lowercase-compare
a=YES; if [[ ${a,,} == yes ]]; then echo matched; fi
### default-assign-idiom
: "${CONFIG:=default.conf}"; echo $CONFIG
### length-check
s=abc; if (( ${#s} > 2 )); then echo long; fi
### loop-over-lines-of-var
lines=$'x\ny\nz'; while read -r l; do echo "-$l"; done <<< "$lines"
### arrays-join
arr=(a b c); (IFS=,; echo "${arr[*]}"); echo "${arr[*]}"
### array-contains
arr=(x y z); if [[ " ${arr[*]} " == *" y "* ]]; then echo has-y; fi
### number-padding
for i in 1 10 100; do printf '%04d\n' $i; done
### split-path
IFS=/ read -ra parts <<< "/usr/local/bin"; echo "${#parts[@]} ${parts[1]} ${parts[3]}"
### trim-whitespace
s="   padded   "; s="${s#"${s%%[![:space:]]*}"}"; s="${s%"${s##*[![:space:]]}"}"; echo "[$s]"
### substring-search
s="hello world"; if [[ $s == *world* ]]; then echo found; fi; echo "${s/world/there}"
### extension-and-dirname
p=dir/sub/file.tar.gz; echo "${p##*/} ${p%/*} ${p##*.} ${p%%.*}"
### until-retry
n=0; until [ $n -ge 3 ]; do n=$((n+1)); echo "try $n"; done
### case-options
parse() { case "$1" in -h|--help) echo help;; -v|--verbose) echo verbose;; --) echo end;; -*) echo "unknown $1";; *) echo "arg $1";; esac; }; for a in -h --verbose -x file --; do parse "$a"; done
### eval-assignment-from-output
eval "$(echo 'A=1; B=2')"; echo $((A+B))
### source-procsub
source <(echo 'FROM_PROC=yes'); echo $FROM_PROC
### tee-and-count
echo hello | tee copy.txt | wc -c
### redirect-stderr-into-var
out=$( { echo to-err >&2; } 2>&1 ); echo "captured: $out"
### pipefail-with-grep-q
set -o pipefail; if printf 'a\nb\n' | grep -q b; then echo found; fi
### printf-table
printf '%-6s|%4s\n' name qty apple 3 kiwi 12
### random-modulo-range
r=$(( RANDOM % 10 )); (( r >= 0 && r < 10 )) && echo inrange
### hex-conversion
printf '%x %d %o\n' 255 0x1f 8; echo $((16#ff))
### function-return-string
get() { echo "result-$1"; }; val=$(get 5); echo "$val"
### local-from-cmdsub-status
f() { local out; out=$(false) || echo "failed $?"; }; f
### nested-quotes-in-cmdsub-in-dq
echo "outer $(echo "inner $(echo "deepest")")"
### readonly-script-dir
readonly DIR=$(cd "$(dirname "x/y")" && pwd 2>/dev/null || echo none); echo ok
### process-lines-with-index
i=0; while read -r line; do i=$((i+1)); echo "$i: $line"; done <<'EOF'
first
second
EOF

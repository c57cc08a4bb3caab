# lang_edge: corner cases of parsing and expansion
# Known divergences: none
### declare-f-output
f() { echo one; echo two; }; declare -f f
### type-function-output
greet() { local n=$1; echo "hi $n"; }; type greet
### declare-f-if-loop
f() { if [ -n "$1" ]; then echo yes; else echo no; fi; for i in 1 2; do echo $i; done; }; declare -f f
### declare-p-various
declare -i i=5; declare -x e=exp; declare -r r=ro; declare -a a=(1 2); declare -p i e r a
### declare-p-escapes
x='a "quoted" $var \ back'; declare -p x
### export-p-format
export ZZ_TEST='a b'; export -p | grep ZZ_TEST
### shopt-p-format
shopt -p nullglob; shopt -s nullglob; shopt -p nullglob
### heredoc-pipe
cat <<EOF | tr a-z A-Z
shout
EOF
### heredoc-cmdsub-inside
x=$(cat <<EOF
a $(echo b) c
EOF
); echo "$x"
### heredoc-two-on-one-line
cat <<A; cat <<B
first
A
second
B
### comment-after-keywords
if true; then # comment
  echo in # another
fi # trailing
case x in # c
  x) echo x ;; # c2
esac
### semicolon-newline-mix
for i in 1 2
do
  echo $i
done
### if-not-command
if ! false; then echo negated; fi
### empty-then-with-colon
if true; then :; fi; echo ok
### nested-cmdsub-quotes-parens
echo "$(echo ")")"
### case-in-cmdsub
x=$(case y in y) echo yes;; esac); echo $x
### arith-ternary-assign
(( x = 1 ? 10 : 20 )); echo $x
### arith-hex-octal-mix
echo $(( 0x10 + 010 + 2#11 ))
### positional-zero-slice
set -- a b; echo "${@:0:1}" | grep -c .
### array-default-when-empty
a=(); echo "${a[@]:-empty}"
### keys-star
a=(x y z); echo "${!a[*]}"
### at-in-middle-of-word
set -- a b c; for w in "x$@y"; do echo "[$w]"; done
### star-in-middle-of-word
set -- a b c; for w in "x$*y"; do echo "[$w]"; done
### ifs-star-custom
set -- a b; IFS=:; x="$*"; echo "$x"
### unset-in-function-dynamic
x=global; f() { local x=local; g; echo "f sees $x"; }; g() { unset x; echo "g sees ${x-unset}"; }; f; echo "outer $x"
### declare-g-in-function
f() { declare -g G=set-in-f; }; f; echo $G
### local-shadow-then-return
x=1; f() { local x=2; x=3; }; f; echo $x
### while-pipe-exit-subshell
printf 'a\nb\n' | while read l; do [ $l = b ] && exit 3; done; echo "st $?"
### exit-in-subshell-pipeline-status
(exit 4) | (exit 5); echo ${PIPESTATUS[*]}
### nested-arrays-in-arith
a=(1 2 3); i=0; echo $(( a[a[i]] ))
### brace-group-one-line-needs-semicolon
{ echo a; echo b; }
### function-brace-on-next-line
f()
{
  echo next-line
}
f
### continuation-inside-dq
echo "a \
b"
### escaped-space-arg
set -- a\ b c; echo $#
### word-with-equals-not-assignment
echo a=b; x==y; echo "[$x]"
### assignment-after-command-is-arg
echo x=1; echo "[$x]"
### glob-in-assignment-not-expanded
touch a.txt; x=*.txt; echo "$x"
### quoted-tilde-in-assignment
x="~"; echo $x
### brace-range-in-for-with-var-step
for i in {1..10..4}; do echo -n "$i "; done; echo
### special-param-underscore
echo a b; echo $_
### echo-many-dashes
echo - -- ---
### printf-dash-format
printf -- '-%s-\n' x
### read-backslash-continuation
printf 'a\\\nb\n' > f; read x < f; echo "$x"
### read-ifs-nonws-empty-fields
IFS=: read a b c <<< "1::3"; echo "[$a][$b][$c]"
### read-more-vars-than-fields
read a b c <<< "only"; echo "[$a][$b][$c]"
### read-last-var-keeps-delims
IFS=: read a b <<< "1:2:3:"; echo "[$a][$b]"
### case-extglob-pattern
shopt -s extglob
case foo.txt in *.@(txt|md)) echo doc;; *) echo other;; esac
### case-negated-extglob
shopt -s extglob
case foo.o in !(*.o)) echo keep;; *) echo skip;; esac
### dbl-bracket-o-option
set -o pipefail; [[ -o pipefail ]] && echo on; [[ -o errexit ]] || echo off
### arithmetic-string-compare-in-dbl
[[ 10 < 9 ]] && echo string-order
### test-numeric-with-spaces
[ " 5" -eq 5 ] && echo eq
### dollar-at-count-after-set
set -- "$@" new; echo $#
### nounset-array-element
set -u; a=(1); echo ${a[0]}; (echo ${a[5]}) 2>/dev/null; echo "st $?"
### ifs-tab-only
x=$'a b\tc'; IFS=$'\t'; set -- $x; echo $#; echo "$1"
### pipe-newline-continuation
echo abc |
  tr a-z A-Z
### and-newline-continuation
true &&
  echo continued
### background-then-wait-output-order
{ echo bg; } & wait; echo fg
### empty-function-body-error
f() { }; echo "st $?"
### subshell-in-pipeline-with-vars
x=1; (x=2; echo $x) | cat; echo $x
### cmdsub-preserves-trailing-spaces
x=$(printf 'a  '); echo "[$x]"
### arith-assign-string-var
x=abc; echo $(( x ))
### arith-recursive-name
a=b; b=c; c=7; echo $((a))
### local-readonly
f() { local -r x=1; x=2; echo "after $?"; }; f; echo "st $?"
### return-value-255-wrap
f() { return 257; }; f; echo $?
### printf-percent-b-stop
printf '%b|%s\n' 'a\cb' next
### echo-e-backslash-zero
echo -e 'a\0b' | od -c | head -1
### cmdsubst-drops-nul-bytes
x=$(printf 'a\0b\0'); echo "${#x} $x"
### read-drops-nul-bytes
printf 'a\0b\nc\n' | { read -r v; echo "${#v} $v"; read -r w; echo "$w"; }
### printf-v-ends-at-nul
printf -v x 'a\0b'; echo "${#x} $x"
### mapfile-elements-end-at-nul
printf 'a\0b\nc\n' | { mapfile arr; printf '%s|' "${arr[@]}"; echo; }
printf 'a\0b\0c' | { mapfile -d '' -t arr; echo "${#arr[@]} ${arr[1]}"; }

# lang_functions: definitions, arguments, return, local, recursion
# Known divergences: none
### function-basic
greet() { echo "hello $1"; }; greet world
### function-keyword
function f { echo kw; }; f
### function-keyword-parens
function g() { echo kwp; }; g
### function-args
f() { echo "$# args: $*"; echo "first=$1 second=$2"; }; f a "b c" d
### function-return-status
f() { return 3; }; f; echo $?
### function-return-last-status
f() { false; }; f; echo $?
### function-local
x=global; f() { local x=local; echo "in $x"; }; f; echo "out $x"
### function-global-modify
x=1; f() { x=2; }; f; echo $x
### function-dynamic-scope
f() { echo "sees $v"; }; g() { local v=from-g; f; }; g
### function-recursion
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 6
### function-recursion-in-cmdsub
fib() { local n=$1; if ((n < 2)); then echo $n; return; fi; echo $(( $(fib $((n-1))) + $(fib $((n-2))) )); }; fib 10
### function-positional-restored
set -- a b; f() { set -- x; echo $1; }; f; echo $1 $2
### function-in-pipeline
f() { while read l; do echo "f:$l"; done; }; printf '1\n2\n' | f
### function-redirect-definition
f() { echo redirected; } > out.txt; f; f; while read l; do echo "[$l]"; done < out.txt
### function-subshell-body
f() ( x=inner; echo $x ); x=outer; f; echo $x
### function-visible-in-subshell
f() { echo visible; }; (f); echo $(f)
### function-overrides-builtin
echo() { builtin echo "wrapped: $*"; }; echo hi; unset -f echo; echo plain
### function-unset
f() { echo x; }; unset -f f; f 2>/dev/null; echo $?
### local-unset-shows-global
x=g; f() { local x; echo "[${x-unset}]"; }; f
### local-array
f() { local -a arr=(1 2 3); echo ${#arr[@]}; }; f; echo "[${arr[@]}]"
### funcname
f() { echo $FUNCNAME; g; }; g() { echo "${FUNCNAME[@]}"; }; f
### return-outside-function
return 2>/dev/null; echo "st $?"
### function-with-local-ifs
f() { local IFS=,; set -- $1; echo $#; }; f "a,b,c"; x="a,b"; set -- $x; echo $#
### nested-function-definition
outer() { inner() { echo inner; }; inner; }; outer; inner
### function-name-with-dash
my-func() { echo dashed; }; my-func
### function-exit-exits-shell
f() { exit 5; }; f; echo never
### function-return-from-loop
f() { for i in 1 2 3; do if [ $i = 2 ]; then return $i; fi; done; }; f; echo $?
### declare-f-lists
f() { echo body; }; declare -F f
### type-function
f() { :; }; type -t f; type -t echo; type -t if; type -t ls
### deep-recursion-ok
d() { if [ $1 -gt 0 ]; then d $(($1-1)); else echo bottom; fi; }; d 50
### local-in-loop
f() { for i in 1 2; do local v=$i; done; echo $v; }; f; echo "[$v]"
### function-returns-output-and-status
f() { echo out; return 4; }; x=$(f); echo "$x $?"

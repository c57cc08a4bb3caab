# fid_declare: declare -p / typeset: attributes, arrays, readonly, round trips
# Known divergences:
#   m-assoc-special-keys: an unquoted blank inside an assignment subscript (m[a b]=1) splits the word in our parser; bash keeps the subscript whole
#   m-nameref-array-elem: a nameref to an array element (declare -n r='a[1]') is not supported; it resolves to an unset name
### m-empty-indexed
declare -a a=(); declare -p a
### m-empty-assoc
declare -A b=(); declare -p b
### m-declared-unset-indexed
declare -a a; declare -p a
### m-declared-unset-assoc
declare -A b; declare -p b
### m-declared-plain
declare x; declare -p x
### m-integer-attr
declare -i n=3+4; declare -p n; n=n*2; echo $n
### m-readonly-then-assign
readonly r=1; r=2; echo "after $?"
### m-readonly-declare-assign
declare -r r=1; declare r=2; echo "after $?"
### m-readonly-plus-r
declare -r r=1; typeset +r r; echo "s=$?"; declare -p r
### m-readonly-unset
readonly r=1; unset r; echo "s=$?"; echo $r
### m-typeset-p
typeset -i t=5; typeset -p t
### m-declare-pg
f() { declare -g G=1; declare -pg G; }; f
### m-declare-p-missing
declare -p nope; echo "s=$?"
### m-declare-p-several
a=1 b=2; declare -p a b
### m-export-attr
export E=1; declare -p E
### m-export-and-int
declare -xi xi=2; declare -p xi
### m-lower-upper
declare -l lo=ABC; declare -u up=abc; declare -p lo up; lo=XyZ; echo $lo
### m-array-sparse
a=(1 2 3); unset 'a[1]'; declare -p a
### m-array-roundtrip-unset
a=(x y z); unset 'a[0]'; s=$(declare -p a); unset a; eval "$s"; declare -p a; echo ${#a[@]}
### m-assoc-roundtrip
declare -A m=([k1]=v1 ["k 2"]='v "2"'); s=$(declare -p m); unset m; eval "$s"; echo "${m[k 2]}"
### m-array-quote-values
a=('a b' "c'd" 'e"f' '$x' ''); declare -p a
### m-assoc-special-keys
declare -A m; m[a b]=1; m['$x']=2; m[*]=3; declare -p m
### m-declare-f-name
f() { echo hi; }; declare -F f; declare -F nope; echo "s=$?"
### m-declare-plus-x
export X=1; declare +x X; declare -p X
### m-declare-no-args-var
declare -i Z=3; declare | grep '^Z='
### m-declare-a-from-scalar
x=5; declare -a x; declare -p x
### m-declare-A-conversion
a=(1 2); declare -A a; echo "s=$?"; declare -p a
### m-local-p
f() { local l=1; local -p l; }; f
### m-local-outside
local x=1; echo "s=$?"
### m-declare-n-nameref
x=5; declare -n r=x; declare -p r; r=7; echo $x
### m-nameref-assoc
declare -A m=([k]=v); declare -n r=m; echo "${r[k]}"; r[j]=w; declare -p m
### m-nameref-array-elem
a=(1 2 3); declare -n r='a[1]'; echo $r
### m-declare-readonly-array
declare -ra ra=(1 2); ra[0]=5; echo "s=$?"; declare -p ra
### m-declare-t-attr
declare -t t=1; declare -p t
### m-declare-i-string
declare -i n; n=abc; echo "n=$n"; n='2+3'; echo "n=$n"
### m-declare-i-append
declare -i n=5; n+=3; echo $n; s=a; s+=b; echo $s
### m-array-append
a=(1); a+=(2 3); a[10]=x; a+=(y); declare -p a
### m-assoc-append
declare -A m=([a]=1); m+=([b]=2); m[a]+=x; declare -p m
### m-printf-v-array
printf -v 'a[2]' '%s' hi; declare -p a
### m-printf-v-assoc
declare -A m; printf -v 'm[k]' '%d' 42; declare -p m
### m-printf-v-invalid
printf -v '1bad' x; echo "s=$?"
### m-declare-invalid-name
declare 1x=2; echo "s=$?"
### m-declare-p-func-vars
f() { local a=(1 2); declare -p a; }; f
### m-readonly-p
readonly R=1; readonly -p | grep ' R='
### m-export-p
export EXP=2; export -p | grep EXP
### m-declare-x-env
declare -x EV=1; env | grep '^EV='
### m-unset-array-elem-assoc
declare -A m=([a]=1 [b]=2); unset 'm[a]'; declare -p m
### m-unset-v-f
x=1; f() { :; }; unset -v x; unset -f f; declare -p x; declare -F f; echo "s=$?"
### m-declare-empty-string
x=''; declare -p x
### m-declare-newline-value
x=$'a\nb'; declare -p x
### m-declare-dollar-value
x='$HOME `c` \\'; declare -p x
### m-array-negative-index
a=(1 2 3); echo ${a[-1]}; a[-1]=9; declare -p a
### m-array-bad-negative
a=(1); a[-5]=x; echo "s=$?"
### m-readonly-func-continue
readonly v=1; f() { v=2; echo inside; }; f; echo "s=$?"
### m-readonly-in-loop
readonly v=1; for i in 1 2; do v=$i; echo "i=$i $?"; done
### m-local-of-exported-is-exported
export X=1; f() { local X=2; env | grep '^X='; declare -p X; local Y; declare -p Y; }; Y=0; f
g() { local X; declare -p X; X=3; env | grep '^X='; }; g; declare -p X

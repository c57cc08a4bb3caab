# fid_declare: declare -p / typeset: attributes, arrays, readonly, round trips
# Known divergences: none
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
### m-subscript-blanks-assoc
declare -A m; m[a  b]=1; m[ ]=2; m[x y]+=3; m[x y]+=4; declare -p m; echo "${m[a  b]}"
### m-subscript-blanks-indexed
a[1 + 1]=x; a[ 0 ]=y; i=1 a[$i * 3]=z; declare -p a
### m-subscript-metachars
declare -A m; m[a;b]=1; m[a|b]=2; m[a<b]=3; m[a&b]=4; declare -p m
### m-subscript-newline
declare -A m; m[a
b]=1; declare -p m
### m-subscript-quoted-brackets
declare -A m; m[a"]"]=1; m['[']=2; m[x[y]]=3; m["p q"]=4; declare -p m
### m-subscript-not-assignment
a[x y]; echo "s=$?"; echo a[x y]
### m-subscript-declare-arg-splits
declare -A m; declare m[a b]=1; echo "s=$?"; declare -p m
### m-subscript-unterminated
echo before; a[x y; echo never
### m-subscript-compound
declare -A m=([a b]=1 [ c ]=2); a=([x y]); b=(x[a b]=1); declare -p m a b
### m-subscript-after-redirection
>f a[1 + 1]=x; declare -p a
### m-subscript-command-positions
if true; then a[2 * 2]=1; fi; ! b[1 + 1]=2; c[0 + 1]=3 d[1 + 1]=4; declare -p a b c d
### m-subscript-substitutions
a[$(echo 1) + 1]=x; a[`echo 2` * 2]=y; declare -p a
### m-subscript-second-bracket
a[1]b[2 3]=1; echo "s=$?"
### m-subscript-in-function
f() { local -A m; m[k k]=v; declare -p m; }; f; declare -f f
### m-subscript-unset-blank-key
declare -A m; m[a b]=1; unset 'm[a b]'; m[c d]=2; echo "${!m[@]}" "${m[c d]}"
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
### m-nameref-elem-assign
a=(1 2 3); declare -n r='a[1]'; echo $r; r=x; declare -p a r
### m-nameref-elem-expansions
a=(1 2 3); declare -n r="a[1]"; echo "${r} ${r:-d} ${r/2/Z} ${r@Q}"; r+=9; echo ${a[1]}
### m-nameref-elem-assoc
declare -A m=([k]=v); declare -n r="m[k]"; echo $r; r=w; r+=z; declare -A n; declare -n q="n[a b]"; q=1; declare -p m n
### m-nameref-elem-subscript-at-use
a=(1 2 3); i=2; declare -n r="a[i]"; echo $r; i=0; echo $r; r=first; declare -A m; k=x; declare -n s='m[$k]'; s=1; k=y; s=2; declare -p a m
### m-nameref-elem-unset
a=(1 2 3); declare -n r="a[1]"; unset r; declare -p a r; unset -n r; declare -p r; echo "s=$?"
### m-nameref-elem-subscripted
a=(1 2 3); declare -n r="a[1]"; echo "<${r[0]}>" "<${r[@]}>"; r[0]=q; echo never
### m-nameref-elem-list
a=(1 2 3); declare -n r="a[1]"; r=(x y); echo never
### m-nameref-elem-creates
declare -n r="a[5]"; r=x; declare -p a; x=5; declare -n s="x[0]"; echo $s; s=6; declare -p x
### m-nameref-elem-arith
a=(1 2 3); declare -n r="a[1]"; (( r += 5 )); echo ${a[1]} $((r*2)); let r++; echo ${a[1]}
### m-nameref-elem-read-printf
a=(1 2 3); declare -n r="a[1]"; read r <<< hi; echo ${a[1]}; printf -v r %s pv; echo ${a[1]}
### m-nameref-elem-chain
f() { local -n r=$1; r=changed; }; a=(1 2); f "a[0]"; declare -n p="a[1]"; declare -n s=p; s=deep; declare -p a
### m-nameref-elem-negative
a=(1 2 3); declare -n r="a[-1]"; echo $r; r=L; declare -p a; echo ${!r}
### m-nameref-elem-dynamic-scope
a=(1 2 3); declare -n r="a[1]"; f() { local a=(x y z); echo $r; r=L; declare -p a; }; f; declare -p a
### m-nameref-elem-attributes
declare -ia a=(1 2); declare -n r="a[1]"; r=3+4; declare -p a; readonly -a b=(1 2); declare -n q="b[1]"; q=3; echo never
### m-nameref-elem-all
declare -A m=([a]=1 [b]=2); declare -n r="m[@]"; echo $r; a=(1 2 3); declare -n s="a[*]"; echo "$s"
### m-nameref-elem-default
a=(1 2 3); declare -n r="a[1]"; : ${r:=q}; declare -n u="a[7]"; : ${u:=q}; declare -p a
### m-nameref-elem-in-tests
a=(1 2 3); declare -n r="a[1]"; [[ $r == 2 ]] && echo eq; case $r in 2) echo two;; esac; echo "${r}${r}"
### m-nameref-elem-unclosed
declare -n r="a[1"; echo "s=$?"
### m-nameref-declare-assigns
x=1; declare -n r=x; declare r=5; declare -p r x; typeset r+=6; declare -p x; declare -i r=2+3; declare -p r x
### m-nameref-declare-attributes
x=1; declare -n r=x; export r=5; readonly r=6; echo "s=$?"; declare -p r x; env | grep '^x='
### m-nameref-declare-arrays
x=1; declare -n r=x; declare -a r=(1 [4]=2 y); declare -p r x; y=1; declare -n q=y; declare -A q; declare -p q y
### m-nameref-declare-chain-element
declare -n r=x; declare -n q=r; declare q=3; a=(1 2 3); declare -n e="a[1]"; declare e=5; declare -p x a e
### m-nameref-declare-repoint
x=1; declare -n r=x; declare -n r=y; declare -p r; declare +n r; declare -p r; declare -n s=x; declare -g s=9; declare -p x s
### m-nameref-declare-in-function
x=1; declare -n r=x; f() { declare r=5; declare -p r; }; f; g() { local -n q=x; local q=6; declare -p q x; declare q=7; declare -p x; }; g; declare -p x r
### m-nameref-declare-readonly-target
declare -n r=x; declare -r x=1; declare r=2; echo "s=$?"; declare -p x
### m-nameref-declare-subscript
declare -n r=a; declare r[1]=5; declare -p r a; echo "s=$?"; declare -n q=b; q[1]=5; declare -p q b
### m-nameref-declare-no-value
x=1; declare -n r=x; declare r; declare -x r; declare -t r=4; declare -p r x
### m-assoc-from-scalar
x=1; declare -A x; declare -p x; y=; declare -A y; declare -p y; z=2; declare -A z=([k]=v); declare -p z
### m-nameref-declare-unset-invalid
declare -n r; declare r=5; echo "s=$?"; declare -p r; declare -n q; declare -n q=5; echo "s=$?"; declare -p q; declare -n p; typeset p=y; declare -p p
### m-nameref-declare-unset-invalid-function
f() { local -n r; declare r=5; echo "s=$?"; declare -p r; }; f; declare -n g; h() { declare -g g=5; echo "s=$?"; declare -p g; }; h; echo "s=$?"
### m-nameref-for-repoints
x=1; y=2; declare -n r; for r in x y; do echo "$r ${!r}"; r=9; done; declare -p r x y
### m-nameref-for-set-ref
declare -n r=z; for r in x y; do echo "<$r>"; done; declare -p r; declare -p z x y; echo "s=$?"
### m-nameref-for-invalid
declare -n r; for r in x 1x y; do echo "<$r|${!r}>"; done; echo "s=$?"; declare -p r; for r in ""; do echo never; done; echo "s=$?"
### m-nameref-for-elements
a=(1 2); declare -n r; for r in "a[1]" "a[0]"; do echo "$r"; r=z; done; declare -p a r
### m-nameref-for-in-function
f() { local -n r; for r in x y; do r=5; done; declare -p r; }; x=0; y=0; f; declare -p x y
### m-nameref-for-readonly-self
declare -rn r=x; for r in a b; do echo "<$r>"; done; echo "s=$?"; declare -n q=x; for q in q; do echo never; done; echo "s=$?"; set -e; for q in "a b"; do :; done; echo after
### m-nameref-for-empty-list
declare -n r; for r in; do :; done; declare -p r; for r in $nothing; do :; done; declare -p r
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
### m-compound-mixed-indices
a=(1 [5]=2 x); declare -p a; a=([2]=a b [0]=c d); declare -p a; declare -a b=([1]=1 [0]=0 x); declare -p b
### m-compound-mixed-append
a=(x y z); a+=([1]=Q r); declare -p a; a=(1 [5]=2 x); a+=(y [2]=z w); declare -p a
### m-compound-mixed-expansions
i=0; a=([i++]=x [i++]=y z); declare -p a i; s="1 2"; b=($s [3]=$s); declare -p b; a=(1 2 3); a=([${#a[@]}]=x [a[1]]=y); declare -p a
### m-compound-element-append
a=([1]=a [1]+=b c); declare -p a; x=(q); x+=([0]+=r); declare -ia n=([1]=2 [1]+=3 4); declare -p x n
### m-compound-negative-index
a=(1 2 3); a+=([-1]=x); declare -p a; a=([-1]=y b); echo "s=$?"; declare -p a; a+=([-5]=z); i=-1; a=([$i]="p q"); declare -a b=([]=x); declare -p a b
### m-compound-subscript-quotes
a=(["1"]=x y); declare -p a; b=(['2']=x y); declare -p b; m=(["]"]=1); n=([a]b]=1); o=([1]]=q); p=([a[1]]=q); declare -p m n o p
### m-compound-assoc-quoted-bracket
declare -A m=(["]"]=1 [a"]"b]=2 [c\]d]=3 [e[1]]=4); declare -p m; declare -A n=([x]]=3); echo "s=$?"; declare -p n
### m-compound-assoc-plain-words
declare -A m=([a]=1 b "c d" $HOME); echo "s=$?"; declare -p m; declare -A n; n=([a]=1 b "c d" $HOME); echo "s=$?"; declare -p n; n+=([b]=2 c); declare -p n
### m-compound-assoc-pairs
declare -A m=(a 1 b 2); declare -p m; declare -A n=(a 1 [b]=2 c); declare -p n; declare -A o=(k "v w" [x]=y); declare -p o; m+=(c 3); declare -p m
### m-compound-assoc-empty-key
declare -A m=([]=x); echo "s=$?"; k=; declare -A n; n=([$k]=v); n=([]=w); declare -p m n
### m-compound-assoc-element-append
declare -A m=([x]=1 [y]=2); m=([x]+=2 [z]+=3); declare -p m; m=([x]=5 [x]+=2); declare -p m; m+=([x]+=3 [w]+=4); declare -p m; declare -Ai n=([x]=1); n=([x]+=2); declare -p n
### m-compound-scalar-and-nameref
x=5; x+=([3]=y z); declare -p x; y=5; y=([3]=y z); declare -p y; declare -n r=a; r=(1 [4]=2 x); declare -p a
### m-compound-local
f() { local a=(1 [5]=2 x); local -A m=([k]=v [j]=w); declare -p a m; }; f
### m-prefix-subscript
a[1]=3 true; echo "s=$?"; declare -p a; echo "s=$?"
### m-prefix-subscript-existing
a=(x y); a[1]=3 echo hi; echo "s=$?"; declare -p a; a[1]+=3 b=2 env | grep '^b='; b=2 a[0]=1 true; echo "s=$?"; declare -p b
### m-prefix-subscript-not-expanded
a[1]=$(echo sub) true; a[1]=$(touch made) true; ls; a[$(touch idx)]=1 true; ls
### m-prefix-subscript-declare-p
a[1]=3 declare -p a; echo "s=$?"; a[1]=3 nosuch; echo "s=$?"; a[1 + 1]=3 true 2>/dev/null; echo "s=$?"
### m-prefix-subscript-function-errexit
set -e; f() { echo "f $?"; }; a[0]=1 f; a[1]=1 true && echo and; a[2 * 2]=1 exec echo done
### m-prefix-readonly
readonly r=1; r=2 echo hi; echo "s=$?"; f() { echo "f $r"; }; r=2 f; r=2 env | grep '^r='; echo "s=$?"; a[1]=3 r=2 true; echo "s=$?"; r=2 :; echo "s=$?"
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

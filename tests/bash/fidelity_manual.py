"""The hand-written half of the fidelity corpus (see ``fidelity_cases.py``): one script per
behaviour, by area. Expected outcomes are recorded from GNU bash, never written here."""

from __future__ import annotations

_DECLARE = r"""
empty-indexed|declare -a a=(); declare -p a
empty-assoc|declare -A b=(); declare -p b
declared-unset-indexed|declare -a a; declare -p a
declared-unset-assoc|declare -A b; declare -p b
declared-plain|declare x; declare -p x
integer-attr|declare -i n=3+4; declare -p n; n=n*2; echo $n
readonly-then-assign|readonly r=1; r=2; echo "after $?"
readonly-declare-assign|declare -r r=1; declare r=2; echo "after $?"
readonly-plus-r|declare -r r=1; typeset +r r; echo "s=$?"; declare -p r
readonly-unset|readonly r=1; unset r; echo "s=$?"; echo $r
typeset-p|typeset -i t=5; typeset -p t
declare-pg|f() { declare -g G=1; declare -pg G; }; f
declare-p-missing|declare -p nope; echo "s=$?"
declare-p-several|a=1 b=2; declare -p a b
export-attr|export E=1; declare -p E
export-and-int|declare -xi xi=2; declare -p xi
lower-upper|declare -l lo=ABC; declare -u up=abc; declare -p lo up; lo=XyZ; echo $lo
array-sparse|a=(1 2 3); unset 'a[1]'; declare -p a
array-roundtrip-unset|a=(x y z); unset 'a[0]'; s=$(declare -p a); unset a; eval "$s"; declare -p a; echo ${#a[@]}
assoc-roundtrip|declare -A m=([k1]=v1 ["k 2"]='v "2"'); s=$(declare -p m); unset m; eval "$s"; echo "${m[k 2]}"
array-quote-values|a=('a b' "c'd" 'e"f' '$x' ''); declare -p a
assoc-special-keys|declare -A m; m[a b]=1; m['$x']=2; m[*]=3; declare -p m
subscript-blanks-assoc|declare -A m; m[a  b]=1; m[ ]=2; m[x y]+=3; m[x y]+=4; declare -p m; echo "${m[a  b]}"
subscript-blanks-indexed|a[1 + 1]=x; a[ 0 ]=y; i=1 a[$i * 3]=z; declare -p a
subscript-metachars|declare -A m; m[a;b]=1; m[a|b]=2; m[a<b]=3; m[a&b]=4; declare -p m
subscript-newline|declare -A m; m[a
b]=1; declare -p m
subscript-quoted-brackets|declare -A m; m[a"]"]=1; m['[']=2; m[x[y]]=3; m["p q"]=4; declare -p m
subscript-not-assignment|a[x y]; echo "s=$?"; echo a[x y]
subscript-declare-arg-splits|declare -A m; declare m[a b]=1; echo "s=$?"; declare -p m
subscript-unterminated|echo before; a[x y; echo never
subscript-compound|declare -A m=([a b]=1 [ c ]=2); a=([x y]); b=(x[a b]=1); declare -p m a b
subscript-after-redirection|>f a[1 + 1]=x; declare -p a
subscript-command-positions|if true; then a[2 * 2]=1; fi; ! b[1 + 1]=2; c[0 + 1]=3 d[1 + 1]=4; declare -p a b c d
subscript-substitutions|a[$(echo 1) + 1]=x; a[`echo 2` * 2]=y; declare -p a
subscript-second-bracket|a[1]b[2 3]=1; echo "s=$?"
subscript-in-function|f() { local -A m; m[k k]=v; declare -p m; }; f; declare -f f
subscript-unset-blank-key|declare -A m; m[a b]=1; unset 'm[a b]'; m[c d]=2; echo "${!m[@]}" "${m[c d]}"
declare-f-name|f() { echo hi; }; declare -F f; declare -F nope; echo "s=$?"
declare-plus-x|export X=1; declare +x X; declare -p X
declare-no-args-var|declare -i Z=3; declare | grep '^Z='
declare-a-from-scalar|x=5; declare -a x; declare -p x
declare-A-conversion|a=(1 2); declare -A a; echo "s=$?"; declare -p a
local-p|f() { local l=1; local -p l; }; f
local-outside|local x=1; echo "s=$?"
declare-n-nameref|x=5; declare -n r=x; declare -p r; r=7; echo $x
nameref-assoc|declare -A m=([k]=v); declare -n r=m; echo "${r[k]}"; r[j]=w; declare -p m
nameref-array-elem|a=(1 2 3); declare -n r='a[1]'; echo $r
nameref-elem-assign|a=(1 2 3); declare -n r='a[1]'; echo $r; r=x; declare -p a r
nameref-elem-expansions|a=(1 2 3); declare -n r="a[1]"; echo "${r} ${r:-d} ${r/2/Z} ${r@Q}"; r+=9; echo ${a[1]}
nameref-elem-assoc|declare -A m=([k]=v); declare -n r="m[k]"; echo $r; r=w; r+=z; declare -A n; declare -n q="n[a b]"; q=1; declare -p m n
nameref-elem-subscript-at-use|a=(1 2 3); i=2; declare -n r="a[i]"; echo $r; i=0; echo $r; r=first; declare -A m; k=x; declare -n s='m[$k]'; s=1; k=y; s=2; declare -p a m
nameref-elem-unset|a=(1 2 3); declare -n r="a[1]"; unset r; declare -p a r; unset -n r; declare -p r; echo "s=$?"
nameref-elem-subscripted|a=(1 2 3); declare -n r="a[1]"; echo "<${r[0]}>" "<${r[@]}>"; r[0]=q; echo never
nameref-elem-list|a=(1 2 3); declare -n r="a[1]"; r=(x y); echo never
nameref-elem-creates|declare -n r="a[5]"; r=x; declare -p a; x=5; declare -n s="x[0]"; echo $s; s=6; declare -p x
nameref-elem-arith|a=(1 2 3); declare -n r="a[1]"; (( r += 5 )); echo ${a[1]} $((r*2)); let r++; echo ${a[1]}
nameref-elem-read-printf|a=(1 2 3); declare -n r="a[1]"; read r <<< hi; echo ${a[1]}; printf -v r %s pv; echo ${a[1]}
nameref-elem-chain|f() { local -n r=$1; r=changed; }; a=(1 2); f "a[0]"; declare -n p="a[1]"; declare -n s=p; s=deep; declare -p a
nameref-elem-negative|a=(1 2 3); declare -n r="a[-1]"; echo $r; r=L; declare -p a; echo ${!r}
nameref-elem-dynamic-scope|a=(1 2 3); declare -n r="a[1]"; f() { local a=(x y z); echo $r; r=L; declare -p a; }; f; declare -p a
nameref-elem-attributes|declare -ia a=(1 2); declare -n r="a[1]"; r=3+4; declare -p a; readonly -a b=(1 2); declare -n q="b[1]"; q=3; echo never
nameref-elem-all|declare -A m=([a]=1 [b]=2); declare -n r="m[@]"; echo $r; a=(1 2 3); declare -n s="a[*]"; echo "$s"
nameref-elem-default|a=(1 2 3); declare -n r="a[1]"; : ${r:=q}; declare -n u="a[7]"; : ${u:=q}; declare -p a
nameref-elem-in-tests|a=(1 2 3); declare -n r="a[1]"; [[ $r == 2 ]] && echo eq; case $r in 2) echo two;; esac; echo "${r}${r}"
nameref-elem-unclosed|declare -n r="a[1"; echo "s=$?"
nameref-declare-assigns|x=1; declare -n r=x; declare r=5; declare -p r x; typeset r+=6; declare -p x; declare -i r=2+3; declare -p r x
nameref-declare-attributes|x=1; declare -n r=x; export r=5; readonly r=6; echo "s=$?"; declare -p r x; env | grep '^x='
nameref-declare-arrays|x=1; declare -n r=x; declare -a r=(1 [4]=2 y); declare -p r x; y=1; declare -n q=y; declare -A q; declare -p q y
nameref-declare-chain-element|declare -n r=x; declare -n q=r; declare q=3; a=(1 2 3); declare -n e="a[1]"; declare e=5; declare -p x a e
nameref-declare-repoint|x=1; declare -n r=x; declare -n r=y; declare -p r; declare +n r; declare -p r; declare -n s=x; declare -g s=9; declare -p x s
nameref-declare-in-function|x=1; declare -n r=x; f() { declare r=5; declare -p r; }; f; g() { local -n q=x; local q=6; declare -p q x; declare q=7; declare -p x; }; g; declare -p x r
nameref-declare-readonly-target|declare -n r=x; declare -r x=1; declare r=2; echo "s=$?"; declare -p x
nameref-declare-subscript|declare -n r=a; declare r[1]=5; declare -p r a; echo "s=$?"; declare -n q=b; q[1]=5; declare -p q b
nameref-declare-no-value|x=1; declare -n r=x; declare r; declare -x r; declare -t r=4; declare -p r x
assoc-from-scalar|x=1; declare -A x; declare -p x; y=; declare -A y; declare -p y; z=2; declare -A z=([k]=v); declare -p z
nameref-declare-unset-invalid|declare -n r; declare r=5; echo "s=$?"; declare -p r; declare -n q; declare -n q=5; echo "s=$?"; declare -p q; declare -n p; typeset p=y; declare -p p
nameref-declare-unset-invalid-function|f() { local -n r; declare r=5; echo "s=$?"; declare -p r; }; f; declare -n g; h() { declare -g g=5; echo "s=$?"; declare -p g; }; h; echo "s=$?"
nameref-for-repoints|x=1; y=2; declare -n r; for r in x y; do echo "$r ${!r}"; r=9; done; declare -p r x y
nameref-for-set-ref|declare -n r=z; for r in x y; do echo "<$r>"; done; declare -p r; declare -p z x y; echo "s=$?"
nameref-for-invalid|declare -n r; for r in x 1x y; do echo "<$r|${!r}>"; done; echo "s=$?"; declare -p r; for r in ""; do echo never; done; echo "s=$?"
nameref-for-elements|a=(1 2); declare -n r; for r in "a[1]" "a[0]"; do echo "$r"; r=z; done; declare -p a r
nameref-for-in-function|f() { local -n r; for r in x y; do r=5; done; declare -p r; }; x=0; y=0; f; declare -p x y
nameref-for-readonly-self|declare -rn r=x; for r in a b; do echo "<$r>"; done; echo "s=$?"; declare -n q=x; for q in q; do echo never; done; echo "s=$?"; set -e; for q in "a b"; do :; done; echo after
nameref-for-empty-list|declare -n r; for r in; do :; done; declare -p r; for r in $nothing; do :; done; declare -p r
declare-readonly-array|declare -ra ra=(1 2); ra[0]=5; echo "s=$?"; declare -p ra
declare-t-attr|declare -t t=1; declare -p t
declare-i-string|declare -i n; n=abc; echo "n=$n"; n='2+3'; echo "n=$n"
declare-i-append|declare -i n=5; n+=3; echo $n; s=a; s+=b; echo $s
array-append|a=(1); a+=(2 3); a[10]=x; a+=(y); declare -p a
assoc-append|declare -A m=([a]=1); m+=([b]=2); m[a]+=x; declare -p m
compound-mixed-indices|a=(1 [5]=2 x); declare -p a; a=([2]=a b [0]=c d); declare -p a; declare -a b=([1]=1 [0]=0 x); declare -p b
compound-mixed-append|a=(x y z); a+=([1]=Q r); declare -p a; a=(1 [5]=2 x); a+=(y [2]=z w); declare -p a
compound-mixed-expansions|i=0; a=([i++]=x [i++]=y z); declare -p a i; s="1 2"; b=($s [3]=$s); declare -p b; a=(1 2 3); a=([${#a[@]}]=x [a[1]]=y); declare -p a
compound-element-append|a=([1]=a [1]+=b c); declare -p a; x=(q); x+=([0]+=r); declare -ia n=([1]=2 [1]+=3 4); declare -p x n
compound-negative-index|a=(1 2 3); a+=([-1]=x); declare -p a; a=([-1]=y b); echo "s=$?"; declare -p a; a+=([-5]=z); i=-1; a=([$i]="p q"); declare -a b=([]=x); declare -p a b
compound-subscript-quotes|a=(["1"]=x y); declare -p a; b=(['2']=x y); declare -p b; m=(["]"]=1); n=([a]b]=1); o=([1]]=q); p=([a[1]]=q); declare -p m n o p
compound-assoc-quoted-bracket|declare -A m=(["]"]=1 [a"]"b]=2 [c\]d]=3 [e[1]]=4); declare -p m; declare -A n=([x]]=3); echo "s=$?"; declare -p n
compound-assoc-plain-words|declare -A m=([a]=1 b "c d" $HOME); echo "s=$?"; declare -p m; declare -A n; n=([a]=1 b "c d" $HOME); echo "s=$?"; declare -p n; n+=([b]=2 c); declare -p n
compound-assoc-pairs|declare -A m=(a 1 b 2); declare -p m; declare -A n=(a 1 [b]=2 c); declare -p n; declare -A o=(k "v w" [x]=y); declare -p o; m+=(c 3); declare -p m
compound-assoc-empty-key|declare -A m=([]=x); echo "s=$?"; k=; declare -A n; n=([$k]=v); n=([]=w); declare -p m n
compound-assoc-element-append|declare -A m=([x]=1 [y]=2); m=([x]+=2 [z]+=3); declare -p m; m=([x]=5 [x]+=2); declare -p m; m+=([x]+=3 [w]+=4); declare -p m; declare -Ai n=([x]=1); n=([x]+=2); declare -p n
compound-scalar-and-nameref|x=5; x+=([3]=y z); declare -p x; y=5; y=([3]=y z); declare -p y; declare -n r=a; r=(1 [4]=2 x); declare -p a
compound-local|f() { local a=(1 [5]=2 x); local -A m=([k]=v [j]=w); declare -p a m; }; f
prefix-subscript|a[1]=3 true; echo "s=$?"; declare -p a; echo "s=$?"
prefix-subscript-existing|a=(x y); a[1]=3 echo hi; echo "s=$?"; declare -p a; a[1]+=3 b=2 env | grep '^b='; b=2 a[0]=1 true; echo "s=$?"; declare -p b
prefix-subscript-not-expanded|a[1]=$(echo sub) true; a[1]=$(touch made) true; ls; a[$(touch idx)]=1 true; ls
prefix-subscript-declare-p|a[1]=3 declare -p a; echo "s=$?"; a[1]=3 nosuch; echo "s=$?"; a[1 + 1]=3 true 2>/dev/null; echo "s=$?"
prefix-subscript-function-errexit|set -e; f() { echo "f $?"; }; a[0]=1 f; a[1]=1 true && echo and; a[2 * 2]=1 exec echo done
prefix-readonly|readonly r=1; r=2 echo hi; echo "s=$?"; f() { echo "f $r"; }; r=2 f; r=2 env | grep '^r='; echo "s=$?"; a[1]=3 r=2 true; echo "s=$?"; r=2 :; echo "s=$?"
printf-v-array|printf -v 'a[2]' '%s' hi; declare -p a
printf-v-assoc|declare -A m; printf -v 'm[k]' '%d' 42; declare -p m
printf-v-invalid|printf -v '1bad' x; echo "s=$?"
declare-invalid-name|declare 1x=2; echo "s=$?"
declare-p-func-vars|f() { local a=(1 2); declare -p a; }; f
readonly-p|readonly R=1; readonly -p | grep ' R='
export-p|export EXP=2; export -p | grep EXP
declare-x-env|declare -x EV=1; env | grep '^EV='
unset-array-elem-assoc|declare -A m=([a]=1 [b]=2); unset 'm[a]'; declare -p m
unset-v-f|x=1; f() { :; }; unset -v x; unset -f f; declare -p x; declare -F f; echo "s=$?"
declare-empty-string|x=''; declare -p x
declare-newline-value|x=$'a\nb'; declare -p x
declare-dollar-value|x='$HOME `c` \\'; declare -p x
array-negative-index|a=(1 2 3); echo ${a[-1]}; a[-1]=9; declare -p a
array-bad-negative|a=(1); a[-5]=x; echo "s=$?"
readonly-func-continue|readonly v=1; f() { v=2; echo inside; }; f; echo "s=$?"
readonly-in-loop|readonly v=1; for i in 1 2; do v=$i; echo "i=$i $?"; done
local-of-exported-is-exported|export X=1; f() { local X=2; env | grep '^X='; declare -p X; local Y; declare -p Y; }; Y=0; f
g() { local X; declare -p X; X=3; env | grep '^X='; }; g; declare -p X
"""

_COND = r"""
dbl-empty|[[ ]]; echo "s=$?"
dbl-z-alone|[[ -z ]]; echo "s=$?"
dbl-paren-unclosed|[[ ( foo ]]; echo "s=$?"
dbl-quoted-paren|[[ '(' foo ]]; echo "s=$?"
dbl-3lt|[[ a 3< b ]]; echo "s=$?"
dbl-op-operand|[[ -n == -n ]] && echo same; [[ -f ]] && echo f-string
dbl-tilde|HOME=/h; [[ ~ == /h ]] && echo tilde; [[ ~/x == /h/x ]] && echo tildepath
dbl-tilde-quoted|HOME=/h; [[ "~" == /h ]] || echo literal
dbl-not-alone|[[ ! ]]; echo "s=$?"
dbl-and-trailing|[[ a && ]]; echo "s=$?"
dbl-unknown-binary|[[ a -foo b ]]; echo "s=$?"
dbl-regex-bad|[[ a =~ ( ]]; echo "s=$?"
dbl-regex-bad-var|re='('; [[ a =~ $re ]]; echo "s=$?"
dbl-regex-unclosed-group|[[ a =~ (a ]]; echo "s=$?"
dbl-regex-unclosed-second-group|[[ a =~ (a)(b ]]; echo "s=$?"
dbl-regex-bracket-paren|[[ a =~ [(] ]]; echo "s=$?"
dbl-regex-unclosed-stops-line|echo before; [[ a =~ ( ]] || echo no; echo after
dbl-regex-group-blanks|[[ a =~ (a|b) ]] && echo m; [[ "a b" =~ (a b) ]] && echo sp; [[ x =~ ( x ) ]]; echo "s=$?"
dbl-regex-group-metachars|[[ "a;b" =~ (a;b) ]] && echo semi; [[ "a<b" =~ (a<b) ]] && echo lt; [[ "a&b" =~ (a&b) ]] && echo amp; [[ "a||b" =~ (a\|\|b) ]] && echo or
dbl-regex-group-newline|[[ "a
b" =~ ^(a
b)$ ]] && echo nl
dbl-regex-group-quotes|[[ "a)" =~ (a\)) ]] && echo bs; [[ "a)" =~ (a")") ]] && echo dq; [[ "a)" =~ (a')') ]] && echo sq; x=a; [[ a =~ ($x) ]] && echo "${BASH_REMATCH[1]}"; [[ ab =~ ($(echo a))b ]] && echo cs
dbl-regex-group-spans-brackets|[[ a =~ ( ]
]] ) ]]; echo "s=$?"
dbl-regex-pipes|[[ a =~ x||a ]] && echo y; [[ a =~ x|a ]] && echo z; [[ a =~ a || b ]]; echo "s=$?"
dbl-regex-pipes-then-word|[[ x =~ x|| b ]]; echo "s=$?"
dbl-regex-lt-ends-word|false; [[ a =~ a<b ]]; echo "s=$?"
dbl-regex-quoted-paren|[[ a =~ '(' ]]; echo "s=$?"; [[ '(' =~ \( ]] && echo lit
dbl-regex-group-then-and|[[ "a" =~ (a) && b == b ]]; echo "s=$?"; [[ a =~ () ]]; echo "e=$?"
dbl-regex-group-in-function|f() { [[ $1 =~ ^(x|y) (z)$ ]] && echo "${BASH_REMATCH[2]}"; }; f "x z"; declare -f f
dbl-regex-class|[[ a1 =~ ^[[:alpha:]][[:digit:]]$ ]] && echo cls
dbl-int-error|[[ abc -eq 1 ]]; echo "s=$?"
dbl-int-expr|x=2; [[ x*3 -eq 6 ]] && echo six
dbl-int-bad-expr|[[ 1+ -eq 1 ]]; echo "s=$?"
dbl-nt|touch a; [[ a -nt nope ]] && echo newer; [[ nope -ot a ]] && echo older
dbl-ef|touch a; ln -s a b; [[ a -ef b ]] && echo same
dbl-o-option|set -u; [[ -o nounset ]] && echo on; [[ -o bogus ]]; echo "s=$?"
dbl-v-array|a=(1); [[ -v a[0] ]] && echo a0; [[ -v a[3] ]] || echo no3
dbl-v-assoc|declare -A m=([k]=1); [[ -v m[k] ]] && echo mk; [[ -v m[z] ]] || echo nz
dbl-glob-quoted-part|x='a*c'; [[ abc == a"*"c ]] || echo nomatch; [[ $x == "a*c" ]] && echo lit
dbl-nocasematch|shopt -s nocasematch; [[ ABC == abc ]] && echo ci; [[ ABC =~ ^ab ]] && echo ci-re
dbl-newline-inside|[[ a == a
]] && echo nl
dbl-bare-word|[[ -- ]] && echo dashes; [[ -a ]] && echo dasha
test-too-many|test a b c; echo "s=$?"
test-unary-missing|test -f; echo "s=$?"; test -z; echo "s=$?"
test-bad-binary|test a -foo b; echo "s=$?"
test-paren-missing|test '(' a; echo "s=$?"
test-bracket-no-close|[ a = a; echo "s=$?"
test-four-args|test ! a = b && echo four
test-lt-gt-strings|test b '>' a && echo gt; test a '<' b && echo lt
test-int-spaces|test ' 3 ' -eq 3 && echo eq; test 3x -eq 3; echo "s=$?"
test-big-int|test 99999999999999999999 -gt 1; echo "s=$?"
test-neg-int|test -3 -lt -2 && echo lt
test-a-o-prec|test a -o '' -a '' && echo or-first
test-v|x=1; test -v x && echo set
dbl-expansion-error-aborts|x='1 2'; [[ -n $(( x )) ]] || echo no; echo same-line
echo next-line $?
dbl-operand-error-fails|x='1 2'; [[ x -eq 1 ]] || echo "no $?"
"""

_ARITH = r"""
assoc-arith-key|declare -A A; A[K]=5; (( A[K] += 2 )); echo ${A[K]}
assoc-quoted-key|declare -A A; A["K"]=3; echo $(( A["K"] * 2 ))
assoc-string-literal|declare -A A; (( A[x] = 4 )); declare -p A
assoc-var-key|declare -A A; k=foo; (( A[$k]++ )); (( A[$k]++ )); declare -p A
assoc-space-key|declare -A A; A["a b"]=2; echo $(( A["a b"] + 1 ))
assign-coerce-spaces|declare -A A; A["K"] = V; echo "s=$?"
arith-string-var-chain|a=b; b=c; c=7; echo $(( a + 1 ))
arith-recursive-self|x=x; echo $(( x )); echo "s=$?"
arith-empty|echo "$(( ))"; (( )); echo "s=$?"
arith-divzero-continue|echo $(( 1 / 0 )); echo after
arith-let-multiple|let a=1 b=a+1; echo $a $b; let 0; echo "s=$?"
arith-let-noargs|let; echo "s=$?"
arith-comma|echo $(( 1, 2, 3 ))
arith-nested-paren|echo $(( ((1+2)) * ((3)) ))
arith-command-subst|echo $(( $(echo 3) + 4 ))
arith-negative-exp|echo $(( 2 ** -1 )); echo "s=$?"
arith-index-expr|a=(10 20 30); i=1; echo $(( a[i+1] + a[0] ))
arith-array-whole|a=(5 6); echo $(( a + 1 ))
arith-postinc-array|a=(1 2); (( a[1]++ )); echo ${a[@]}
arith-base-bad|echo $(( 2#102 )); echo "s=$?"
arith-hex-upper|echo $(( 0XFF ))
arith-overflow-mul|echo $(( 9223372036854775807 * 2 ))
arith-min-mod|echo $(( -9223372036854775808 % -1 ))
arith-unset-var|unset q; echo $(( q + 1 ))
arith-nounset|set -u; unset q; echo $(( q + 1 )); echo "s=$?"
arith-for-status|for (( i=0; i<3; i++ )); do :; done; echo "i=$i s=$?"
arith-for-empty|for (( ;; )); do echo once; break; done
arith-dollar-inside|x=4; echo $(( $x * $x ))
arith-ternary-assign|x=0; (( x ? (y=1) : (y=2) )); echo $y
arith-compare-strings|[[ 01 -eq 1 ]] && echo oct-eq; (( 010 == 8 )) && echo oct
"""

_ERREXIT = r"""
brace-redirect-fail|set -e; { echo hi; } > /nonexistent/x; echo "after"
brace-redirect-fail-noe|{ echo hi; } > /nonexistent/x; echo "after $?"
loop-redirect-fail|set -e; for i in 1; do echo $i; done > /nonexistent/x; echo after
while-redirect-fail|set -e; while false; do :; done < /nonexistent; echo after
func-set-e|f() { set -e; false; echo inside; }; f; echo after
func-in-cond|set -e; f() { false; echo inside; }; f || echo failed; echo after
func-in-if|set -e; f() { false; echo inside; return 3; }; if f; then echo yes; else echo "no $?"; fi
subshell-propagate|set -e; (false; echo inside); echo after
subshell-cond|set -e; (false; echo inside) || echo caught; echo after
subshell-set-e-inside|(set -e; false; echo inside); echo "after $?"
cmdsub-inherit|set -e; x=$(false; echo inner); echo "x=$x"
cmdsub-inherit-errexit|set -e; shopt -s inherit_errexit; x=$(false; echo inner); echo "x=$x"
assign-cmdsub-fail|set -e; x=$(false); echo never
local-cmdsub-fail|set -e; f() { local x=$(false); echo "local masks $?"; }; f
and-list-last|set -e; true && false; echo never
and-list-middle|set -e; false && true; echo survived
or-list|set -e; false || false; echo never
negated|set -e; ! true; echo survived; ! false; echo again
pipeline-fail|set -e; false | true; echo survived; true | false; echo never
pipefail-e|set -eo pipefail; false | true; echo never
while-cond|set -e; while false; do :; done; echo ok; until true; do :; done; echo ok2
if-cond-func|set -e; f() { return 1; }; if f; then :; fi; echo ok
case-body|set -e; case x in x) false; echo never;; esac
ignored-set-e-inside|f() { set -e; false; echo inside-ignored; }; f && echo ok
eval-false|set -e; eval false; echo never
eval-in-cond|set -e; eval false || echo caught
trap-err|trap 'echo err $?' ERR; false; echo after; (exit 3); echo end
trap-err-func|set -E; trap 'echo err' ERR; f() { false; }; f; echo end
trap-err-cond|trap 'echo err' ERR; false || true; if false; then :; fi; echo end
set-e-arith|set -e; (( 0 )); echo never
set-e-arith-cond|set -e; (( 0 )) || echo caught; x=0; (( x++ )); echo never
set-e-let|set -e; let x=0; echo never
set-e-return-status|set -e; f() { return 2; }; f; echo never
set-e-plus-e|set -e; set +e; false; echo survived
set-e-source|set -e; echo 'false; echo inner' > s.sh; . ./s.sh; echo never
set-e-exit-trap|set -e; trap 'echo trap $?' EXIT; false
errexit-group|set -e; { false; echo inside; }; echo never
errexit-group-or|set -e; { false; echo inside; } || echo caught
errexit-nested-func|set -e; g() { false; echo g; }; f() { g; echo f; }; f; echo top
errexit-func-cond-nested|set -e; g() { false; echo g; }; f() { g; echo f; }; f && echo top
errexit-for-body|set -e; for i in 1 2; do echo $i; false; done; echo never
errexit-command-not-found|set -e; nosuchcmd; echo never
errexit-builtin-fail|set -e; cd /nonexistent; echo never
errexit-redir-simple|set -e; echo x > /nonexistent/f; echo never
errexit-readonly|set -e; readonly r=1; r=2; echo never
errexit-shift|set -e; shift 5; echo never
abort-line-arith|x=$(( 1/0 )); echo same-line
echo next-line $?
abort-line-in-function|f() { echo $(( 1/0 )); echo in-f; }; f; echo same-line
echo next-line $?
abort-line-in-subshell|( x=$(( 1/0 )); echo in-sub ); echo "same-line $?"
abort-line-bad-subst|echo ${x!}; echo same-line
echo next-line $?
abort-line-in-loop|for i in 1 2; do echo $i $(( i/0 )); done; echo same-line
echo next-line
abort-line-unset-fatal|set -u; echo $nope; echo same-line
echo next-line
"""

_LOOKUP = r"""
non-exec-on-path|mkdir bin; printf 'echo hi\n' > bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
dir-on-path|mkdir -p bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
exec-on-path|mkdir bin; printf '#!/bin/bash\necho ran\n' > bin/tool; chmod +x bin/tool; PATH=$PWD/bin:$PATH; tool; echo "s=$?"
command-v-path|mkdir bin; printf 'echo\n' > bin/t; chmod +x bin/t; PATH=$PWD/bin; command -v t | sed "s|$PWD|W|"
command-v-builtin|command -v echo; command -v if; command -v nope; echo "s=$?"
command-v-func|f() { :; }; command -v f; alias l=ls; command -v l; echo "s=$?"
command-V-kinds|f() { :; }; command -V f | head -1; command -V cd; command -V nope; echo "s=$?"
type-kinds|type -t echo if f nope; echo "s=$?"
type-a|type -a printf | head -1
exit-cmdsub|$(exit 42); echo "s=$?"
exit-cmdsub-empty|$(true); echo "s=$?"; $(false); echo "s=$?"
empty-expansion-cmd|x=; $x; echo "s=$?"
name-too-long|x=$(printf 'a%.0s' {1..300}); $x 2>/dev/null; echo "s=$?"
slash-not-found|./nope; echo "s=$?"
slash-not-exec|echo 'echo x' > s; ./s; echo "s=$?"
slash-dir|mkdir d; ./d; echo "s=$?"
hash-missing|hash nosuch; echo "s=$?"
read-bad-option|read -Z x < /dev/null; echo "s=$?"
read-bad-name|echo a | read 1x; echo "s=$?"
read-bad-timeout|read -t abc x < /dev/null; echo "s=$?"
read-bad-n|read -n abc x < /dev/null; echo "s=$?"
read-eof|read x < /dev/null; echo "s=$? x=$x"
read-partial|printf 'abc' | { read x; echo "s=$? x=$x"; }
read-array-assoc|declare -A m; read -a m <<< "a b"; echo "s=$?"
read-d|printf 'a:b:c' | { read -d : x; echo "$x"; }
read-n-count|echo abcdef | { read -n 3 x; echo "$x"; }
read-N|printf 'ab\ncd' | { read -N 4 x; printf '%q\n' "$x"; }
read-backslash|printf 'a\\\nb\n' | { read x; echo "$x"; }
read-r-backslash|printf 'a\\tb\n' | { read -r x; echo "$x"; }
read-readonly|readonly r; echo v | { read r; echo "s=$?"; }
for-invalid-name|for 1x in a; do echo hi; done; echo "s=$?"
for-invalid-name-dash|for a-b in a; do echo hi; done; echo "s=$?"
for-readonly|readonly r=1; for r in a b; do echo $r; done; echo "s=$?"
for-empty-list|for x in; do echo never; done; echo "s=$?"
pipe-amp|{ echo out; echo err >&2; } |& cat
pipe-amp-chain|{ echo o; echo e >&2; } |& sort |& cat
pipe-amp-func|f() { echo e1 >&2; echo o1; }; f |& tr a-z A-Z
right-brace-arg|echo }; echo a } b; echo {}
right-brace-after-group|{ echo x; } ; echo }
brace-word-literal|echo {a}; echo {a,}; echo {,}
dollar-single-octal|printf '%s' $'\101\102' | od -An -c | tr -s ' '
dollar-single-highbyte|printf '%s' $'\377' | od -An -tx1 | tr -d ' '
dollar-single-hex|printf '%s\n' $'\x41\x4a' $'\u0041'
dollar-single-c|printf '%s' $'\ca' | od -An -tx1 | tr -d ' '
lc-all-c-question|LC_ALL=C; x=$'\303\251'; [[ $x == ?? ]] && echo two-bytes; echo ${#x}
pattern-slash-replace|x=a/b/c; echo "${x//\//|}"; echo "${x/\/b/X}"
pattern-tilde-replace|HOME=/h; x=/h/f; echo "${x/#$HOME/\~}"; echo "${x/#\/h/~}"
nameref-loop|a=1 b=2; for n in a b; do declare -n r=$n; echo $r; done
nameref-invalid|declare -n r=1bad; echo "s=$?"
printf-v-idx-expr|i=2; printf -v "arr[i+1]" '%s' z; declare -p arr
cmd-not-found-status|nosuchcommand_x; echo "s=$?"
cmd-not-found-in-pipe|nosuchcommand_x | cat; echo "s=${PIPESTATUS[*]}"
exec-not-found|(exec nosuch_x); echo "s=$?"
command-not-found-handle|command_not_found_handle() { echo "handled $1"; return 7; }; zz_nope a; echo "s=$?"
"""

_PRINTF = r"""
invalid-directive|printf '%z\n' 1; echo "s=$?"
invalid-directive-mid|printf 'a%yb\n'; echo "s=$?"
trailing-percent|printf 'x%'; echo " s=$?"
missing-args|printf '%s-%s|\n' a; printf '%d|\n'
reuse-format|printf '%s=%s\n' a 1 b 2 c
bad-number|printf '%d\n' abc; echo "s=$?"
bad-number-partial|printf '%d\n' 12abc; echo "s=$?"
char-arg|printf '%d %d\n' "'A" '"z'
wrap-big|printf '%d\n' 18446744073709551616; echo "s=$?"
wrap-neg-unsigned|printf '%u\n' -1
wrap-neg-hex|printf '%x\n' -1
wrap-neg-octal|printf '%o\n' -1
time-epoch|printf '%(%Y-%m-%d %H:%M:%S)T\n' 0
time-epoch-big|printf '%(%Y)T\n' 4102444800
time-tz-exported|export TZ=UTC; printf '%(%H:%M)T\n' 3600
time-tz-offset|TZ=UTC-2 printf '%(%H)T\n' 0
time-default-fmt|printf '%()T\n' 0 | wc -c
time-neg|printf '%(%s)T\n' 12345
b-escapes|printf '%b\n' 'a\tb' 'c\0101d' '\x41' 'x\cy'
b-stop|printf '%b|%s\n' 'a\cb' z; echo " s=$?"
q-special|printf '%q\n' 'a b' "it's" '' $'\n' '~x' 'a*'
Q-width|printf '[%10q]\n' 'a b'
escape-in-format|printf 'a\x41\101\u00e9\n' | od -An -tx1 | tr -s ' '
format-only-escapes|printf '\e' | od -An -tx1 | tr -d ' '
v-flag|printf -v out '%05.1f' 3.14159; echo "$out"
v-no-name|printf -v; echo "s=$?"
no-format|printf; echo "s=$?"
dashdash|printf -- '%s\n' -x
float-inf|printf '%f %e\n' inf -inf; printf '%f\n' nan
float-hex|printf '%f\n' 0x10
float-bad|printf '%f\n' 1.2.3; echo "s=$?"
width-star-neg|printf '[%*s]\n' -4 ab
precision-star|printf '[%.*f]\n' 2 3.14159
plus-space|printf '[%+5d][% 5d][%-+5d]\n' 3 3 3
zero-left|printf '[%-05d]\n' 3
hash-forms|printf '[%#x][%#o][%#X][%#g]\n' 255 8 255 1
blank-number|printf '%d|%d|%f\n' ' ' '' ' '; echo " s=$?"
not-conversions|for c in N C S D U O p m I k y '$' v; do printf "%$c|\n" 5; echo "$c s=$?"; done
not-conversions-after-modifier|printf 'a%lNb\n' 1; echo "s=$?"; printf '%5.2hC\n' 1; echo "s=$?"
q-is-a-conversion|printf '%qd|%Qx|%lqz|%Lq\n' a b c 'd e'; echo "s=$?"
length-modifiers|printf '%hd %ld %lld %jd %zd %td %Lf %hhx %Lg\n' 1 2 3 4 5 6 7 255 8
Q-precision-cuts-argument|printf '%.2Q|%5.1Q|%-6.2Q|%.0Q|%.Q|%.*Q|%.*Q|\n' 'a b' 'x y' "i'j" abc abc 1 'q r' 0 ''
q-precision-cuts-quoted|printf '%.3q|%.1q|%.*q|%5.2q|\n' 'a b' "'x" 2 'a b' 'c d'
q-reuse|printf '%q %Q\n' 'a b' 'c d' '$x' '!y' '' "it's"
n-assigns-count|printf 'ab%ncd%n|\n' x y; echo "x=$x y=$y"; printf 'ab%n|' v w; echo " v=$v w=$w"
n-bytes-and-flags|printf '%s%n\n' hello z; echo "z=$z"; printf '%5n|%-3n|%ln|%hhn\n' a b c d; echo "s=$? $a$b$c$d"
n-missing-arg|printf 'a%nb|\n'; echo "s=$?"; printf '%n'; echo "s=$?"
n-invalid-name|printf 'a%nb|\n' 'bad name'; echo "s=$?"; printf 'a%nb|\n' 'arr[3]'; echo "s=$? ${arr[3]}"
n-readonly|readonly ro=1; printf 'a%n|\n' ro; echo "s=$? ro=$ro"
n-with-v|printf -v out 'abc%nd' q; echo "out=$out q=$q"; declare -i ii; printf 'xy%n\n' ii; declare -p ii
a-hex-float|printf '%a|%A|%.0a|%.1a|%.2a|%#a|%#.0a|%010a|%-10a|%+a|% a|%12.3A\n' 5 5 5 5 5 5 5 5 5 5 5 5
a-hex-float-values|for v in 0 -0 1 -1 0.1 15.9 15.97 1e300 1e-300 1e4000 inf -inf nan 0x10 3.5 0.5 255 10.5 2.5 "'A"; do printf '%s: %a %.0a %.1a %.3A %10.2a %-+12.1a|%020.4A\n' $v $v $v $v $v $v $v $v; done
float-hex-input|for v in 0x1.8p3 0x.8 0x1p-2 -0x10.8 0x1.8p 0xg 0x1.8p3zz 0X1P+4 0x -0x0 0x1P 0x10; do printf '%s=%g|%f ' $v $v $v; echo "s=$?"; done
time-without-T|for f in '%(x)|\n' '%(x\n' '%5(x)y\n' 'a%(%s)Tb%(x)c\n' '%(%s)T%(\n' '%(%Y)|\n'; do printf "$f" 0; echo "s=$?"; done
time-empty-precision|printf '[%-(x)T][%.(%Y)T][%8(%Y)T][%-8.2(%Y)T]\n' 0 0 0 0
"""


_JOBS = r"""
order-by-sleep|(sleep 0.4; echo A) & (sleep 0.2; echo B) & echo C; wait; echo D
wait-pid-status|(exit 3) & p=$!; wait $p; echo "st=$?"; wait $p; echo "again=$?"
wait-unknown-pid|wait 99999; echo "w=$?"
wait-unknown-job|wait %7; echo "w=$?"
wait-no-jobs|wait; echo "w=$?"
wait-n-none|wait -n; echo "n=$?"
kill-job|sleep 5 & kill %1; wait %1; echo "killed=$?"
kill-pid|sleep 5 & p=$!; kill $p; wait $p; echo "killed=$?"
kill-9|sleep 5 & kill -9 %1; wait; echo "w=$?"
kill-unknown|kill %9; echo "k=$?"; kill 99999; echo "k=$?"
kill-zero-self|kill -0 $$; echo "k=$?"
jobs-running|sleep 1 & jobs; kill %1
jobs-two|sleep 1 & sleep 1 & jobs; kill %1 %2
jobs-p-count|sleep 1 & sleep 1 & jobs -p | wc -l; kill %1 %2
bang-is-job-pid|sleep 0.1 & [ "$!" = "$(jobs -p)" ] && echo same; wait
loop-of-jobs|for i in 3 1 2; do { sleep 0.$i; echo "job $i"; } & done; wait; echo all
cmdsub-waits-for-job|x=$( { sleep 0.2; echo late; } & echo early); echo "$x"
cmdsub-job-only|echo "[$(sleep 0.1 & echo sub)]"
job-output-after-script|(sleep 0.2; echo after) &
echo before
job-stdin-is-null|echo data | { cat & wait; }; echo "s=$?"
job-in-function|f() { sleep 0.2; echo "f $1"; }; f one & f two; wait
job-subshell-exit-status|(sleep 0.1; exit 7) & wait $!; echo "st=$?"
job-and-list|false && echo never & true || echo never2 & wait; echo done
job-redirect-file|{ sleep 0.1; echo into; } > out.txt & wait; cat out.txt
job-pipeline|{ echo b; echo a; } | sort & wait; echo end
job-sleep-main-concurrent|(sleep 0.2; echo job) & sleep 0.4; echo main
job-var-not-shared|x=1; { x=2; } & wait; echo "x=$x"
wait-after-done|true & sleep 0.2; wait $!; echo "st=$?"
wait-several|(exit 1) & a=$!; (exit 2) & b=$!; wait $a $b; echo "last=$?"
wait-n-first|(sleep 0.4; exit 5) & (sleep 0.1; exit 6) & wait -n; echo "n=$?"; wait
errexit-job-failure|set -e; false & wait $!; echo "never $?"
"""


_DATA = r"""
sqlite-list|sqlite3 t.db "create table t(a integer, b text, c real); insert into t values(1,'x,y',1.5),(2,NULL,2.0);" "select * from t"; rm t.db
sqlite-modes|sqlite3 t.db "create table t(a integer, b text, c real); insert into t values(1,'x,y',1.5),(2,NULL,2.0),(3,'q\"z',0.1);"
for m in list csv tabs line column table markdown box; do echo "== $m"; sqlite3 -$m t.db "select * from t"; sqlite3 -$m -header t.db "select a, b from t"; done; rm t.db
sqlite-json|sqlite3 -json :memory: "select 1 as a, 'x' as b, NULL as c, 2.5 as d union all select 2, 'y\"', 3, -1"
sqlite-json-empty|sqlite3 -json :memory: "create table t(a); select * from t"; echo "s=$?"
sqlite-floats|sqlite3 :memory: "select 2.0, 0.5, 1e20, 1e-5, 100.0/3, 7/2, 7/2.0"
sqlite-stdin-dot|printf 'create table t(a,b);\ncreate table u(x);\n.tables\n.schema t\ninsert into t values(1,2);\n.mode csv\n.headers on\nselect * from t;\n.mode list\nselect * from t;\n' | sqlite3 | od -c | sed 's/  */ /g'
sqlite-stdin-error-continues|printf 'select * from nope;\nselect 2;\n' | sqlite3; echo "s=$?"
sqlite-args-error-stops|sqlite3 :memory: "select 1; select * from nope; select 2"; echo "s=$?"
sqlite-file-persists|sqlite3 db.sqlite "create table k(v); insert into k values('kept')"; sqlite3 db.sqlite "select v from k"; ls; rm db.sqlite
sqlite-import|printf 'name,qty\napple,3\n"pear, green",5\n' > in.csv; sqlite3 :memory: '.import --csv in.csv fruit' 'select name, qty*2 from fruit order by name'
sqlite-import-existing|printf '1,a\n2,b\n' > in.csv; sqlite3 :memory: 'create table t(n, s)' '.import --csv in.csv t' 'select count(*), max(s) from t'
sqlite-cmd-separator|sqlite3 -separator ' : ' :memory: "select 1, 2"; sqlite3 -cmd '.mode csv' :memory: "select 'a b', 'c,d'"
sqlite-nullvalue|sqlite3 -cmd '.nullvalue NULL' :memory: "select NULL, 1"
sqlite-version-format|sqlite3 :memory: "select typeof(sqlite_version())"
sqlite-aggregate|sqlite3 :memory: "create table s(g, v); insert into s values('a',1),('a',2),('b',5); select g, sum(v), avg(v) from s group by g order by g"
sqlite-dump|sqlite3 :memory: "create table t(a text); insert into t values('it''s')" .dump
sqlite-readonly-missing|sqlite3 -readonly missing.db "select 1"; echo "s=$?"; ls
sqlite-dir-as-db|mkdir d; sqlite3 d "select 1"; echo "s=$?"
yq-scalar|printf 'a: 1\nb: [x, y]\n' > t.yaml; yq .a t.yaml; yq -r '.b[1]' t.yaml
yq-to-json|printf 'a: 1\nb:\n  - x\n  - y: 2\nd: 2024-01-02\n' | yq -c .
yq-multi-doc|printf 'a: 1\n---\na: 3\n' | yq .a
yq-yaml-out|printf 'a: 1\nb:\n  - x\n  - y: 2\n' | yq -y .
yq-yaml-scalars|printf 'a: 1\n---\na: 3\n' | yq -y .a
yq-yaml-select|printf 'items:\n  - {name: a, n: 1}\n  - {name: b, n: 2}\n' | yq -y '.items | map(select(.n > 1))'
yq-json-in|echo '{"k": "v", "n": [1, 2]}' | yq -y .
yq-args|printf 'a: 1\n' | yq --arg x hi -c '{a, x: $x}'
yq-missing-file|yq . missing.yaml; echo "s=$?"
yq-bad-yaml|printf 'a: [1\n' | yq .; echo "s=$?"
yq-strings|printf 'q: "yes"\nr: yes\ns: ~\nt: 010\n' | yq -c .
"""


_DATE = r"""
epoch-past-9999|date -d @253402300800; echo "s=$?"; date -u -d @99999999999999; echo "s=$?"
epoch-far-negative|date -d @-99999999999; date -d @-1000000000000 '+%F %T'; date -d @-62167219201; echo "s=$?"
epoch-last-years|date -d @67768036191676799; date -d @-67768040609740800; echo "s=$?"
epoch-out-of-range|date -d @67768036191676800; echo "s=$?"; date -d @-67768040609740801; echo "s=$?"
epoch-time-t-limits|date -d @9223372036854775807; echo "s=$?"; date -d @9223372036854775808; echo "s=$?"; date -d @-9223372036854775808; echo "s=$?"
epoch-zone-pushes-out|TZ=UTC-5 date -d @67768036191658800; echo "s=$?"; TZ=UTC+5 date -d @-67768040609740800; echo "s=$?"
epoch-int-year-wrap|date -d @67767976233532800 '+%Y|%c|%x'; date -d @67768036191676799 '+%G|%g|%c'
epoch-bad-forms|for d in @inf @nan @1e3 @0x10 @1. @.5 @; do date -d "$d"; echo "s=$?"; done
epoch-fractions|date -u -d @-0.5 +%s.%N; date -u -d '@ -5' +%s; date -u -d @+7.25 +%s.%N
year-fields|for t in -62135596800 -62167219200 -62198755200 -61000000000 -99999999999 -1000000000000 253402300800 99999999999999 67767976233532799; do date -d @$t '+%Y|%C|%y|%G|%g|%F|%D|%x|%c|%j|%U|%W|%V|%u|%w|%a %b %e'; done
year-flags|for t in -62135596800 -62167219200 -62198755200 -99999999999 253402300800; do date -d @$t '+%_Y|%-Y|%0Y|%_C|%-C|%+Y|%+C|%^a|%_y|%-y|%-G|%_g'; done
year-strings|for d in 10000-01-01 99999-12-31 '10000-01-01 10:00' 10000-01-01T10:00:00 10000-01-01T10:00 12345-06-07T08:09:10Z 10000/01/01 10000-02-29 2147485547-12-31 5-01-01 100-01-01 69-01-01 68-12-31 0069-01-01 0000-01-01; do date -d "$d" '+%F %T %s'; echo "s=$?"; done
year-strings-invalid|for d in 10000-02-30 10100-02-29 2147485548-01-01 -1-01-01 2024-13-01 2024-00-10 2024-02-30 '2024-01-01 24:00' '2024-01-01 10:60' 2024-01-01Z; do date -d "$d"; echo "s=$?"; done
relative-overflow|for d in '99999999999 years' '-99999999999 days' '9999999999999999999 seconds' '99999999999999999999 days' '3000000000 years' '-3000000000 years ago' '9000000000000000000 seconds' '2000000000 days' '2147483648 days' '-2147483648 days' '2147481747 years' '2147483648 months' '100000000000 hours' '99999999999999999 hours' '-9000000000000000000 seconds'; do date -d "$d" +%Y >/dev/null; echo "$d s=$?"; done
year-string-utc|for d in 2024-01-01Z '2024-01-01 10:00Z' 2024-01-01T10:00Z '2024-01-01 10:00:00Z' 2024/01/02Z '2024-01-01 Z' 10000-01-01Z '2024/01/02 10:30'; do TZ=UTC-3 date -d "$d" '+%F %T %z'; echo "s=$?"; done
year-string-in-zone|TZ=UTC-5 date -d '2147485547-12-31 23:00' '+%F %T %z'; echo "s=$?"; TZ=UTC+3 date -d '10000-01-01' +%s
printf-year-fields|printf '%(%Y|%C|%y|%G|%g|%F|%D|%x)T\n' -62135596800 -62167219200 -62198755200 -61000000000 -99999999999 -1000000000000 253402300800 99999999999999
printf-int-year-wrap|printf '%(%Y|%C|%y|%G|%g|%F)T\n' 67767976233532799 67767976233532800 67768036191676799 -67768040609740800
printf-year-c-and-flags|printf '%(%c|%_Y|%-Y|%0Y|%_C|%-C|%^a|%+Y)T\n' -62198755200 -99999999999 253402300800 67767976233532800
printf-out-of-range-is-epoch|printf '%(%F %T)T\n' 67768036191676800 -67768040609740801 9223372036854775807 -9223372036854775808; echo "s=$?"
printf-zone-pushes-out|TZ=UTC-5 printf '%(%F)T\n' 67768036191658800; TZ=UTC+5 printf '%(%F)T\n' -67768040609740800
printf-time-arg-too-big|printf '%(%Y)T\n' 99999999999999999999 -99999999999999999999; echo "s=$?"
printf-time-arg-invalid|printf '%(%Y)T|\n' 12abc; echo "s=$?"; printf '%(%Y)T|\n' '' ' 5' x; echo "s=$?"
printf-time-arg-bases|printf '%(%s)T\n' 0x10 010 "'A" ' 5' -0
printf-time-text-too-long|printf "%(%Y$(printf '%0120d' 0))T|\n" 0 253402300800 -62198755200 -99999999999
"""


def _split_multiline(block: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for line in block.strip("\n").split("\n"):
        head, sep, script = line.partition("|")
        if sep and head and all(c.isalnum() or c in "-_." for c in head):
            out.append((head, script))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
    return out


MANUAL: dict[str, list[tuple[str, str]]] = {
    "fid_declare": [(f"m-{n}", s) for n, s in _split_multiline(_DECLARE)],
    "fid_cond": [(f"m-{n}", s) for n, s in _split_multiline(_COND)],
    "fid_arith": [(f"m-{n}", s) for n, s in _split_multiline(_ARITH)],
    "fid_errexit": [(f"m-{n}", s) for n, s in _split_multiline(_ERREXIT)],
    "fid_lookup": [(f"m-{n}", s) for n, s in _split_multiline(_LOOKUP)],
    "fid_printf": [(f"m-{n}", s) for n, s in _split_multiline(_PRINTF)],
    "fid_jobs": [(f"m-{n}", s) for n, s in _split_multiline(_JOBS)],
    "fid_date": [(f"m-{n}", s) for n, s in _split_multiline(_DATE)],
    "cmd_data": [(f"m-{n}", s) for n, s in _split_multiline(_DATA)],
}

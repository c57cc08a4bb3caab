# fid_arith: (( )) and $(( )): operators, bases, assoc arrays, errors
# Known divergences: none
### a00-1-2-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1+2*3 ))"; echo "s=$?"; (( 1+2*3 )); echo "c=$?"
### a01-1-2-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( (1+2)*3 ))"; echo "s=$?"; (( (1+2)*3 )); echo "c=$?"
### a02-7-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 7/2 ))"; echo "s=$?"; (( 7/2 )); echo "c=$?"
### a03-7-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( -7/2 ))"; echo "s=$?"; (( -7/2 )); echo "c=$?"
### a04-7-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 7%3 ))"; echo "s=$?"; (( 7%3 )); echo "c=$?"
### a05-7-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( -7%3 ))"; echo "s=$?"; (( -7%3 )); echo "c=$?"
### a06-2-10
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 2**10 ))"; echo "s=$?"; (( 2**10 )); echo "c=$?"
### a07-2-63
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 2**63 ))"; echo "s=$?"; (( 2**63 )); echo "c=$?"
### a08-2-64
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 2**64 ))"; echo "s=$?"; (( 2**64 )); echo "c=$?"
### a09-1-63
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1<<63 ))"; echo "s=$?"; (( 1<<63 )); echo "c=$?"
### a10-1-64
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1<<64 ))"; echo "s=$?"; (( 1<<64 )); echo "c=$?"
### a11-1-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( -1>>1 ))"; echo "s=$?"; (( -1>>1 )); echo "c=$?"
### a12-5-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 5&3 ))"; echo "s=$?"; (( 5&3 )); echo "c=$?"
### a13-5-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 5|3 ))"; echo "s=$?"; (( 5|3 )); echo "c=$?"
### a14-5-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 5^3 ))"; echo "s=$?"; (( 5^3 )); echo "c=$?"
### a15-5
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( ~5 ))"; echo "s=$?"; (( ~5 )); echo "c=$?"
### a16-5
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( !5 ))"; echo "s=$?"; (( !5 )); echo "c=$?"
### a17-0
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( !0 ))"; echo "s=$?"; (( !0 )); echo "c=$?"
### a18-1-0
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1&&0 ))"; echo "s=$?"; (( 1&&0 )); echo "c=$?"
### a19-1-0
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1||0 ))"; echo "s=$?"; (( 1||0 )); echo "c=$?"
### a20-3-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 3>2 ))"; echo "s=$?"; (( 3>2 )); echo "c=$?"
### a21-3-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 3<=2 ))"; echo "s=$?"; (( 3<=2 )); echo "c=$?"
### a22-1-2-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1?2:3 ))"; echo "s=$?"; (( 1?2:3 )); echo "c=$?"
### a23-0-2-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 0?2:3 ))"; echo "s=$?"; (( 0?2:3 )); echo "c=$?"
### a24-x-5-x-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( x=5, x*2 ))"; echo "s=$?"; (( x=5, x*2 )); echo "c=$?"
### a25-x-x
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( x++ + ++x ))"; echo "s=$?"; (( x++ + ++x )); echo "c=$?"
### a26-010
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 010 ))"; echo "s=$?"; (( 010 )); echo "c=$?"
### a27-0x1F
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 0x1F ))"; echo "s=$?"; (( 0x1F )); echo "c=$?"
### a28-2-101
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 2#101 ))"; echo "s=$?"; (( 2#101 )); echo "c=$?"
### a29-36-z
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 36#z ))"; echo "s=$?"; (( 36#z )); echo "c=$?"
### a30-64
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 64#@ ))"; echo "s=$?"; (( 64#@ )); echo "c=$?"
### a31-9223372036854775807-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 9223372036854775807+1 ))"; echo "s=$?"; (( 9223372036854775807+1 )); echo "c=$?"
### a32-9223372036854775808--1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( -9223372036854775808/-1 ))"; echo "s=$?"; (( -9223372036854775808/-1 )); echo "c=$?"
### a33-1-0
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1/0 ))"; echo "s=$?"; (( 1/0 )); echo "c=$?"
### a34-5-0
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 5%0 ))"; echo "s=$?"; (( 5%0 )); echo "c=$?"
### a35-08
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 08 ))"; echo "s=$?"; (( 08 )); echo "c=$?"
### a36-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1 + ))"; echo "s=$?"; (( 1 + )); echo "c=$?"
### a37-a-b
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( a b ))"; echo "s=$?"; (( a b )); echo "c=$?"
### a38-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( '1' ))"; echo "s=$?"; (( '1' )); echo "c=$?"
### a39-1-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( "1"+1 ))"; echo "s=$?"; (( "1"+1 )); echo "c=$?"
### a40-y
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( y ))"; echo "s=$?"; (( y )); echo "c=$?"
### a41-y-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( y+1 ))"; echo "s=$?"; (( y+1 )); echo "c=$?"
### a42-z-z-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( z=z+1 ))"; echo "s=$?"; (( z=z+1 )); echo "c=$?"
### a43-A-k
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( A[k] ))"; echo "s=$?"; (( A[k] )); echo "c=$?"
### a44-A-k-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( A[k]+1 ))"; echo "s=$?"; (( A[k]+1 )); echo "c=$?"
### a45-A-k
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( A["k"] ))"; echo "s=$?"; (( A["k"] )); echo "c=$?"
### a46-B-1-B-2
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( B[1]+B[2] ))"; echo "s=$?"; (( B[1]+B[2] )); echo "c=$?"
### a47-x-2-x-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( x=2,x<<=3 ))"; echo "s=$?"; (( x=2,x<<=3 )); echo "c=$?"
### a48-x-7-x-4
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( x=7,x%=4 ))"; echo "s=$?"; (( x=7,x%=4 )); echo "c=$?"
### a49-x-1-x-3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( x=1,x^=3 ))"; echo "s=$?"; (( x=1,x^=3 )); echo "c=$?"
### a50-2--1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 2**-1 ))"; echo "s=$?"; (( 2**-1 )); echo "c=$?"
### a51-3-3-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 3>=3 == 1 ))"; echo "s=$?"; (( 3>=3 == 1 )); echo "c=$?"
### a52-x
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( --x ))"; echo "s=$?"; (( --x )); echo "c=$?"
### a53-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( - -1 ))"; echo "s=$?"; (( - -1 )); echo "c=$?"
### a54-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( +-+1 ))"; echo "s=$?"; (( +-+1 )); echo "c=$?"
### a55-1e3
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1e3 ))"; echo "s=$?"; (( 1e3 )); echo "c=$?"
### a56-0x
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 0x ))"; echo "s=$?"; (( 0x )); echo "c=$?"
### a57-10-08
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 10#08 ))"; echo "s=$?"; (( 10#08 )); echo "c=$?"
### a58-1-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 1#1 ))"; echo "s=$?"; (( 1#1 )); echo "c=$?"
### a59-65-1
declare -A A=([k]=7 ["q"]=x); B=(0 4 5); x=3; y=abc; echo "r=$(( 65#1 ))"; echo "s=$?"; (( 65#1 )); echo "c=$?"
### m-assoc-arith-key
declare -A A; A[K]=5; (( A[K] += 2 )); echo ${A[K]}
### m-assoc-quoted-key
declare -A A; A["K"]=3; echo $(( A["K"] * 2 ))
### m-assoc-string-literal
declare -A A; (( A[x] = 4 )); declare -p A
### m-assoc-var-key
declare -A A; k=foo; (( A[$k]++ )); (( A[$k]++ )); declare -p A
### m-assoc-space-key
declare -A A; A["a b"]=2; echo $(( A["a b"] + 1 ))
### m-assign-coerce-spaces
declare -A A; A["K"] = V; echo "s=$?"
### m-arith-string-var-chain
a=b; b=c; c=7; echo $(( a + 1 ))
### m-arith-recursive-self
x=x; echo $(( x )); echo "s=$?"
### m-arith-empty
echo "$(( ))"; (( )); echo "s=$?"
### m-arith-divzero-continue
echo $(( 1 / 0 )); echo after
### m-arith-let-multiple
let a=1 b=a+1; echo $a $b; let 0; echo "s=$?"
### m-arith-let-noargs
let; echo "s=$?"
### m-arith-comma
echo $(( 1, 2, 3 ))
### m-arith-nested-paren
echo $(( ((1+2)) * ((3)) ))
### m-arith-command-subst
echo $(( $(echo 3) + 4 ))
### m-arith-negative-exp
echo $(( 2 ** -1 )); echo "s=$?"
### m-arith-index-expr
a=(10 20 30); i=1; echo $(( a[i+1] + a[0] ))
### m-arith-array-whole
a=(5 6); echo $(( a + 1 ))
### m-arith-postinc-array
a=(1 2); (( a[1]++ )); echo ${a[@]}
### m-arith-base-bad
echo $(( 2#102 )); echo "s=$?"
### m-arith-hex-upper
echo $(( 0XFF ))
### m-arith-overflow-mul
echo $(( 9223372036854775807 * 2 ))
### m-arith-min-mod
echo $(( -9223372036854775808 % -1 ))
### m-arith-unset-var
unset q; echo $(( q + 1 ))
### m-arith-nounset
set -u; unset q; echo $(( q + 1 )); echo "s=$?"
### m-arith-for-status
for (( i=0; i<3; i++ )); do :; done; echo "i=$i s=$?"
### m-arith-for-empty
for (( ;; )); do echo once; break; done
### m-arith-dollar-inside
x=4; echo $(( $x * $x ))
### m-arith-ternary-assign
x=0; (( x ? (y=1) : (y=2) )); echo $y
### m-arith-compare-strings
[[ 01 -eq 1 ]] && echo oct-eq; (( 010 == 8 )) && echo oct
### m-arith-double-sign-is-two-signs
x=--5; echo $((x)) $((--5)) $((++5)) $((-- 5)) $((1--5)) $((--(5))) $((----5))
y=3; echo $((---y)) $y $((+++y)) $y $((y---1)) $y
### m-arith-conditional-middle-list-last-conditional
x=3; echo $(( 1 ? 2, 3 : 4 )) $(( 0 ? 1 : 0 ? 5 : 6 )) $(( 1 ? x = 4 : 5 )) $x
echo "$(( 0 ? 0 : x = 0 ))"
echo "status $? $x"

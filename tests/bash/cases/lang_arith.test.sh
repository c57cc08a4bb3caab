# lang_arith: $(( )), (( )), let, bases, operators
# Known divergences: none
### basic-ops
echo $((1+2)) $((7-10)) $((6*7)) $((17/5)) $((17%5)) $((2**10))
### precedence
echo $((2+3*4)) $(((2+3)*4)) $((2**3**2)) $((-2**2))
### negative-division
echo $((-7/2)) $((-7%2)) $((7/-2))
### comparison
echo $((3<5)) $((3>5)) $((3<=3)) $((3>=4)) $((2==2)) $((2!=2))
### logical
echo $((1&&0)) $((1||0)) $((!0)) $((!5))
### bitwise
echo $((5&3)) $((5|3)) $((5^3)) $((~5)) $((1<<4)) $((256>>2))
### ternary
x=5; echo $((x>3?10:20)) $((x<3?10:20))
### assignment-ops
x=10; ((x+=5)); echo $x; ((x-=3)); echo $x; ((x*=2)); echo $x; ((x/=4)); echo $x; ((x%=4)); echo $x
### increment
i=5; echo $((i++)) $i $((++i)) $i $((i--)) $((--i))
### variables-without-dollar
a=3 b=4; echo $((a*a+b*b))
### recursive-var-eval
x='y+1'; y=4; echo $((x*2))
### bases
echo $((0x1f)) $((010)) $((2#1010)) $((16#ff)) $((36#z))
### comma-operator
echo $((a=1, b=2, a+b))
### arith-command-status
((0)); echo $?; ((5)); echo $?; ((x=0)); echo $?
### let-builtin
let x=2+3 y=x*2; echo $x $y; let 0; echo $?
### unset-is-zero
unset q; echo $((q+1))
### division-by-zero
echo $((1/0)); echo "after $?"
### overflow-wraps
echo $((9223372036854775807+1)) $((2**63))
### arith-for
for ((i=0; i<3; i++)); do echo $i; done
### arith-for-empty-parts
i=0; for ((;;)); do ((i++ >= 2)) && break; echo loop$i; done
### array-index-arith
a=(10 20 30); i=1; echo $((a[i]+a[2])) ${a[i+1]}
### assign-array-element-arith
a=(); ((a[3]=7)); echo ${a[3]} ${#a[@]}
### dollar-inside
x=4; echo $(( $x * 2 )) $(( ${x} + 1 ))
### whitespace-and-newlines
echo $((  1 +
  2 ))
### integer-declare
declare -i n; n=3+4; echo $n; n+=2; echo $n
### pre-post-in-loop
n=0; while ((n < 3)); do echo $((n++)); done
### exponent-negative-error
(echo $((2**-1))); echo "status $?"
### syntax-error-in-arith
(echo $((1 +))); echo "status $?"
### nested-arith
echo $(( $((1+1)) * $((2+1)) ))
### unary-minus-plus
x=5; echo $((-x)) $((+x)) $((- -x))
### char-literal-not-allowed
echo $(( 1 + 1 ))

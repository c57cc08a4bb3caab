# cmd_text_calc: expr and bc - operators, precedence, regex match, exit statuses, precision
# Known divergences: none
### expr-arithmetic
expr 1 + 2
expr 10 - 3 \* 2
expr 7 / 2
expr -7 / 2
expr -7 % 3
expr \( 1 + 2 \) \* 3
### expr-comparisons
expr 5 \> 3
expr 10 \< 9
expr abc \< abd
expr 10 \< 9a
expr 2 = 2
expr a != b
### expr-logic
expr 0 \| 5
expr 3 \| 5
expr 3 \& 0
echo "rc=$?"
expr 3 \& 4
### expr-string-functions
expr length hello
expr substr hello 2 3
expr index hello l
expr match hello 'h.*l'
### expr-regex-match
expr abc : 'a.c'
expr abc : 'a\(.\)c'
expr abc : 'x'
echo "rc=$?"
expr foo.txt : '.*\.\(.*\)'
### expr-exit-statuses
expr 0
echo "rc=$?"
expr ''
echo "rc=$?"
expr 1 / 0
echo "rc=$?"
expr a + 1
echo "rc=$?"
expr 1 +
echo "rc=$?"
### expr-big-numbers
expr 99999999999999999999 + 1
### expr-in-loop-counter
i=0
while [ "$i" -lt 3 ]; do i=$(expr $i + 1); echo $i; done
### bc-basic-arithmetic
echo '1 + 2; 10 - 3 * 2; 7 / 2; 7 % 3; 2 ^ 10' | bc
### bc-scale
echo 'scale=3; 1/3; -1/3; 2/4; 1.5 * 1.25' | bc
echo 'scale=2; 10/3*3' | bc
### bc-precedence-and-unary
echo '-2^2; 2^3^2; (1+2)*3; -(3)' | bc
### bc-negative-exponent-and-mod
echo 'scale=3; 2^-1; 7%3; scale=0; 7%3; -7%3' | bc
### bc-big-numbers-line-wrap
echo '2^300' | bc
echo 'scale=100; 1/7' | bc
### bc-sqrt-length-scale
echo 'sqrt(16); scale=10; sqrt(2); length(123.45); scale(1.50)' | bc
### bc-variables-and-assignment-ops
echo 'x = 5; x += 3; x; x *= 2; x; x -= 1; x; x++; x; --x' | bc
### bc-arrays
echo 'a[0]=5; a[3]=7; a[0]+a[3]; a[1]' | bc
### bc-if-while-for
printf 'for (i = 0; i < 4; i++) { i * i }\nn = 0; while (n < 3) { n = n + 1 }; n\nif (n == 3) 100 else 200\n' | bc
### bc-functions-recursion
printf 'define f(n) {\n  if (n <= 1) return (1)\n  return (n * f(n - 1))\n}\nf(10)\nf(25)\n' | bc
### bc-function-autos-and-arrays
printf 'define s(a[], n) {\n  auto i, t\n  for (i = 0; i < n; i++) t += a[i]\n  return (t)\n}\nb[0] = 1; b[1] = 2; b[2] = 3\ns(b[], 3)\n' | bc
### bc-print-and-strings
printf 'print "x=", 3 + 4, "\\n"\n"plain string\n"\n' | bc
### bc-obase-ibase
echo 'obase=16; 255; 10.5' | bc
echo 'obase=2; 10; 255' | bc
echo 'ibase=16; FF; 1A' | bc
echo 'obase=20; 1234' | bc
### bc-relational-and-logical
echo '1 < 2; 2 <= 1; 3 == 3; 3 != 3; 1 && 0; 1 || 0; !0' | bc
### bc-comments-and-continuation
printf '/* block */ 1 + 1 # line comment\n2 +\\\n3\n' | bc
### bc-quit-stops
printf '5\nquit\n6\n' | bc
### bc-math-library
echo 'e(1); l(2); s(1); c(1); a(1)' | bc -l
echo 'scale=5; e(2); l(10); s(-2); a(0.5); j(0,1)' | bc -l
### bc-mathlib-scale
echo '1/3; scale' | bc -l
### bc-divide-by-zero-continues
printf '1/0\n2+2\n' | bc
echo "rc=$?"
### bc-syntax-error-continues
printf '2 +\n3 + 3\n' | bc
printf '1 +* 2\n5\n' | bc
### bc-from-file
printf 'x = 6\nx * 7\n' > prog.bc
bc prog.bc < /dev/null
### bc-pipeline-sum
seq 1 10 | paste -s -d+ | bc

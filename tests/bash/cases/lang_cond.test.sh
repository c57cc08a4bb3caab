# lang_cond: [[ ]], test and [ ]
# Known divergences: none
### dbl-bracket-string-eq
x=abc; [[ $x == abc ]] && echo eq; [[ $x != abd ]] && echo ne
### dbl-bracket-pattern
x=hello.txt; [[ $x == *.txt ]] && echo txt; [[ $x == "*.txt" ]] || echo literal-no
### dbl-bracket-regex
x="abc123def"; if [[ $x =~ ([a-z]+)([0-9]+) ]]; then echo "${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"; fi
### dbl-bracket-regex-var
re='^[0-9]+$'; [[ 12345 =~ $re ]] && echo num; [[ 12a =~ $re ]] || echo notnum
### dbl-bracket-regex-quoted-literal
[[ "a.c" =~ "a.c" ]] && echo m1; [[ "abc" =~ "a.c" ]] || echo m2
### dbl-bracket-and-or-not
[[ 1 == 1 && 2 == 2 ]] && echo and; [[ 1 == 2 || 2 == 2 ]] && echo or; [[ ! 1 == 2 ]] && echo not
### dbl-bracket-parens
[[ ( 1 == 1 || 1 == 2 ) && 3 == 3 ]] && echo grouped
### dbl-bracket-numeric
[[ 10 -gt 9 ]] && echo gt; [[ 2 -le 2 ]] && echo le; [[ 3 -eq 3 ]] && echo eq
### dbl-bracket-numeric-arith
x=3; [[ x+1 -eq 4 ]] && echo arith
### dbl-bracket-string-compare
[[ abc < abd ]] && echo lt; [[ b > a ]] && echo gt
### dbl-bracket-empty-tests
x=; [[ -z $x ]] && echo empty; [[ -n $x ]] || echo notnonempty; [[ $x ]] || echo false
### dbl-bracket-no-split
x="a b"; [[ $x == "a b" ]] && echo nosplit
### dbl-bracket-file-tests
mkdir d; echo x > f; [[ -d d ]] && echo dir; [[ -f f ]] && echo file; [[ -e nope ]] || echo missing; [[ -s f ]] && echo nonempty
### dbl-bracket-v
x=1; [[ -v x ]] && echo set; [[ -v nope ]] || echo unset
### dbl-bracket-multiline
if [[ a == a &&
      b == b ]]; then echo ok; fi
### test-builtin-strings
test abc = abc && echo eq; test abc != abc || echo ne; test -z "" && echo z; test -n x && echo n
### test-bracket-numbers
[ 5 -gt 3 ] && echo gt; [ 5 -lt 3 ] || echo notlt; [ 5 -ne 5 ] || echo noteq
### test-integer-error
[ abc -gt 3 ]; echo "status $?"
### test-missing-bracket
[ 1 = 1; echo "status $?"
### test-not-and-or
[ ! 1 = 2 ] && echo not; [ 1 = 1 -a 2 = 2 ] && echo and; [ 1 = 2 -o 2 = 2 ] && echo or
### test-parens
[ \( 1 = 1 \) ] && echo p
### test-one-arg
[ x ] && echo nonempty; [ "" ] || echo empty
### test-files
mkdir sub; touch sub/f; [ -d sub ] && echo d; [ -f sub/f ] && echo f; [ -r sub/f ] && echo r
### test-string-lt
[ a \< b ] && echo lt
### dbl-bracket-glob-class
[[ b == [abc] ]] && echo class; [[ x == [!abc] ]] && echo negclass
### dbl-bracket-extglob
[[ foo.tar.gz == *.@(gz|bz2) ]] && echo ext; [[ abc == +([a-c]) ]] && echo plus
### rematch-cleared-on-fail
[[ abc =~ (b) ]]; [[ xyz =~ (q) ]]; echo "${#BASH_REMATCH[@]}"
### regex-alternation-groups
[[ "key=value" =~ ^([^=]+)=(.*)$ ]] && echo "${BASH_REMATCH[1]}|${BASH_REMATCH[2]}"
### dbl-bracket-status-codes
[[ a == b ]]; echo $?; [[ a == a ]]; echo $?
### test-eq-strings-with-dash
[ "-n" = "-n" ] && echo ok

# lang_braces: brace expansion and tilde expansion
# Known divergences: none
### brace-list
echo a{b,c,d}e
### brace-range-num
echo {1..5} {5..1}
### brace-range-step
echo {0..10..3} {10..0..5}
### brace-range-alpha
echo {a..e} {e..a}
### brace-zero-pad
echo {01..10}
### brace-nested
echo {a,b{1,2},c}
### brace-multiple
echo {a,b}{1,2}
### brace-no-expansion-single
echo {a} {} a{}b
### brace-quoted
echo "{a,b}" '{1..3}' \{a,b\}
### brace-with-var-not-range
n=3; echo {1..$n}
### brace-in-path
mkdir -p d/{x,y,z}; echo d/*
### brace-empty-element
echo a{,b}c
### brace-negative
echo {-2..2}
### brace-prefix-suffix-words
echo pre-{one,two}-post
### brace-with-dollar
x=v; echo {$x,b}
### brace-not-in-assignment
x={a,b}; echo "$x"
### tilde-home
HOME=/home/tester; echo ~ ~/dir
### tilde-in-assignment
HOME=/h; x=~/a:~/b; echo $x
### tilde-quoted-not-expanded
HOME=/h; echo "~" ~"x"
### tilde-plus
mkdir -p t; cd t; echo ~+ | grep -c t
### brace-large-range-count
set -- {1..1000}; echo $#
### brace-letters-step
echo {a..k..3}
### brace-comma-in-quotes
echo {"a,b",c}
### brace-seq-with-prefix-zero-neg
echo {-05..5..5}
### brace-words-stay-as-written
IFS=,; echo {a,b}x,y {1..3}; unset IFS
touch a1 a2 b@c
echo a{1,2} [ ] x] @ {b@c,q}
shopt -s failglob; echo ] [ x@y {1..2}]; shopt -u failglob
shopt -s nullglob; echo [ ] z{1,2}]; shopt -u nullglob
printf '%s\n' {08..11} {z..x} | tr '\n' ' '; echo

# lang_mixed5: arithmetic errors and corners, find -exec / xargs / timeout / env driving commands
# Known divergences: none
### t12-a
echo $((1.5+1)); echo after
### t12-b
x=$(( 08 )); echo after
### t12-c
echo ${x/}; echo ok
### t12-d
a=(1 2); echo ${a[@]:5}; echo ok
### t12-e
echo "${x:?}" 2>/dev/null; echo never
### t12-f
unset x; echo ${x?is unset}; echo never
### t12-g
f() { echo ${1:?need arg}; }; f; echo after-f
### t12-h
(( 1 / 0 )); echo "cmd st $?"
### t12-i
let 'x = 1/0'; echo "let st $?"
### t12-j
declare -i n; n=abc; echo "[$n]"
### t12-k
declare -i n; n='1 +'; echo after
### t12-l
a=(x); echo ${a[abc]}; echo ${a[-5]}; echo end
### t12-m
echo $(( 10 > 5 > 1 ))
### t12-n
echo $(( 1 << 64 )) $(( -1 >> 1 ))
### t12-o
echo $(( 5 ** 0 )) $(( 0 ** 0 ))
### t12-p
x=""; echo $(( x + 1 ))
### t12-q
x=" 3 "; echo $(( x * 2 ))
### t12-r
echo $(( (1 + 2) * (3 - 1) / 2 % 4 ))
### t12-s
echo $(( ~0 )) $(( !1 )) $(( -(-3) ))
### t12-t
i=1; echo $(( i++ + ++i )) $i
### t12-u
echo $(( 0x7fffffffffffffff + 1 ))
### t12-v
echo $(( 64#_ )) $(( 64#@ ))
### t12-w
echo $(( 3 , 4 ))
### t12-x
a=5; echo $(( a == 5 ? a : 0 ))
### t12-y
echo $[ 2 + 3 ]
### t12-z
x=1; (( x )) && echo truthy; x=0; (( x )) || echo falsy
### t13-a
mkdir d; touch d/a d/b; find d -type f -exec echo found {} \; | sort
### t13-b
mkdir d; touch d/a; find d -type f -exec sh -c 'echo "in sh: $1"' _ {} \;
### t13-c
printf 'a\nb\n' | xargs -I % sh -c 'echo "<%>"'
### t13-d
touch f1 f2; ls | xargs -n1 echo item
### t13-e
echo "a b c" | xargs -n 2
### t13-f
printf '1\n2\n3\n' | xargs -L 2 echo
### t13-g
echo 'one "two three" four' | xargs -n1 echo
### t13-h
time (echo in-time) 2>/dev/null
### t13-i
timeout 5 bash -c 'echo inner'; echo $?
### t13-j
echo hi | timeout 1 cat
### t13-k
which echo ls nonexistent; echo $?
### t13-l
f() { echo fn; }; command f 2>/dev/null; echo $?
### t13-m
env -i A=1 printenv A
### t13-n
env A=1 B=2 sh -c 'echo $A$B'
### t13-o
seq 3 | xargs -r echo got; printf '' | xargs -r echo never; echo end
### t13-p
echo 'a b' | xargs printf '[%s]\n'

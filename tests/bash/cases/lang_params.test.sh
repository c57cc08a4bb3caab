# lang_params: parameter expansion family
# Known divergences: none
### default-value
unset x; echo "${x:-def}" "${x-def2}"; x=; echo "[${x:-def}]" "[${x-def2}]"
### assign-default
unset x; echo "${x:=set}"; echo "$x"
### alternate-value
x=1; echo "${x:+alt}" "[${y:+alt}]"; y=; echo "[${y+set-but-empty}]"
### error-if-unset
unset x; (echo "${x:?custom message}"); echo "status $?"
### error-if-unset-default-message
(: ${undefined_var?}); echo "status $?"
### length
x=hello; echo ${#x}; a=(1 2 3 4); echo ${#a[@]} ${#a}
### length-positional
set -- a bb ccc; echo ${#} ${#1} ${#@}
### prefix-removal
p=/usr/local/lib/file.tar.gz; echo ${p#*/} ${p##*/}
### suffix-removal
p=/usr/local/lib/file.tar.gz; echo ${p%.*} ${p%%.*}
### removal-no-match
x=abc; echo ${x#z} ${x%z}
### removal-quoted-pattern
x='a*b*c'; echo "${x#"a*"}" "${x%\*c}"
### replace-first-all
x=banana; echo ${x/an/AN} ${x//an/AN}
### replace-anchored
x=banana; echo ${x/#ba/BA} ${x/%na/NA} ${x/#na/NA}
### replace-with-empty
x=banana; echo ${x//a/} ${x//a}
### replace-glob
x=hello.world.txt; echo ${x/.*/} ${x//[lo]/_}
### replace-ampersand
x=abc; echo "${x//b/[&]}"
### substring
x=abcdefgh; echo ${x:2} ${x:2:3} ${x: -3} ${x: -3:2} ${x:1:-2}
### substring-arith
x=abcdefgh; i=2; echo ${x:i+1:2} ${x:$((i*2))}
### case-modify
x="hello World"; echo ${x^} ${x^^} ${x,} ${x,,}
### case-modify-pattern
x=banana; echo ${x^^a} ${x^^[bn]}
### indirect
name=target; target=value; echo ${!name}
### indirect-array
arr=(x y z); ref='arr[1]'; echo ${!ref}
### prefix-names
aa1=1 aa2=2 ab=3; echo ${!aa*}; for n in "${!aa@}"; do echo $n; done
### positional-all
set -- "a b" c; for x in "$@"; do echo "[$x]"; done; for x in "$*"; do echo "[$x]"; done
### positional-star-ifs
set -- a b c; IFS=,; echo "$*"; IFS=; echo "$*"
### positional-slice
set -- a b c d e; echo ${@:2} ; echo ${@:2:2}; echo ${@: -2}
### array-slice
a=(a b c d e); echo ${a[@]:1:3} ${a[@]: -2}
### transform-ops
x=hello; echo ${x@U} ${x@u} ${x@L}; y=$'a\tb'; echo ${y@Q}
### transform-a
declare -i n=1; a=(1); echo ${n@a} ${a@a}
### nested-default
unset a b; echo ${a:-${b:-inner}}
### default-with-spaces-splits
unset x; for w in ${x:-one two}; do echo "<$w>"; done
### default-quoted-no-split
unset x; for w in "${x:-one two}"; do echo "<$w>"; done
### length-unicode-free
x=12345; echo ${#x}
### special-var-question
false; echo ${?}
### dollar-dollar-consistent
[ "$$" = "$(echo $$)" ] && echo same
### bash-version-set
[ -n "$BASH_VERSION" ] && echo yes
### random-range
r=$RANDOM; [ "$r" -ge 0 ] && [ "$r" -lt 32768 ] && echo ok
### lineno
echo $LINENO
echo $LINENO
### pattern-on-array-elements
a=(apple banana cherry); echo ${a[@]#?} ${a[@]/a/A}
### upper-on-array
a=(ab cd); echo ${a[@]^^}
### remove-star-pattern-longest
x=aXbXc; echo ${x#*X} ${x##*X} ${x%X*} ${x%%X*}
### unset-var-with-plus
unset v; echo "[${v+yes}]"; v=; echo "[${v+yes}]"
### bad-substitution
x=1; (echo ${x!}); echo "status $?"

# lang_mixed3: word splitting, read field rules, redirection and here-document corners
# Known divergences: none
### t8-a
set -- a b c; x="$@"; echo "$x"; y=$@; echo "$y"
### t8-b
set -- a b c; for i in "${@:2}"; do echo $i; done
### t8-c
IFS=: ; set -- a b; x="$*"; echo $x; unset IFS
### t8-d
x="a  b"; IFS=; echo $x; unset IFS; echo $x
### t8-e
IFS=, ; x="a,b,,c"; arr=($x); echo ${#arr[@]}; printf '<%s>' "${arr[@]}"; echo
### t8-f
IFS=$' \t\n,'; read -r a b c <<< "1, 2 ,3"; echo "[$a][$b][$c]"
### t8-g
read -r a b <<< "  lead trail  "; echo "[$a][$b]"
### t8-h
read -r a <<< "  lead trail  "; echo "[$a]"
### t8-i
IFS=: read -r a b <<< "x:y:z"; echo "[$a][$b]"
### t8-j
IFS=: read -r a b <<< "x:y:"; echo "[$a][$b]"
### t8-k
IFS=: read -r a b <<< "x:y::"; echo "[$a][$b]"
### t8-l
IFS=": " read -r a b <<< "x : y : z "; echo "[$a][$b]"
### t8-m
x='a\ b'; set -- $x; echo $#
### t8-n
v="*"; touch q1 q2; echo $v; echo "$v"; set -f; echo $v
### t8-o
e=""; printf '[%s]' $e "$e" ${e} "${e}"; echo
### t8-p
a=(); printf '[%s]' "${a[@]}" ; echo; printf '[%s]' "${a[*]}"; echo
### t8-q
x="1 2 3"; for i in $x; do echo -n "$i,"; done; echo
### t8-r
set -- "a b" "c d"; printf '<%s>' $*; echo; printf '<%s>' "$*"; echo; printf '<%s>' $@; echo
### t8-s
IFS=x; v="axbxc"; echo $v; echo "$v"
### t8-t
IFS=; set -- "a b" c; printf '<%s>' $*; echo
### t8-u
unset IFS; v=$'a\n\nb'; printf '<%s>' $v; echo
### t8-v
x=$'\n'; [ -z "$x" ] && echo empty || echo nonempty; y=$(printf '\n'); [ -z "$y" ] && echo stripped
### t8-w
echo "${x:-a b}" ${x:-"a  b"}
### t8-x
a="x"; b="$a"'y'"$a"; echo $b
### t8-y
IFS=- read -a parts <<< "1-2--3"; echo ${#parts[@]} "${parts[2]}"
### t8-z
s="a.b.c"; IFS=. read -r -a p <<< "$s"; echo "${p[-1]}"
### t9-a
exec 3>&1 4>&2; echo out >&3; exec 3>&- 4>&-; echo fine
### t9-b
{ echo a >&3; } 3>f3; cat f3
### t9-c
cat < /dev/null; echo "st $?"
### t9-d
echo hi | cat /dev/stdin
### t9-e
echo data > in; cat < in > out; cat out
### t9-f
echo a > x; echo b >> x 2>&1; cat x
### t9-g
ls nonexist 2>&1 | head -c 5; echo
### t9-h
{ echo o; echo e >&2; } > both 2>&1; cat both
### t9-i
echo x 1>&2 2>/dev/null
### t9-j
f() { echo "f-out"; echo "f-err" >&2; }; f 2>/dev/null; f >/dev/null 2>&1; echo done
### t9-k
while read -r l; do echo "[$l]"; done < <(echo a; echo b)
### t9-l
cat <<-EOF
	tabbed $((1+1))
	EOF
### t9-m
cat << "EOF"
$literal
EOF
### t9-n
cat <<EOF
backslash-newline \
joined
EOF
### t9-o
x=1; cat <<EOF >out.txt
val $x
EOF
cat out.txt
### t9-p
cat <<EOF 2>/dev/null | wc -l
1
2
EOF
### t9-q
echo "no newline at end" > f; printf 'x' >> f; cat f; echo
### t9-r
read -r a <<< "$(echo nested)"; echo $a
### t9-s
exec < /dev/null; read x; echo "st $?"
### t9-t
: <<'COMMENT'
this is ignored $(rm -rf /)
COMMENT
echo after-comment
### t9-u
cat <<EOF
${undefined:-default} $((2*3)) `echo bt`
EOF
### t9-v
echo "a" 1>out1 2>out2; cat out1; cat out2 | wc -c
### t9-w
exec 5>&1; exec 1>/dev/null; echo hidden; exec 1>&5; echo shown
### t9-x
echo one > f; echo two 1<> f; cat f
### t9-y
{ read a; read b; } <<EOF
first
second
EOF
echo "$b $a"
### t9-z
cat <<EOF | while read l; do echo "<$l>"; done
p1
p2
EOF

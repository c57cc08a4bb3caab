# lang_quoting2: eval quoting, here-document quoting and nesting
# Known divergences: none
### q2-a
eval "echo \"\$((1+2))\""; cmd='printf "%s\n" "a b" c'; eval "$cmd"
### q2-b
x='$HOME'; eval "y=$x"; [ "$y" = "$HOME" ] && echo expanded
### q2-c
eval 'f() { echo "in eval fn $1"; }'; f arg
### q2-d
s="a'b"; eval "t='${s//\'/\'\\\'\'}'"; echo "$t"
### q2-e
v='a b'; eval echo "\"$v\""; eval echo $v
### q2-f
arr=(one two); eval "echo \${arr[1]}"
### q2-g
n=3; eval "for i in {1..$n}; do echo -n \$i; done"; echo
### q2-h
cat <<EOF
tab:	end "dq" 'sq' \\back \$dollar
EOF
### q2-i
x=5; cat <<EOF
${x} $x \${x} "$x" '$x'
EOF
### q2-j
cat <<'A' <<B
first
A
second $((1+1))
B
### q2-k
f() { cat <<EOF
in function: $1
EOF
}; f hello
### q2-l
echo "$(cat <<EOF
nested heredoc $((2*3))
EOF
)"
### q2-m
while read -r line; do echo "[$line]"; done <<< "$(printf 'x\ny')"
### q2-n
x="a
b"; echo "$x" | wc -l; echo $x
### q2-o
echo '\n' "\n" $'\n' | od -c | head -2
### q2-p
echo "${x:-"nested "quotes""}" "${u:-'single'}"
### q2-q
printf '%s\n' "a\\b" 'a\\b' "a\b"
### q2-r
echo "\$(not a subst)" '$(also not)'
### q2-s
v="it's"; echo "$v" "${v//\'/Q}"
### q2-t
echo {a,b}\ {c,d}

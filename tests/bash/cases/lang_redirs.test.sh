# lang_redirs: redirections and here-documents
# Known divergences: none
### redirect-out
echo hello > out.txt; echo done
### redirect-append
echo a > f; echo b >> f; while read l; do echo $l; done < f
### redirect-in
printf 'line1\nline2\n' > f; read first < f; echo $first
### redirect-stderr
echo err >&2 2>/dev/null; { echo visible-err >&2; } 2> e.txt; echo status $?
### redirect-stderr-to-stdout
{ echo out; echo err >&2; } 2>&1 | while read l; do echo "got:$l"; done
### redirect-both
{ echo out; echo err >&2; } &> both.txt; echo done
### redirect-both-append
echo one &> f; echo two &>> f
### redirect-order-matters
{ echo err >&2; } 2>&1 > /dev/null | while read l; do echo "pipe:$l"; done
### dev-null
echo gone > /dev/null; echo kept
### dev-stdout-stderr
echo to-stdout > /dev/stdout; echo to-stderr > /dev/stderr 2>/dev/null; echo end
### fd-numbers
exec 3> three.txt; echo via3 >&3; exec 3>&-; echo done
### fd-read
echo content > f; exec 4< f; read line <&4; echo $line
### noclobber
set -o noclobber; echo a > f; echo b > f; echo "st $?"; echo c >| f
### heredoc-basic
cat <<EOF
hello
world
EOF
### heredoc-expansion
x=42; while read l; do echo "$l"; done <<EOF
value=$x
sum=$((x+1))
cmd=$(echo sub)
EOF
### heredoc-quoted-delimiter
x=42; while read -r l; do echo "$l"; done <<'EOF'
value=$x $(nope)
EOF
### heredoc-strip-tabs
while read l; do echo "[$l]"; done <<-EOF
	indented
		more
	EOF
### heredoc-backslash
while read -r l; do echo "$l"; done <<EOF
a\$b \\ c\
d
EOF
### herestring
read a b <<< "first second"; echo $b $a
### herestring-var
x="multi word"; while read -r l; do echo "<$l>"; done <<< "$x"
### heredoc-in-function
f() {
  while read l; do echo "f:$l"; done <<END
inside
END
}
f
### two-heredocs
while read a; read b <&3; do echo "$a $b"; done <<X 3<<Y
1
X
2
Y
### redirect-to-missing-dir
echo x > nodir/file; echo "st $?"
### input-missing-file
read x < missing.txt; echo "st $?"
### redirect-in-middle-of-args
echo a > f b c; while read l; do echo $l; done < f
### group-redirect
{ echo 1; echo 2; } > f; while read l; do echo "r$l"; done < f
### while-loop-input-redirect
printf '3\n4\n' > nums; total=0; while read n; do total=$((total+n)); done < nums; echo $total
### heredoc-empty
while read l; do echo "[$l]"; done <<EOF
EOF
echo end
### redirect-stdout-of-subshell
(echo sub1; echo sub2) > f; while read l; do echo $l; done < f
### redirect-append-creates
echo x >> new.txt; echo st $?
### exec-redirect-persistent
exec > log.txt; echo into-log; echo more
### fd-var-allocation
exec {fd}> fdfile; echo hi >&$fd; exec {fd}>&-; [ -n "$fd" ] && echo allocated
### redirect-dup-close
echo x 2>&-; echo "st $?"
### heredoc-with-quotes-inside
while read -r l; do echo "$l"; done <<EOF
"double" 'single'
EOF
### cat-heredoc-to-file
cat > conf.txt <<EOF
key=value
EOF
echo written

# lang_control: if, for, while, until, case, break, continue
# Known divergences: none
### if-elif-else
for x in 1 2 3; do if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo other; fi; done
### if-status-of-no-branch
if false; then echo no; fi; echo $?
### if-multiline
if true
then
  echo yes
fi
### for-in-list
for i in a b c; do echo $i; done
### for-no-in-uses-positional
set -- x y; for a; do echo $a; done
### for-with-glob-none
for f in *.nomatch; do echo "$f"; done
### for-brace-range
for i in {1..5}; do echo -n $i; done; echo
### for-var-persists
for i in 1 2 3; do :; done; echo $i
### for-newline-list
for i in a \
  b; do echo $i; done
### while-loop
i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done
### until-loop
i=0; until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done
### while-read-heredoc
while read a b; do echo "$b-$a"; done <<EOF
1 one
2 two
EOF
### break-continue
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
### break-n
for i in 1 2; do for j in a b; do echo $i$j; break 2; done; done; echo out
### continue-n
for i in 1 2; do for j in a b; do echo $i$j; continue 2; done; echo never; done
### case-basic
for x in apple banana cherry; do case $x in a*) echo A;; b*|c*) echo BC;; esac; done
### case-default
case zzz in a) echo a;; *) echo default;; esac
### case-fallthrough
case a in a) echo one;& b) echo two;; c) echo three;; esac
### case-continue-testing
case ab in a*) echo first;;& *b) echo second;;& x) echo no;; esac
### case-quoted-pattern
x='*'; case abc in "$x") echo literal;; *) echo glob;; esac
### case-var-pattern
p='a*'; case abc in $p) echo match;; esac
### case-no-match-status
case x in y) echo no;; esac; echo $?
### case-paren-pattern
case b in (a) echo a;; (b) echo b;; esac
### case-multiline
case "hello" in
  h*)
    echo starts-with-h
    ;;
  *)
    echo other
    ;;
esac
### case-char-class
for c in a 5 Z; do case $c in [0-9]) echo digit;; [a-z]) echo lower;; *) echo other;; esac; done
### case-empty-body
case a in a) ;; esac; echo "st $?"
### loop-exit-status
for i in 1; do false; done; echo $?
### nested-loops
for i in 1 2; do for j in x y; do echo $i$j; done; done
### while-false-never-runs
while false; do echo no; done; echo $?
### loop-with-redirect
for i in 1 2 3; do echo $i; done > out.txt; while read l; do echo "got $l"; done < out.txt
### break-outside-loop
break; echo "after $?"
### group-command
{ echo a; echo b; } | while read x; do echo "[$x]"; done
### subshell-isolation
x=1; (x=2; echo in $x); echo out $x
### subshell-exit
(exit 3); echo $?
### brace-group-status
{ false; }; echo $?
### while-break-in-condition
i=0; while true; do i=$((i+1)); if [ $i -gt 3 ]; then break; fi; done; echo $i
### if-with-pipeline-cond
if echo abc | read x; then echo ok; fi
### for-c-style-multi-vars
for ((i=0, j=10; i<3; i++, j--)); do echo $i $j; done
### until-with-break
n=0; until false; do n=$((n+1)); [ $n -eq 2 ] && break; done; echo $n
### case-in-function-with-return
f() { case $1 in y) return 0;; *) return 1;; esac; }; f y && echo yes; f n || echo no
### while-read-ifs
printf 'a:b:c\nd:e:f\n' > data; while IFS=: read -r x y z; do echo "$z $y $x"; done < data
### for-over-command-output
for w in $(echo one two three); do echo "<$w>"; done
### select-like-loop-with-counter
count=0; for x in a b c d; do count=$((count+1)); done; echo $count

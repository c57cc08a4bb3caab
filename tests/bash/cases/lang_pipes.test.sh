# lang_pipes: pipelines, subshells, command substitution, process substitution, exit codes
# Known divergences: none
### pipe-basic
echo hello | while read x; do echo "got $x"; done
### pipe-multi-stage
printf '3\n1\n2\n' | sort | head -2
### pipe-last-stage-subshell
x=1; echo 2 | read x; echo $x
### pipe-status
true | false; echo $?; false | true; echo $?
### pipe-yes-head
yes | head -3
### pipe-seq-head-fast
seq 1 100000000 | head -2
### pipe-stderr-pipe
{ echo out; echo err >&2; } |& while read l; do echo "[$l]"; done
### pipe-negated
! echo x | grep -q y; echo $?
### pipe-into-loop-var-scope
count=0; printf 'a\nb\n' | while read l; do count=$((count+1)); done; echo $count
### cmdsub-basic
x=$(echo hello); echo "$x!"
### cmdsub-strips-trailing-newlines
x=$(printf 'a\n\n\n'); echo "[$x]"
### cmdsub-keeps-inner-newlines
x=$(printf 'a\nb'); echo "$x"
### cmdsub-nested
echo $(echo $(echo $(echo deep)))
### cmdsub-backtick-nested
echo `echo \`echo inner\``
### cmdsub-with-quotes
echo "$(echo "a  b")"
### cmdsub-exit-status
x=$(false); echo $?; x=$(true); echo $?
### cmdsub-subshell-isolation
x=1; y=$(x=2; echo $x); echo $x $y
### cmdsub-with-case
x=$(case a in a) echo matched;; esac); echo $x
### cmdsub-with-parens-in-string
echo $(echo "(paren)")
### cmdsub-heredoc
x=$(cat <<EOF
from heredoc
EOF
); echo "$x"
### subshell-cd-isolated
mkdir d; (cd d; echo in-sub); [ -d d ] && echo still-here
### subshell-nested
( ( echo nested ) )
### subshell-exit-status-propagates
(false); echo $?; (true); echo $?
### process-substitution
while read l; do echo "ps:$l"; done < <(printf 'x\ny\n')
### process-substitution-diff
diff <(printf 'a\nb\n') <(printf 'a\nc\n'); echo "st $?"
### pipeline-with-function
up() { tr a-z A-Z; }; echo shout | up
### pipeline-long-output
seq 1 5000 | tail -1
### xargs-basic
printf 'a\nb\nc\n' | xargs echo
### xargs-n2
printf '1 2 3 4 5\n' | xargs -n2 echo
### xargs-I
printf 'x\ny\n' | xargs -I{} echo "item {}"
### xargs-0
printf 'a b\0c\0' | xargs -0 -n1 echo
### xargs-empty-input
printf '' | xargs echo "empty:"
### xargs-function-not-visible
f() { echo f; }; echo a | xargs f; echo "st $?"
### background-job
echo bg & wait; echo fg
### pipeline-exit-141-ignored
yes | head -1 > /dev/null; echo ${PIPESTATUS[@]}
### time-keyword
time true 2>/dev/null; echo after
### pipe-to-group
echo data | { read x; echo "group got $x"; }
### cmdsub-in-arith
echo $(( $(echo 3) + 4 ))
### cmdsub-large-output
x=$(seq 1 10000); echo ${#x}
### bash-c
bash -c 'echo "in child $0 $1"' name arg1
### bash-c-exit
bash -c 'exit 5'; echo $?
### sh-script-file
printf 'echo script $1\nexit 2\n' > s.sh; bash s.sh arg; echo $?
### exec-script-file
printf '#!/bin/bash\necho executed\n' > run.sh; chmod +x run.sh; ./run.sh
### non-executable-script
printf 'echo x\n' > plain.sh; ./plain.sh; echo "st $?"
### timeout-command
timeout 1 sleep 0.1; echo $?
### timeout-expires
timeout 0.2 sleep 5; echo $?
### process-substitution-output
echo hello > >(tr a-z A-Z); sleep 0.1; echo done
### process-substitution-tee
printf 'b\na\n' | tee >(sort > sorted.txt) > /dev/null; sleep 0.1; cat sorted.txt
### error-of-a-stage-sent-down-the-pipe
z=08
for ((i = 0; i < 3; i++)); do echo "$(( z ))"; done 2>&1 | sed 's/^/got: /'
{ echo "${u?is unset}"; echo same; } 2>&1 | cat
{ printf hi; exit 3; } | cat; echo " ${PIPESTATUS[*]}"

# lang_flow: break/continue scoping, loop and list statuses, ERR/-e on compound commands
# Known divergences: none
### break-in-function-does-not-leave-loop
f() { break; }; for i in 1 2 3; do echo $i; f; done; echo end
### break-in-subshell-does-not-leave-loop
for i in 1 2; do echo $i; (break); echo after-sub; done
### continue-in-pipeline-stage
for i in 1 2; do echo $i; echo x | continue; echo after; done
### loop-status-after-break
for i in 1 2; do false; break; done; echo $?
### loop-status-after-continue
for i in 1 2; do false; continue; done; echo $?
### return-outside-function-in-loop
for i in 1 2; do return 4 2>/dev/null; echo "i=$i st=$?"; done
### err-trap-once-for-if-body
trap 'echo E' ERR; if true; then false; fi; echo st
### err-trap-once-for-group
trap 'echo E' ERR; { false; }; echo st
### err-trap-subshell
trap 'echo E' ERR; (false); echo st
### err-trap-function-negated
trap 'echo E' ERR; f() { ! true; }; f; echo st
### errexit-negation-inside-if
set -e; if true; then ! true; fi; echo survived
### errexit-function-returning-negation
set -e; f() { ! true; }; f; echo not-reached
### errtrace-fires-inside-and-outside
set -E; trap 'echo err' ERR; f() { false; }; f; echo done
### pipestatus-after-loop
while (exit 3) && true; do :; done; echo ${PIPESTATUS[*]}
### pipestatus-after-if
if true; then true | false; fi; echo ${PIPESTATUS[*]}
### pipe-into-negation-is-syntax-error
echo a | ! false
echo never
### arith-compound-assign-order
x=3; (( x += x++ )); echo $x
### arith-compound-assign-nested
x=2; (( x *= (x += 1) )); echo $x
### lastpipe-read
shopt -s lastpipe; echo hello | read x; echo "[$x]"
### lastpipe-while-sum
shopt -s lastpipe; total=0; printf '1\n2\n3\n' | while read n; do total=$((total+n)); done; echo $total
### exec-stderr-to-stdout
exec 2>&1; echo to-err >&2 | tr a-z A-Z
### break-in-loop-condition
x=0; while break && [ $x -lt 4 ]; do x=$((x+1)); done; echo "x=$x st=$?"
### continue-in-loop-condition
x=0; while x=$((x+1)); [ $x -lt 3 ] && continue; [ $x -lt 5 ]; do echo body $x; done; echo end $x
### pipestatus-after-continue
for i in 1 2; do for j in 1 2; do echo ${PIPESTATUS[*]}; false | true; done; continue; done; echo ${PIPESTATUS[*]}
### last-stage-loop-is-a-subshell
x=1; true | false | while [ $x -lt 4 ]; do x=$((x+1)); done; echo $x

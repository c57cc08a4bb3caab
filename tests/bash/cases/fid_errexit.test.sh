# fid_errexit: set -e in functions, subshells, loops, conditions and redirections
# Known divergences: none
### m-brace-redirect-fail
set -e; { echo hi; } > /nonexistent/x; echo "after"
### m-brace-redirect-fail-noe
{ echo hi; } > /nonexistent/x; echo "after $?"
### m-loop-redirect-fail
set -e; for i in 1; do echo $i; done > /nonexistent/x; echo after
### m-while-redirect-fail
set -e; while false; do :; done < /nonexistent; echo after
### m-func-set-e
f() { set -e; false; echo inside; }; f; echo after
### m-func-in-cond
set -e; f() { false; echo inside; }; f || echo failed; echo after
### m-func-in-if
set -e; f() { false; echo inside; return 3; }; if f; then echo yes; else echo "no $?"; fi
### m-subshell-propagate
set -e; (false; echo inside); echo after
### m-subshell-cond
set -e; (false; echo inside) || echo caught; echo after
### m-subshell-set-e-inside
(set -e; false; echo inside); echo "after $?"
### m-cmdsub-inherit
set -e; x=$(false; echo inner); echo "x=$x"
### m-cmdsub-inherit-errexit
set -e; shopt -s inherit_errexit; x=$(false; echo inner); echo "x=$x"
### m-assign-cmdsub-fail
set -e; x=$(false); echo never
### m-local-cmdsub-fail
set -e; f() { local x=$(false); echo "local masks $?"; }; f
### m-and-list-last
set -e; true && false; echo never
### m-and-list-middle
set -e; false && true; echo survived
### m-or-list
set -e; false || false; echo never
### m-negated
set -e; ! true; echo survived; ! false; echo again
### m-pipeline-fail
set -e; false | true; echo survived; true | false; echo never
### m-pipefail-e
set -eo pipefail; false | true; echo never
### m-while-cond
set -e; while false; do :; done; echo ok; until true; do :; done; echo ok2
### m-if-cond-func
set -e; f() { return 1; }; if f; then :; fi; echo ok
### m-case-body
set -e; case x in x) false; echo never;; esac
### m-ignored-set-e-inside
f() { set -e; false; echo inside-ignored; }; f && echo ok
### m-eval-false
set -e; eval false; echo never
### m-eval-in-cond
set -e; eval false || echo caught
### m-trap-err
trap 'echo err $?' ERR; false; echo after; (exit 3); echo end
### m-trap-err-func
set -E; trap 'echo err' ERR; f() { false; }; f; echo end
### m-trap-err-cond
trap 'echo err' ERR; false || true; if false; then :; fi; echo end
### m-set-e-arith
set -e; (( 0 )); echo never
### m-set-e-arith-cond
set -e; (( 0 )) || echo caught; x=0; (( x++ )); echo never
### m-set-e-let
set -e; let x=0; echo never
### m-set-e-return-status
set -e; f() { return 2; }; f; echo never
### m-set-e-plus-e
set -e; set +e; false; echo survived
### m-set-e-source
set -e; echo 'false; echo inner' > s.sh; . ./s.sh; echo never
### m-set-e-exit-trap
set -e; trap 'echo trap $?' EXIT; false
### m-errexit-group
set -e; { false; echo inside; }; echo never
### m-errexit-group-or
set -e; { false; echo inside; } || echo caught
### m-errexit-nested-func
set -e; g() { false; echo g; }; f() { g; echo f; }; f; echo top
### m-errexit-func-cond-nested
set -e; g() { false; echo g; }; f() { g; echo f; }; f && echo top
### m-errexit-for-body
set -e; for i in 1 2; do echo $i; false; done; echo never
### m-errexit-command-not-found
set -e; nosuchcmd; echo never
### m-errexit-builtin-fail
set -e; cd /nonexistent; echo never
### m-errexit-redir-simple
set -e; echo x > /nonexistent/f; echo never
### m-errexit-readonly
set -e; readonly r=1; r=2; echo never
### m-errexit-shift
set -e; shift 5; echo never
### m-abort-line-arith
x=$(( 1/0 )); echo same-line
echo next-line $?
### m-abort-line-in-function
f() { echo $(( 1/0 )); echo in-f; }; f; echo same-line
echo next-line $?
### m-abort-line-in-subshell
( x=$(( 1/0 )); echo in-sub ); echo "same-line $?"
### m-abort-line-bad-subst
echo ${x!}; echo same-line
echo next-line $?
### m-abort-line-in-loop
for i in 1 2; do echo $i $(( i/0 )); done; echo same-line
echo next-line
### m-abort-line-unset-fatal
set -u; echo $nope; echo same-line
echo next-line

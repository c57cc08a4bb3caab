# lang_options: set -e -u -x -o pipefail -o noglob, errexit subtleties
# Known divergences: none
### errexit-stops
set -e; echo one; false; echo two
### errexit-if-condition-exempt
set -e; if false; then echo no; fi; echo survived
### errexit-and-list-exempt
set -e; false && echo no; echo survived
### errexit-or-list
set -e; false || echo recovered; echo survived
### errexit-last-in-and-list-fails
set -e; true && false; echo not-reached
### errexit-negated-exempt
set -e; ! true; echo survived
### errexit-while-condition
set -e; while false; do :; done; echo survived
### errexit-in-function
set -e; f() { echo in-f; false; echo after-false; }; f; echo not-reached
### errexit-function-in-condition
set -e; f() { false; echo continues; }; if f; then echo then; fi
### errexit-subshell
set -e; (false); echo not-reached
### errexit-cmdsub-assignment
set -e; x=$(false); echo not-reached
### errexit-pipeline-last
set -e; false | true; echo survived
### errexit-pipefail
set -eo pipefail; false | true; echo not-reached
### pipefail-status
set -o pipefail; true | false | true; echo $?; false | true; echo $?
### pipefail-off
true | false | true; echo $?
### nounset-error
set -u; echo "$undefined"; echo not-reached
### nounset-default-ok
set -u; echo "${undefined:-fallback}"; echo "${undefined-x}"
### nounset-positional
set -u; f() { echo "${1:-none}"; }; f
### nounset-at-ok
set -u; set --; echo "[$@]" "$#"
### xtrace
set -x; echo traced; x=1
### xtrace-off
set -x; set +x; echo quiet
### noglob
touch a.txt; set -o noglob; echo *.txt
### noclobber-option
set -C; echo 1 > f; echo 2 > f 2>/dev/null || echo refused
### set-plus-e
set -e; set +e; false; echo continues
### errexit-compound-brace
set -e; { false; echo no; }; echo no2
### errexit-ignored-in-and-or-function
set -e; f() { false; echo f-continues; }; f || true; echo end
### pipestatus
true | false | true; echo ${PIPESTATUS[@]}; false; echo ${PIPESTATUS[@]}
### pipestatus-single
(exit 3); echo ${PIPESTATUS[0]}
### errexit-case
set -e; case x in x) false;; esac; echo no
### errexit-exit-status
set -e; sh_fail() { return 7; }; sh_fail; echo no
### set-options-combined
set -eu; echo ok; set +eu; echo "$nope" done
### dollar-dash-flags
set -u; [[ $- == *u* ]] && echo has-u
### errexit-arith-command
set -e; i=0; ((i++)); echo not-reached
### errexit-arith-nonzero-ok
set -e; i=1; ((i++)); echo reached

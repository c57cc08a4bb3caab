# lang_errors: syntax errors, runtime errors and how the script continues
# Known divergences: none
### syntax-error-stops-script
echo before
if then
echo after
### syntax-error-unclosed-quote
echo "unclosed
### syntax-error-later-line-runs-earlier
echo first
echo second
fi
### unexpected-token-status
echo a; ) ; echo b
### missing-done
for i in 1 2; do echo $i
### command-not-found-continues
nosuchcmd arg; echo "after $?"
### permission-denied-file
echo x > f; chmod -r f 2>/dev/null; echo ok
### redirect-error-skips-command
echo hi > /nonexistent/dir/file; echo "st $?"
### bad-fd
echo x >&7; echo "st $?"
### expansion-error-in-command
x=abc; echo ${x:?}; echo "continues"
### unbound-in-subshell-only
( set -u; echo $nope ); echo "parent continues $?"
### cd-file-not-dir
echo x > file; cd file; echo "st $?"
### readonly-assignment-error
readonly r=1; r=2; echo "still running $?"
### invalid-identifier-declare
declare 1abc=5; echo "st $?"
### exit-large-status
(exit 300); echo $?
### exit-negative
(exit -1); echo $?
### shift-too-many
set -- a; shift 3; echo "st $? $#"
### numeric-required
(exit abc); echo "st $?"
### empty-script-status
:
### empty-command-substitution
x=$(); echo "[$x] $?"
### unknown-option-set
set -Z 2>/dev/null; echo "st $?"
### local-outside-function
local x=1; echo "st $?"
### division-by-zero-continues
x=$((5/0)); echo "st $?"
### arith-error-in-if
if (( 1/0 )); then echo yes; else echo "no $?"; fi

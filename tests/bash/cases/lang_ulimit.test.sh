# lang_ulimit: ulimit: soft and hard limits, -a, several resources in one call, values, errors, subshells
# Recorded as a non-root user: the sandbox's script is not root, and root may raise a hard limit (record.py runs this file's bash as nobody when it runs as root).
# Every case sets the limits it prints first: the recording machine's own limits are not the sandbox's starting ones (-a with those is checked in test_ulimit.py).
# Known divergences: none
### default-resource-is-f
ulimit 100; ulimit; ulimit -f; ulimit -H -f; ulimit -S; ulimit -H
### set-without-S-or-H-sets-both
ulimit -n 50; ulimit -S -n; ulimit -H -n
### soft-and-hard-apart
ulimit -S -n 64; ulimit -H -n 100; ulimit -n; ulimit -Sn; ulimit -Hn; ulimit -SH -n; ulimit -H -S -n
### several-resources-labelled
ulimit -n 50 -c 0; ulimit -n -c; echo "s=$?"
### several-resources-mixed-set-and-query
ulimit -n 33 -x 5 -n; ulimit -x; ulimit -t 100 -v 1000000 -d 100000; ulimit -t -v -d
### fixed-resources-labelled
ulimit -p -e -r; ulimit -Hp
### raise-hard-not-permitted
ulimit -S -n 64; ulimit -H -n 100; ulimit -H -n 200 2>&1; echo "s=$?"; ulimit -n 200 2>&1; echo "s=$?"; ulimit -n; ulimit -Hn
### soft-above-hard-invalid
ulimit -S -n 64; ulimit -H -n 100; ulimit -S -n 200 2>&1; echo "s=$?"; ulimit -n
### hard-below-soft-invalid
ulimit -S -n 64; ulimit -H -n 100; ulimit -H -n 50 2>&1; echo "s=$?"; ulimit -n -H
### lower-both-then-raise
ulimit -n 100; ulimit -n 90; echo "s=$?"; ulimit -n 95 2>&1; echo "s=$?"; ulimit -S -n 10; ulimit -S -n 85; echo "s=$?"; ulimit -n; ulimit -Hn
### soft-unlimited-means-hard
ulimit -S -n 64; ulimit -H -n 100; ulimit -S -n unlimited; echo "s=$?"; ulimit -n; ulimit -H -n
### hard-unlimited-not-permitted
ulimit -S -n 64; ulimit -H -n 100; ulimit -H -n unlimited 2>&1; echo "s=$?"; ulimit -n unlimited 2>&1; echo "s=$?"; ulimit -n
### values-hard-and-soft
ulimit -S -n 64; ulimit -H -n 100; ulimit -S -n hard; ulimit -n; ulimit -S -n 30; ulimit -H -n soft; ulimit -Hn; ulimit -n 20; ulimit -n hard; echo "s=$?"; ulimit -n
### invalid-numbers
ulimit -n abc 2>&1; echo "s=$?"; ulimit -n +5 2>&1; ulimit -n 0x10 2>&1; ulimit -n 01a 2>&1; ulimit -n ' 5' 2>&1; ulimit -n 5k 2>&1; echo "s=$?"
### invalid-number-message-line
ulimit -n 64
echo a
ulimit -n x 2>&1
### pipe-size-is-read-only
ulimit -p; ulimit -H -p; ulimit -p 8 2>&1; echo "s=$?"; ulimit -S -p hard 2>&1; ulimit -p unlimited 2>&1; ulimit -p abc 2>&1; echo "s=$?"; ulimit -p
### priorities-start-at-zero
ulimit -e; ulimit -r; ulimit -e 5 2>&1; echo "s=$?"; ulimit -S -r 5 2>&1; echo "s=$?"; ulimit -e 0; echo "s=$?"
### options-not-on-linux
for o in b k P T Z 5; do ulimit -$o 2>&1; echo "s=$?"; done
### long-option
ulimit --foo 2>&1; echo "s=$?"
### help
ulimit --help; echo "s=$?"
### invalid-option-sets-nothing
ulimit -n 50; ulimit -n 40 -Z 2>/dev/null; echo "s=$?"; ulimit -n
### first-error-stops
ulimit -n 50; ulimit -x abc -n 40 2>/dev/null; echo "s=$?"; ulimit -n; ulimit -c 0 -n -x abc 2>&1; echo "s=$?"
### subshell-keeps-its-changes
ulimit -n 64; (ulimit -n 40; ulimit -n); ulimit -n; echo $(ulimit -n 5; ulimit -n) $(ulimit -n); ulimit -n 30 | cat; ulimit -n
### subshell-inherits
ulimit -S -n 64; ulimit -H -n 100; (ulimit -n; ulimit -Hn; ulimit -H -n 200 2>&1)
### child-bash-inherits
ulimit -n 33; bash -c 'ulimit -n'
### function-changes-the-shell
f() { ulimit -n 33; }; f; ulimit -n
### attached-values
ulimit -n5; ulimit -n; ulimit -Sn4; ulimit -n; ulimit -cn 5 2>&1; echo "s=$?"; ulimit -n3c 2>&1; echo "s=$?"
### operands
ulimit -n 5 6; ulimit -n; ulimit -n -- 4; ulimit -n; ulimit -n 3 -- 2; ulimit -n; ulimit -- 7; ulimit -f; ulimit -c 9; ulimit -n 2 -c; ulimit -c
### query-then-set-by-operand
ulimit -n 20; ulimit -n -c 5; ulimit -c
### dash-operand
ulimit - 2>&1; echo "s=$?"; ulimit -n - 2>&1; echo "s=$?"; ulimit -n -5 2>&1; echo "s=$?"
### empty-value-is-zero
ulimit -c ''; echo "s=$?"; ulimit -c; ulimit -H -c
### numbers-wrap-and-overflow
(ulimit -n 18446744073709551617; ulimit -n); ulimit -f 18446744073709551615 2>&1; echo "s=$?"; ulimit -c 18014398509481984 2>&1; ulimit -n 100; ulimit -S -n 18446744073709551615; ulimit -n
### leading-zeros
ulimit -n 010; ulimit -n; ulimit -c 0000; ulimit -c
### posix-mode-blocks
set -o posix; ulimit -c 10; ulimit -c; set +o posix; ulimit -c; ulimit -f 3; set -o posix; ulimit -f; ulimit -c -f
### kbytes-and-units
ulimit -d 100000 -v 1000000 -s 4096 -l 64 -q 1000 -R 1000 -t 7; ulimit -d -v -s -l -q -R -t
### all-listed
ulimit -R 1000 -c 0 -d 100000 -e 0 -f 1000 -i 100 -l 64 -m 100000 -n 64 -q 1000 -r 0 -s 8192 -t 100 -u 1000 -v 1000000 -x 100
ulimit -a; echo "s=$?"
### all-soft-and-hard
ulimit -R 1000 -c 0 -d 100000 -e 0 -f 1000 -i 100 -l 64 -m 100000 -n 64 -q 1000 -r 0 -s 8192 -t 100 -u 1000 -v 1000000 -x 100
ulimit -S -n 32 -t 50 -c 0
ulimit -H -a; echo ---; ulimit -S -a; echo ---; ulimit -a -H -S
### all-ignores-the-rest
ulimit -n 64; ulimit -n 7 -a > /dev/null; echo "s=$?"; ulimit -n; ulimit -a 5 > /dev/null; echo "s=$?"; ulimit -n
### errexit
set -e; ulimit -n 64; ulimit -n abc 2>/dev/null; echo not reached
### in-condition
ulimit -n 64; if ulimit -H -n 100 2>/dev/null; then echo set; else echo refused; fi; ulimit -n 60 && echo lowered
### background-job-and-procsub-inherit
ulimit -n 20; { ulimit -n 10; ulimit -n; } & wait; ulimit -n; cat <(ulimit -n); ulimit -n 15 & wait; ulimit -n

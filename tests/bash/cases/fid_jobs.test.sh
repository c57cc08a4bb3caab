# fid_jobs: background jobs: &, $!, wait (pid, %n, -n), jobs, kill; order set by sleeps
# Known divergences: none
### m-order-by-sleep
(sleep 0.4; echo A) & (sleep 0.2; echo B) & echo C; wait; echo D
### m-wait-pid-status
(exit 3) & p=$!; wait $p; echo "st=$?"; wait $p; echo "again=$?"
### m-wait-unknown-pid
wait 99999; echo "w=$?"
### m-wait-unknown-job
wait %7; echo "w=$?"
### m-wait-no-jobs
wait; echo "w=$?"
### m-wait-n-none
wait -n; echo "n=$?"
### m-kill-job
sleep 5 & kill %1; wait %1; echo "killed=$?"
### m-kill-pid
sleep 5 & p=$!; kill $p; wait $p; echo "killed=$?"
### m-kill-9
sleep 5 & kill -9 %1; wait; echo "w=$?"
### m-kill-unknown
kill %9; echo "k=$?"; kill 99999; echo "k=$?"
### m-kill-zero-self
kill -0 $$; echo "k=$?"
### m-jobs-running
sleep 1 & jobs; kill %1
### m-jobs-two
sleep 1 & sleep 1 & jobs; kill %1 %2
### m-jobs-p-count
sleep 1 & sleep 1 & jobs -p | wc -l; kill %1 %2
### m-bang-is-job-pid
sleep 0.1 & [ "$!" = "$(jobs -p)" ] && echo same; wait
### m-loop-of-jobs
for i in 3 1 2; do { sleep 0.$i; echo "job $i"; } & done; wait; echo all
### m-cmdsub-waits-for-job
x=$( { sleep 0.2; echo late; } & echo early); echo "$x"
### m-cmdsub-job-only
echo "[$(sleep 0.1 & echo sub)]"
### m-job-output-after-script
(sleep 0.2; echo after) &
echo before
### m-job-stdin-is-null
echo data | { cat & wait; }; echo "s=$?"
### m-job-in-function
f() { sleep 0.2; echo "f $1"; }; f one & f two; wait
### m-job-subshell-exit-status
(sleep 0.1; exit 7) & wait $!; echo "st=$?"
### m-job-and-list
false && echo never & true || echo never2 & wait; echo done
### m-job-redirect-file
{ sleep 0.1; echo into; } > out.txt & wait; cat out.txt
### m-job-pipeline
{ echo b; echo a; } | sort & wait; echo end
### m-job-sleep-main-concurrent
(sleep 0.2; echo job) & sleep 0.4; echo main
### m-job-var-not-shared
x=1; { x=2; } & wait; echo "x=$x"
### m-wait-after-done
true & sleep 0.2; wait $!; echo "st=$?"
### m-wait-several
(exit 1) & a=$!; (exit 2) & b=$!; wait $a $b; echo "last=$?"
### m-wait-n-first
(sleep 0.4; exit 5) & (sleep 0.1; exit 6) & wait -n; echo "n=$?"; wait
### m-errexit-job-failure
set -e; false & wait $!; echo "never $?"

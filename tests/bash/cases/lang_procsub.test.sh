# lang_procsub: process substitution <(...) and >(...) running alongside the command (each case deterministic in GNU bash: lists that must overlap wait for each other through files)
# Known divergences: none
### ps-paths-are-dev-fd
echo <(true) >(true); echo <(true)
### ps-diff-two-lists
diff <(printf 'a\nb\nc\n') <(printf 'a\nB\nc\n'); echo "s=$?"
### ps-diff-sleeping-lists
diff <(sleep 0.2; echo a) <(sleep 0.2; echo b); echo "s=$?"
### ps-cat-in-order
cat <(echo one) <(echo two) <(echo three)
### ps-lists-overlap
cat <(while [ ! -f flag ]; do sleep 0.01; done; echo saw-flag) <(touch flag; echo made-flag); rm -f flag
### ps-lists-overlap-reverse-order
cat <(touch a-ready; while [ ! -f b-ready ]; do sleep 0.01; done; echo first) <(while [ ! -f a-ready ]; do sleep 0.01; done; touch b-ready; echo second); rm -f a-ready b-ready
### ps-paste-comm-join
paste <(seq 3) <(seq 4 6); comm -12 <(printf 'a\nb\nc\n') <(printf 'b\nc\nd\n'); join <(printf '1 a\n2 b\n') <(printf '1 x\n2 y\n')
### ps-while-read-redirect
while read -r l; do echo "got $l"; done < <(printf 'x\ny\nz\n'); echo "after"
### ps-while-read-keeps-variables
n=0; while read -r l; do n=$((n+1)); done < <(seq 5); echo "n=$n"
### ps-mapfile
mapfile -t lines < <(printf 'a b\nc\n'); echo "${#lines[@]}:${lines[0]}:${lines[1]}"
### ps-read-first-line
read -r first < <(printf 'one\ntwo\n'); echo "$first"
### ps-source
source <(echo 'V=42; f() { echo "f says $1"; }'); echo "V=$V"; f hi
### ps-head-of-endless
head -3 <(yes); echo "s=$?"
### ps-grep-wc-sort
grep -c x <(printf 'x\ny\nx\n'); wc -l < <(seq 10); sort -r <(printf 'b\na\nc\n')
### ps-awk-sed-files
awk '{print FILENAME != "" ? "line " $0 : ""}' <(printf '1\n2\n'); sed 's/a/A/' <(echo abc)
### ps-nested
cat <(cat <(echo inner) <(echo inner2)); diff <(echo x) <(cat <(echo x)); echo "s=$?"
### ps-status-does-not-leak
cat <(exit 3); echo "s=$?"; false; cat <(true) > /dev/null; echo "s=$?"
### ps-in-function-and-loop
f() { cat <(echo "arg $1"); }; for i in 1 2; do f $i; done
### ps-variables-and-subshell-scope
x=1; cat <(x=2; echo "inner x=$x"); echo "outer x=$x"
### ps-output-tee-to-file
printf 'b\na\nc\n' > in.txt; tee >(sort > sorted.txt) < in.txt > /dev/null; wait $!; cat sorted.txt; rm in.txt sorted.txt
### ps-output-tee-count
seq 100 > n.txt; tee >(wc -l > count.txt) >(grep -c 5 > fives.txt) < n.txt > /dev/null; wait; cat count.txt fives.txt; rm n.txt count.txt fives.txt
### ps-output-redirect
echo hello > >(tr a-z A-Z > up.txt); wait $!; cat up.txt; rm up.txt
### ps-output-list-reads-while-writer-runs
f() { echo ping; while [ ! -f pong ]; do sleep 0.01; done; echo writer-done; }
f > >(while read -r l; do echo "list: $l"; [ "$l" = ping ] && touch pong; done); wait $!; rm -f pong
### ps-output-stderr
{ echo out; echo err >&2; } 2> >(sed 's/^/E:/' > errs.txt); wait $!; cat errs.txt; rm errs.txt
### ps-output-exec-logging
( exec > >(sed 's/^/log: /' > log.txt); echo one; echo two ); sleep 0.2; cat log.txt; rm log.txt
### ps-output-compound-writer
for i in 1 2 3; do echo "n$i"; done > >(tac > rev.txt); wait $!; cat rev.txt; rm rev.txt
### ps-wait-status-of-list
cat <(exit 0) >/dev/null; echo > >(exit 7); wait $!; echo "s=$?"
### ps-bang-is-the-list
echo <(true) > /dev/null; [ -n "$!" ] && echo has-pid; sleep 1 & p=$!; kill $p; wait $p; echo "s=$?"
### ps-array-of-paths
a=(<(echo a) <(echo b)); cat "${a[@]}"
### ps-quoted-is-literal
echo '<(echo x)' ">(y)"

# cmd_text_pipelines: text commands combined the way scripts use them
# Known divergences: none
### word-frequency-top
printf 'the cat and the dog and the bird\n' | tr ' ' '\n' | sort | uniq -c | sort -rn | head -n 3
### csv-column-sum-with-bc
printf 'name,qty\napple,3\npear,10\nfig,7\n' > data.csv
tail -n +2 data.csv | cut -d, -f2 | paste -s -d+ | bc
### csv-sort-by-column
printf 'name,qty\napple,3\npear,10\nfig,7\n' > data.csv
{ head -n 1; sort -t, -k2,2n; } < data.csv
### log-level-counts
printf 'INFO a\nWARN b\nINFO c\nERROR d\nINFO e\n' > app.log
cut -d' ' -f1 app.log | sort | uniq -c
grep -c ERROR app.log
### grep-then-count-lines-per-file
mkdir src
printf 'TODO one\nok\nTODO two\n' > src/a.py
printf 'nothing\n' > src/b.py
grep -rc TODO src | sort
### unique-sorted-union-and-intersection
printf 'a\nb\nc\n' > x
printf 'b\nc\nd\n' > y
sort x y | uniq
sort x y | uniq -d
comm -23 x y
### number-and-format-lines
printf 'alpha\nbeta\ngamma\n' | nl -w 2 -s ') '
seq 3 | paste -sd,
### column-aligned-report
printf 'host cpu mem\nweb1 12 512\ndb 3 2048\n' | column -t
### reverse-each-word-order
echo 'one two three' | tr ' ' '\n' | tac | paste -sd' '
### hex-roundtrip
printf 'secret\n' | xxd -p | xxd -r -p
printf 'secret\n' | od -An -c
### base64-roundtrip-checksum
printf 'payload' | base64 | base64 -d | md5sum
### seq-stats-with-sort
seq 1 10 | sort -rn | head -n 1
seq 1 10 | sort -n | head -n 1
seq 1 10 | wc -l
### filter-blank-and-comments
printf '# comment\n\nvalue=1\n  # indented\nother=2\n' > conf
grep -v '^[[:space:]]*#' conf | grep -v '^$'
### join-two-tables
printf '1 alice\n2 bob\n3 carol\n' > users
printf '1 admin\n3 guest\n' > roles
join users roles
join -v1 users roles
### diff-after-edit
printf 'a\nb\nc\n' > before
printf 'a\nB\nc\nd\n' > after
diff before after
echo "status=$?"
diff -u before after | tail -n +3
### fold-and-count
printf 'abcdefghijklmnopqrstuvwxyz\n' | fold -w 5 | wc -l
### tr-to-lines-and-longest
echo 'a bb ccc dddd' | tr ' ' '\n' | wc -L
### expr-and-seq-loop
for i in $(seq 1 3); do expr $i \* $i; done
### bc-compound-interest
echo 'scale=2; p=1000; for (i=0; i<3; i++) p = p * 1.05; p' | bc
### checksum-verify-flow
printf 'data1\n' > one
printf 'data2\n' > two
sha256sum one two > SUMS
sha256sum -c SUMS
printf 'tampered\n' > two
sha256sum -c SUMS
echo "rc=$?"
### cut-paste-reorder-columns
printf 'a:b:c\nd:e:f\n' > t
cut -d: -f3 t > c3
cut -d: -f1 t > c1
paste -d: c3 c1

# cmd_text_basic: cat, head, tail, wc, tac, rev, seq, yes - options, padding, streaming
# Known divergences: none
### cat-concatenates-files-and-stdin
printf 'one\ntwo\n' > a
printf 'three\n' | cat a - a
### cat-number-lines
printf 'a\n\nb\n' > f
cat -n f
### cat-number-nonblank
printf 'a\n\n\nb\n' > f
cat -b f
### cat-squeeze-blank
printf 'a\n\n\n\nb\n\n' > f
cat -s f
### cat-show-all
printf 'tab\there\x01\x7f\xe9\n' > f
cat -A f
### cat-show-ends-and-tabs
printf 'a\tb \nc' > f
cat -E f
echo
cat -T f
### cat-numbering-continues-across-files
printf 'x\ny' > a
printf 'z\n' > b
cat -n a b
### cat-missing-file-status
printf 'ok\n' > a
cat a missing a
echo "rc=$?"
### head-default-ten-lines
seq 1 20 > n
head n
### head-lines-and-bytes
seq 1 20 > n
head -n 3 n
head -c 5 n
echo
head -3 n
### head-all-but-last
seq 1 6 > n
head -n -2 n
head -c -3 n
### head-multiple-files-headers
printf 'a\nb\n' > x
printf 'c\n' > y
head -n 1 x y
head -q -n 1 x y
### head-stops-infinite-producer
yes | head -n 3
yes abc | head -c 10
echo
### tail-last-lines
seq 1 20 > n
tail n
tail -n 3 n
tail -2 n
### tail-from-line
seq 1 6 > n
tail -n +4 n
tail -c +10 n
### tail-bytes-and-headers
printf 'hello\nworld\n' > a
printf 'x\n' > b
tail -c 4 a
tail -n 1 a b
### tail-missing-newline
printf 'a\nb\nc' | tail -n 2
echo
### wc-single-file-padding
printf 'hello world\nline two\n' > f
wc f
wc -l f
wc -w f
wc -c f
### wc-stdin-padding
printf 'hello world\nline two\n' | wc
printf 'hello world\nline two\n' | wc -l
printf 'abc' | wc -c
### wc-multiple-files-total
printf 'a b c\n' > x
seq 1 1000 > y
wc x y
wc -l x y
### wc-max-line-length-and-chars
printf 'ab\tc\nlonger line\n' > f
wc -L f
wc -m f
wc -lwc f
### tac-reverses-lines
printf '1\n2\n3\n' | tac
printf 'a\nb' | tac
echo
### rev-reverses-characters
printf 'hello\nworld\n' | rev
printf 'abc' | rev
echo
### seq-forms
seq 4
seq 2 5
seq 10 -3 1
seq 1 2 9
### seq-separator-and-width
seq -s, 5
seq -s ' + ' 3
seq -w 8 11
seq -w -2 2
### seq-floating
seq 0 0.25 1
seq 1 0.5 3
seq 0.1 0.1 0.5
### seq-format
seq -f '%03g' 3
seq -f 'n=%.2f' 1 0.5 2
### seq-empty-and-errors
seq 5 1
echo "rc=$?"
seq 1 0 3
echo "rc=$?"
seq x
echo "rc=$?"
### seq-streams-into-head
seq 1 100000000 | head -n 3
### seq-past-a-32-bit-word
seq 2147483640 2 2147483660
seq 1 3000000000 | head -n 2
seq -s, 18446744073709551614 18446744073709551617
seq -- -2147483646 -1 -2147483650 | tail -n 2
### yes-custom-text
yes hello world | head -n 2
### wc-redirected-stdin-sizes-from-file
printf 'hello world\nline two\n' > f
wc < f
wc -lc < f
printf 'x y\n' | wc -lc
### head-leaves-rest-of-redirected-file
printf 'header\n3\n1\n2\n' > f
{ head -n 1; sort; } < f
{ head -c 3; cat; } < f
### head-on-pipe-consumes-buffer
printf 'header\n3\n1\n2\n' | { head -n 1; sort; }
### dev-files-as-operands
echo hi | cat /dev/stdin
cat /dev/null
echo "rc=$?"
head -c 5 /dev/zero | od -c
wc /dev/null
head -c 8 /dev/urandom | wc -c

# cmd_text_diff: diff normal, unified and context formats, options, directories, statuses
# Known divergences: none
### diff-identical-files
printf 'a\nb\n' > x
cp x y
diff x y
echo "rc=$?"
### diff-normal-change
printf 'a\nb\nc\n' > x
printf 'a\nB\nc\n' > y
diff x y
echo "rc=$?"
### diff-normal-add-delete
printf 'a\nb\nc\nd\n' > x
printf 'a\nc\nd\ne\nf\n' > y
diff x y
### diff-normal-ranges
printf '1\n2\n3\n4\n5\n6\n' > x
printf '1\nx\ny\n4\n6\n' > y
diff x y
### diff-unified-body
printf 'a\nb\nc\nd\ne\nf\ng\nh\n' > x
printf 'a\nb\nC\nd\ne\nf\ng\nH\ni\n' > y
diff -u x y | tail -n +3
echo "rc=$?"
### diff-unified-headers-name-files
printf 'a\n' > x
printf 'b\n' > y
diff -u x y | head -n 2 | cut -c1-5
### diff-unified-context-sizes
seq 1 20 > x
{ seq 1 9; echo ten; seq 11 20; } > y
diff -U1 x y | tail -n +3
diff -U0 x y | tail -n +3
### diff-unified-separate-hunks
seq 1 30 > x
{ seq 1 2; echo three; seq 4 24; echo x; seq 26 30; } > y
diff -u x y | tail -n +3
### diff-context-format
printf 'a\nb\nc\nd\n' > x
printf 'a\nB\nc\nd\ne\n' > y
diff -c x y | tail -n +3
### diff-missing-newline
printf 'a\nb' > x
printf 'a\nb\n' > y
diff x y
diff -u x y | tail -n +3
### diff-repeated-lines-alignment
printf 'a\na\nb\na\n' > x
printf 'z\na\na\n' > y
diff x y
printf 'x\na\nb\na\nb\n' > p
printf 'a\nb\nx\na\nb\n' > q
diff p q
### diff-brief-and-report-identical
printf 'a\n' > x
printf 'b\n' > y
cp x z
diff -q x y
echo "rc=$?"
diff -s x z
### diff-ignore-case-and-space
printf 'Hello World\nfoo  bar\n' > x
printf 'hello world\nfoo bar \n' > y
diff -i x y
echo "rc=$?"
diff -b x y
echo "rc=$?"
diff -w -i x y
echo "rc=$?"
### diff-ignore-blank-lines
printf 'a\n\nb\n' > x
printf 'a\nb\n\n' > y
diff -B x y
echo "rc=$?"
### diff-stdin
printf 'a\nb\n' > x
printf 'a\nc\n' | diff x -
### diff-missing-file
printf 'a\n' > x
diff x nosuch
echo "rc=$?"
diff -N x nosuch
echo "rc=$?"
### diff-directories
mkdir -p l/sub r/sub
printf 'a\nb\n' > l/f
printf 'a\nc\n' > r/f
printf 'only\n' > l/extra
printf 's\n' > l/sub/s
printf 't\n' > r/sub/s
diff l r
echo "rc=$?"
diff -r l r
echo "rc=$?"
### diff-recursive-brief
mkdir -p l r
printf '1\n' > l/a
printf '2\n' > r/a
printf 'x\n' > r/b
diff -rq l r
### diff-file-against-directory
mkdir d
printf 'x\n' > f
printf 'y\n' > d/f
diff f d
### diff-empty-files
printf '' > e
printf 'a\nb\n' > x
diff e x
diff x e
diff -u e x | tail -n +3
### diff-binary-files
printf 'a\0b' > x
printf 'a\0c' > y
diff x y
echo "rc=$?"
### diff-pipeline-patch-style
printf 'line1\nline2\nline3\n' > old
printf 'line1\nline2 changed\nline3\nline4\n' > new
diff old new | grep -c '^[<>]'
### diff-process-substitution-and-dev-null
diff <(printf 'a\nb\n') <(printf 'a\nc\n')
echo "rc=$?"
printf 'x\n' > f
diff /dev/null f
echo "rc=$?"
### diff-side-by-side
printf 'apple\nbanana\ncherry\n' > x
printf 'apple\nblueberry\ncherry\ndate\n' > y
diff -y x y
echo "rc=$?"
diff -y --suppress-common-lines -W 60 x y

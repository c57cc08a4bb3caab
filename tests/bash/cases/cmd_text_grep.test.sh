# cmd_text_grep: grep/egrep/fgrep - BRE/ERE, options, context, exit statuses, recursion
# Known divergences: none
### grep-basic-match-and-status
printf 'apple\nbanana\ncherry\n' > f
grep an f
echo "rc=$?"
grep zzz f
echo "rc=$?"
grep x missing
echo "rc=$?"
### grep-ignore-case-invert-count
printf 'Apple\napple\nBanana\n' > f
grep -i apple f
grep -v apple f
grep -c -i a f
grep -vc apple f
### grep-line-numbers-and-byte-offsets
printf 'one\ntwo\nthree\n' > f
grep -n o f
grep -b t f
### grep-only-matching
printf 'foo bar foo\nbaz\n' > f
grep -o foo f
grep -oE 'ba.' f
grep -on 'o' f
### grep-word-and-line
printf 'cat\ncatalog\nthe cat sat\n' > f
grep -w cat f
grep -x cat f
### grep-bre-specials
printf 'a+b\naab\na{2}\nab\n(x)\n' > f
grep 'a+b' f
grep 'a\+b' f
grep 'a\{2\}' f
grep '(x)' f
grep '\(a\)\1' f
### grep-ere-specials
printf 'color\ncolour\ncolouur\nabcabc\n' > f
grep -E 'colou?r' f
grep -E 'u{2}' f
grep -E '(abc){2}' f
grep -E 'or|ur' f
egrep '^c.*r$' f
### grep-fixed-strings
printf 'a.b\naxb\n[x]\n' > f
grep -F a.b f
fgrep '[x]' f
grep 'a.b' f
### grep-bracket-classes
printf 'abc\n123\nA-Z\n \t\n' > f
grep '[[:digit:]]' f
grep '[[:upper:]]' f
grep -c '^[[:space:]]*$' f
grep '[^a-z0-9]' f
### grep-multiple-patterns
printf 'red\ngreen\nblue\n' > f
grep -e red -e blue f
printf 'green\nblue\n' > pats
grep -f pats f
### grep-files-with-and-without-matches
printf 'x\n' > a
printf 'y\n' > b
printf 'x\ny\n' > c
grep -l x a b c
grep -L x a b c
echo "rc=$?"
### grep-filename-prefixes
printf 'hit\n' > a
printf 'hit\nmiss\n' > b
grep hit a b
grep -h hit a b
grep -H hit a
grep -c hit a b
### grep-context-groups
printf '1\n2\nx\n4\n5\n6\n7\nx\n9\n' > f
grep -C1 x f
echo ==
grep -A1 x f
echo ==
grep -B2 -n x f
### grep-adjacent-context-merges
printf 'x\na\nx\nb\nc\n' > f
grep -A1 x f
### grep-max-count
printf 'a1\nb\na2\na3\n' > f
grep -m2 a f
grep -m1 -c a f
grep -m1 -A1 a f
### grep-quiet-and-silent
printf 'x\n' > f
grep -q x f
echo "rc=$?"
grep -q y f
echo "rc=$?"
grep -s x nosuch
echo "rc=$?"
grep -q x nosuch f
echo "rc=$?"
### grep-stdin-and-dash
printf 'one\ntwo\n' | grep o
printf 'zzz\n' | grep -H z
printf 'zz\n' > f
printf 'z\n' | grep z - f
### grep-recursive-sorted
mkdir -p d/sub
printf 'needle\n' > d/a.txt
printf 'needle\n' > d/sub/b.txt
printf 'hay\n' > d/sub/c.log
grep -r needle d | sort
grep -rl needle d | sort
grep -rc needle d | sort
### grep-recursive-include-exclude
mkdir -p d
printf 'k\n' > d/a.txt
printf 'k\n' > d/b.log
grep -r --include='*.txt' k d
grep -r --exclude='*.txt' k d
### grep-directory-without-recursion
mkdir d
grep x d
echo "rc=$?"
### grep-empty-pattern-and-anchors
printf 'a\n\nb\n' > f
grep -c '' f
grep -n '^$' f
grep -c '^' f
### grep-invalid-regex
printf 'a\n' > f
grep -E 'a(' f
echo "rc=$?"
grep 'a\{1' f
echo "rc=$?"
### grep-binary-file
printf 'text\0more\nline\n' > bin
grep -c line bin
grep -a line bin
### grep-word-boundaries
printf 'foo bar\nfoobar\n' > f
grep '\<bar' f
grep 'foo\>' f
grep '\bbar\b' f
### grep-pipeline-count
seq 1 100 | grep 7 | wc -l
### grep-null-data
printf 'a\0b\0ab\0' | grep -z a | tr '\0' '\n'
### grep-max-count-leaves-rest-of-redirected-file
printf 'h\n3\n1\n2\n' > f
{ grep -m1 h; cat; } < f
echo --
{ grep -m1 -A1 h; cat; } < f

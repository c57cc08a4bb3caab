# cmd_text_sort: sort, uniq, comm, join - keys, orderings, C-locale byte order, counts
# Known divergences: none
### sort-default-byte-order
printf 'banana\nApple\napple\n_x\n10\n9\n' | sort
### sort-reverse-and-unique
printf 'b\na\nc\na\n' | sort -r
printf 'b\na\nc\na\n' | sort -u
### sort-numeric
printf '10\n9\n-1\n2.5\n\nabc\n 3\n' | sort -n
printf '10\n9\n100\n' | sort -rn
### sort-general-numeric
printf '1e3\n10\n-2\n0.5\nnan\nx\n' | sort -g
### sort-human-numeric
printf '1K\n2M\n10\n1G\n512\n' | sort -h
### sort-version
printf 'file10\nfile2\nfile1\nfile1.5\n' | sort -V
### sort-month
printf 'Mar\njan\nDec\nxyz\nFeb\n' | sort -M
### sort-fold-case
printf 'b\nB\na\nA\n' | sort -f
printf 'b\nB\na\nA\n' | sort -fu
### sort-key-fields
printf 'x 3 b\ny 1 c\nz 2 a\n' > f
sort -k2 f
sort -k3 f
sort -k2,2n f
sort -k2,2nr f
### sort-multiple-keys
printf 'a 2\nb 1\na 1\nb 2\n' | sort -k1,1 -k2,2n
printf 'a 2\nb 1\na 1\nb 2\n' | sort -k1,1r -k2,2n
### sort-field-separator
printf 'a:3:x\nb:1:y\nc:2:z\n' | sort -t: -k2
printf 'a,10\nb,9\nc,100\n' | sort -t, -k2n
### sort-key-characters
printf 'xa2\nyb1\nzc3\n' | sort -k1.2
printf 'a1x\nb1a\nc0z\n' | sort -k1.2,1.2 -k1.3
### sort-stable-and-last-resort
printf 'b 1\na 1\nc 0\n' | sort -k2,2
printf 'b 1\na 1\nc 0\n' | sort -s -k2,2
### sort-leading-blanks
printf '  b\na\n c\n' | sort
printf '  b\na\n c\n' | sort -b
### sort-check
printf 'a\nb\nc\n' | sort -c
echo "rc=$?"
printf 'a\nc\nb\n' | sort -c
echo "rc=$?"
printf 'a\nc\nb\n' | sort -C
echo "rc=$?"
### sort-output-file-in-place
printf 'c\nb\na\n' > f
sort -o f f
cat f
### sort-merge-files
printf 'b\nd\n' > x
printf 'a\nc\n' > y
sort x y
sort -m x y
### sort-dictionary-order
printf 'a-c\nab\n_b\n' | sort -d
### sort-zero-terminated
printf 'b\0a\0c\0' | sort -z | tr '\0' '\n'
### sort-errors
sort missing
echo "rc=$?"
sort -k0 /dev/null
echo "rc=$?"
### uniq-basic-and-counts
printf 'a\na\nb\nA\nb\nc\nc\nc\n' > f
uniq f
uniq -c f
### uniq-repeated-and-unique
printf 'a\na\nb\nc\nc\n' > f
uniq -d f
uniq -u f
uniq -D f
### uniq-ignore-case-and-skip
printf 'a x\nA x\nb y\nc y\n' > f
uniq -i f
uniq -f1 f
uniq -s2 f
uniq -w1 f
### uniq-after-sort-count
printf 'pear\napple\npear\nfig\napple\npear\n' | sort | uniq -c | sort -rn
### uniq-output-file
printf 'a\na\nb\n' > in
uniq in out
cat out
### comm-three-columns
printf 'a\nb\nd\n' > x
printf 'b\nc\nd\n' > y
comm x y
comm -12 x y
comm -3 x y
comm -1 x y
### comm-output-delimiter
printf 'a\nb\n' > x
printf 'b\nc\n' > y
comm --output-delimiter=: x y
### comm-unsorted-input
printf 'b\na\n' > x
printf 'a\n' > y
comm x y
echo "rc=$?"
### join-default
printf 'a 1\nb 2\nc 3\n' > x
printf 'a X\nc Z\nd W\n' > y
join x y
### join-unpaired-and-only
printf 'a 1\nb 2\n' > x
printf 'a X\nc Z\n' > y
join -a1 x y
join -a2 x y
join -v1 x y
join -v2 x y
### join-fields-and-format
printf '1 a\n2 b\n' > x
printf 'p 1\nq 2\n' > y
join -1 1 -2 2 x y
join -1 1 -2 2 -o 2.1,1.2 x y
join -1 1 -2 2 -o 0,1.2,2.1 x y
### join-separator-and-empty
printf 'a,1\nb,2\n' > x
printf 'a,X\nc,Y\n' > y
join -t, x y
join -t, -a1 -a2 -e NONE -o 0,1.2,2.2 x y
### join-duplicate-keys
printf 'k 1\nk 2\n' > x
printf 'k a\nk b\n' > y
join x y

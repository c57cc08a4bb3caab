# cmd_text_fields: cut, paste, column, tr, nl, fold, expand, unexpand, strings
# Known divergences: none
### cut-fields
printf 'a,b,c\n1,2,3\nnodelim\n' > f
cut -d, -f2 f
cut -d, -f1,3 f
cut -d, -f2- f
cut -s -d, -f1 f
### cut-characters-and-bytes
printf 'abcdef\nxy\n' > f
cut -c2-4 f
cut -c-2 f
cut -b1,3,5 f
cut -c3- f
### cut-complement-and-output-delimiter
printf 'a:b:c:d\n' > f
cut -d: -f2 --complement f
cut -d: -f1,3 --output-delimiter=' | ' f
### cut-tab-default
printf 'one\ttwo\tthree\n' | cut -f2
printf 'one\ttwo\tthree\n' | cut -f1,3
### cut-errors
cut f
echo "rc=$?"
echo x | cut -f0
echo "rc=$?"
echo x | cut -c1 -d,
echo "rc=$?"
### paste-parallel
printf '1\n2\n3\n' > a
printf 'x\ny\n' > b
paste a b
paste -d, a b
paste -d ':;' a b a
### paste-serial
printf '1\n2\n3\n' > a
paste -s a
paste -s -d, a
paste -s -d '\n' a
### paste-stdin-columns
seq 1 6 | paste - - -
seq 1 5 | paste -d, - -
### column-table
printf 'name age\nalice 30\nbob 4\n' | column -t
### column-table-separator
printf 'a,b,c\nlonger,x,y\n' | column -t -s,
printf 'a:b\nccc:d\n' | column -t -s: -o ' | '
### column-fill
seq 1 30 | column
seq 1 30 | column -x
printf 'a\nbb\nccc\n' | column -c 20
### tr-ranges-and-classes
echo 'Hello World' | tr a-z A-Z
echo 'Hello World' | tr '[:upper:]' '[:lower:]'
echo 'a1b2c3' | tr -d '[:digit:]'
echo 'a1b2c3' | tr -cd '[:digit:]\n'
### tr-squeeze-and-complement
echo 'aaabbbccc   d' | tr -s 'a-c '
echo 'hello, world!' | tr -c 'a-z\n' '_'
echo 'a  b   c' | tr -s ' ' '\n'
### tr-padding-and-truncate
echo abcd | tr abc x
echo abcd | tr -t abc xy
echo abcdef | tr 'a-f' 'x[y*2]z'
### tr-escapes
printf 'a b\tc\n' | tr ' \t' '_-'
printf 'x\ny\n' | tr '\n' ','
echo
echo 'ABC' | tr '\101' 'z'
### tr-errors
echo x | tr a
echo "rc=$?"
echo x | tr z-a x
echo "rc=$?"
### nl-defaults
printf 'one\n\ntwo\nthree\n' | nl
### nl-styles
printf 'one\n\ntwo\n' > f
nl -ba f
nl -n ln f
nl -n rz -w 3 f
nl -s ': ' -v 10 -i 5 f
nl -bpt f
### fold-width-and-spaces
echo 'The quick brown fox jumps over the lazy dog' | fold -w 10
echo 'The quick brown fox jumps over the lazy dog' | fold -s -w 10
printf 'a\tbcdefghij\n' | fold -w 5
### expand-tabs
printf 'a\tb\tc\n' | expand
printf 'a\tb\tc\n' | expand -t 4
printf '\ta\tb\n' | expand -i -t 2
printf '\ta\tb\tc\n' | expand -t 2,5
### unexpand-tabs
printf '        a       b\n' | unexpand | od -c
printf '        a       b\n' | unexpand -a | od -c
printf '    x   y\n' | unexpand -t 4 | od -c
### strings-extract
printf 'ab\001cdefg\000hij\nxyzw\002hello world\n' > bin
strings bin
strings -n 3 bin

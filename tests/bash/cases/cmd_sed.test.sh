# cmd_sed: GNU sed addresses, commands, regex flavours, options (-n -e -f -E -s -i -z)
# Known divergences: none
### sed-print-line-number-address
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n 3p
### sed-print-last-line
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '$p'
### sed-delete-range
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 2,8d
### sed-regex-range
printf '%s' 'one
two
three
four
five
' | sed -n /two/,/four/p
### sed-step-address
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '1~3p'
### sed-step-address-zero-start
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '0~4p'
### sed-plus-n-range
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n /3/,+2p
### sed-multiple-range
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '5,~4p'
### sed-zero-address-regex
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 0,/1/d
### sed-one-address-regex-first-line
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 1,/1/d
### sed-negated-address
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '2,9!p'
### sed-range-end-before-start
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n 5,2p
### sed-custom-regex-delimiter-address
printf '%s' 'one
two
three
four
five
' | sed -n '\,t,p'
### sed-address-regex-case-insensitive
printf '%s' 'one
two
three
four
five
' | sed -n /TWO/Ip
### sed-substitute-first
printf '%s' 'foo boo
' | sed s/o/0/
### sed-substitute-global
printf '%s' 'foo boo
' | sed s/o/0/g
### sed-substitute-nth
printf '%s' 'foo boo
' | sed s/o/0/3
### sed-substitute-nth-and-global
printf '%s' 'foo boo zoo
' | sed s/o/0/2g
### sed-substitute-print-flag
printf '%s' 'one
two
three
four
five
' | sed -n s/two/2/p
### sed-substitute-ignore-case
printf '%s' 'Hello hello
' | sed s/HELLO/bye/I
### sed-substitute-ampersand
printf '%s' 'a1 b22 c333
' | sed 's/[0-9]\+/<&>/g'
### sed-substitute-escaped-ampersand
printf '%s' 'axb
' | sed 's/x/\&/'
### sed-substitute-bre-groups
printf '%s' 'hello world
' | sed 's/\([a-z]*\) \([a-z]*\)/\2 \1/'
### sed-substitute-ere-groups
printf '%s' 'me@host
' | sed -E 's/([a-z]+)@([a-z]+)/\2 at \1/'
### sed-substitute-r-option
printf '%s' 'ababab c
' | sed -r 's/(ab)+/X/'
### sed-substitute-bre-interval
printf '%s' 'a aa aaa aaaa
' | sed 's/a\{2,3\}/X/g'
### sed-substitute-ere-interval
printf '%s' '12 123 1234
' | sed -E 's/[0-9]{3}/N/g'
### sed-substitute-bre-alternation
printf '%s' 'cat dog cow
' | sed 's/cat\|dog/pet/g'
### sed-substitute-bre-question
printf '%s' 'color colour
' | sed 's/colou\?r/C/g'
### sed-substitute-bre-literal-plus
printf '%s' 'a+b aab
' | sed s/a+b/X/
### sed-substitute-ere-literal-escape
printf '%s' 'a+b aab
' | sed -E 's/a\+b/X/'
### sed-substitute-newline-in-replacement
printf '%s' 'a,b,c
' | sed 's/,/\n/g'
### sed-substitute-tab-escape
printf '%s' 'a b
' | sed 's/ /\t/'
### sed-substitute-upper-case-conversion
printf '%s' 'hello big world
' | sed 's/\w\+/\u&/g'
### sed-substitute-case-conversion-span
printf '%s' 'abc def
' | sed -E 's/(\w+) (\w+)/\U\1\E \2/'
### sed-substitute-lower-case
printf '%s' 'MiXeD CaSe
' | sed 's/.*/\L&/'
### sed-substitute-empty-regex-matches
printf '%s' 'abc
' | sed 's/x*/-/g'
### sed-substitute-star-after-match
printf '%s' 'baaac
' | sed 's/a*/x/g'
### sed-substitute-alternate-delimiter
printf '%s' '/usr/bin/env
' | sed 's|/usr/bin|/opt|'
### sed-substitute-anchors
printf '%s' 'a
b
' | sed 's/^/> /;s/$/ </'
### sed-substitute-char-classes
printf '%s' '1 2  3x
' | sed 's/[[:digit:]][[:space:]]*/#/g'
### sed-substitute-bracket-with-bracket
printf '%s' 'a]b[c
' | sed 's/[]]/R/g;s/[^a-z]/_/g'
### sed-substitute-word-boundaries
printf '%s' 'this is it
' | sed 's/\<is\>/IS/g'
### sed-substitute-empty-regex-reuses-last
printf '%s' 'foo
bar
' | sed /o/s//0/g
### sed-substitute-write-flag
printf '%s' 'one
two
three
four
five
' | sed -n 's/two/2/w out.txt'
### sed-substitute-multiline-flag
printf '%s' 'a
b
' | sed 'N;s/^/>/Mg'
### sed-translate-y
printf '%s' 'aabbcc
' | sed y/abc/xyz/
### sed-translate-y-newline
printf '%s' 'a
b
' | sed 'N;y/\n/ /'
### sed-append-insert-change
printf '%s' 'one
two
three
four
five
' | sed '2i\
before
3a after
$c\
last'
### sed-append-one-liner-keeps-text
printf '%s' 'x
' | sed '1a\  indented'
### sed-change-range-prints-once
printf '%s' 'one
two
three
four
five
' | sed '2,4c\
replaced'
### sed-insert-multiple-lines
printf '%s' 'x
' | sed '1i\
first\
second'
### sed-delete-regex
printf '%s' 'one
two
three
four
five
' | sed '/^t/d'
### sed-print-equals-line-numbers
printf '%s' 'one
two
three
four
five
' | sed -n /o/=
### sed-hold-space-reverse
printf '%s' 'one
two
three
four
five
' | sed -n '1!G;h;$p'
### sed-hold-space-exchange
printf '%s' 'one
two
three
four
five
' | sed 'x;$!d;x'
### sed-hold-append-and-get
printf '%s' 'one
two
three
four
five
' | sed -n 'H;${x;s/\n/,/g;s/^,//;p}'
### sed-next-command
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 'n;d'
### sed-next-command-at-end
printf '%s' 'a
b
c
' | sed '$!n;s/^/x/'
### sed-append-next-join-pairs
printf '%s' '1
2
3
4
5
' | sed 'N;s/\n/+/'
### sed-join-all-lines-loop
printf '%s' 'one
two
three
four
five
' | sed ':a;N;$!ba;s/\n/,/g'
### sed-print-first-line-delete-first
printf '%s' 'a
a
b
b
c
' | sed '$!N;P;D'
### sed-uniq-with-D
printf '%s' 'a
a
b
c
c
' | sed '$!N;/^\(.*\)\n\1$/!P;D'
### sed-quit-with-status
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 3q5
### sed-quit-silent
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed 3Q
### sed-quit-streams-infinite-like-input
printf '%s' '1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
1
2
3
4
5
6
7
8
9
10
' | sed 2q
### sed-branch-to-label
printf '%s' 'aaaaab
' | sed ':x;s/aa/a/;tx'
### sed-branch-t-resets
printf '%s' 'abc
xyz
' | sed -n 's/a/A/;t yes;p;d;:yes;s/$/ (changed)/p'
### sed-branch-T-command
printf '%s' 'abc
xyz
' | sed 's/a/A/;T;s/$/!/'
### sed-branch-end-of-script
printf '%s' 'one
two
three
four
five
' | sed '/two/b;s/o/0/g'
### sed-block-with-address
printf '%s' 'one
two
three
four
five
' | sed -n '/t/{s/t/T/;p}'
### sed-nested-blocks
printf '%s' 'one
two
three
four
five
' | sed -n '2,4{/h/!{p}}'
### sed-list-command
printf 'a	b\\c\001
' | sed -n l
### sed-list-command-wrap
printf '%s' 'abcdefghijklmnopqrstuvwxyz
' | sed -n 'l 10'
### sed-multiple-e-scripts
printf '%s' 'a
' | sed -e s/a/b/ -e s/b/c/
### sed-script-file
printf '%s' 's/o/0/g
/f/d
' > script.sed
printf '%s' 'one
two
three
four
five
' | sed -f script.sed
### sed-hash-n-first-line
printf '%s' 'one
two
three
four
five
' | sed '#n
/two/p'
### sed-comments-in-script
printf '%s' 'a
' | sed '# a comment
s/a/b/ # trailing
'
### sed-input-files
printf '%s' 'a1
a2
' > a.txt
printf '%s' 'b1
' > b.txt
sed 's/^/>/' a.txt b.txt < /dev/null
### sed-last-line-across-files
printf '%s' 'a1
a2
' > a.txt
printf '%s' 'b1
b2
' > b.txt
sed -n '$p' a.txt b.txt < /dev/null
### sed-separate-files
printf '%s' 'a1
a2
' > a.txt
printf '%s' 'b1
b2
' > b.txt
sed -s -n '$p' a.txt b.txt < /dev/null
### sed-separate-files-line-numbers
printf '%s' 'a1
a2
' > a.txt
printf '%s' 'b1
b2
' > b.txt
sed -s 1d a.txt b.txt < /dev/null
### sed-missing-file-status-2
printf '%s' 'x
' > a.txt
sed p nosuch.txt a.txt < /dev/null
### sed-in-place-edit
printf '%s' 'old line
old
' > f.txt
sed -i s/old/new/ f.txt < /dev/null
### sed-in-place-with-suffix
printf '%s' '1
2
' > f.txt
sed -i.bak 1d f.txt < /dev/null
### sed-in-place-multiple-files
printf '%s' 'a
' > a.txt
printf '%s' 'b
c
' > b.txt
sed -i '$s/$/!/' a.txt b.txt < /dev/null
### sed-in-place-long-option
printf '%s' 'x
' > f.txt
sed --in-place=.orig -e s/x/y/ f.txt < /dev/null
### sed-write-command
printf '%s' 'one
two
three
four
five
' | sed -n '/o/w out.txt'
### sed-read-file-command
printf '%s' 'INS
' > ins.txt
printf '%s' 'a
b
c
' | sed '2r ins.txt'
### sed-read-missing-file-ignored
printf '%s' 'a
' | sed 'r nosuch'
### sed-R-command-reads-lines
printf '%s' '1
2
' > ins.txt
printf '%s' 'a
b
c
' | sed 'R ins.txt'
### sed-missing-final-newline-kept
printf '%s' 'a
b' | sed s/b/B/
### sed-missing-final-newline-with-p
printf '%s' a | sed p
### sed-missing-final-newline-append
printf '%s' a | sed '$a end'
### sed-null-data
printf '%s' 'a
b
c
' | sed -z 's/\n/ /g'
### sed-posix-classes-ere
printf '%s' 'ABc, DEf!
' | sed -E 's/[[:upper:]]+/U/g;s/[[:punct:]]/P/g'
### sed-backreference-in-regex
printf '%s' 'ab
aab
' | sed -n '/\(a\)\1/p'
### sed-ere-alternation-group
printf '%s' 'red car, blue bike
' | sed -E 's/(red|blue) (car|bike)/\2:\1/g'
### sed-dot-star-greedy
printf '%s' 'a <b> c <d> e
' | sed 's/<.*>/[]/'
### sed-z-command
printf '%s' 'a
b
c
' | sed 2z
### sed-F-command
printf '%s' 'x
' > a.txt
sed -n 1F a.txt < /dev/null
### sed-equals-last-line-count
printf '%s' '1
2
3
4
5
6
7
8
9
10
' | sed -n '$='
### sed-append-empty-text-adds-missing-newline
printf '%s' a | sed '$a\'
### sed-text-escapes-in-one-liner
printf '%s' 'x
' | sed '1a first\nsecond\tx'
### sed-replacement-control-and-hex-escapes
printf '%s' 'x
' | sed 's/x/[\x41\o102\d067]/'
### sed-interval-with-missing-minimum
printf '%s' 'aaa
' | sed 's/a\{,2\}/X/'
### sed-multiple-g-flags-error
printf '%s' 'a
' | sed s/a/b/gg
### sed-change-last-line-only-when-text-empty
printf '%s' 'x
y
' | sed '1c\'
### sed-ere-grouping-longest-alternation
printf '%s' 'abcd
' | sed -E 's/(a|ab)(c|bcd)(d*)/[\1|\2|\3]/'
### sed-hold-space-swap-pairs
printf '%s' '1
2
3
4
' | sed -n 'h;n;G;p'
### sed-range-with-next-inside-block
printf '%s' 'x
start
1
2
end
y
' | sed -n '/start/,/end/{/start/n;/end/!p}'
### sed-in-place-insert-multiple-files
printf '%s' '1
' > a
printf '%s' '2
' > b
sed -i -e '1i head' a b < /dev/null
### sed-write-file-and-stdout
printf '%s' '1
2
' > a
sed 'w out' a < /dev/null
### sed-read-stdin-file
printf '%s' '1
2
' > a
printf '%s' 'IN
' | sed 'r /dev/stdin' a
### sed-nul-data-anchor
printf 'ab\000cd\000' | sed -z 's/^./X/'
### sed-list-nonprintable-bytes
printf '\033[1m\377
' | sed -n l
### sed-options-after-operands-are-options
printf '%s' '1
2
' > a.txt
sed a.txt -e s/1/one/ -n -e p < /dev/null
### sed-script-operand-after-options
printf '%s' '1
' > a.txt
sed -n a.txt -s < /dev/null
### sed-reverse-each-line
printf '%s' 'abc
hello
' | sed '/\n/!G;s/\(.\)\(.*\n\)/&\2\1/;//D;s/.//'
### sed-number-commas-loop
printf '%s' '1234567
12
' | sed -e :a -e 's/\(.*[0-9]\)\([0-9]\{3\}\)/\1,\2/;ta'
### sed-tail-two-lines
printf '%s' '1
2
3
4
' | sed '$!N;$!D'
### sed-alternation-prefers-longest-match
printf '%s' 'https://a xyz
' | sed -E 's/(http|https):/X:/;s/x|xy/Q/'
### sed-bre-alternation-prefers-longest
printf '%s' 'category cat
' | sed 's/cat\|category/<&>/g'
### sed-alternation-groups-like-glibc
printf '%s' 'abcd abcabc
' | sed -E 's/(a|ab)(c|bcd)(d*)/[\1|\2|\3]/;s/(a|ab|abc)+/<&>/'
### sed-list-wrap-widths
printf '%s' 'abc	def\g
' | sed -n 'l 1;l 3;l 0'
### sed-list-with-null-data
printf 'a
b\000c' | sed -z -n l
### sed-invalid-back-reference-error
printf '%s' 'x
' | sed -E 's/(x)/\2/'
### sed-zero-reference-is-whole-match
printf '%s' 'x
' | sed 's/x/&\0/'
### sed-in-place-w-dev-stdout-goes-to-stdout
printf '%s' 'a
b
a
' > f
sed -i 's/a/A/w /dev/stdout' f < /dev/null
### sed-in-place-line-numbers-and-append
printf '%s' 'x
' > f
printf '%s' y > g
sed -s -i '1F;=;$a end' f g < /dev/null
### sed-line-zero-as-range-end
printf '%s' 'a
b
c
' | sed -n '2,0p;/b/,0p'
### sed-zero-step-zero-is-error
printf '%s' 'a
' | sed -n '0~0p'
### sed-unknown-command-error
printf '%s' 'a
' | sed k
### sed-unterminated-s-error
printf '%s' 'a
' | sed s/a/b
### sed-unknown-option-error
printf '%s' 'a
' | sed --bogus p
### sed-missing-label-error
printf '%s' 'a
' | sed 'b nowhere'
### sed-y-length-mismatch-error
printf '%s' 'a
' | sed y/ab/x/
### sed-no-script-usage-error
printf '%s' 'a
' | sed
### sed-semicolon-after-closing-brace
printf '%s' 'a
b
' | sed -n '/a/{p};/b/{p;p}'
### sed-c-with-negation
printf '%s' 'a
b
c
' | sed '2!c\
X'
### sed-n-with-quiet-at-end
printf '%s' '1
2
3
' | sed -n 'n;p'
### sed-N-at-last-line-prints
printf '%s' '1
2
3
' | sed 'N;s/\n/-/'
### sed-regex-dot-matches-newline
printf '%s' 'a
b
' | sed 'N;s/a.b/X/'
### sed-dollar-in-middle-literal-bre
printf '%s' 'a$b
' | sed 's/a$b/X/'
### sed-caret-in-middle-literal-bre
printf '%s' 'a^b
' | sed 's/a^b/X/'
### sed-star-at-start-literal-bre
printf '%s' 'b*a
' | sed 's/*a/X/'
### sed-special-chars-in-replacement
printf '%s' 'x
' | sed 's/x/a\/b|c/'

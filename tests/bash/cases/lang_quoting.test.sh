# lang_quoting: single, double, ANSI-C quotes, escapes, quote removal
# Known divergences:
#   ansi-c-unicode: fixtures are recorded under LC_ALL=C, where bash cannot encode \u00e9 and prints it escaped; the sandbox always speaks UTF-8
### single-quotes-literal
echo '$HOME `pwd` \n "x"'
### double-quotes-expand
x=5; echo "x is $x, \$x is literal, \"quoted\""
### backslash-outside-quotes
echo \$x \"y\" \\ \a
### backslash-in-double-quotes
echo "a\b \$ \` \\ \" \n"
### ansi-c-quotes
echo $'tab\there' $'nl\\n' $'\x41\101' $'it\'s'
### ansi-c-unicode
printf '%s\n' $'\u00e9'
### empty-quotes-are-args
set -- "" '' ""; echo $#
### adjacent-quoting
echo 'a'"b"c'd'"$((1+1))"
### quoted-spaces-preserved
echo "a    b" 'c    d'
### unquoted-spaces-collapse
echo a    b     c
### quote-in-variable-not-reparsed
x='"a b"'; set -- $x; echo $#; echo $1
### dollar-double-quote
echo $"hello"
### escaped-newline-in-dq
echo "a\
b"
### single-quote-inside-double
echo "it's"
### double-inside-single
echo 'say "hi"'
### backtick-substitution
echo `echo hi` "`echo there`"
### nested-quotes-in-cmdsub
echo "$(echo "inner "quoted" text")"
### hash-in-quotes
echo "#notcomment" '#also'
### tilde-quoted
echo "~" '~'
### escaped-glob
echo \* "*" '*'
### printf-q-quoting
printf '%q\n' 'a b' "it's" 'plain' '' $'tab\there'
### at-q-transform
x="a 'b' c"; echo "${x@Q}"
### special-chars-literal
echo 'a;b|c&d<e>f(g)h'
### quoted-dollar-at-end
echo "cost: $"
### dollar-alone
echo $ x

# lang_basics: simple commands, echo, variables, lists, exit status
# Known divergences:
#   network-command-refused: GNU bash runs the real curl (status 6 offline); the sandbox refuses network commands (status 1)
### echo-simple
echo hello world
### echo-n
echo -n abc; echo def
### echo-e-escapes
echo -e 'a\tb\nc\\d'
### echo-E-default-no-escapes
echo 'a\tb'
### echo-combined-flags
echo -ne 'x\ty\n'
### echo-dash-not-flag
echo -x -n
echo -- -n
### echo-e-c-stops
echo -e 'abc\cdef'; echo
### echo-e-octal-hex
echo -e '\0101\x42\u0043'
### echo-empty
echo
echo ""
### variable-assign-and-use
x=hello; y=world; echo "$x $y"
### variable-braces
x=ab; echo "${x}cd $xcd end"
### variable-unset-empty
echo "[$nothing]"
### variable-concat
a=1 b=2; c=$a$b; echo $c
### assignment-no-split
x="a   b"; y=$x; echo "$y"
### exit-status-true-false
true; echo $?; false; echo $?
### and-or-lists
true && echo yes; false && echo no; false || echo fallback; true || echo never
### and-or-chain
false && echo a || echo b && echo c
### semicolon-list
echo one; echo two ; echo three
### negation
! true; echo $?; ! false; echo $?
### exit-code
echo before; exit 3; echo after
### exit-code-last-command
false
### exit-in-and-list
true && exit 4
echo no
### colon-noop
: these are ignored; echo $?
### comments
echo a # comment here
# full line comment
echo b#notacomment
### line-continuation
echo one \
  two \
  three
### multiple-blank-lines

echo x


echo y
### dollar-question-after-pipeline
false | true; echo $?
### assignment-status-from-cmdsub
x=$(exit 7); echo $?
### prefix-assignment-temporary
x=outer; x=inner true; echo $x
### prefix-assignment-env
FOO=bar printenv FOO; echo "[${FOO-unset}]"
### numeric-var-names
set -- a b c d e f g h i j k; echo $1 $9 ${10} ${11}
### dollar-hash
set -- a b c; echo $#
### dollar-zero
echo $0
### special-dollar-dash
set -e; case $- in *e*) echo has-e;; esac
### command-not-found
nonexistent_command_xyz; echo "status $?"
### network-command-refused
curl http://example.com; echo "status $?"
### true-false-args
true ignored args; echo $?; false also; echo $?

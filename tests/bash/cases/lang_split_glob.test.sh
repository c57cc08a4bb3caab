# lang_split_glob: word splitting with IFS, pathname expansion and glob options
# Known divergences: none
### split-default-ifs
x="  a   b
c  "; set -- $x; echo $#; echo "$1|$2|$3"
### split-custom-ifs
x="a:b::c"; IFS=:; set -- $x; echo $#; for a in "$@"; do echo "[$a]"; done
### split-ifs-whitespace-and-colon
x=" a : b "; IFS=" :"; set -- $x; echo $#; echo "[$1][$2]"
### split-leading-nonws
x=":a"; IFS=:; set -- $x; echo $# "[$1]"
### split-trailing-nonws
x="a:"; IFS=:; set -- $x; echo $# "[$1]"
### split-empty-ifs
x="a b c"; IFS=; set -- $x; echo $#
### split-unset-ifs
x="a	b  c"; unset IFS; set -- $x; echo $#
### split-quoted-no-split
x="a b"; set -- "$x"; echo $#
### split-concat-with-literal
x="1 2"; set -- pre${x}post; echo $#; echo "$1 | $2"
### split-empty-var-disappears
e=; set -- $e; echo $#; set -- "$e"; echo $#
### split-cmdsub
set -- $(printf 'a b\nc'); echo $#
### glob-star
touch a.txt b.txt c.log; echo *.txt
### glob-question
touch a1 a2 a10; echo a?
### glob-bracket
touch x1 x2 x3; echo x[12] x[!1]
### glob-no-match-literal
echo *.nothing
### glob-nullglob
shopt -s nullglob; echo start *.nothing end
### glob-dotfiles-hidden
touch .hidden visible; echo *
### glob-dotglob
shopt -s dotglob; touch .hidden visible; echo *
### glob-explicit-dot
touch .hidden visible; echo .h*
### glob-directories
mkdir -p d1/sub d2; touch d1/f; echo */
### glob-path
mkdir -p src/a src/b; touch src/a/x.c src/b/y.c; echo src/*/*.c
### glob-globstar
shopt -s globstar; mkdir -p a/b/c; touch a/1.txt a/b/2.txt a/b/c/3.txt; echo **/*.txt
### glob-globstar-off
mkdir -p a/b; touch a/b/2.txt; echo **/*.txt
### glob-extglob
touch f.c f.h f.o; shopt -s extglob; echo f.@(c|h); echo !(*.o)
### glob-sorted
touch b a C B c A; echo *
### glob-quoted-no-expand
touch a.txt; echo "*.txt" '*'
### glob-in-var
touch a.txt b.txt; p="*.txt"; echo $p; echo "$p"
### glob-noglob
touch a.txt; set -f; echo *.txt; set +f; echo *.txt
### glob-char-class
touch a1 b2 C3; echo [[:lower:]]*; echo [[:upper:]]*
### glob-in-array
touch one.md two.md; files=(*.md); echo ${#files[@]} ${files[1]}
### glob-for-loop
touch x.sh y.sh; for f in *.sh; do echo "file: $f"; done
### glob-failglob
shopt -s failglob; echo *.none; echo "st $?"
### glob-relative-dot
mkdir d; touch d/f1 d/f2; cd d; echo *; echo ./*
### ifs-read-split
IFS=, read a b c <<< "1,2,3"; echo "$a $b $c"
### split-dollar-star-unquoted
set -- "a b" c; for x in $*; do echo "[$x]"; done
### split-dollar-at-unquoted
set -- "a b" c; for x in $@; do echo "[$x]"; done
### quoted-at-empty
set --; for x in "$@"; do echo "[$x]"; done; echo "count ${#@}"
### glob-nocaseglob
touch ABC; shopt -s nocaseglob; echo ab*
### paren-is-itself-with-extglob-off
x="f(a)b(c)"; echo ${x#*(} ${x%(*} ${x//(/[} ${x##*(} ${x#*[(]} ${x/[(]a/Q}
y="?(z)"; case "z" in $y) echo ext;; *) echo lit;; esac
touch '(a)' ab; p="*(a)"; echo $p
[[ a == ?(a|b) ]] && echo always-extglob-in-double-brackets
shopt -s extglob; case "z" in $y) echo ext;; *) echo lit;; esac; echo $p
### extglob-group-left-open-is-itself
shopt -s extglob; touch ab x
for a in '!(' '@(' '*(' '@(a' '!(x)'; do printf '%s -> <' "$a"; printf '%s ' $a; echo '>'; done
### nullglob-drops-what-bash-takes-for-a-pattern
shopt -s nullglob; touch ab '[]x'
for a in '[]' '[' 'a[' ']' '[!]' 'x[]y' '@(' '+(a' 'x(' '[]x'; do printf '%s -> <' "$a"; printf '%s' $a; echo '>'; done
### expansion-error-in-a-for-list-drops-the-line
for w in $((1/0)); do echo in; done; echo same-line
echo next-line
( for w in $((1/0)); do :; done; echo in-subshell ); echo after-subshell
shopt -s failglob; for w in *.none; do :; done; echo same-line
echo last
### pipestatus-after-a-dropped-line
true | false; shopt -s failglob; echo *.none
echo "${PIPESTATUS[@]} $?"; true | false; for w in *.none; do :; done
echo "${PIPESTATUS[@]} $?"; true | false; echo $((1/0))
echo "${PIPESTATUS[@]} $?"

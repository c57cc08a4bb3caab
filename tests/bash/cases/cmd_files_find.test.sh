# cmd_files_find: find expressions, actions and errors (multi-entry output piped into sort)
# Known divergences: none
### find-everything-sorted
mkdir -p a/b
touch a/f a/b/g top
find . | sort
### find-named-start-and-type-f
mkdir -p src/lib
touch src/main.py src/lib/util.py src/README
find src -type f | sort
### find-type-d
mkdir -p x/y/z
touch x/file
find . -type d | sort
### find-type-l
touch t
ln -s t link
find . -type l
### find-name-glob
mkdir d
touch d/a.txt d/b.md d/c.txt
find d -name '*.txt' | sort
### find-iname
touch Upper.TXT lower.txt other
find . -iname '*.txt' | sort
### find-path
mkdir -p a/keep a/skip
touch a/keep/x a/skip/x
find . -path '*keep*' | sort
### find-ipath
mkdir -p Dir/Sub
touch Dir/Sub/f
find . -ipath './dir/sub/*'
### find-maxdepth
mkdir -p a/b/c
touch a/1 a/b/2 a/b/c/3
find . -maxdepth 2 | sort
### find-mindepth
mkdir -p a/b
touch a/1 a/b/2
find . -mindepth 2 | sort
### find-maxdepth-zero
mkdir d
find d -maxdepth 0
### find-size-bytes
printf '12345' > five
printf '1' > one
find . -type f -size 5c
### find-size-greater-k
printf '%3000s' x > big
printf 'x' > small
find . -type f -size +1k
### find-size-less
printf '%3000s' x > big
touch empty
find . -type f -size -1k
### find-empty
mkdir emptydir full
touch full/x emptyfile
find . -empty | sort
### find-not-and-bang
touch a.txt b.md c.txt
find . -type f ! -name '*.txt' | sort
find . -type f -not -name '*.md' | sort
### find-or
touch a b c
find . -name a -o -name c | sort
### find-parentheses
touch a.txt b.txt c.md
mkdir sub.txt
find . \( -name '*.txt' -o -name '*.md' \) -type f | sort
### find-prune
mkdir -p keep skip/deep
touch keep/k skip/s skip/deep/d
find . -name skip -prune -o -type f -print | sort
### find-print0
mkdir d
touch d/one
find d -type f -print0 | od -c | head -1
### find-printf-basic
mkdir -p d/e
printf 'abc' > d/e/f
find d -printf '%d %y %p\n' | sort
### find-printf-name-and-relative
mkdir -p top/sub
touch top/sub/leaf
find top -name leaf -printf '%f|%P|%h|%H\n'
### find-printf-size-and-mode
printf 'hello' > f
chmod 640 f
find f -printf '%s %m %M\n'
### find-printf-width
touch a
find a -printf '[%5f][%-5f]\n'
### find-exec-each
mkdir d
printf 'one\n' > d/1
printf 'two\n' > d/2
find d -type f -exec cat {} \; | sort
### find-exec-plus
mkdir d
touch d/a d/b
find d -type f -exec ls {} +
### find-exec-as-test
touch yes no
printf 'match\n' > yes
find . -type f -exec grep -q match {} \; -print
### find-delete
mkdir -p d/e
touch d/a.log d/e/b.log d/keep
find d -name '*.log' -delete
find d | sort
### find-delete-directory-tree
mkdir -p gone/a/b
touch gone/a/b/f
find gone -delete
ls
### find-quit
touch a b c
find . -type f -quit -print | wc -l
### find-newer
touch -d '2020-01-01' old
touch -d '2021-01-01' ref
touch -d '2022-01-01' new
find . -type f -newer ref
### find-mtime
touch -d '2000-01-01' ancient
touch fresh
find . -type f -mtime +30
find . -type f -mtime -1
### find-regex
touch a1 b2 c3
find . -regex '\./[ab][0-9]' | sort
### find-missing-start
find nosuch 2>&1
echo "status=$?"
### find-unknown-predicate
find . -bogus 2>&1
echo "status=$?"
### find-missing-argument
find . -name 2>&1
echo "status=$?"
### find-bad-type
find . -type q 2>&1
echo "status=$?"
### find-trailing-slash-start
mkdir d
touch d/x
find d/ | sort
### find-multiple-starts
mkdir a b
touch a/1 b/2
find b a -type f
### find-perm
touch a b
chmod 755 a
chmod 644 b
find . -type f -perm 755
find . -type f -perm -u+x
### find-printf-time-directives
touch -d '2020-01-02 03:04:05' f
find f -printf '%TY-%Tm-%Td %TH:%TM %T@ %t\n'
### find-operators-without-action
mkdir -p d/e
touch d/f d/e/g
find d -name f -o -name g | sort
find d \( -name f -o -name g \) -printf 'X%f\n' | sort
### find-expression-errors
mkdir d
find d -newer nosuch 2>&1; echo $?
find d -mtime 2>&1; echo $?
find d -maxdepth x 2>&1; echo $?
find d -size 3x 2>&1; echo $?
find d -type ff 2>&1; echo $?
find . -name x -o 2>&1; echo $?
find . \( \) 2>&1; echo $?
### find-exec-braces-inside-word
touch x.py
find . -name 'x.py' -exec echo pre-{}-post \;
### find-printf-escapes-and-percent
mkdir d
touch d/a
find d -printf '%%|%y|\n' | sort
find d -printf 'abc\cdef\n'; echo
### find-symlink-modes
ln -s nowhere dang
mkdir real
ln -s real lr
find . -type l | sort
find -L . -maxdepth 1 -type d | sort
find lr
find -H lr -maxdepth 0 -type d
### find-follow-detects-loop
ln -s . self
find -L . 2>&1 | sort
### find-trailing-slash-directives
mkdir -p d/sub
find d/ -printf '%p|%h|%f\n' | sort
find ./d -printf '%P\n' | sort
### find-newermt
touch -d '2000-01-01' old
touch new
find . -newermt '2010-01-01' -type f
### find-true-false
touch a
find a -true -false -print; echo $?
find a -false -o -true -print
find a ! -false -not -false
### find-name-reversed-range
touch a m z
find . -name '[z-a]' | sort
echo "status $?"
find . -name '[!z-a]' | sort
find . -name '[z-am]' | sort

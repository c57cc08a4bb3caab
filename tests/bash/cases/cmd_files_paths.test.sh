# cmd_files_paths: readlink, realpath, basename, dirname, mktemp, stat, du, file, split, tee
# Known divergences: none
### readlink-plain
touch t
ln -s t l
readlink l
### readlink-not-a-link
touch f
readlink f
echo "status=$?"
### readlink-f-relative-under-cwd
mkdir -p a/b
touch a/b/f
ln -s a/b/f l
cd a
root=$(cd .. && pwd -P)
p=$(readlink -f ../l)
echo "${p#${root%/}}"
### readlink-e-missing-fails
ln -s nowhere dangling
readlink -e dangling
echo "status=$?"
root=$(pwd -P)
p=$(readlink -f dangling)
echo "${p#${root%/}}"
### readlink-m-nonexistent-chain
root=$(pwd -P)
p=$(readlink -m a/b/../c)
echo "${p#${root%/}}"
### readlink-n-no-newline
touch t
ln -s t l
readlink -n l
echo
### readlink-loop
ln -s b a
ln -s a b
readlink -f a
echo "status=$?"
### readlink-missing-operand
readlink 2>&1
echo "status=$?"
### realpath-relative-to
mkdir -p x/y z
touch x/y/f
realpath --relative-to=z x/y/f
### realpath-relative-to-self
mkdir d
realpath --relative-to=d d
### realpath-strip-no-symlinks
mkdir real
ln -s real alias
root=$(pwd -P)
p=$(realpath -s alias)
echo "${p#${root%/}}"
p=$(realpath alias)
echo "${p#${root%/}}"
### realpath-missing-component
realpath nosuch/child 2>&1
echo "status=$?"
### realpath-not-a-directory
touch f
realpath f/x 2>&1
echo "status=$?"
### realpath-e-requires-existence
realpath -e ghost 2>&1
echo "status=$?"
### basename-suffix
basename /usr/lib/libc.so.6 .6
basename dir/file.txt .txt
### basename-multiple
basename -a one/x two/y
basename -s .c a.c b/c.c
### basename-edge-cases
basename /
basename //
basename a/b/
basename .txt .txt
### basename-errors
basename 2>&1
echo "status=$?"
basename a b c 2>&1
echo "status=$?"
### dirname-cases
dirname /usr/bin/env
dirname relative
dirname /
dirname a/b/
dirname //x
dirname a b/c
### dirname-missing-operand
dirname 2>&1
echo "status=$?"
### mktemp-file-in-dir
f=$(mktemp -p .)
test -f "$f" && echo created
rm "$f"
ls
### mktemp-directory-template
d=$(mktemp -d work.XXXXXX)
test -d "$d" && echo dir
case "$d" in work.??????) echo pattern-ok;; esac
rmdir "$d"
### mktemp-too-few-x
mktemp fooXX 2>&1
echo "status=$?"
### stat-format-basic
printf 'hello' > f
mkdir d
chmod 644 f
chmod 755 d
stat -c '%n %s %F %a %A' f d
### stat-format-empty-and-link
touch e
ln -s e l
stat -c '%n|%F|%s' e l
stat -c '%N' l
stat -L -c '%F' l
### stat-printf-escapes
printf 'ab' > f
stat --printf '%n\t%s\n' f
### stat-width-flags
printf 'abc' > f
chmod 644 f
stat -c '[%10s][%-4a][%05s]' f
### stat-missing
stat nosuch 2>&1
echo "status=$?"
### stat-times-fixed
touch -d '2021-02-03 04:05:06' f
stat -c '%Y %y' f
### du-summarize
mkdir d
printf 'x' > d/a
du -s d
### du-all-and-total
mkdir -p d/e
printf '%5000s' x > d/e/b
printf 'x' > d/a
du -a d | sort -k2
du -c d/a d/e
### du-human-and-depth
mkdir -p d/e
printf '%5000s' x > d/e/b
du -sh d
du --max-depth=0 d
### du-apparent
mkdir d
printf '%5000s' x > d/b
du -b d/b
du --apparent-size -s d/b
### du-missing
du nosuch 2>&1
echo "status=$?"
### file-text-kinds
printf 'plain\n' > a
printf 'caf\303\251\n' > u
printf 'a\r\nb\r\n' > crlf
printf 'no newline' > nonl
touch empty
mkdir dir
file a u crlf nonl empty dir
### file-scripts-and-json
printf '#!/bin/bash\necho hi\n' > s.sh
printf '#!/usr/bin/env python3\nprint(1)\n' > p.py
printf '{"a": [1, 2]}\n' > j.json
file -b s.sh p.py j.json
### file-binary-kinds
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\003\000\000\000\002\010\006\000\000\000' > img.png
printf '\000\001\002\003' > blob
printf 'GIF89a\003\000\002\000' > g.gif
file img.png blob g.gif
### file-symlinks
touch t
ln -s t good
ln -s missing bad
file good bad
### file-mime
printf 'hi\n' > a
touch e
file -i a e
file --mime-type a
### split-lines
seq 1 10 > n
split -l 4 n
ls x*
cat xac
### split-bytes-numeric
printf 'abcdefghij' > f
split -b 4 -d f part
ls part*
cat part02
echo
### split-chunks
seq 1 10 > n
split -n 3 n c
wc -c c*
### split-line-chunks
seq 1 10 > n
split -n l/3 n L
wc -l L*
### split-suffix-length-and-extra
seq 1 5 > n
split -l 2 -a 3 --additional-suffix=.txt n s
ls s*
### split-stdin
seq 1 6 | split -l 3 - piece
cat pieceab
### split-missing-input
split nosuch 2>&1
echo "status=$?"
### tee-writes-and-passes
echo hello | tee out
cat out
### tee-append
echo one > log
echo two | tee -a log > /dev/null
cat log
### tee-multiple-files
printf 'x\ny\n' | tee a b | wc -l
cat a b
### tee-missing-dir
echo hi | tee nodir/f 2>&1
echo "status=$?"
### tee-dash-is-a-file
echo hi | tee - > /dev/null
cat ./-
### tee-device-names
echo hi | tee /dev/null
echo twice | tee /dev/stdout
### stat-unknown-directive
touch f
stat -c 'abc %% %q' f
stat --printf='%n\n\x41\101\n' f
### du-block-size
printf 'abc' > f
du -B 1 f
du -B K f
du -sb .
du --apparent-size f
### du-depth-and-separate
mkdir -p a/b/c
printf x > a/b/c/f
du -d 1 a
du --max-depth=2 a
du -S a
### split-line-bytes
seq 1 100 > n
split -C 50 n c
ls c* | wc -l
cat cab
### split-bytes-suffixes
seq 1 100 > n
split -b 100 n b_
ls b_*
split --bytes=1K n k
ls k*
### split-suffix-exhausted
seq 1 30 > n
split -a 1 -l 1 n 2>&1
echo "status=$?"
ls x* | wc -l
### basename-dirname-zero
basename -z a/b | od -c | head -1
dirname -z a/b | od -c | head -1
basename -- -x
### readlink-realpath-absolute
readlink -f /
readlink -m /a/../../b
realpath -m /x/./y/..//z
realpath --relative-to=/a/b /a/c/d
realpath --relative-to=/ /a
### file-script-interpreters
printf '#!/usr/bin/perl\nx\n' > a; printf '#!/usr/bin/env node\nx\n' > b
printf '#!/bin/dash\nx\n' > c; printf '#!/usr/bin/env php\nx\n' > d
printf '#!/usr/bin/env ruby\nx\n' > e; printf '#!/bin/sh\r\nx\r\n' > f
file a b c d e f
file -i a b c
### file-short-and-markup
printf x > one
printf '<?xml version="1.0"?>\n<r/>\n' > x.xml
printf '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n' > s.svg
printf '%%PDF-1.4\n' > p.pdf
printf 'a\rb\r' > cr
printf '\033[1mhi\n' > esc
file one x.xml s.svg p.pdf cr esc
### mktemp-options
mktemp -u -p . XXXX | wc -c
mktemp -d -p . fooXXX > /dev/null
ls -d foo* | wc -l
mktemp --suffix=.txt -p . | grep -c '\.txt$'
rm -rf foo* tmp.*
ls
### du-exclude
mkdir -p p/node_modules/x p/src
printf '%9000s' x > p/node_modules/x/big
printf 'x' > p/src/a
du -s --exclude=node_modules p
du -a --exclude=a p | sort -k2
du --exclude=p/src p | sort -k2

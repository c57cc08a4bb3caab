# cmd_files_ls: ls listing, sorting, classification, long format (owner normalised), errors
# Known divergences: none
### ls-plain-sorted-one-per-line
touch b a C .hidden
mkdir dir
ls
### ls-all-and-almost-all
touch x .y
ls -a
echo --
ls -A
### ls-one-flag-and-color-never
touch a b
ls -1 --color=never
### ls-classify
mkdir d
touch f
printf '#!/bin/sh\n' > run
chmod +x run
ln -s f link
ls -F
### ls-slash-indicator
mkdir d
touch f
ls -p
### ls-directory-flag
mkdir d
touch d/inner
ls -d d
ls -d
### ls-reverse
touch a b c
ls -r
### ls-size-sort
printf '1' > small
printf '12345' > big
printf '123' > mid
ls -S
echo --
ls -Sr
### ls-time-sort-with-fixed-dates
touch -d '2020-01-01 00:00' old
touch -d '2021-06-01 00:00' new
touch -d '2020-06-01 00:00' middle
ls -t
echo --
ls -tr
### ls-recursive
mkdir -p a/b
touch a/f a/b/g top
ls -R
### ls-recursive-named-dir
mkdir -p d/sub
touch d/sub/x
ls -R d
### ls-files-then-directories
mkdir d1 d2
touch f d1/in1
ls f d1 d2
### ls-missing-operand-status
touch here
ls here nosuch 2>&1
echo "status=$?"
### ls-missing-only
ls nosuch
echo "status=$?"
### ls-invalid-option
ls -j 2>&1
echo "status=$?"
### ls-long-format-normalised
printf 'hello\n' > f
mkdir d
chmod 640 f
touch -d '2020-01-02 03:04:05' f d
ls -l | sed -E 's/^([^ ]+ +[0-9]+) [^ ]+ +[^ ]+ /\1 U G /'
### ls-long-symlink-arrow
touch -d '2020-01-02 03:04' target
ln -s target link
# awk, not cut: on days 1-9 the day of the link's mtime (now) is space-padded
ls -l link | awk '{print $1, $9, $10, $11}'
### ls-long-human-sizes
printf '%5000s' x > big
touch -d '2020-01-02 03:04' big
ls -lh big | sed -E 's/^([^ ]+ +[0-9]+) [^ ]+ +[^ ]+ /\1 U G /'
### ls-long-old-date-shows-year
touch -d '2001-02-03 04:05' f
ls -l f | cut -d' ' -f6-
### ls-long-directory-total
mkdir d
printf 'abc' > d/a
printf '%5000s' x > d/b
ls -l d | head -1
### ls-dir-trailing-slash
mkdir d
touch d/x
ls d/
### ls-file-with-trailing-slash-fails
touch f
ls f/ 2>&1
echo "status=$?"
### ls-symlink-to-dir-is-followed
mkdir real
touch real/inside
ln -s real alias
ls alias
### ls-long-dir-argument-with-d
mkdir d
chmod 750 d
ls -ld d | cut -c1-10
### ls-empty-directory
mkdir empty
ls empty
echo "status=$?"
### ls-block-sizes
printf 'x' > one
printf '%5000s' x > two
ls -s one two
### ls-columns-fill-80
for i in $(seq 1 30); do touch "file_$i$( [ $((i % 3)) = 0 ] && echo _longer_name)"; done
ls -C
### ls-across
touch a bb ccc dddd eeeee
ls -x
### ls-commas
for i in $(seq 1 25); do touch "name_$i"; done
ls -m
### ls-columns-respect-COLUMNS
touch alpha beta gamma delta epsilon
COLUMNS=20 ls -C
### ls-quoting-styles
touch 'a b' 'q"x' plain
ls -Q
ls -b
### ls-time-styles
touch -d '2020-01-02 03:04:05' a
touch -d '2021-03-04 05:06:07' b
ls -l --time-style=long-iso | cut -d' ' -f6-
ls -l --time-style=full-iso | cut -d' ' -f6-
ls -l --time-style=iso | cut -d' ' -f6-
ls -l --time-style=+%Y/%m/%d | cut -d' ' -f6-
ls -l --time-style=posix-long-iso | cut -d' ' -f6-
### ls-bad-option-arguments
touch a
ls --time-style=bad 2>&1; echo "status=$?"
ls --color=bad 2>&1; echo "status=$?"
ls --sort=bogus 2>&1; echo "status=$?"
### ls-version-and-extension-sort
touch a10 a9 a1 x.c y.b z
ls -v
ls -X
### ls-awkward-names
touch 'a b' "it's" $'n\nl' -- '-dash'
ls
ls -- -dash 'a b'
ls -Q
ls nosuch $'x\ny' $'\nlead' 2>&1
echo "status=$?"
### awkward-names-in-other-commands
touch 'a b' "it's"
rm -v 'a b'
stat -c %N "it's"
mv -v "it's" 'q"x'
find . -type f
### ls-ignore-and-hide
mkdir node_modules src
touch a.py b.txt c~ .h~
ls -I node_modules
ls --ignore='*.py' -a
ls --hide='*.py'
ls --hide='*.py' -A
ls -B
### ls-width-option
for i in $(seq 1 12); do touch "long_name_$i"; done
ls -w 40 -C
ls -w 0 -C
ls -w 30 -m
### ls-color-needs-a-colour-terminal
mkdir d
touch f
TERM=dumb ls --color=always
ls --color=auto
### ls-color-builtin-palette
mkdir d
touch f x
chmod +x x
ln -s f l
ln -s nowhere dang
mkdir -m 1777 tmpd
TERM=xterm ls --color=always | od -c
TERM=xterm ls --color=always -C -F | od -c
### ls-color-from-LS_COLORS
mkdir d
touch f a.tar
ln -s d ld
ln -s nowhere dang
LS_COLORS='di=01;31:*.tar=01;32:ln=target:or=40;31;01' ls --color=always | od -c
# sed drops the eight leading fields whatever their padding (the links' mtime is now)
LS_COLORS='di=01;31:or=40;31;01' ls -l --color=always ld dang | sed -E 's/^([^ ]+ +){8}//' | od -c
### ls-time-word
touch -d '2020-01-01' a
touch -a -d '2021-01-01' a
ls -l --time=atime a | cut -d' ' -f6-
ls -l --time=use a | cut -d' ' -f6-
ls -l --time=mtime a 2>&1; echo "status=$?"

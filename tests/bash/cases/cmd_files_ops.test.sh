# cmd_files_ops: mkdir, rmdir, touch, rm, cp, mv, ln, chmod - effects and GNU messages
# Known divergences: none
### mkdir-parents-and-verbose
mkdir -pv a/b/c
mkdir -p a/b/c
echo "status=$?"
ls -R a
### mkdir-existing-fails
mkdir d
mkdir d 2>&1
echo "status=$?"
### mkdir-missing-parent-fails
mkdir x/y 2>&1
echo "status=$?"
### mkdir-through-file-fails
touch f
mkdir -p f/sub 2>&1
echo "status=$?"
### mkdir-mode
mkdir -m 700 private
stat -c '%a %n' private
### mkdir-invalid-mode
mkdir -m xyz q 2>&1
echo "status=$?"
### mkdir-missing-operand
mkdir 2>&1
echo "status=$?"
### rmdir-removes-empty-only
mkdir -p full/inner empty
rmdir empty
rmdir full 2>&1
echo "status=$?"
ls
### rmdir-parents
mkdir -p p/q/r
rmdir -pv p/q/r
ls
### rmdir-not-a-directory
touch f
rmdir f 2>&1
echo "status=$?"
### touch-creates-and-no-create
touch new
touch -c ghost
ls
### touch-date-string
touch -d '2020-03-04 05:06:07' f
stat -c '%y' f
### touch-stamp
touch -t 202001020304.05 f
stat -c '%Y' f
### touch-reference
touch -d '2019-12-31 23:59' ref
touch -r ref copy
stat -c '%Y' ref copy
### touch-epoch
touch -d @86400 f
stat -c '%y' f
### touch-invalid-date
touch -d 'not a date' f 2>&1
echo "status=$?"
ls
### touch-into-missing-dir
touch nodir/f 2>&1
echo "status=$?"
### rm-file-and-missing
touch a
rm a nosuch 2>&1
echo "status=$?"
ls
### rm-force-missing-is-quiet
rm -f nosuch
echo "status=$?"
rm -f
echo "status=$?"
### rm-directory-needs-r
mkdir d
rm d 2>&1
echo "status=$?"
### rm-recursive
mkdir -p d/e/f
touch d/x d/e/y
rm -r d
ls
### rm-recursive-keeps-sibling-with-shared-prefix
mkdir -p app app-data
touch app/x app-data/y
rm -rf app
ls -R
### rm-dir-flag-empty-only
mkdir empty full
touch full/x
rm -d empty
rm -d full 2>&1
echo "status=$?"
### rm-verbose
touch a b
rm -v a b
### rm-refuses-dot
mkdir d
cd d
rm -rf . 2>&1
echo "status=$?"
### rm-missing-operand
rm 2>&1
echo "status=$?"
### rm-symlink-not-target
touch target
ln -s target link
rm link
ls
### cp-file
printf 'data\n' > a
cp a b
cat b
### cp-into-directory
mkdir d
printf 'x\n' > a
cp a d
cat d/a
### cp-multiple-into-directory-verbose
mkdir d
touch a b
cp -v a b d
### cp-directory-needs-r
mkdir d
cp d e 2>&1
echo "status=$?"
### cp-recursive
mkdir -p src/sub
printf '1\n' > src/one
printf '2\n' > src/sub/two
cp -r src dst
cat dst/one dst/sub/two
### cp-recursive-into-existing-dir
mkdir -p src existing
touch src/f
cp -R src existing
ls -R existing
### cp-missing-source
cp nosuch dest 2>&1
echo "status=$?"
### cp-same-file
touch a
cp a a 2>&1
echo "status=$?"
### cp-no-clobber
printf 'old\n' > dest
printf 'new\n' > src
cp -n src dest
cat dest
### cp-target-directory-option
mkdir out
touch a b
cp -t out a b
ls out
### cp-multiple-to-non-directory
touch a b c
cp a b c 2>&1
echo "status=$?"
### cp-missing-destination
touch a
cp a 2>&1
echo "status=$?"
### cp-preserve-mode
printf 'x' > a
chmod 600 a
cp -p a b
stat -c '%a' b
### cp-archive-keeps-symlinks
mkdir d
touch d/t
ln -s t d/l
cp -a d e
readlink e/l
### cp-into-itself
mkdir d
cp -r d d/sub 2>&1 | head -1
### mv-rename
printf 'x\n' > a
mv a b
ls
cat b
### mv-into-directory
mkdir d
touch a b
mv a b d
ls d
### mv-verbose
touch a
mv -v a b
### mv-missing-source
mv nosuch x 2>&1
echo "status=$?"
### mv-no-clobber
printf 'keep\n' > b
printf 'lose\n' > a
mv -n a b
cat b
ls
### mv-directory-into-itself
mkdir -p d/s
mv d d/s 2>&1
echo "status=$?"
### mv-directory-over-file
mkdir d
touch f
mv d f 2>&1
echo "status=$?"
### mv-target-directory-option
mkdir out
touch a
mv -t out a
ls out
### ln-symbolic
printf 'hello\n' > target
ln -s target link
cat link
readlink link
### ln-symbolic-existing-fails
touch a b
ln -s a b 2>&1
echo "status=$?"
### ln-symbolic-force
touch a b
ln -sf a b
readlink b
### ln-symbolic-verbose
touch t
ln -sv t l
### ln-into-directory
mkdir d
ln -s ../t d
readlink d/t
### ln-hard-link-content
printf 'same\n' > a
ln a b
cat b
### ln-hard-link-directory-refused
mkdir d
ln d e 2>&1
echo "status=$?"
### ln-no-dereference-replaces-link
mkdir a b
ln -s a cur
ln -sfn b cur
readlink cur
ls a
### chmod-octal
touch f
chmod 751 f
stat -c '%a %A' f
### chmod-symbolic
touch f
chmod 644 f
chmod u+x,g-r,o= f
stat -c '%A' f
chmod a+rw f
stat -c '%A' f
### chmod-equals-and-copy
touch f
chmod 640 f
chmod o=u f
stat -c '%a' f
### chmod-plus-x-respects-umask
touch f
chmod 600 f
chmod +x f
stat -c '%a' f
### chmod-recursive
mkdir -p d/e
touch d/e/f
chmod -R 700 d
stat -c '%a %n' d d/e d/e/f
### chmod-verbose
touch f
chmod 644 f
chmod -v 755 f
chmod -c 755 f
### chmod-invalid-mode
touch f
chmod xyz f 2>&1
echo "status=$?"
### chmod-missing-file
chmod 644 nosuch 2>&1
echo "status=$?"
### chmod-sticky-and-setgid
mkdir d
chmod 755 d
chmod g+s,o+t d
stat -c '%A' d
### chmod-capital-x
mkdir d
touch f
chmod 644 f
chmod 644 d
chmod a+X d f
stat -c '%a %n' d f
### rm-interactive-answers-from-stdin
touch g
ln -s g lg
printf 'y\nn\n' | rm -i g lg 2>/dev/null
ls
### rm-interactive-recursive
mkdir e
touch e/x
printf 'y\ny\ny\n' | rm -ri e 2>/dev/null
echo "status=$?"
ls
### rm-prompt-once
touch 1 2 3 4
echo n | rm -I 1 2 3 4 2>/dev/null
ls
echo y | rm -I 1 2 3 4 2>/dev/null
ls
### cp-mv-interactive-overwrite
printf 'a\n' > a
printf 'b\n' > b
echo n | cp -i a b 2>/dev/null
cat b
echo y | mv -i a b 2>/dev/null
cat b
ls
### cp-trailing-slash-target-errors
touch f
cp f nodir/ 2>&1; echo $?
cp f nodir/x 2>&1; echo $?
### cp-directory-contents-with-dot
mkdir -p a/b
touch a/b/f
cp -r a/. e
find e | sort
### mv-onto-file-with-trailing-slash
touch f
mv f f/ 2>&1; echo $?
### mv-directory-over-nonempty-directory
mkdir -p d1/x d2/x
touch d2/x/f
mv d1/x d2 2>&1; echo $?
### ln-relative
touch a
mkdir d
ln -sr a d/rel
readlink d/rel
cat d/rel
### ln-trailing-slash-missing-dir
touch a
ln -s a c/ 2>&1; echo $?
### chmod-octal-forms
touch f
chmod 0755 f; stat -c %a f
chmod -- -x f; stat -c %a f
chmod =rwx,g-w f; stat -c %a f
chmod u=g f; stat -c %a f
chmod 77777 f 2>&1; echo $?
### chmod-directory-keeps-setgid
mkdir d
chmod 2755 d
chmod 755 d; stat -c %a d
chmod 0755 d; stat -c %a d
chmod 00755 d; stat -c %a d
### touch-access-and-modify-only
touch -d '2020-01-01' a
touch -a -d '2021-01-01' a; stat -c '%X %Y' a
touch -m -d '2022-01-01' a; stat -c '%X %Y' a
### touch-relative-words
touch -d 'yesterday' b
touch -d 'tomorrow' c
touch a
ls -t
### mkdir-parents-with-dots
mkdir -pv a/./b/../c
find a | sort
### cp-parents
mkdir -p a/b d
touch a/b/f
cp --parents -v a/b/f d
find d | sort
cp --parents a/b/f nod 2>&1; echo $?
### cp-preserve-with-list
printf 'x' > a
chmod 600 a
touch -d '2020-01-01' a
cp --preserve=mode,timestamps a b
stat -c '%a %Y' b
### touch-symlinks
ln -s nowhere dang
touch dang
ls
touch -d '2020-01-01' real
ln -s real l
touch -h -d '2021-01-01' l
stat -c %Y real
touch -h newf 2>&1; echo $?
### touch-reference-copies-both-times
touch -d '2019-05-05 05:05:05' ref
touch -a -d '2018-01-01' ref
touch -r ref g
stat -c '%X %Y' g
### trailing-slash-through-symlinks
mkdir d
touch d/f
ln -s d ld
touch x
ln -s x lx
rm lx/ 2>&1; echo $?
rmdir ld/ 2>&1; echo $?
mv ld/ z 2>&1; echo $?
rm -r ld/ 2>&1; echo $?
find . | sort
### du-counts-a-symlink-operand-as-a-link
mkdir d
printf '%5000s' x > d/f
ln -s d ld
du ld
du ld/

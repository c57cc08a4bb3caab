# fid_agent: everyday agent-script idioms: here-docs with tabs and quotes, read -r loops with IFS, printf -v, mapfile, trap EXIT/ERR order, case with extglob
# Known divergences:
#   mapfile-callback: mapfile's -C callback (run every -c lines) is not run: mapfile is a plain builtin here and cannot run shell code while it reads
### heredoc-tabs-quotes
x=val; cat <<-EOF
	tab 'quoted' "dq" $x
		two tabs
	EOF
cat <<'X'
	keep	tabs $x "q"
X
cat <<"Y"
	$x `cmd` \$
Y
### read-loops-ifs
printf 'a:b c\n d:e \n\nf\n' > in; while IFS=: read -r k v; do printf '[%s][%s]\n' "$k" "$v"; done < in; while read -r line; do echo "<$line>"; done < in; IFS= read -r x < in; echo "[$x]"; rm in
### read-arrays-and-tabs
while IFS=, read -ra f; do echo "${#f[@]}: ${f[*]}"; done <<< $'a,b,,c\n,x,\n'; IFS=$'\t' read -r a b <<< $'1\t\t3'; echo "[$a][$b]"
### printf-v
printf -v out '%s-%d' abc 42; echo "$out"; printf -v 'arr[1]' '%05.1f' 3.14159; declare -p arr; printf -v x; echo "s=$?"
### mapfile-options
printf 'a\nb\n\nc' > f; mapfile -t lines < f; declare -p lines; mapfile -n 2 -s 1 l2 < f; declare -p l2; mapfile -d : -t p <<< 'x:y:z'; declare -p p; readarray -O 5 -t q < f; declare -p q; rm f
### mapfile-procsub
mapfile -t a < <(printf '%s\n' x y); echo "${#a[@]} ${a[1]}"
### mapfile-callback
mapfile -C 'echo cb' -c 1 b < <(printf '1\n2\n'); declare -p b
### trap-exit-err-order
exec 2>&1; trap 'echo exit $?' EXIT; trap 'echo err at $LINENO' ERR; false; echo after; (exit 3); echo "s=$?"
### trap-exit-with-errexit
exec 2>&1; set -e; trap 'echo cleanup' EXIT; f() { echo in f; return 2; }; f; echo never
### trap-errtrace
exec 2>&1; trap 'echo "trap ERR $?"' ERR; set -o errtrace; f() { false; }; f; echo "s=$?"; trap - ERR; trap -p
### case-extglob
shopt -s extglob; for w in foo.txt bar.log baz x.tar.gz ''; do case $w in *.@(txt|log)) echo "$w: text";; +([a-z])) echo "$w: word";; !(*.*)) echo "$w: nodot";; *) echo "$w: other";; esac; done
### case-quoting
x='a b'; case $x in "a "*) echo q1;; esac; case 'a*b' in a\*b) echo lit;; esac; case x in [[:alpha:]]) echo cls;; esac; case '-v' in -[vx]) echo opt;; esac

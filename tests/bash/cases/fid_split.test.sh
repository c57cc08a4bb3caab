# fid_split: word splitting with custom IFS, read with IFS
# Known divergences: none
### i0-t0-None
unset IFS; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t1-None
unset IFS; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t2-None
unset IFS; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t3-None
unset IFS; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t4-None
unset IFS; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t5-None
unset IFS; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t6-None
unset IFS; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i0-t7-None
unset IFS; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t0-x
IFS=$''; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t1-x
IFS=$''; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t2-x
IFS=$''; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t3-x
IFS=$''; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t4-x
IFS=$''; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t5-x
IFS=$''; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t6-x
IFS=$''; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i1-t7-x
IFS=$''; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t0-x
IFS=$' '; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t1-x
IFS=$' '; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t2-x
IFS=$' '; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t3-x
IFS=$' '; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t4-x
IFS=$' '; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t5-x
IFS=$' '; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t6-x
IFS=$' '; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i2-t7-x
IFS=$' '; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t0-x
IFS=$':'; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t1-x
IFS=$':'; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t2-x
IFS=$':'; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t3-x
IFS=$':'; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t4-x
IFS=$':'; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t5-x
IFS=$':'; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t6-x
IFS=$':'; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i3-t7-x
IFS=$':'; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t0-x
IFS=$': '; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t1-x
IFS=$': '; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t2-x
IFS=$': '; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t3-x
IFS=$': '; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t4-x
IFS=$': '; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t5-x
IFS=$': '; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t6-x
IFS=$': '; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i4-t7-x
IFS=$': '; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t0-x
IFS=$' :'; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t1-x
IFS=$' :'; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t2-x
IFS=$' :'; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t3-x
IFS=$' :'; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t4-x
IFS=$' :'; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t5-x
IFS=$' :'; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t6-x
IFS=$' :'; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i5-t7-x
IFS=$' :'; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t0-n
IFS=$'\n'; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t1-n
IFS=$'\n'; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t2-n
IFS=$'\n'; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t3-n
IFS=$'\n'; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t4-n
IFS=$'\n'; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t5-n
IFS=$'\n'; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t6-n
IFS=$'\n'; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i6-t7-n
IFS=$'\n'; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t0-ab
IFS=$'ab'; v=$'a b  c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t1-ab
IFS=$'ab'; v=$' lead trail '; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t2-ab
IFS=$'ab'; v=$'a:b::c'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t3-ab
IFS=$'ab'; v=$'a: b :c:'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t4-ab
IFS=$'ab'; v=$'::'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t5-ab
IFS=$'ab'; v=$'x'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t6-ab
IFS=$'ab'; v=$''; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"
### i7-t7-ab
IFS=$'ab'; v=$'a	b'; set -- $v; echo "n=$#"; for a; do printf '[%s]' "$a"; done; echo; read -r p q r <<< "$v"; printf '(%s)(%s)(%s)\n' "$p" "$q" "$r"; read -ra arr <<< "$v"; echo "${#arr[@]}:${arr[*]}"; echo "$*"

# fid_assockeys: associative array keys holding $(, backquotes, ], quotes, blanks, * and @: assignment, expansion, unset 'm[key]', ${!m[@]} in bash's order
# Known divergences: none
### special-keys-assign-and-list
declare -A m; m['$(echo hi)']=1; m['`x`']=2; m[']']=3; m['"q"']=4; m["a b"]=5; m['*']=6; m['@']=7; m["'"]=8; m[' ']=9; m['a]b']=10; declare -p m; for k in "${!m[@]}"; do printf '<%s>' "$k"; done; echo
### key-from-variable-not-rerun
declare -A m; k='$(echo hi)'; m[$k]=1; echo "${m[$k]}"; unset "m[$k]"; declare -p m; m[$k]=2; unset 'm[$k]'; declare -p m
### star-and-at-keys
declare -A m=(['*']=a ['@']=b [x]=c); echo "${m[*]}" "${m['*']}" "${m[@]}"; unset 'm[*]'; declare -p m; unset 'm[@]'; declare -p m
### unset-all-indexed
a=(1 2); unset 'a[@]'; declare -p a; b=(1 2); unset 'b[*]'; declare -p b; echo "${#a[@]}"
### key-order-small
declare -A m; m[a]=1 m[b]=2 m[c]=3 m[d]=4 m[e]=5 m[f]=6 m[g]=7 m[h]=8 m[i]=9 m[j]=10; echo "${!m[@]}"; echo "${m[@]}"
### key-order-words
declare -A m; for k in one two three four five six seven eight nine ten eleven twelve alpha beta gamma delta 1 2 3 10 100 x_y 'a b' 'key with spaces'; do m[$k]=v; done; echo "${!m[@]}"
### unset-quoted-keys
declare -A m; m[k]=1; unset 'm[k]' 'm[nope]'; echo "s=$? ${#m[@]}"; m['a b']=1; unset m['a b']; declare -p m
### bracket-key
declare -A m; key=']'; m[$key]=x; echo "${m[$key]}"; declare -p m; unset "m[$key]"; echo "s=$?"; unset "m[a]b]"; declare -p m; unset "m[\]]"; declare -p m; m['"']=1; unset 'm["]'; declare -p m; unset "m[\"]"; declare -p m
### quotes-backslashes-newlines
declare -A m; m["x\"y"]=1; m['a\b']=2; m[$'n\nl']=3; declare -p m; for k in "${!m[@]}"; do printf '%q\n' "$k"; done
### reinsert-order-and-controls
declare -A m=([a]=1 [b]=2); unset 'm[a]'; m[a]=3; echo "${!m[@]}"; declare -A n=([$'\t']=t [$'x\x01']=c); declare -p n
### subscript-expanded-once
declare -A m; m[$(echo k)]=1; i=0; m[$((i++))]=z; echo "$i"; declare -p m; (( m[q]++ )); declare -p m
### empty-key-errors
exec 2>&1; declare -A m; unset 'm[]'; echo "s=$?"; m[""]=1; echo "same line"
echo "s=$?"; k=; m[$k]=2
echo "s=$?"; declare -a a; a[""]=1
echo "s=$? ${a[0]}"
### dollar-key-literal
declare -A m; m['$x']=1; x=q; echo "${m['$x']}|${m[$x]}|${m[\$x]}"; unset "m[\$x]"; declare -p m
### keys-in-compound-assignment
declare -A m=(["a b"]=1 ['$(x)']=2 [']']=3 ["*"]=4 [@]=5 ['`y`']=6); declare -p m; echo "${#m[@]}"

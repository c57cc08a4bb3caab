# lang_arrays: indexed and associative arrays
# Known divergences: none
### indexed-basic
a=(one two three); echo ${a[0]} ${a[2]} ${a[@]}; echo ${#a[@]}
### indexed-assign-element
a[5]=five; a[1]=one; echo ${a[@]} ${#a[@]} ${!a[@]}
### indexed-append
a=(1 2); a+=(3 4); echo ${a[@]}
### indexed-negative-index
a=(1 2 3); echo ${a[-1]} ${a[-2]}
### indexed-unset-element
a=(a b c); unset 'a[1]'; echo ${a[@]} ${#a[@]} ${!a[@]}
### indexed-quoted-at-preserves
a=("x y" z); for e in "${a[@]}"; do echo "<$e>"; done; for e in ${a[@]}; do echo "[$e]"; done
### indexed-star-joined
a=(x y z); IFS=-; echo "${a[*]}"
### array-from-glob-literal
a=(*.none); echo ${#a[@]} "${a[0]}"
### array-scalar-element-zero
a=(first second); echo $a; s=scalar; echo ${s[0]}
### array-copy
a=(1 "2 3" 4); b=("${a[@]}"); echo ${#b[@]} "${b[1]}"
### array-length-of-element
a=(hello world); echo ${#a[1]}
### array-explicit-indices
a=([3]=c [1]=a); echo ${!a[@]} ${a[@]}
### array-in-arith-loop
a=(5 10 15); sum=0; for ((i=0;i<${#a[@]};i++)); do ((sum+=a[i])); done; echo $sum
### assoc-basic
declare -A m; m[apple]=red; m[banana]=yellow; echo ${m[apple]} ${m[banana]} ${#m[@]}
### assoc-literal
declare -A m=([one]=1 [two]=2); echo ${m[one]}${m[two]}
### assoc-keys-sorted-output
declare -A m=([b]=2 [a]=1 [c]=3); for k in $(printf '%s\n' "${!m[@]}" | sort); do echo $k=${m[$k]}; done
### assoc-key-with-spaces
declare -A m; m["a b"]=x; k="a b"; echo ${m[$k]} ${m["a b"]}
### assoc-unset-key
declare -A m=([x]=1 [y]=2); unset 'm[x]'; echo ${#m[@]} ${m[y]}
### assoc-exists-test
declare -A m=([x]=1); [[ -v m[x] ]] && echo has-x; [[ -v m[z] ]] || echo no-z
### assoc-increment
declare -A c; for w in a b a c a; do c[$w]=$(( ${c[$w]:-0} + 1 )); done; echo ${c[a]} ${c[b]} ${c[c]}
### assoc-arith-increment
declare -A c; c[x]=1; ((c[x]++)); echo ${c[x]}
### declare-a-explicit
declare -a arr=(x y); arr[2]=z; echo ${arr[@]}
### array-slice-and-offset
a=(0 1 2 3 4 5); echo ${a[@]:2} ; echo ${a[@]:1:2}
### mapfile-array
printf 'l1\nl2\nl3\n' > f; mapfile -t lines < f; echo ${#lines[@]} ${lines[1]}
### read-a-array
read -a parts <<< "x y z"; echo ${#parts[@]} ${parts[2]}
### array-declare-p
a=(1 "two words"); declare -p a
### assoc-declare-p
declare -A m=([k]=v); declare -p m
### array-sparse-length
a=(); a[10]=x; a[20]=y; echo ${#a[@]} ${!a[@]}
### array-element-string-ops
a=(file1.txt file2.log); echo ${a[0]%.txt} ${a[1]/log/LOG}
### array-empty
a=(); echo "${#a[@]}" "[${a[@]}]"
### array-plus-equals-element
a=(x); a[0]+=y; echo ${a[0]}
### array-in-for-with-index
a=(red green); for i in "${!a[@]}"; do echo "$i:${a[$i]}"; done
### array-with-command-subst
a=($(echo 1 2 3)); echo ${#a[@]}
### array-unset-whole
a=(1 2); unset a; echo "${#a[@]}"
### assoc-iterate-values
declare -A m=([k]=only); for v in "${m[@]}"; do echo $v; done
### array-negative-out-of-range
a=(1 2); echo "[${a[5]}]"
### more-a
a=(x y z); a[1]+=Y; a+=([10]=ten); echo "${a[@]}" "${!a[@]}"
### more-b
a=([2]=two [0]=zero); a+=(next); echo "${!a[@]}" "${a[3]}"
### more-c
declare -a a=(1 2 3); b=("${a[@]:1}"); echo ${#b[@]} ${b[0]}
### more-d
a=(1 2 3); a=("${a[@]}" 4); echo ${a[*]}
### more-e
a=("a b" "c"); b=(${a[@]}); echo ${#b[@]}
### more-f
a=(3 1 2); for i in "${!a[@]}"; do a[i]=$((a[i]*10)); done; echo ${a[@]}
### more-g
a=(); a[-1]=x 2>/dev/null; echo "st $? ${#a[@]}"
### more-h
s="a b c"; read -ra arr <<< "$s"; unset 'arr[0]'; echo "${arr[@]}" "${#arr[@]}"
### more-i
declare -A m=([x]=1); unset m; declare -A m; m[y]=2; echo ${!m[@]}
### more-j
a=(one two three); echo "${a[@]^}" "${a[@]: -1}" "${#a[2]}"
### more-k
a=(1 2 3); echo $(( ${a[0]} + ${a[2]} )) $(( a[0] + a[1] ))
### more-l
a=(x y); printf '%s\n' "${a[@]/#/--}"
### more-m
mapfile -t arr < <(printf '%s\n' c a b | sort); echo "${arr[*]}"
### more-n
declare -A h; h[a]=1; h[b]=2; echo ${#h[@]}; unset 'h[a]'; echo ${#h[@]} ${!h[@]}
### more-o
a=(1 2 3 4 5 6); echo "${a[@]:2:2}" "${a[@]:(-2)}"

# fid_nameref: declare -n with export, readonly, unset -n and their errors (stderr sent to stdout, so the wording counts)
# Known divergences:
#   circular-reference: bash warns "a: circular name reference" and expands a nameref cycle to nothing; the sandbox follows the cycle ten steps and shows the name it stops at
### export-through-nameref
exec 2>&1; x=1; declare -n r=x; export r; declare -p x r; env | grep '^x='; readonly r; declare -p x r; r=2; echo "s=$? $x"
### unset-n-and-unset
exec 2>&1; x=1; declare -n r=x; unset -n r; declare -p r x; echo "s=$?"; declare -n r=x; unset r; declare -p r x; echo "s=$?"
### self-reference
exec 2>&1; declare -n r=r; echo "s=$?"; declare -n q; q=q; echo "s=$?"; declare -n p=x; declare p=p; echo "s=$?"; declare -p p x
### circular-reference
exec 2>&1; declare -n a=b b=a; echo "[$a]"; echo "s=$?"
### export-n-and-readonly-n
exec 2>&1; declare -n r=x; export -n r; declare -x r; readonly -n q=y; declare -p q; q=z; echo "s=$?"; declare -p q y
### export-n-new-and-nx
exec 2>&1; export -n r=x; echo "s=$?"; declare -p r; declare -nx e=v; declare -p e v; e=1; env | grep '^[ev]='
### invalid-targets
exec 2>&1; declare -n r=1x; echo "s=$?"; declare -n r='a b'; echo "s=$?"; declare -n r='m[1]'; r=5; declare -p m r; declare -n r=@; echo "s=$?"
### readonly-nameref-unset
exec 2>&1; x=1; declare -rn r=x; unset -n r; echo "s=$?"; unset r; echo "s=$?"; declare -p r x
### nameref-to-readonly
exec 2>&1; readonly x=1; declare -n r=x; r=2; echo "s=$?"; unset r; echo "s=$?"; unset -n r; echo "s=$?"; declare -p r
### plus-n-and-unset-v
exec 2>&1; declare -n r=x; declare +n r; declare -p r; declare -n s=y; s=3; declare -p s y; unset -v s; declare -p s y
### nameref-to-element
exec 2>&1; declare -a arr=(1 2); declare -n r=arr; declare -n r2=arr[1]; echo "${r[@]} $r2"; unset r2; declare -p arr; unset -n r2; declare -p r2
### function-local-nameref
exec 2>&1; f() { local -n ref=$1; ref=changed; }; v=orig; f v; echo $v
### unset-nameref-empty
exec 2>&1; declare -n r; declare -p r; r=x; declare -p r; echo "${!r}"; x=9; echo "$r ${!r}"
### export-readonly-assign-through
exec 2>&1; declare -n r=x; export r=5; declare -p r x; readonly r=6; echo "s=$?"; declare -p x
### append-and-integer-through
exec 2>&1; declare -n r=x; x=(a b); r+=(c); declare -p x; declare -i r; declare -p r x
### unset-options
exec 2>&1; x=1; unset -nv x; echo "s=$?"; y=1; unset -vn y; echo "s=$?"; unset -fv x; echo "s=$?"; unset -x x; echo "s=$?"; unset -fn nothere; echo "s=$?"; z=1; unset -- z; echo "s=$? ${z-gone}"
### unset-n-readonly-chain
exec 2>&1; declare -n r=PATH; readonly -n rr=r; declare -p rr; unset -n rr; echo "s=$?"; unset -n nonexistent; echo "s=$?"

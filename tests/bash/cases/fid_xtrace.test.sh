# fid_xtrace: set -x trace lines (stderr sent to stdout): prefix assignments, assignments alone, function calls, declaration builtins, word quoting, PS4 and nesting levels, [[ ]], (( )), for and case
# Known divergences: none
### prefix-assignments
exec 2>&1; set -x; a=1 b=2 echo hi there; a=1 b='x y' c= printenv b
### prefix-assignment-order
exec 2>&1; set -x; x=$(echo a) y=`echo b` echo $(echo c)
### prefix-append-and-list
exec 2>&1; a=1; set -x; a+=x printenv a; b=(x y) printenv b
### prefix-subscript-error
exec 2>&1; set -x; a[1]=x echo hi; echo "s=$?"
### assignments-alone
exec 2>&1; set -x; a=1 b='x y' c= d="it's" e=$'l1\nl2' f=$'\001\177' g="'"
### assignment-value-quoting
exec 2>&1; set -x; w='~' v='a~' u='=~' t='#x' s='a#' r='^' p='%' o='-' n='a:~' m='x*' l='$y' k='{a}' j='!' i='a|b'
### assignment-operators
exec 2>&1; set -x; i=1; a[$i]=x; a[i+1]+=y; declare -i n; n=1+2; n+=3; x+=1; echo "${a[@]} $n $x"
### assignment-arrays
exec 2>&1; set -x; y=4; a=(1    2
  3 "$y"); a+=(z); declare -A m; m[$y]=1; m+=([k]=v)
### function-call-prefix
exec 2>&1; set -x; f() { echo "$1 $v"; }; v=1 w='two words' f 'arg one' "" "q'uote"
### declare-lines
exec 2>&1; set -x; declare x=1 y='a b'; declare -i n=1+2; declare -r ro=1; typeset t=1; declare -g g=1; declare k= 'k2=a'"'"'b' k3=$'\001'
### declare-arrays
exec 2>&1; set -x; x=5; declare -a arr=(1 'two three' "$x"); declare -A m=([k]=v ["a b"]=$x); declare a2=(); declare -a 'q=(1 2)'
### declare-array-subscripts
exec 2>&1; set -x; i=2; declare -a a=([$i]=x [i+1]=y "$i z") x=3; declare -A m=([$i]=x [a+=b]+=y); declare -a a+=(5)
### declare-assoc-pairs-and-errors
exec 2>&1; set -x; declare -A m3=(k1 v1 k2); declare -A m=([k]="it's" [$'t\tb']=$'n\nl' [""]=e); declare -p m3
### local-lines
exec 2>&1; f() { local a=1 b='c d'; local -i n=3; local -a la=(1 2) e=(); local -A lm=([k]=v); local z; local; }; set -x; f
### export-readonly-lines
exec 2>&1; set -x; export A=1 B 'C=x y'; export -n A=3; readonly R='a b'; readonly E; declare -x D='q r'; export e1=(1 2); readonly r2=(1 'x y'); readonly -a r3=(1); export -a e3=(a)
### word-quoting
exec 2>&1; set -x; echo 'a b' "c\"d" '' $'tab\there' 'x*' '$y' "a'b" '~' 'x=1' '#c' 'a#' '!' '{a}' '[x]' "'" '\' '%' '^' 'a:~' '=' $'\e' $'\x01' $'a\x01 b' '-' '@' ',' 'a;b' 'a&b' '(x)' '<' '?'
### word-quoting-tilde-assignment-words
exec 2>&1; HOME=/h; set -x; echo x=~ x=a:~/b y=~:~ a[1]=~ x+=~ 1x=~ --o=~ x=~q "x"=~ x="~" x=\~ x=$HOME~
### word-quoting-utf8
export LC_ALL=C.utf8
exec 2>&1; set -x; echo é 'é b' $'\u00e9\x01' $'\xff'
### ps4-changes
exec 2>&1; set -x; i=7; PS4='>> '; echo x; PS4='$((1+1))${i}> '; echo y; PS4=''; echo z; PS4='+ '; echo w
### ps4-unset
exec 2>&1; set -x; unset PS4; echo hi; PS4='++ '; echo there
### nesting-levels
exec 2>&1; set -x; echo $(echo $(echo deep)); x=$(echo sub); eval 'echo a; echo $(echo b)'; eval "eval 'echo d'"
### nesting-levels-ps4
exec 2>&1; PS4='-> '; set -x; echo $(echo in); eval 'echo e'
### nesting-function-and-subshell
exec 2>&1; set -x; f() { echo $(echo in); }; f; ( echo sub ); { echo grp; }
### cond-terms
exec 2>&1; set -x; x=ab; [[ $x == a* ]]; [[ $x == "a*" ]]; [[ ! -z $x ]]; [[ -z "" ]]; [[ "" == "" ]]; [[ "a b" != x\ y ]]; [[ 1 -eq 1 ]]; [[ x < "y z" ]]; [[ $x ]]; [[ ! $x ]]; [[ -v x ]]; [[ a == @(a|b) ]]; [[ $x = "$x"* ]]
### cond-regex-and-groups
exec 2>&1; set -x; x=ab; [[ $x =~ ^"a.b"(c)? ]]; [[ $x =~ $x ]]; [[ x =~ "a.b-c|d" ]]; [[ x =~ x"["\] ]]; [[ ! ( -z $x || -n "" ) ]]; [[ 1 -lt 2 && ! 2 -gt 3 ]]; [[ 1 -gt 2 && 3 -lt 4 ]]
### arith-commands
exec 2>&1; set -x; y=4; (( x = 1 + 2 )); (( $y + 1 )); (( y++ )); ((x=1, y=2)); (( )); echo "s=$?"
### arith-for
exec 2>&1; set -x; n=0; for ((;;)); do ((n++ == 1)) && break; done; for (( i = 0 ; i < 2 ; i++ )); do :; done; for ((i=0;;)); do break; done
### for-and-case
exec 2>&1; set -x; x=ab; for k in $x "$x" ${x}y  $(echo q); do :; done; set -- a 'b c'; for k; do :; done; case $x/"q" in *) : ;; esac; case x in  (x) ;; esac
### trace-off
exec 2>&1; set -x; echo a; set +x; echo b

a=(1 "two" [5]=x); declare -A m=([k]=v); echo ${#a[@]} ${!m[@]} $(( 2 ** 10 ))

[[ $a == b* && -n $c ]] && (( x++ ))
for ((i=0;i<3;i++)); do :; done

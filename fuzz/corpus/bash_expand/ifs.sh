set -- a "b c"; IFS=:; echo "$*" "$@"; read -r p q <<< "1 2"; echo $p$q

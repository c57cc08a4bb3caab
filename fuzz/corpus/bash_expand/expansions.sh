echo {a,b}{1..3} ${x:-def} ${#y} $((1+2*3)) ~ "$(echo sub)"

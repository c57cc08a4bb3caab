function f(a, b) { return a ~ /x+/ ? substr(b, 2) : length(b) }
{ print f($1, $2) > "/dev/stderr"; getline line < "file" }
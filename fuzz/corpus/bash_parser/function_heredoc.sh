f() { local x=${1:-d}; echo "${x//a/b}"; }
cat <<EOF | f
$HOME
EOF

# lang_scripts: associative-array ordering and realistic multi-function scripts
# Known divergences: none
### t14-a
declare -A m=([b]=2 [a]=1 [c]=3 [apple]=x [banana]=y); echo ${!m[@]}; echo ${m[@]}
### t14-b
declare -A m; for w in the quick brown fox jumps over the lazy dog; do m[$w]=$(( ${m[$w]:-0} + 1 )); done; for k in "${!m[@]}"; do echo "$k ${m[$k]}"; done
### t14-c
declare -A m=([x]=1 [y]=2 [z]=3); declare -p m
### t14-d
declare -A m=([one]=1); m+=([two]=2 [three]=3); echo "${!m[@]}"
### t14-e
declare -A conf; conf[host]=localhost; conf[port]=8080; conf[user]=admin; for k in "${!conf[@]}"; do printf '%s=%s\n' "$k" "${conf[$k]}"; done
### t14-f
declare -A m; for i in {1..40}; do m[k$i]=$i; done; echo "${!m[@]}"
### t15-a
#!/usr/bin/env bash
set -euo pipefail

log() { printf '[%s] %s\n' "$1" "${*:2}"; }
die() { log ERROR "$@"; exit 1; }

declare -a items=()
add_item() {
  local name=$1 qty=${2:-1}
  [[ $qty =~ ^[0-9]+$ ]] || die "bad qty for $name: $qty"
  items+=("$name:$qty")
}

add_item apple 3
add_item pear
add_item "green grape" 12

total=0
for entry in "${items[@]}"; do
  name=${entry%%:*}
  qty=${entry##*:}
  (( total += qty ))
  log INFO "$name x$qty"
done
log INFO "total=$total items=${#items[@]}"
add_item broken x
echo unreachable
### t15-b
mkdir -p project/{src,tests,docs}
touch project/src/{main,util}.py project/tests/test_main.py
count=0
for f in project/*/*.py; do
  count=$((count + 1))
  echo "${f#project/}"
done
echo "found $count python files"
### t15-c
cat > config.ini <<'EOF'
[server]
host = example.org
port = 8080

[client]
retries = 3
EOF
section=""
while IFS= read -r line || [[ -n $line ]]; do
  line=${line%%#*}
  [[ -z ${line// } ]] && continue
  if [[ $line =~ ^\[(.+)\]$ ]]; then
    section=${BASH_REMATCH[1]}
  elif [[ $line =~ ^([^=]+)=(.*)$ ]]; then
    key=${BASH_REMATCH[1]// /}
    val=${BASH_REMATCH[2]# }
    echo "$section.$key=$val"
  fi
done < config.ini
### t15-d
fib() {
  local -i n=$1 a=0 b=1 t
  while (( n-- > 0 )); do (( t = a + b, a = b, b = t )); done
  echo $a
}
for i in 0 1 2 10 20 50; do printf '%d:%d\n' $i "$(fib $i)"; done
### t15-e
usage() { echo "usage: $0 [-v] [-n N] file..."; }
verbose=0; n=1
parse() {
  local OPTIND opt
  while getopts ":vn:h" opt; do
    case $opt in
      v) verbose=1 ;;
      n) n=$OPTARG ;;
      h) usage; return 0 ;;
      :) echo "missing arg for -$OPTARG" >&2; return 2 ;;
      \?) echo "unknown -$OPTARG" >&2; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "verbose=$verbose n=$n files=$*"
}
parse -v -n 5 a.txt b.txt
parse -x; echo "status $?"
parse -n; echo "status $?"
### t15-f
stack=(); push() { stack+=("$1"); }; pop() { local top=${stack[-1]}; unset 'stack[-1]'; echo "$top"; }
push a; push b; push c; pop; pop; push d; echo "${stack[*]}"
### t15-g
to_upper() { local s=$1; echo "${s^^}"; }
mapfile -t words <<< $'alpha\nbeta\ngamma'
for w in "${words[@]}"; do printf '%s ' "$(to_upper "$w")"; done; echo
### t15-h
json='{"a": 1, "b": [1,2]}'
echo "$json" | tr -d ' ' | sed 's/[{}]//g' | tr ',' '\n' | head -2
### t15-i
retry() { local n=0; until "$@"; do n=$((n+1)); (( n >= 3 )) && { echo "gave up after $n"; return 1; }; done; }
attempt=0; flaky() { attempt=$((attempt+1)); (( attempt >= 2 )); }
retry flaky && echo "ok after $attempt"; retry false
### t15-j
str="The quick brown fox"; words=($str); echo "${#words[@]} words, last=${words[-1]}, rev:"; for ((i=${#words[@]}-1; i>=0; i--)); do printf '%s ' "${words[i]}"; done; echo

shopt -s extglob; echo @(a|b)*.txt <(echo x) {1..3}

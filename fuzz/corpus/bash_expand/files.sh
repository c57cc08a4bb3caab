mkdir -p a/b && echo hi > a/b/c.txt && cat a/*/c.txt | tr a-z A-Z; ls -R

echo "a $b" c >out 2>&1

for i in $(seq 3); do printf "%s-%d\n" x $i; done | sort -r | head -2

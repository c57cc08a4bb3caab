0~2{s/(a|b)+/<&>/2w out.txt
}
/start/,+3 c\
replaced
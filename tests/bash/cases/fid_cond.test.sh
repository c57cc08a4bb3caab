# fid_cond: [[ ]] and test: operators over awkward operands, malformed expressions
# Known divergences: none
### b00-p0-x
l=abc r=abc; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p1-x
l=a r=b; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p2-x
l=10 r=9; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p3-x
l='' r=''; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p4-x
l=-z r=-n; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p5-x
l=1 r=' 1'; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p6-x
l='a*' r=abc; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p7-x
l=abc r='a*'; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p8-x
l=0x10 r=16; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b00-p9-x
l='(' r=')'; [[ $l == $r ]]; echo "dbl=$?"; [[ $l == "$r" ]]; echo "q=$?"; test "$l" == "$r"; echo "test=$?"
### b01-p0-x
l=abc r=abc; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p1-x
l=a r=b; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p2-x
l=10 r=9; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p3-x
l='' r=''; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p4-x
l=-z r=-n; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p5-x
l=1 r=' 1'; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p6-x
l='a*' r=abc; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p7-x
l=abc r='a*'; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p8-x
l=0x10 r=16; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b01-p9-x
l='(' r=')'; [[ $l != $r ]]; echo "dbl=$?"; [[ $l != "$r" ]]; echo "q=$?"; test "$l" '!=' "$r"; echo "test=$?"
### b02-p0-x
l=abc r=abc; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p1-x
l=a r=b; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p2-x
l=10 r=9; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p3-x
l='' r=''; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p4-x
l=-z r=-n; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p5-x
l=1 r=' 1'; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p6-x
l='a*' r=abc; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p7-x
l=abc r='a*'; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p8-x
l=0x10 r=16; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b02-p9-x
l='(' r=')'; [[ $l = $r ]]; echo "dbl=$?"; [[ $l = "$r" ]]; echo "q=$?"; test "$l" = "$r"; echo "test=$?"
### b03-p0-x
l=abc r=abc; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p1-x
l=a r=b; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p2-x
l=10 r=9; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p3-x
l='' r=''; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p4-x
l=-z r=-n; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p5-x
l=1 r=' 1'; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p6-x
l='a*' r=abc; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p7-x
l=abc r='a*'; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p8-x
l=0x10 r=16; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b03-p9-x
l='(' r=')'; [[ $l < $r ]]; echo "dbl=$?"; [[ $l < "$r" ]]; echo "q=$?"; test "$l" '<' "$r"; echo "test=$?"
### b04-p0-x
l=abc r=abc; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p1-x
l=a r=b; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p2-x
l=10 r=9; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p3-x
l='' r=''; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p4-x
l=-z r=-n; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p5-x
l=1 r=' 1'; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p6-x
l='a*' r=abc; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p7-x
l=abc r='a*'; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p8-x
l=0x10 r=16; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b04-p9-x
l='(' r=')'; [[ $l > $r ]]; echo "dbl=$?"; [[ $l > "$r" ]]; echo "q=$?"; test "$l" '>' "$r"; echo "test=$?"
### b05-p0-eq
l=abc r=abc; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p1-eq
l=a r=b; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p2-eq
l=10 r=9; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p3-eq
l='' r=''; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p4-eq
l=-z r=-n; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p5-eq
l=1 r=' 1'; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p6-eq
l='a*' r=abc; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p7-eq
l=abc r='a*'; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p8-eq
l=0x10 r=16; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b05-p9-eq
l='(' r=')'; [[ $l -eq $r ]]; echo "dbl=$?"; [[ $l -eq "$r" ]]; echo "q=$?"; test "$l" -eq "$r"; echo "test=$?"
### b06-p0-ne
l=abc r=abc; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p1-ne
l=a r=b; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p2-ne
l=10 r=9; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p3-ne
l='' r=''; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p4-ne
l=-z r=-n; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p5-ne
l=1 r=' 1'; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p6-ne
l='a*' r=abc; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p7-ne
l=abc r='a*'; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p8-ne
l=0x10 r=16; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b06-p9-ne
l='(' r=')'; [[ $l -ne $r ]]; echo "dbl=$?"; [[ $l -ne "$r" ]]; echo "q=$?"; test "$l" -ne "$r"; echo "test=$?"
### b07-p0-lt
l=abc r=abc; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p1-lt
l=a r=b; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p2-lt
l=10 r=9; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p3-lt
l='' r=''; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p4-lt
l=-z r=-n; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p5-lt
l=1 r=' 1'; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p6-lt
l='a*' r=abc; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p7-lt
l=abc r='a*'; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p8-lt
l=0x10 r=16; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b07-p9-lt
l='(' r=')'; [[ $l -lt $r ]]; echo "dbl=$?"; [[ $l -lt "$r" ]]; echo "q=$?"; test "$l" -lt "$r"; echo "test=$?"
### b08-p0-le
l=abc r=abc; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p1-le
l=a r=b; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p2-le
l=10 r=9; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p3-le
l='' r=''; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p4-le
l=-z r=-n; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p5-le
l=1 r=' 1'; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p6-le
l='a*' r=abc; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p7-le
l=abc r='a*'; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p8-le
l=0x10 r=16; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b08-p9-le
l='(' r=')'; [[ $l -le $r ]]; echo "dbl=$?"; [[ $l -le "$r" ]]; echo "q=$?"; test "$l" -le "$r"; echo "test=$?"
### b09-p0-gt
l=abc r=abc; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p1-gt
l=a r=b; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p2-gt
l=10 r=9; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p3-gt
l='' r=''; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p4-gt
l=-z r=-n; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p5-gt
l=1 r=' 1'; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p6-gt
l='a*' r=abc; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p7-gt
l=abc r='a*'; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p8-gt
l=0x10 r=16; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b09-p9-gt
l='(' r=')'; [[ $l -gt $r ]]; echo "dbl=$?"; [[ $l -gt "$r" ]]; echo "q=$?"; test "$l" -gt "$r"; echo "test=$?"
### b10-p0-ge
l=abc r=abc; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p1-ge
l=a r=b; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p2-ge
l=10 r=9; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p3-ge
l='' r=''; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p4-ge
l=-z r=-n; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p5-ge
l=1 r=' 1'; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p6-ge
l='a*' r=abc; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p7-ge
l=abc r='a*'; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p8-ge
l=0x10 r=16; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b10-p9-ge
l='(' r=')'; [[ $l -ge $r ]]; echo "dbl=$?"; [[ $l -ge "$r" ]]; echo "q=$?"; test "$l" -ge "$r"; echo "test=$?"
### b11-p0-x
l=abc r=abc; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p1-x
l=a r=b; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p2-x
l=10 r=9; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p3-x
l='' r=''; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p4-x
l=-z r=-n; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p5-x
l=1 r=' 1'; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p6-x
l='a*' r=abc; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p7-x
l=abc r='a*'; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p8-x
l=0x10 r=16; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### b11-p9-x
l='(' r=')'; [[ $l =~ $r ]]; echo "dbl=$?"; [[ $l =~ "$r" ]]; echo "q=$?"
### u00-o0-z
touch f; mkdir d; x=1; set -e; v=''; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o1-z
touch f; mkdir d; x=1; set -e; v=f; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o2-z
touch f; mkdir d; x=1; set -e; v=d; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o3-z
touch f; mkdir d; x=1; set -e; v=nope; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o4-z
touch f; mkdir d; x=1; set -e; v=x; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o5-z
touch f; mkdir d; x=1; set -e; v=errexit; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u00-o6-z
touch f; mkdir d; x=1; set -e; v=-z; [[ -z $v ]]; echo "dbl=$?"; [ -z "$v" ]; echo "test=$?"
### u01-o0-n
touch f; mkdir d; x=1; set -e; v=''; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o1-n
touch f; mkdir d; x=1; set -e; v=f; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o2-n
touch f; mkdir d; x=1; set -e; v=d; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o3-n
touch f; mkdir d; x=1; set -e; v=nope; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o4-n
touch f; mkdir d; x=1; set -e; v=x; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o5-n
touch f; mkdir d; x=1; set -e; v=errexit; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u01-o6-n
touch f; mkdir d; x=1; set -e; v=-z; [[ -n $v ]]; echo "dbl=$?"; [ -n "$v" ]; echo "test=$?"
### u02-o0-e
touch f; mkdir d; x=1; set -e; v=''; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o1-e
touch f; mkdir d; x=1; set -e; v=f; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o2-e
touch f; mkdir d; x=1; set -e; v=d; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o3-e
touch f; mkdir d; x=1; set -e; v=nope; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o4-e
touch f; mkdir d; x=1; set -e; v=x; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o5-e
touch f; mkdir d; x=1; set -e; v=errexit; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u02-o6-e
touch f; mkdir d; x=1; set -e; v=-z; [[ -e $v ]]; echo "dbl=$?"; [ -e "$v" ]; echo "test=$?"
### u03-o0-f
touch f; mkdir d; x=1; set -e; v=''; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o1-f
touch f; mkdir d; x=1; set -e; v=f; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o2-f
touch f; mkdir d; x=1; set -e; v=d; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o3-f
touch f; mkdir d; x=1; set -e; v=nope; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o4-f
touch f; mkdir d; x=1; set -e; v=x; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o5-f
touch f; mkdir d; x=1; set -e; v=errexit; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u03-o6-f
touch f; mkdir d; x=1; set -e; v=-z; [[ -f $v ]]; echo "dbl=$?"; [ -f "$v" ]; echo "test=$?"
### u04-o0-d
touch f; mkdir d; x=1; set -e; v=''; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o1-d
touch f; mkdir d; x=1; set -e; v=f; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o2-d
touch f; mkdir d; x=1; set -e; v=d; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o3-d
touch f; mkdir d; x=1; set -e; v=nope; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o4-d
touch f; mkdir d; x=1; set -e; v=x; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o5-d
touch f; mkdir d; x=1; set -e; v=errexit; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u04-o6-d
touch f; mkdir d; x=1; set -e; v=-z; [[ -d $v ]]; echo "dbl=$?"; [ -d "$v" ]; echo "test=$?"
### u05-o0-s
touch f; mkdir d; x=1; set -e; v=''; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o1-s
touch f; mkdir d; x=1; set -e; v=f; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o2-s
touch f; mkdir d; x=1; set -e; v=d; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o3-s
touch f; mkdir d; x=1; set -e; v=nope; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o4-s
touch f; mkdir d; x=1; set -e; v=x; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o5-s
touch f; mkdir d; x=1; set -e; v=errexit; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u05-o6-s
touch f; mkdir d; x=1; set -e; v=-z; [[ -s $v ]]; echo "dbl=$?"; [ -s "$v" ]; echo "test=$?"
### u06-o0-r
touch f; mkdir d; x=1; set -e; v=''; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o1-r
touch f; mkdir d; x=1; set -e; v=f; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o2-r
touch f; mkdir d; x=1; set -e; v=d; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o3-r
touch f; mkdir d; x=1; set -e; v=nope; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o4-r
touch f; mkdir d; x=1; set -e; v=x; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o5-r
touch f; mkdir d; x=1; set -e; v=errexit; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u06-o6-r
touch f; mkdir d; x=1; set -e; v=-z; [[ -r $v ]]; echo "dbl=$?"; [ -r "$v" ]; echo "test=$?"
### u07-o0-w
touch f; mkdir d; x=1; set -e; v=''; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o1-w
touch f; mkdir d; x=1; set -e; v=f; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o2-w
touch f; mkdir d; x=1; set -e; v=d; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o3-w
touch f; mkdir d; x=1; set -e; v=nope; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o4-w
touch f; mkdir d; x=1; set -e; v=x; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o5-w
touch f; mkdir d; x=1; set -e; v=errexit; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u07-o6-w
touch f; mkdir d; x=1; set -e; v=-z; [[ -w $v ]]; echo "dbl=$?"; [ -w "$v" ]; echo "test=$?"
### u08-o0-x
touch f; mkdir d; x=1; set -e; v=''; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o1-x
touch f; mkdir d; x=1; set -e; v=f; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o2-x
touch f; mkdir d; x=1; set -e; v=d; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o3-x
touch f; mkdir d; x=1; set -e; v=nope; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o4-x
touch f; mkdir d; x=1; set -e; v=x; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o5-x
touch f; mkdir d; x=1; set -e; v=errexit; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u08-o6-x
touch f; mkdir d; x=1; set -e; v=-z; [[ -x $v ]]; echo "dbl=$?"; [ -x "$v" ]; echo "test=$?"
### u09-o0-L
touch f; mkdir d; x=1; set -e; v=''; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o1-L
touch f; mkdir d; x=1; set -e; v=f; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o2-L
touch f; mkdir d; x=1; set -e; v=d; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o3-L
touch f; mkdir d; x=1; set -e; v=nope; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o4-L
touch f; mkdir d; x=1; set -e; v=x; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o5-L
touch f; mkdir d; x=1; set -e; v=errexit; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u09-o6-L
touch f; mkdir d; x=1; set -e; v=-z; [[ -L $v ]]; echo "dbl=$?"; [ -L "$v" ]; echo "test=$?"
### u10-o0-v
touch f; mkdir d; x=1; set -e; v=''; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o1-v
touch f; mkdir d; x=1; set -e; v=f; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o2-v
touch f; mkdir d; x=1; set -e; v=d; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o3-v
touch f; mkdir d; x=1; set -e; v=nope; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o4-v
touch f; mkdir d; x=1; set -e; v=x; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o5-v
touch f; mkdir d; x=1; set -e; v=errexit; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u10-o6-v
touch f; mkdir d; x=1; set -e; v=-z; [[ -v $v ]]; echo "dbl=$?"; [ -v "$v" ]; echo "test=$?"
### u11-o0-o
touch f; mkdir d; x=1; set -e; v=''; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o1-o
touch f; mkdir d; x=1; set -e; v=f; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o2-o
touch f; mkdir d; x=1; set -e; v=d; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o3-o
touch f; mkdir d; x=1; set -e; v=nope; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o4-o
touch f; mkdir d; x=1; set -e; v=x; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o5-o
touch f; mkdir d; x=1; set -e; v=errexit; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### u11-o6-o
touch f; mkdir d; x=1; set -e; v=-z; [[ -o $v ]]; echo "dbl=$?"; [ -o "$v" ]; echo "test=$?"
### m-dbl-empty
[[ ]]; echo "s=$?"
### m-dbl-z-alone
[[ -z ]]; echo "s=$?"
### m-dbl-paren-unclosed
[[ ( foo ]]; echo "s=$?"
### m-dbl-quoted-paren
[[ '(' foo ]]; echo "s=$?"
### m-dbl-3lt
[[ a 3< b ]]; echo "s=$?"
### m-dbl-op-operand
[[ -n == -n ]] && echo same; [[ -f ]] && echo f-string
### m-dbl-tilde
HOME=/h; [[ ~ == /h ]] && echo tilde; [[ ~/x == /h/x ]] && echo tildepath
### m-dbl-tilde-quoted
HOME=/h; [[ "~" == /h ]] || echo literal
### m-dbl-not-alone
[[ ! ]]; echo "s=$?"
### m-dbl-and-trailing
[[ a && ]]; echo "s=$?"
### m-dbl-unknown-binary
[[ a -foo b ]]; echo "s=$?"
### m-dbl-regex-bad
[[ a =~ ( ]]; echo "s=$?"
### m-dbl-regex-bad-var
re='('; [[ a =~ $re ]]; echo "s=$?"
### m-dbl-regex-unclosed-group
[[ a =~ (a ]]; echo "s=$?"
### m-dbl-regex-unclosed-second-group
[[ a =~ (a)(b ]]; echo "s=$?"
### m-dbl-regex-bracket-paren
[[ a =~ [(] ]]; echo "s=$?"
### m-dbl-regex-unclosed-stops-line
echo before; [[ a =~ ( ]] || echo no; echo after
### m-dbl-regex-group-blanks
[[ a =~ (a|b) ]] && echo m; [[ "a b" =~ (a b) ]] && echo sp; [[ x =~ ( x ) ]]; echo "s=$?"
### m-dbl-regex-group-metachars
[[ "a;b" =~ (a;b) ]] && echo semi; [[ "a<b" =~ (a<b) ]] && echo lt; [[ "a&b" =~ (a&b) ]] && echo amp; [[ "a||b" =~ (a\|\|b) ]] && echo or
### m-dbl-regex-group-newline
[[ "a
b" =~ ^(a
b)$ ]] && echo nl
### m-dbl-regex-group-quotes
[[ "a)" =~ (a\)) ]] && echo bs; [[ "a)" =~ (a")") ]] && echo dq; [[ "a)" =~ (a')') ]] && echo sq; x=a; [[ a =~ ($x) ]] && echo "${BASH_REMATCH[1]}"; [[ ab =~ ($(echo a))b ]] && echo cs
### m-dbl-regex-group-spans-brackets
[[ a =~ ( ]
]] ) ]]; echo "s=$?"
### m-dbl-regex-pipes
[[ a =~ x||a ]] && echo y; [[ a =~ x|a ]] && echo z; [[ a =~ a || b ]]; echo "s=$?"
### m-dbl-regex-pipes-then-word
[[ x =~ x|| b ]]; echo "s=$?"
### m-dbl-regex-lt-ends-word
false; [[ a =~ a<b ]]; echo "s=$?"
### m-dbl-regex-quoted-paren
[[ a =~ '(' ]]; echo "s=$?"; [[ '(' =~ \( ]] && echo lit
### m-dbl-regex-group-then-and
[[ "a" =~ (a) && b == b ]]; echo "s=$?"; [[ a =~ () ]]; echo "e=$?"
### m-dbl-regex-group-in-function
f() { [[ $1 =~ ^(x|y) (z)$ ]] && echo "${BASH_REMATCH[2]}"; }; f "x z"; declare -f f
### m-dbl-regex-class
[[ a1 =~ ^[[:alpha:]][[:digit:]]$ ]] && echo cls
### m-dbl-int-error
[[ abc -eq 1 ]]; echo "s=$?"
### m-dbl-int-expr
x=2; [[ x*3 -eq 6 ]] && echo six
### m-dbl-int-bad-expr
[[ 1+ -eq 1 ]]; echo "s=$?"
### m-dbl-nt
touch a; [[ a -nt nope ]] && echo newer; [[ nope -ot a ]] && echo older
### m-dbl-ef
touch a; ln -s a b; [[ a -ef b ]] && echo same
### m-dbl-o-option
set -u; [[ -o nounset ]] && echo on; [[ -o bogus ]]; echo "s=$?"
### m-dbl-v-array
a=(1); [[ -v a[0] ]] && echo a0; [[ -v a[3] ]] || echo no3
### m-dbl-v-assoc
declare -A m=([k]=1); [[ -v m[k] ]] && echo mk; [[ -v m[z] ]] || echo nz
### m-dbl-glob-quoted-part
x='a*c'; [[ abc == a"*"c ]] || echo nomatch; [[ $x == "a*c" ]] && echo lit
### m-dbl-nocasematch
shopt -s nocasematch; [[ ABC == abc ]] && echo ci; [[ ABC =~ ^ab ]] && echo ci-re
### m-dbl-newline-inside
[[ a == a
]] && echo nl
### m-dbl-bare-word
[[ -- ]] && echo dashes; [[ -a ]] && echo dasha
### m-test-too-many
test a b c; echo "s=$?"
### m-test-unary-missing
test -f; echo "s=$?"; test -z; echo "s=$?"
### m-test-bad-binary
test a -foo b; echo "s=$?"
### m-test-paren-missing
test '(' a; echo "s=$?"
### m-test-bracket-no-close
[ a = a; echo "s=$?"
### m-test-four-args
test ! a = b && echo four
### m-test-lt-gt-strings
test b '>' a && echo gt; test a '<' b && echo lt
### m-test-int-spaces
test ' 3 ' -eq 3 && echo eq; test 3x -eq 3; echo "s=$?"
### m-test-big-int
test 99999999999999999999 -gt 1; echo "s=$?"
### m-test-neg-int
test -3 -lt -2 && echo lt
### m-test-a-o-prec
test a -o '' -a '' && echo or-first
### m-test-v
x=1; test -v x && echo set
### m-dbl-expansion-error-aborts
x='1 2'; [[ -n $(( x )) ]] || echo no; echo same-line
echo next-line $?
### m-dbl-operand-error-fails
x='1 2'; [[ x -eq 1 ]] || echo "no $?"

:top
/x$/ { N; s/x\n//; b top }
y/abc/ABC/
$!{h;d}
x;G
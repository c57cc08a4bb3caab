1~④p
s/a/b/④
q④

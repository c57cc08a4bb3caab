# fid_expand: parameter expansion operators over awkward values
# Known divergences: none
### e00-v0-x--d
unset x; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v1-x--d
x=''; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v2-x--d
x=abc; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v3-x--d
x=a/b/c; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v4-x--d
x='Hello World'; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v5-x--d
x=aaa; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v6-x--d
x='~/x'; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v7-x--d
x='a\nb'; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v8-x--d
x=/; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e00-v9-x--d
x='x*y'; printf '<%s>\n' "${x:-d}"; echo "s=$?"
### e01-v0-x-d
unset x; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v1-x-d
x=''; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v2-x-d
x=abc; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v3-x-d
x=a/b/c; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v4-x-d
x='Hello World'; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v5-x-d
x=aaa; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v6-x-d
x='~/x'; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v7-x-d
x='a\nb'; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v8-x-d
x=/; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e01-v9-x-d
x='x*y'; printf '<%s>\n' "${x-d}"; echo "s=$?"
### e02-v0-x-a
unset x; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v1-x-a
x=''; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v2-x-a
x=abc; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v3-x-a
x=a/b/c; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v4-x-a
x='Hello World'; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v5-x-a
x=aaa; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v6-x-a
x='~/x'; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v7-x-a
x='a\nb'; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v8-x-a
x=/; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e02-v9-x-a
x='x*y'; printf '<%s>\n' "${x:+a}"; echo "s=$?"
### e03-v0-x-a
unset x; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v1-x-a
x=''; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v2-x-a
x=abc; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v3-x-a
x=a/b/c; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v4-x-a
x='Hello World'; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v5-x-a
x=aaa; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v6-x-a
x='~/x'; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v7-x-a
x='a\nb'; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v8-x-a
x=/; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e03-v9-x-a
x='x*y'; printf '<%s>\n' "${x+a}"; echo "s=$?"
### e04-v0-x
unset x; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v1-x
x=''; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v2-x
x=abc; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v3-x
x=a/b/c; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v4-x
x='Hello World'; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v5-x
x=aaa; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v6-x
x='~/x'; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v7-x
x='a\nb'; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v8-x
x=/; printf '<%s>\n' "${#x}"; echo "s=$?"
### e04-v9-x
x='x*y'; printf '<%s>\n' "${#x}"; echo "s=$?"
### e05-v0-x
unset x; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v1-x
x=''; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v2-x
x=abc; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v3-x
x=a/b/c; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v4-x
x='Hello World'; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v5-x
x=aaa; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v6-x
x='~/x'; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v7-x
x='a\nb'; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v8-x
x=/; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e05-v9-x
x='x*y'; printf '<%s>\n' "${x#*/}"; echo "s=$?"
### e06-v0-x
unset x; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v1-x
x=''; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v2-x
x=abc; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v3-x
x=a/b/c; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v4-x
x='Hello World'; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v5-x
x=aaa; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v6-x
x='~/x'; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v7-x
x='a\nb'; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v8-x
x=/; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e06-v9-x
x='x*y'; printf '<%s>\n' "${x##*/}"; echo "s=$?"
### e07-v0-x
unset x; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v1-x
x=''; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v2-x
x=abc; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v3-x
x=a/b/c; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v4-x
x='Hello World'; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v5-x
x=aaa; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v6-x
x='~/x'; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v7-x
x='a\nb'; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v8-x
x=/; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e07-v9-x
x='x*y'; printf '<%s>\n' "${x%/*}"; echo "s=$?"
### e08-v0-x
unset x; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v1-x
x=''; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v2-x
x=abc; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v3-x
x=a/b/c; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v4-x
x='Hello World'; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v5-x
x=aaa; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v6-x
x='~/x'; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v7-x
x='a\nb'; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v8-x
x=/; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e08-v9-x
x='x*y'; printf '<%s>\n' "${x%%/*}"; echo "s=$?"
### e09-v0-x-a-b
unset x; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v1-x-a-b
x=''; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v2-x-a-b
x=abc; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v3-x-a-b
x=a/b/c; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v4-x-a-b
x='Hello World'; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v5-x-a-b
x=aaa; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v6-x-a-b
x='~/x'; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v7-x-a-b
x='a\nb'; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v8-x-a-b
x=/; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e09-v9-x-a-b
x='x*y'; printf '<%s>\n' "${x/a/b}"; echo "s=$?"
### e10-v0-x-a-b
unset x; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v1-x-a-b
x=''; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v2-x-a-b
x=abc; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v3-x-a-b
x=a/b/c; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v4-x-a-b
x='Hello World'; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v5-x-a-b
x=aaa; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v6-x-a-b
x='~/x'; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v7-x-a-b
x='a\nb'; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v8-x-a-b
x=/; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e10-v9-x-a-b
x='x*y'; printf '<%s>\n' "${x//a/b}"; echo "s=$?"
### e11-v0-x-a-b
unset x; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v1-x-a-b
x=''; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v2-x-a-b
x=abc; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v3-x-a-b
x=a/b/c; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v4-x-a-b
x='Hello World'; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v5-x-a-b
x=aaa; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v6-x-a-b
x='~/x'; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v7-x-a-b
x='a\nb'; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v8-x-a-b
x=/; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e11-v9-x-a-b
x='x*y'; printf '<%s>\n' "${x/#a/b}"; echo "s=$?"
### e12-v0-x-a-b
unset x; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v1-x-a-b
x=''; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v2-x-a-b
x=abc; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v3-x-a-b
x=a/b/c; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v4-x-a-b
x='Hello World'; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v5-x-a-b
x=aaa; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v6-x-a-b
x='~/x'; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v7-x-a-b
x='a\nb'; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v8-x-a-b
x=/; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e12-v9-x-a-b
x='x*y'; printf '<%s>\n' "${x/%a/b}"; echo "s=$?"
### e13-v0-x
unset x; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v1-x
x=''; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v2-x
x=abc; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v3-x
x=a/b/c; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v4-x
x='Hello World'; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v5-x
x=aaa; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v6-x
x='~/x'; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v7-x
x='a\nb'; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v8-x
x=/; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e13-v9-x
x='x*y'; printf '<%s>\n' "${x//\//-}"; echo "s=$?"
### e14-v0-x-ab-X
unset x; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v1-x-ab-X
x=''; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v2-x-ab-X
x=abc; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v3-x-ab-X
x=a/b/c; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v4-x-ab-X
x='Hello World'; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v5-x-ab-X
x=aaa; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v6-x-ab-X
x='~/x'; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v7-x-ab-X
x='a\nb'; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v8-x-ab-X
x=/; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e14-v9-x-ab-X
x='x*y'; printf '<%s>\n' "${x//[ab]/X}"; echo "s=$?"
### e15-v0-x-a-Z
unset x; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v1-x-a-Z
x=''; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v2-x-a-Z
x=abc; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v3-x-a-Z
x=a/b/c; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v4-x-a-Z
x='Hello World'; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v5-x-a-Z
x=aaa; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v6-x-a-Z
x='~/x'; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v7-x-a-Z
x='a\nb'; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v8-x-a-Z
x=/; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e15-v9-x-a-Z
x='x*y'; printf '<%s>\n' "${x/a*/Z}"; echo "s=$?"
### e16-v0-x-.
unset x; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v1-x-.
x=''; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v2-x-.
x=abc; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v3-x-.
x=a/b/c; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v4-x-.
x='Hello World'; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v5-x-.
x=aaa; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v6-x-.
x='~/x'; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v7-x-.
x='a\nb'; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v8-x-.
x=/; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e16-v9-x-.
x='x*y'; printf '<%s>\n' "${x//?/.}"; echo "s=$?"
### e17-v0-x
unset x; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v1-x
x=''; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v2-x
x=abc; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v3-x
x=a/b/c; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v4-x
x='Hello World'; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v5-x
x=aaa; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v6-x
x='~/x'; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v7-x
x='a\nb'; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v8-x
x=/; printf '<%s>\n' "${x^}"; echo "s=$?"
### e17-v9-x
x='x*y'; printf '<%s>\n' "${x^}"; echo "s=$?"
### e18-v0-x
unset x; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v1-x
x=''; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v2-x
x=abc; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v3-x
x=a/b/c; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v4-x
x='Hello World'; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v5-x
x=aaa; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v6-x
x='~/x'; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v7-x
x='a\nb'; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v8-x
x=/; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e18-v9-x
x='x*y'; printf '<%s>\n' "${x^^}"; echo "s=$?"
### e19-v0-x
unset x; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v1-x
x=''; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v2-x
x=abc; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v3-x
x=a/b/c; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v4-x
x='Hello World'; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v5-x
x=aaa; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v6-x
x='~/x'; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v7-x
x='a\nb'; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v8-x
x=/; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e19-v9-x
x='x*y'; printf '<%s>\n' "${x,,}"; echo "s=$?"
### e20-v0-x
unset x; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v1-x
x=''; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v2-x
x=abc; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v3-x
x=a/b/c; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v4-x
x='Hello World'; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v5-x
x=aaa; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v6-x
x='~/x'; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v7-x
x='a\nb'; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v8-x
x=/; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e20-v9-x
x='x*y'; printf '<%s>\n' "${x~~}"; echo "s=$?"
### e21-v0-x-1
unset x; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v1-x-1
x=''; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v2-x-1
x=abc; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v3-x-1
x=a/b/c; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v4-x-1
x='Hello World'; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v5-x-1
x=aaa; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v6-x-1
x='~/x'; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v7-x-1
x='a\nb'; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v8-x-1
x=/; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e21-v9-x-1
x='x*y'; printf '<%s>\n' "${x:1}"; echo "s=$?"
### e22-v0-x-1-2
unset x; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v1-x-1-2
x=''; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v2-x-1-2
x=abc; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v3-x-1-2
x=a/b/c; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v4-x-1-2
x='Hello World'; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v5-x-1-2
x=aaa; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v6-x-1-2
x='~/x'; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v7-x-1-2
x='a\nb'; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v8-x-1-2
x=/; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e22-v9-x-1-2
x='x*y'; printf '<%s>\n' "${x:1:2}"; echo "s=$?"
### e23-v0-x--2
unset x; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v1-x--2
x=''; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v2-x--2
x=abc; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v3-x--2
x=a/b/c; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v4-x--2
x='Hello World'; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v5-x--2
x=aaa; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v6-x--2
x='~/x'; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v7-x--2
x='a\nb'; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v8-x--2
x=/; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e23-v9-x--2
x='x*y'; printf '<%s>\n' "${x: -2}"; echo "s=$?"
### e24-v0-x-0--1
unset x; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v1-x-0--1
x=''; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v2-x-0--1
x=abc; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v3-x-0--1
x=a/b/c; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v4-x-0--1
x='Hello World'; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v5-x-0--1
x=aaa; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v6-x-0--1
x='~/x'; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v7-x-0--1
x='a\nb'; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v8-x-0--1
x=/; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e24-v9-x-0--1
x='x*y'; printf '<%s>\n' "${x:0:-1}"; echo "s=$?"
### e25-v0-x-Q
unset x; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v1-x-Q
x=''; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v2-x-Q
x=abc; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v3-x-Q
x=a/b/c; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v4-x-Q
x='Hello World'; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v5-x-Q
x=aaa; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v6-x-Q
x='~/x'; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v7-x-Q
x='a\nb'; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v8-x-Q
x=/; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e25-v9-x-Q
x='x*y'; printf '<%s>\n' "${x@Q}"; echo "s=$?"
### e26-v0-x-U
unset x; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v1-x-U
x=''; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v2-x-U
x=abc; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v3-x-U
x=a/b/c; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v4-x-U
x='Hello World'; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v5-x-U
x=aaa; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v6-x-U
x='~/x'; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v7-x-U
x='a\nb'; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v8-x-U
x=/; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e26-v9-x-U
x='x*y'; printf '<%s>\n' "${x@U}"; echo "s=$?"
### e27-v0-x-L
unset x; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v1-x-L
x=''; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v2-x-L
x=abc; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v3-x-L
x=a/b/c; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v4-x-L
x='Hello World'; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v5-x-L
x=aaa; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v6-x-L
x='~/x'; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v7-x-L
x='a\nb'; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v8-x-L
x=/; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e27-v9-x-L
x='x*y'; printf '<%s>\n' "${x@L}"; echo "s=$?"
### e28-v0-x-u
unset x; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v1-x-u
x=''; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v2-x-u
x=abc; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v3-x-u
x=a/b/c; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v4-x-u
x='Hello World'; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v5-x-u
x=aaa; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v6-x-u
x='~/x'; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v7-x-u
x='a\nb'; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v8-x-u
x=/; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e28-v9-x-u
x='x*y'; printf '<%s>\n' "${x@u}"; echo "s=$?"
### e29-v0-x-A
unset x; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v1-x-A
x=''; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v2-x-A
x=abc; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v3-x-A
x=a/b/c; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v4-x-A
x='Hello World'; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v5-x-A
x=aaa; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v6-x-A
x='~/x'; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v7-x-A
x='a\nb'; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v8-x-A
x=/; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e29-v9-x-A
x='x*y'; printf '<%s>\n' "${x@A}"; echo "s=$?"
### e30-v0-x-a
unset x; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v1-x-a
x=''; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v2-x-a
x=abc; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v3-x-a
x=a/b/c; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v4-x-a
x='Hello World'; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v5-x-a
x=aaa; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v6-x-a
x='~/x'; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v7-x-a
x='a\nb'; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v8-x-a
x=/; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e30-v9-x-a
x='x*y'; printf '<%s>\n' "${x@a}"; echo "s=$?"
### e31-v0-x-E
unset x; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v1-x-E
x=''; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v2-x-E
x=abc; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v3-x-E
x=a/b/c; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v4-x-E
x='Hello World'; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v5-x-E
x=aaa; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v6-x-E
x='~/x'; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v7-x-E
x='a\nb'; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v8-x-E
x=/; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e31-v9-x-E
x='x*y'; printf '<%s>\n' "${x@E}"; echo "s=$?"
### e32-v0-x-a-q
unset x; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v1-x-a-q
x=''; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v2-x-a-q
x=abc; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v3-x-a-q
x=a/b/c; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v4-x-a-q
x='Hello World'; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v5-x-a-q
x=aaa; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v6-x-a-q
x='~/x'; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v7-x-a-q
x='a\nb'; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v8-x-a-q
x=/; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e32-v9-x-a-q
x='x*y'; printf '<%s>\n' "${x//"a"/q}"; echo "s=$?"
### e33-v0-x-T
unset x; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v1-x-T
x=''; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v2-x-T
x=abc; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v3-x-T
x=a/b/c; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v4-x-T
x='Hello World'; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v5-x-T
x=aaa; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v6-x-T
x='~/x'; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v7-x-T
x='a\nb'; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v8-x-T
x=/; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e33-v9-x-T
x='x*y'; printf '<%s>\n' "${x/\~/T}"; echo "s=$?"
### e34-v0-x-set
unset x; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v1-x-set
x=''; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v2-x-set
x=abc; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v3-x-set
x=a/b/c; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v4-x-set
x='Hello World'; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v5-x-set
x=aaa; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v6-x-set
x='~/x'; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v7-x-set
x='a\nb'; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v8-x-set
x=/; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e34-v9-x-set
x='x*y'; printf '<%s>\n' "${x:=set}"; echo "s=$?"
### e35-v0-x
unset x; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v1-x
x=''; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v2-x
x=abc; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v3-x
x=a/b/c; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v4-x
x='Hello World'; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v5-x
x=aaa; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v6-x
x='~/x'; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v7-x
x='a\nb'; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v8-x
x=/; printf '<%s>\n' "${x//}"; echo "s=$?"
### e35-v9-x
x='x*y'; printf '<%s>\n' "${x//}"; echo "s=$?"
### e36-v0-x-P
unset x; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v1-x-P
x=''; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v2-x-P
x=abc; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v3-x-P
x=a/b/c; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v4-x-P
x='Hello World'; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v5-x-P
x=aaa; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v6-x-P
x='~/x'; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v7-x-P
x='a\nb'; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v8-x-P
x=/; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e36-v9-x-P
x='x*y'; printf '<%s>\n' "${x/#/P}"; echo "s=$?"
### e37-v0-x-S
unset x; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v1-x-S
x=''; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v2-x-S
x=abc; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v3-x-S
x=a/b/c; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v4-x-S
x='Hello World'; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v5-x-S
x=aaa; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v6-x-S
x='~/x'; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v7-x-S
x='a\nb'; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v8-x-S
x=/; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e37-v9-x-S
x='x*y'; printf '<%s>\n' "${x/%/S}"; echo "s=$?"
### e38-v0-x
unset x; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v1-x
x=''; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v2-x
x=abc; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v3-x
x=a/b/c; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v4-x
x='Hello World'; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v5-x
x=aaa; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v6-x
x='~/x'; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v7-x
x='a\nb'; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v8-x
x=/; printf '<%s>\n' "${x#}"; echo "s=$?"
### e38-v9-x
x='x*y'; printf '<%s>\n' "${x#}"; echo "s=$?"
### e39-v0-x-x
unset x; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v1-x-x
x=''; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v2-x-x
x=abc; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v3-x-x
x=a/b/c; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v4-x-x
x='Hello World'; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v5-x-x
x=aaa; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v6-x-x
x='~/x'; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v7-x-x
x='a\nb'; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v8-x-x
x=/; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"
### e39-v9-x-x
x='x*y'; printf '<%s>\n' "${x%"${x#?}"}"; echo "s=$?"

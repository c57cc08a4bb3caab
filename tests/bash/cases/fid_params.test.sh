# fid_params: $@ / $* with IFS and empty arguments, positional edge cases
# Known divergences: none
### p00-a0-u-x
set -- ; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a0-q-x
set -- ; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a1-u-x
set -- ''; IFS=; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a1-q-x
set -- ''; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a2-u-x
set -- '' ''; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a2-q-x
set -- '' ''; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a3-u-x
set -- a; IFS=; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a3-q-x
set -- a; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a4-u-x
set -- a ''; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a4-q-x
set -- a ''; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a5-q-x
set -- 'a b' c; printf '<%s>' "${@-x}"; echo " n=$#"
### p00-a6-u-x
set -- '' a ''; printf '<%s>' ${@-x}; echo " n=$#"
### p00-a6-q-x
set -- '' a ''; printf '<%s>' "${@-x}"; echo " n=$#"
### p01-a0-u-x
set -- ; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a0-q-x
set -- ; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a1-u-x
set -- ''; IFS=; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a1-q-x
set -- ''; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a2-u-x
set -- '' ''; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a2-q-x
set -- '' ''; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a3-u-x
set -- a; IFS=; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a3-q-x
set -- a; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a4-u-x
set -- a ''; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a4-q-x
set -- a ''; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a5-q-x
set -- 'a b' c; printf '<%s>' "${@:-x}"; echo " n=$#"
### p01-a6-u-x
set -- '' a ''; printf '<%s>' ${@:-x}; echo " n=$#"
### p01-a6-q-x
set -- '' a ''; printf '<%s>' "${@:-x}"; echo " n=$#"
### p02-a0-u-x
set -- ; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a0-q-x
set -- ; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a1-u-x
set -- ''; IFS=; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a1-q-x
set -- ''; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a2-u-x
set -- '' ''; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a2-q-x
set -- '' ''; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a3-u-x
set -- a; IFS=; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a3-q-x
set -- a; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a4-u-x
set -- a ''; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a4-q-x
set -- a ''; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a5-q-x
set -- 'a b' c; printf '<%s>' "${*-x}"; echo " n=$#"
### p02-a6-u-x
set -- '' a ''; printf '<%s>' ${*-x}; echo " n=$#"
### p02-a6-q-x
set -- '' a ''; printf '<%s>' "${*-x}"; echo " n=$#"
### p03-a0-u-x
set -- ; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a0-q-x
set -- ; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a1-u-x
set -- ''; IFS=; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a1-q-x
set -- ''; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a2-u-x
set -- '' ''; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a2-q-x
set -- '' ''; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a3-u-x
set -- a; IFS=; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a3-q-x
set -- a; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a4-u-x
set -- a ''; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a4-q-x
set -- a ''; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a5-q-x
set -- 'a b' c; printf '<%s>' "${*:-x}"; echo " n=$#"
### p03-a6-u-x
set -- '' a ''; printf '<%s>' ${*:-x}; echo " n=$#"
### p03-a6-q-x
set -- '' a ''; printf '<%s>' "${*:-x}"; echo " n=$#"
### p04-a0-u-x
set -- ; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a0-q-x
set -- ; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a1-u-x
set -- ''; IFS=; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a1-q-x
set -- ''; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a2-u-x
set -- '' ''; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a2-q-x
set -- '' ''; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a3-u-x
set -- a; IFS=; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a3-q-x
set -- a; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a4-u-x
set -- a ''; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a4-q-x
set -- a ''; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a5-q-x
set -- 'a b' c; printf '<%s>' "${@+x}"; echo " n=$#"
### p04-a6-u-x
set -- '' a ''; printf '<%s>' ${@+x}; echo " n=$#"
### p04-a6-q-x
set -- '' a ''; printf '<%s>' "${@+x}"; echo " n=$#"
### p05-a0-u-x
set -- ; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a0-q-x
set -- ; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a1-u-x
set -- ''; IFS=; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a1-q-x
set -- ''; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a2-u-x
set -- '' ''; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a2-q-x
set -- '' ''; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a3-u-x
set -- a; IFS=; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a3-q-x
set -- a; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a4-u-x
set -- a ''; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a4-q-x
set -- a ''; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a5-q-x
set -- 'a b' c; printf '<%s>' "${*+x}"; echo " n=$#"
### p05-a6-u-x
set -- '' a ''; printf '<%s>' ${*+x}; echo " n=$#"
### p05-a6-q-x
set -- '' a ''; printf '<%s>' "${*+x}"; echo " n=$#"
### p06-a0-u-x
set -- ; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a0-q-x
set -- ; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a1-u-x
set -- ''; IFS=; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a1-q-x
set -- ''; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a2-u-x
set -- '' ''; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a2-q-x
set -- '' ''; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a3-u-x
set -- a; IFS=; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a3-q-x
set -- a; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a4-u-x
set -- a ''; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a4-q-x
set -- a ''; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a5-q-x
set -- 'a b' c; printf '<%s>' "${@:+x}"; echo " n=$#"
### p06-a6-u-x
set -- '' a ''; printf '<%s>' ${@:+x}; echo " n=$#"
### p06-a6-q-x
set -- '' a ''; printf '<%s>' "${@:+x}"; echo " n=$#"
### p07-a0-u-x
set -- ; printf '<%s>' $@; echo " n=$#"
### p07-a0-q-x
set -- ; printf '<%s>' "$@"; echo " n=$#"
### p07-a1-u-x
set -- ''; IFS=; printf '<%s>' $@; echo " n=$#"
### p07-a1-q-x
set -- ''; printf '<%s>' "$@"; echo " n=$#"
### p07-a2-u-x
set -- '' ''; printf '<%s>' $@; echo " n=$#"
### p07-a2-q-x
set -- '' ''; printf '<%s>' "$@"; echo " n=$#"
### p07-a3-u-x
set -- a; IFS=; printf '<%s>' $@; echo " n=$#"
### p07-a3-q-x
set -- a; printf '<%s>' "$@"; echo " n=$#"
### p07-a4-u-x
set -- a ''; printf '<%s>' $@; echo " n=$#"
### p07-a4-q-x
set -- a ''; printf '<%s>' "$@"; echo " n=$#"
### p07-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' $@; echo " n=$#"
### p07-a5-q-x
set -- 'a b' c; printf '<%s>' "$@"; echo " n=$#"
### p07-a6-u-x
set -- '' a ''; printf '<%s>' $@; echo " n=$#"
### p07-a6-q-x
set -- '' a ''; printf '<%s>' "$@"; echo " n=$#"
### p08-a0-u-x
set -- ; printf '<%s>' $*; echo " n=$#"
### p08-a0-q-x
set -- ; printf '<%s>' "$*"; echo " n=$#"
### p08-a1-u-x
set -- ''; IFS=; printf '<%s>' $*; echo " n=$#"
### p08-a1-q-x
set -- ''; printf '<%s>' "$*"; echo " n=$#"
### p08-a2-u-x
set -- '' ''; printf '<%s>' $*; echo " n=$#"
### p08-a2-q-x
set -- '' ''; printf '<%s>' "$*"; echo " n=$#"
### p08-a3-u-x
set -- a; IFS=; printf '<%s>' $*; echo " n=$#"
### p08-a3-q-x
set -- a; printf '<%s>' "$*"; echo " n=$#"
### p08-a4-u-x
set -- a ''; printf '<%s>' $*; echo " n=$#"
### p08-a4-q-x
set -- a ''; printf '<%s>' "$*"; echo " n=$#"
### p08-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' $*; echo " n=$#"
### p08-a5-q-x
set -- 'a b' c; printf '<%s>' "$*"; echo " n=$#"
### p08-a6-u-x
set -- '' a ''; printf '<%s>' $*; echo " n=$#"
### p08-a6-q-x
set -- '' a ''; printf '<%s>' "$*"; echo " n=$#"
### p09-a0-u-2
set -- ; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a0-q-2
set -- ; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a1-u-2
set -- ''; IFS=; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a1-q-2
set -- ''; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a2-u-2
set -- '' ''; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a2-q-2
set -- '' ''; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a3-u-2
set -- a; IFS=; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a3-q-2
set -- a; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a4-u-2
set -- a ''; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a4-q-2
set -- a ''; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a5-u-2
set -- 'a b' c; IFS=; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a5-q-2
set -- 'a b' c; printf '<%s>' "${@:2}"; echo " n=$#"
### p09-a6-u-2
set -- '' a ''; printf '<%s>' ${@:2}; echo " n=$#"
### p09-a6-q-2
set -- '' a ''; printf '<%s>' "${@:2}"; echo " n=$#"
### p10-a0-u-1-1
set -- ; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a0-q-1-1
set -- ; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a1-u-1-1
set -- ''; IFS=; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a1-q-1-1
set -- ''; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a2-u-1-1
set -- '' ''; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a2-q-1-1
set -- '' ''; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a3-u-1-1
set -- a; IFS=; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a3-q-1-1
set -- a; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a4-u-1-1
set -- a ''; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a4-q-1-1
set -- a ''; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a5-u-1-1
set -- 'a b' c; IFS=; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a5-q-1-1
set -- 'a b' c; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p10-a6-u-1-1
set -- '' a ''; printf '<%s>' ${*:1:1}; echo " n=$#"
### p10-a6-q-1-1
set -- '' a ''; printf '<%s>' "${*:1:1}"; echo " n=$#"
### p11-a0-u-x
set -- ; printf '<%s>' ${#@}; echo " n=$#"
### p11-a0-q-x
set -- ; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a1-u-x
set -- ''; IFS=; printf '<%s>' ${#@}; echo " n=$#"
### p11-a1-q-x
set -- ''; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a2-u-x
set -- '' ''; printf '<%s>' ${#@}; echo " n=$#"
### p11-a2-q-x
set -- '' ''; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a3-u-x
set -- a; IFS=; printf '<%s>' ${#@}; echo " n=$#"
### p11-a3-q-x
set -- a; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a4-u-x
set -- a ''; printf '<%s>' ${#@}; echo " n=$#"
### p11-a4-q-x
set -- a ''; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${#@}; echo " n=$#"
### p11-a5-q-x
set -- 'a b' c; printf '<%s>' "${#@}"; echo " n=$#"
### p11-a6-u-x
set -- '' a ''; printf '<%s>' ${#@}; echo " n=$#"
### p11-a6-q-x
set -- '' a ''; printf '<%s>' "${#@}"; echo " n=$#"
### p12-a0-u-a-Z
set -- ; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a0-q-a-Z
set -- ; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a1-u-a-Z
set -- ''; IFS=; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a1-q-a-Z
set -- ''; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a2-u-a-Z
set -- '' ''; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a2-q-a-Z
set -- '' ''; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a3-u-a-Z
set -- a; IFS=; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a3-q-a-Z
set -- a; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a4-u-a-Z
set -- a ''; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a4-q-a-Z
set -- a ''; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a5-u-a-Z
set -- 'a b' c; IFS=; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a5-q-a-Z
set -- 'a b' c; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p12-a6-u-a-Z
set -- '' a ''; printf '<%s>' ${@/a/Z}; echo " n=$#"
### p12-a6-q-a-Z
set -- '' a ''; printf '<%s>' "${@/a/Z}"; echo " n=$#"
### p13-a0-u-x
set -- ; printf '<%s>' ${@^}; echo " n=$#"
### p13-a0-q-x
set -- ; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a1-u-x
set -- ''; IFS=; printf '<%s>' ${@^}; echo " n=$#"
### p13-a1-q-x
set -- ''; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a2-u-x
set -- '' ''; printf '<%s>' ${@^}; echo " n=$#"
### p13-a2-q-x
set -- '' ''; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a3-u-x
set -- a; IFS=; printf '<%s>' ${@^}; echo " n=$#"
### p13-a3-q-x
set -- a; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a4-u-x
set -- a ''; printf '<%s>' ${@^}; echo " n=$#"
### p13-a4-q-x
set -- a ''; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a5-u-x
set -- 'a b' c; IFS=; printf '<%s>' ${@^}; echo " n=$#"
### p13-a5-q-x
set -- 'a b' c; printf '<%s>' "${@^}"; echo " n=$#"
### p13-a6-u-x
set -- '' a ''; printf '<%s>' ${@^}; echo " n=$#"
### p13-a6-q-x
set -- '' a ''; printf '<%s>' "${@^}"; echo " n=$#"

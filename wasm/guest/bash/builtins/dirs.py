"""The working directory and the directory stack: ``cd``, ``pwd``, ``pushd``, ``popd``, ``dirs``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode, print_error
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def _set_cwd(sh: Shell, new: str) -> None:
    st = sh.state
    old = st.get("PWD") or "/"
    st.set("OLDPWD", old)
    st.set("PWD", new)
    var = st.lookup("OLDPWD")
    if var is not None:
        var.attrs.add("x")


def run_cd(sh: Shell, argv: list[str], io: IO) -> int:
    args = [a for a in argv[1:] if a not in ("-L", "-P", "-e", "-@")]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        print_error(io, "cd: too many arguments")
        return 1
    print_dir = False
    if not args:
        target = sh.state.get("HOME")
        if target is None:
            print_error(io, "cd: HOME not set")
            return 1
    elif args[0] == "-":
        target = sh.state.get("OLDPWD")
        if not target:
            print_error(io, "cd: OLDPWD not set")
            return 1
        print_dir = True
    else:
        target = args[0]
    if target == "":
        return 0
    new = sh.resolve(target)
    host = sh.host_path(new)
    if not fs.exists(host):
        print_error(io, f"cd: {target}: No such file or directory")
        return 1
    if not fs.isdir(host):
        print_error(io, f"cd: {target}: Not a directory")
        return 1
    _set_cwd(sh, new)
    if print_dir:
        io.out(1).write(encode(new + "\n"))
    return 0


def run_pwd(sh: Shell, argv: list[str], io: IO) -> int:
    io.out(1).write(encode(sh.state.cwd + "\n"))
    return 0


def _tilde_dir(sh: Shell, path: str) -> str:
    home = sh.state.get("HOME")
    if home and home != "/" and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def run_dirs(sh: Shell, argv: list[str], io: IO) -> int:
    stack = [sh.state.cwd] + list(reversed(sh.state.dirstack))
    args = argv[1:]
    if "-c" in args:
        sh.state.dirstack.clear()
        return 0
    full = "-l" in args
    shown = [d if full else _tilde_dir(sh, d) for d in stack]
    if "-v" in args:
        io.out(1).write(encode("".join(f"{k:2d}  {d}\n" for k, d in enumerate(shown))))
    elif "-p" in args:
        io.out(1).write(encode("".join(d + "\n" for d in shown)))
    else:
        io.out(1).write(encode(" ".join(shown) + "\n"))
    return 0


def run_pushd(sh: Shell, argv: list[str], io: IO) -> int:
    args = [a for a in argv[1:] if a != "-n"]
    st = sh.state
    if not args:
        if not st.dirstack:
            print_error(io, "pushd: no other directory")
            return 1
        top = st.dirstack.pop()
        st.dirstack.append(st.cwd)
        _set_cwd(sh, top)
    elif re.match(r"[+-][0-9]+\Z", args[0]):
        stack = [st.cwd] + list(reversed(st.dirstack))
        n = int(args[0][1:])
        if n >= len(stack):
            print_error(io, f"pushd: {args[0]}: directory stack index out of range")
            return 1
        k = n if args[0][0] == "+" else len(stack) - 1 - n
        rotated = stack[k:] + stack[:k]
        _set_cwd(sh, rotated[0])
        st.dirstack = list(reversed(rotated[1:]))
    else:
        new = sh.resolve(args[0])
        if not fs.isdir(sh.host_path(new)):
            print_error(io, f"pushd: {args[0]}: No such file or directory")
            return 1
        st.dirstack.append(st.cwd)
        _set_cwd(sh, new)
    return run_dirs(sh, ["dirs"], io)


def run_popd(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    args = [a for a in argv[1:] if a != "-n"]
    if not st.dirstack:
        print_error(io, "popd: directory stack empty")
        return 1
    if args and re.match(r"[+-][0-9]+\Z", args[0]):
        stack = [st.cwd] + list(reversed(st.dirstack))
        n = int(args[0][1:])
        k = n if args[0][0] == "+" else len(stack) - 1 - n
        if not 0 <= k < len(stack):
            print_error(io, f"popd: {args[0]}: directory stack index out of range")
            return 1
        del stack[k]
        if k == 0:
            _set_cwd(sh, stack[0])
        st.dirstack = list(reversed(stack[1:]))
    else:
        top = st.dirstack.pop()
        _set_cwd(sh, top)
    return run_dirs(sh, ["dirs"], io)


BUILTINS: dict[str, Entry] = {
    "cd": Builtin(run_cd),
    "pwd": Builtin(run_pwd),
    "pushd": Builtin(run_pushd),
    "popd": Builtin(run_popd),
    "dirs": Builtin(run_dirs),
}

"""The environment: ``env`` (run a command with a changed environment) and ``printenv``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..invoke import invoke_with_env
from ._common import Builtin, Entry, Gen, StreamingBuiltin, encode

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_env(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    clear = False
    removed: list[str] = []
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a in ("-i", "-", "--ignore-environment"):
            clear = True
        elif a == "-u" and args:
            removed.append(args.pop(0))
        elif a.startswith("-u"):
            removed.append(a[2:])
        elif a == "--":
            break
    assigns: dict[str, str] = {}
    while args and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", args[0]):
        name, _, value = args.pop(0).partition("=")
        assigns[name] = value
    env = {} if clear else sh.state.exported()
    for name in removed:
        env.pop(name, None)
    env.update(assigns)
    if not args:
        io.out(1).write(encode("".join(f"{k}={v}\n" for k, v in env.items())))
        return 0
    return (yield from invoke_with_env(sh, args, io, env))


def run_printenv(sh: Shell, argv: list[str], io: IO) -> int:
    env = sh.state.exported()
    if len(argv) == 1:
        io.out(1).write(encode("".join(f"{k}={v}\n" for k, v in env.items())))
        return 0
    status = 0
    for name in argv[1:]:
        if name in env:
            io.out(1).write(encode(env[name] + "\n"))
        else:
            status = 1
    return status


BUILTINS: dict[str, Entry] = {
    "env": StreamingBuiltin(run_env, bash_builtin=False),
    "printenv": Builtin(run_printenv, bash_builtin=False),
}

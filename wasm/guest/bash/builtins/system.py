"""Builtins and commands that report on the (simulated) process and host: ``hostname``,
``whoami``, ``ulimit``, ``umask``, and ``hash`` and the no-op ``disown``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_hostname(sh: Shell, argv: list[str], io: IO) -> int:
    io.out(1).write(b"sandbox\n")
    return 0


def run_whoami(sh: Shell, argv: list[str], io: IO) -> int:
    io.out(1).write(encode((sh.state.get("USER") or "user") + "\n"))
    return 0


def run_noop(sh: Shell, argv: list[str], io: IO) -> int:
    return 0


def run_hash(sh: Shell, argv: list[str], io: IO) -> int:
    """Nothing is cached (lookups are cheap), but a name that is no command is reported."""
    from ..commands import COMMANDS
    from ..invoke import path_search

    status = 0
    for name in argv[1:]:
        if name.startswith("-"):
            continue
        known = name in COMMANDS or name in sh.state.functions or "/" in name
        if not known and path_search(sh, name) is None:
            io.out(2).write(encode(f"bash: line {sh.state.lineno}: hash: {name}: not found\n"))
            status = 1
    return status


def run_ulimit(sh: Shell, argv: list[str], io: IO) -> int:
    """Resource limits are the sandbox's (BashLimits); queries report "unlimited"."""
    args = [a for a in argv[1:] if a.startswith("-")]
    values = [a for a in argv[1:] if not a.startswith("-")]
    if not values:
        io.out(1).write(b"unlimited\n" if "-a" not in args else b"")
    return 0


def run_umask(sh: Shell, argv: list[str], io: IO) -> int:
    if len(argv) == 1:
        io.out(1).write(b"0022\n")
    return 0


BUILTINS: dict[str, Entry] = {
    "hostname": Builtin(run_hostname, bash_builtin=False),
    "whoami": Builtin(run_whoami, bash_builtin=False),
    "hash": Builtin(run_hash),
    "umask": Builtin(run_umask),
    "disown": Builtin(run_noop),
    "ulimit": Builtin(run_ulimit),
}

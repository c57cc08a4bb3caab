"""Builtins and commands that report on the (simulated) process and host: ``hostname``,
``whoami``, ``umask``, ``hash``, ``history`` (always empty, as in a non-interactive bash),
``clear`` and the no-op ``disown`` (``ulimit`` has its own module, ``ulimit.py``).
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


def run_clear(sh: Shell, argv: list[str], io: IO) -> int:
    """The terminal's clear sequence; a dumb terminal gets none (and no error: scripts run
    ``clear`` as a courtesy, and failing it would trip ``set -e``)."""
    term = sh.state.get("TERM") or "dumb"
    if term != "dumb":
        io.out(1).write(b"\x1b[H\x1b[2J" + (b"" if "-x" in argv else b"\x1b[3J"))
    return 0


def run_history(sh: Shell, argv: list[str], io: IO) -> int:
    """A non-interactive bash keeps no history (even after ``set -o history``), so there is
    never anything to list; ``-c`` and ``-d`` have nothing to clear."""
    for arg in argv[1:]:
        if arg.startswith("-") and arg.strip("-") and arg[1:] not in ("c", "w", "a", "r", "n", "d", "p", "s"):
            io.out(2).write(encode(f"bash: line {sh.state.lineno}: history: {arg}: invalid option\n"))
            return 2
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
    "clear": Builtin(run_clear, bash_builtin=False),
    "history": Builtin(run_history),
}

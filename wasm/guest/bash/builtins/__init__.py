"""The shell's builtins, one module per family, and the one table they are found in.

Calling convention
------------------
Every builtin is a function ``run_<name>(shell, argv, io)``: ``shell`` is the running
``Shell`` (its ``state``, expander and evaluator), ``argv`` the expanded words (``argv[0]``
is the name it was called by) and ``io`` the descriptor table to read and write (write
output with ``io.out(1).write(bytes)``). There are two kinds, and the row in the family's
``BUILTINS`` table says which:

* ``Builtin(run)``: ``run`` returns the exit status. Most builtins: they change the shell
  or write a bounded amount of output.
* ``StreamingBuiltin(run)``: ``run`` is a generator that yields the output of the commands
  it runs and returns the exit status (``eval``, ``source``, ``command``, ``xargs``,
  ``timeout``...), so ``eval yes | head -1`` streams like ``yes | head -1``.

A builtin reports a usage error itself (``print_error``) and returns 1 or 2; it may also
raise ``BashError``, which the evaluator prints as ``bash: <name>: <message>``. Control flow
(``exit``, ``return``, ``break``, ``continue``) unwinds as the signals of ``errors.py``.

``bash_builtin=False`` marks the commands that live here only because they need the shell
(``date``, ``sleep``, ``env``, ``xargs``, ``which``...): bash runs them from ``/usr/bin``.

``COMMANDS`` wraps every builtin in the common command protocol of ``commands/base.py``
(the shell comes from ``ctx.extras["shell"]``), so ``commands.COMMANDS``, ``type``,
``command -v`` and ``ctx.run_command`` see builtins like any other command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..streams import Channel, InputStream
from . import (
    alias, assign, date, dirs, env, evaluation, flow, getopts, jobs, lookup, options, printf, read,
    system, test, trap, ulimit, xargs,
)
from ._common import Builtin, Entry, Gen, StreamingBuiltin
from .test import OperandError, binary_test, unary_test

if TYPE_CHECKING:
    # only types: ``commands`` imports this package to register the builtins
    from ..commands.base import Command, CommandContext
    from ..redirects import IO

__all__ = [
    # the registry
    "BASH_BUILTIN_NAMES", "BUILTINS", "COMMANDS", "Builtin", "Entry", "StreamingBuiltin",
    # the file, string and number tests that [[ ]] shares with test/[
    "OperandError", "binary_test", "unary_test",
]

FAMILIES = (
    printf, test, flow, dirs, assign, read, getopts, options, trap, alias, lookup, evaluation,
    env, jobs, date, system, ulimit, xargs,
)


def _merge() -> dict[str, Entry]:
    merged: dict[str, Entry] = {}
    for family in FAMILIES:
        for name, entry in family.BUILTINS.items():
            if name in merged:
                raise RuntimeError(f"bash builtin {name!r} is defined twice ({family.__name__})")
            merged[name] = entry
    return merged


BUILTINS: dict[str, Entry] = _merge()
"""Every builtin by name (the evaluator looks here before ``commands.COMMANDS``)."""

BASH_BUILTIN_NAMES = frozenset(name for name, entry in BUILTINS.items() if entry.bash_builtin)
"""What ``type``, ``builtin``, ``compgen -b`` and ``help`` call a shell builtin."""


def _as_command(name: str, entry: Entry) -> Command:
    """Wrap a builtin in the ``commands/base.py`` protocol (for the registry and run_command)."""

    def run(ctx: CommandContext, argv: list[str]) -> Gen:
        from ..evaluate import Shell
        from ..redirects import IO

        sh = ctx.extras.get("shell")
        if not isinstance(sh, Shell):
            ctx.error(f"{name}: needs the shell interpreter")
            return 1
        io = ctx.extras.get("io")
        if not isinstance(io, IO):
            channel = Channel()
            io = IO({0: InputStream(iter(ctx.stdin)), 1: channel, 2: ctx.stderr}, channel)
        sub = io.copy()
        sub.channel = Channel()
        sub.fds[1] = sub.channel
        if isinstance(entry, StreamingBuiltin):
            box: list[int] = []
            for chunk in _drive(entry.run(sh, argv, sub), sub, box):
                yield chunk
            return box[0] if box else 0
        status = entry.run(sh, argv, sub)
        if sub.channel.buf:
            yield sub.channel.take()
        return status

    return run


def _drive(gen: Gen, io: IO, box: list[int]) -> Iterator[bytes]:
    status = yield from gen
    box.append(status)
    if io.channel.buf:
        yield io.channel.take()


COMMANDS: dict[str, Command] = {name: _as_command(name, entry) for name, entry in BUILTINS.items()}
"""Every builtin in the common command protocol, for ``commands.COMMANDS``."""

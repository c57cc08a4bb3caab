"""Builtins that end or redirect control flow or only give a status: ``exit``, ``return``,
``break``, ``continue``, ``shift``, ``true``, ``false``, ``:`` and ``caller``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_true(sh: Shell, argv: list[str], io: IO) -> int:
    return 0


def run_false(sh: Shell, argv: list[str], io: IO) -> int:
    return 1


def run_exit(sh: Shell, argv: list[str], io: IO) -> int:
    if len(argv) > 1:
        try:
            status = int(argv[1]) & 0xFF
        except ValueError:
            print_error(io, f"exit: {argv[1]}: numeric argument required")
            status = 2
    else:
        status = sh.state.last_status
    raise ExitShell(status)


def run_return(sh: Shell, argv: list[str], io: IO) -> int:
    if sh.state.call_depth == 0 and not sh.state.sourcing:
        print_error(io, "return: can only `return' from a function or sourced script")
        return 2
    if len(argv) > 1:
        try:
            status = int(argv[1]) & 0xFF
        except ValueError:
            print_error(io, f"return: {argv[1]}: numeric argument required")
            status = 2
    else:
        status = sh.state.last_status
    raise ReturnFromFunction(status)


def _loop_levels(sh: Shell, argv: list[str], io: IO) -> int | None:
    levels = 1
    if len(argv) > 1:
        try:
            levels = int(argv[1])
        except ValueError:
            print_error(io, f"{argv[0]}: {argv[1]}: numeric argument required")
            raise ExitShell(128) from None
        if levels < 1:
            print_error(io, f"{argv[0]}: {argv[1]}: loop count out of range")
            return None
    if sh.state.loop_depth == 0:
        print_error(io, f"{argv[0]}: only meaningful in a `for', `while', or `until' loop")
        return None
    return min(levels, sh.state.loop_depth)


def run_break(sh: Shell, argv: list[str], io: IO) -> int:
    levels = _loop_levels(sh, argv, io)
    if levels is None:
        return 0 if sh.state.loop_depth == 0 else 1
    sh.state.pipestatus = [0]
    raise BreakLoop(levels)


def run_continue(sh: Shell, argv: list[str], io: IO) -> int:
    levels = _loop_levels(sh, argv, io)
    if levels is None:
        return 0 if sh.state.loop_depth == 0 else 1
    sh.state.pipestatus = [0]
    raise ContinueLoop(levels)


def run_shift(sh: Shell, argv: list[str], io: IO) -> int:
    n = 1
    if len(argv) > 1:
        try:
            n = int(argv[1])
        except ValueError:
            print_error(io, f"shift: {argv[1]}: numeric argument required")
            return 1
    if n < 0:
        print_error(io, f"shift: {argv[1]}: shift count out of range")
        return 1
    if n > len(sh.state.positional):
        return 1
    sh.state.positional = sh.state.positional[n:]
    return 0


def run_caller(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    if not st.funcnames:
        return 1
    frame = int(argv[1]) if len(argv) > 1 and (argv[1].isascii() and argv[1].isdigit()) else 0
    names = list(reversed(st.funcnames)) + ["main"]
    if frame + 1 >= len(names):
        return 1
    caller = names[frame + 1]
    io.out(1).write(encode(f"{st.lineno} {caller} {st.script_name}\n" if len(argv) > 1 else f"{st.lineno} {st.script_name}\n"))
    return 0


BUILTINS: dict[str, Entry] = {
    "true": Builtin(run_true),
    "false": Builtin(run_false),
    ":": Builtin(run_true),
    "exit": Builtin(run_exit),
    "return": Builtin(run_return),
    "break": Builtin(run_break),
    "continue": Builtin(run_continue),
    "shift": Builtin(run_shift),
    "caller": Builtin(run_caller),
}

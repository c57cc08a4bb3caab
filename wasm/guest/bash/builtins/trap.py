"""``trap``: the EXIT/ERR/DEBUG/RETURN traps and the signal names it accepts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..expand import quote_for_shell
from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


_SIGNALS = {"EXIT": "EXIT", "0": "EXIT", "ERR": "ERR", "DEBUG": "DEBUG", "RETURN": "RETURN"}
_SIGNAL_NUMBERS = {"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "CHLD": 17}


def _signal_name(text: str) -> str | None:
    upper = text.upper()
    if upper in _SIGNALS:
        return _SIGNALS[upper]
    if upper.startswith("SIG"):
        upper = upper[3:]
    if upper in _SIGNAL_NUMBERS:
        return "SIG" + upper
    for name, number in _SIGNAL_NUMBERS.items():
        if text == str(number):
            return "SIG" + name
    return None


def run_trap(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or args == ["-p"]:
        for trapped, trap_action in st.traps.items():
            io.out(1).write(encode(f"trap -- {quote_for_shell(trap_action)} {trapped}\n"))
        return 0
    if args[0] == "-l":
        io.out(1).write(encode(" ".join(f"{n}) SIG{s}" for s, n in _SIGNAL_NUMBERS.items()) + "\n"))
        return 0
    if args[0] == "-p":
        for a in args[1:]:
            sig = _signal_name(a)
            if sig in st.traps:
                io.out(1).write(encode(f"trap -- {quote_for_shell(st.traps[sig])} {sig}\n"))
        return 0
    if len(args) == 1:
        action, signals = "-", args
    else:
        action, signals = args[0], args[1:]
    status = 0
    for s in signals:
        sig = _signal_name(s)
        if sig is None:
            print_error(io, f"trap: {s}: invalid signal specification")
            status = 1
            continue
        if action == "-":
            st.traps.pop(sig, None)
        else:
            st.traps[sig] = action
    return status


BUILTINS: dict[str, Entry] = {
    "trap": Builtin(run_trap),
}

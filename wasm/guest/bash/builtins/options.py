"""Shell options: ``set`` (its letters, ``-o`` names and positional parameters) and ``shopt``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import OPTION_LETTERS, SHELL_OPTIONS, SHOPT_NAMES
from ._common import Builtin, Entry, encode, print_error
from .assign import set_line

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_set(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    if not args:
        for name in st.all_names():
            var = st.lookup(name)
            if var is not None and var.is_set:
                io.out(1).write(encode(set_line(name, var) + "\n"))
        return 0
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            st.positional = args[k + 1 :]
            return 0
        if a in ("-", "+"):
            st.options["xtrace"] = False
            st.options["verbose"] = False
            k += 1
            if k < len(args) or a == "-":
                st.positional = args[k:]
            return 0
        if a[0] in "-+" and len(a) > 1:
            on = a[0] == "-"
            for f in a[1:]:
                if f == "o":
                    k += 1
                    if k >= len(args):
                        for opt in SHELL_OPTIONS:
                            if on:
                                io.out(1).write(encode(f"{opt:<15}\t{'on' if st.options.get(opt) else 'off'}\n"))
                            else:
                                io.out(1).write(encode(f"set {'-' if st.options.get(opt) else '+'}o {opt}\n"))
                        return 0
                    opt = args[k]
                    if opt not in SHELL_OPTIONS:
                        print_error(io, f"set: {opt}: invalid option name")
                        return 1
                    st.options[opt] = on
                elif f in OPTION_LETTERS:
                    st.options[OPTION_LETTERS[f]] = on
                else:
                    print_error(io, f"set: {a[0]}{f}: invalid option")
                    return 2
            k += 1
            continue
        st.positional = args[k:]
        return 0
    return 0


def run_shopt(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    mode: str | None = None
    quiet = False
    use_o = False
    printable = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for f in args[0][1:]:
            if f in "su":
                mode = f
            elif f == "q":
                quiet = True
            elif f == "o":
                use_o = True
            elif f == "p":
                printable = True
        args = args[1:]
    table = st.options if use_o else st.shopts
    valid = SHELL_OPTIONS if use_o else SHOPT_NAMES
    status = 0
    if mode is None:
        names = args or list(valid)
        for name in names:
            if name not in valid:
                print_error(io, f"shopt: {name}: invalid shell option name")
                status = 1
                continue
            on = bool(table.get(name))
            if not on and args:
                status = 1
            if quiet:
                continue
            if printable:
                io.out(1).write(encode(f"shopt {'-s' if on else '-u'} {name}\n"))
            else:
                io.out(1).write(encode(f"{name:<15}\t{'on' if on else 'off'}\n"))
        return status
    if not args:
        for name in valid:
            on = bool(table.get(name))
            if on == (mode == "s") and not quiet:
                io.out(1).write(encode(f"{name:<15}\t{'on' if on else 'off'}\n"))
        return 0
    for name in args:
        if name not in valid:
            print_error(io, f"shopt: {name}: invalid shell option name")
            status = 1
            continue
        table[name] = mode == "s"
    return status


BUILTINS: dict[str, Entry] = {
    "set": Builtin(run_set),
    "shopt": Builtin(run_shopt),
}

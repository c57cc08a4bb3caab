"""``getopts``: POSIX option parsing for scripts, state kept in ``OPTIND`` and the shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_getopts(sh: Shell, argv: list[str], io: IO) -> int:
    if len(argv) < 3:
        print_error(io, "getopts: usage: getopts optstring name [arg ...]")
        return 2
    optstring, name = argv[1], argv[2]
    args = argv[3:] if len(argv) > 3 else list(sh.state.positional)
    st = sh.state
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    try:
        optind = int(st.get("OPTIND") or "1")
    except ValueError:
        optind = 1
    pos = st.getopts_pos
    if st.getopts_last_optind != optind:
        pos = 1
    if optind < 1:
        optind = 1

    def finish(ind: int, p: int) -> None:
        st.set("OPTIND", str(ind))
        st.getopts_pos = p
        st.getopts_last_optind = ind

    if optind > len(args):
        st.set(name, "?")
        st.unset("OPTARG")
        finish(optind, 1)
        return 1
    arg = args[optind - 1]
    if pos == 1:
        if arg == "--":
            st.set(name, "?")
            finish(optind + 1, 1)
            return 1
        if not arg.startswith("-") or arg == "-":
            st.set(name, "?")
            finish(optind, 1)
            return 1
    opt = arg[pos]
    next_pos = pos + 1
    at_end = next_pos >= len(arg)
    k = optstring.find(opt)
    if k < 0 or opt == ":":
        if silent:
            st.set("OPTARG", opt)
        else:
            st.unset("OPTARG")
            io.out(2).write(encode(f"{st.script_name}: illegal option -- {opt}\n"))
        st.set(name, "?")
        finish(optind + 1 if at_end else optind, 1 if at_end else next_pos)
        return 0
    if k + 1 < len(optstring) and optstring[k + 1] == ":":
        if not at_end:
            st.set("OPTARG", arg[next_pos:])
            finish(optind + 1, 1)
        elif optind < len(args):
            st.set("OPTARG", args[optind])
            finish(optind + 2, 1)
        else:
            if silent:
                st.set(name, ":")
                st.set("OPTARG", opt)
            else:
                st.set(name, "?")
                st.unset("OPTARG")
                io.out(2).write(encode(f"{st.script_name}: option requires an argument -- {opt}\n"))
            finish(optind + 1, 1)
            return 0
        st.set(name, opt)
        return 0
    st.unset("OPTARG")
    st.set(name, opt)
    finish(optind + 1 if at_end else optind, 1 if at_end else next_pos)
    return 0


BUILTINS: dict[str, Entry] = {
    "getopts": Builtin(run_getopts),
}

"""``alias`` and ``unalias``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..expand import quote_for_shell
from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_alias(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        for name in sorted(st.aliases):
            io.out(1).write(encode(f"alias {name}={quote_for_shell(st.aliases[name])}\n"))
        return 0
    status = 0
    for a in args:
        if "=" in a:
            name, _, value = a.partition("=")
            st.aliases[name] = value
        elif a in st.aliases:
            io.out(1).write(encode(f"alias {a}={quote_for_shell(st.aliases[a])}\n"))
        else:
            print_error(io, f"alias: {a}: not found")
            status = 1
    return status


def run_unalias(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    status = 0
    for a in argv[1:]:
        if a == "-a":
            st.aliases.clear()
        elif a in st.aliases:
            del st.aliases[a]
        else:
            print_error(io, f"unalias: {a}: not found")
            status = 1
    return status


BUILTINS: dict[str, Entry] = {
    "alias": Builtin(run_alias),
    "unalias": Builtin(run_unalias),
}

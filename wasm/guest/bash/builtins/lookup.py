"""What a name is and running it as such: ``type``, ``which``, ``command``, ``builtin``,
``compgen`` and ``help``, and the shell's reserved words.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ..expand import quote_for_shell
from ..invoke import invoke_no_functions
from ..streams import can_access
from ._common import Builtin, Entry, Gen, StreamingBuiltin, encode, file_modes, print_error
from .assign import function_text
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


KEYWORD_ORDER = "if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc".split()
KEYWORDS = frozenset(KEYWORD_ORDER)


def _bash_builtin_names() -> frozenset[str]:
    from . import BASH_BUILTIN_NAMES  # the registry imports this module, so look it up late

    return BASH_BUILTIN_NAMES


def _kind(sh: Shell, name: str) -> str | None:
    if name in sh.state.aliases and sh.state.shopts.get("expand_aliases"):
        return "alias"
    if name in KEYWORDS:
        return "keyword"
    if name in sh.state.functions:
        return "function"
    if name in _bash_builtin_names():
        return "builtin"
    from ..commands import COMMANDS

    if name in COMMANDS:
        return "file"
    if "/" in name and can_access(sh.host_path(name), os.X_OK, file_modes(sh)) and fs.isfile(sh.host_path(name)):
        return "file"
    return None


def _command_path(name: str) -> str:
    return name if "/" in name else f"/usr/bin/{name}"


def run_type(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flags += args[0][1:]
        args = args[1:]
    status = 0
    for name in args:
        kind = _kind(sh, name)
        if kind is None:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                print_error(io, f"type: {name}: not found")
            status = 1
            continue
        if "t" in flags:
            io.out(1).write(encode(kind + "\n"))
        elif "p" in flags or "P" in flags:
            if kind == "file":
                io.out(1).write(encode(_command_path(name) + "\n"))
        elif kind == "alias":
            io.out(1).write(encode(f"{name} is aliased to `{sh.state.aliases[name]}'\n"))
        elif kind == "keyword":
            io.out(1).write(encode(f"{name} is a shell keyword\n"))
        elif kind == "function":
            io.out(1).write(encode(f"{name} is a function\n" + function_text(sh, name) + "\n"))
        elif kind == "builtin":
            io.out(1).write(encode(f"{name} is a shell builtin\n"))
        else:
            io.out(1).write(encode(f"{name} is {_command_path(name)}\n"))
    return status


def run_which(sh: Shell, argv: list[str], io: IO) -> int:
    from ..commands import COMMANDS

    status = 0
    for name in argv[1:]:
        if name.startswith("-"):
            continue
        if name in COMMANDS and name not in SHELL_ONLY:
            io.out(1).write(encode(_command_path(name) + "\n"))
        elif "/" in name and can_access(sh.host_path(name), os.X_OK, file_modes(sh)):
            io.out(1).write(encode(name + "\n"))
        else:
            status = 1
    return status


SHELL_ONLY = frozenset(
    "cd source . eval exec exit export readonly return set shift trap unset break continue "
    "declare typeset local let read mapfile readarray getopts shopt alias unalias pushd popd "
    "dirs type command builtin wait hash umask :".split()
)


def run_command(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1 and args[0] != "--":
        flags += args[0][1:]
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if "v" in flags or "V" in flags:
        status = 0
        for name in args:
            kind = _kind(sh, name)
            if kind is None:
                if "V" in flags:
                    print_error(io, f"command: {name}: not found")
                status = 1
                continue
            if "V" in flags:
                run_type(sh, ["type", name], io)
            elif kind == "file":
                io.out(1).write(encode(_command_path(name) + "\n"))
            elif kind == "alias":
                io.out(1).write(encode(f"alias {name}={quote_for_shell(sh.state.aliases[name])}\n"))
            else:
                io.out(1).write(encode(name + "\n"))
        return status
    if not args:
        return 0
    return (yield from invoke_no_functions(sh, args, io))


def run_builtin(sh: Shell, argv: list[str], io: IO) -> Gen:
    if len(argv) < 2:
        return 0
    name = argv[1]
    if name not in _bash_builtin_names():
        print_error(io, f"builtin: {name}: not a shell builtin")
        return 1
    return (yield from invoke_no_functions(sh, argv[1:], io))


def run_compgen(sh: Shell, argv: list[str], io: IO) -> int:
    """``compgen -c|-v|-f|-d|-b|-k|-a|-A function|-W list [prefix]``: candidate words."""
    from ..commands import COMMANDS

    args = argv[1:]
    actions: list[str] = []
    wordlist: list[str] = []
    k = 0
    while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
        a = args[k]
        if a == "-A" and k + 1 < len(args):
            actions.append({"function": "F", "variable": "v", "command": "c", "builtin": "b", "keyword": "k", "alias": "a", "file": "f", "directory": "d", "export": "e"}.get(args[k + 1], ""))
            k += 2
            continue
        if a == "-W" and k + 1 < len(args):
            ifs = sh.state.get("IFS")
            wordlist.extend(args[k + 1].split() if ifs is None else [w for w in re.split("[" + re.escape(ifs) + "]+", args[k + 1]) if w] if ifs else [args[k + 1]])
            k += 2
            continue
        actions.extend(a[1:])
        k += 1
    prefix = args[k] if k < len(args) else ""
    st = sh.state
    found: list[str] = list(wordlist)
    for action in actions:
        if action == "c":
            found += sorted(set(COMMANDS) | set(st.functions) | set(st.aliases) | KEYWORDS)
        elif action == "b":
            found += sorted(_bash_builtin_names())
        elif action == "k":
            found += KEYWORD_ORDER
        elif action == "a":
            found += sorted(st.aliases)
        elif action == "F":
            found += sorted(st.functions)
        elif action == "v":
            found += st.all_names()
        elif action == "e":
            found += sorted(st.exported())
        elif action in "fd":
            base, _, stem = prefix.rpartition("/")
            listing = sh.host_path(base or ".")
            try:
                names = sorted(fs.listdir(listing))
            except OSError:
                names = []
            for name in names:
                full = (base + "/" if base else "") + name
                if action == "d" and not fs.isdir(os.path.join(listing, name)):
                    continue
                found.append(full)
    matches = [w for w in found if w.startswith(prefix)]
    for word in dict.fromkeys(matches):
        io.out(1).write(encode(word + "\n"))
    return 0 if matches else 1


def run_help(sh: Shell, argv: list[str], io: IO) -> int:
    from ..commands import COMMANDS

    if len(argv) > 1:
        name = argv[1]
        if name in _bash_builtin_names() or name in KEYWORDS:
            io.out(1).write(encode(f"{name}: a shell builtin; it behaves as in GNU bash 5.2.\n"))
            return 0
        print_error(io, f"help: no help topics match `{name}'.")
        return 1
    io.out(1).write(encode(
        "GNU bash, version 5.2.15(1)-release compatible interpreter (sandboxed: no processes, no network).\n"
        "Builtins: " + " ".join(sorted(_bash_builtin_names())) + "\n"
        "Commands: " + " ".join(sorted(n for n in COMMANDS if n not in _bash_builtin_names())) + "\n"
    ))
    return 0


BUILTINS: dict[str, Entry] = {
    "type": Builtin(run_type),
    "which": Builtin(run_which, bash_builtin=False),
    "command": StreamingBuiltin(run_command),
    "builtin": StreamingBuiltin(run_builtin),
    "compgen": Builtin(run_compgen),
    "help": Builtin(run_help),
}

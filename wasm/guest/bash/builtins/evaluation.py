"""Running shell code: ``eval``, ``source``/``.``, ``exec`` and ``bash``/``sh`` (a child script).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, cast

from ..errors import ExitShell, LimitExceeded, ReturnFromFunction, ShellSyntaxError
from ..invoke import invoke, run_child_script
from ..state import OPTION_LETTERS
from ._common import Entry, Gen, StreamingBuiltin, print_error
from .. import fs

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_eval(sh: Shell, argv: list[str], io: IO) -> Gen:
    source = " ".join(argv[1:])
    if not source.strip():
        return 0
    st = sh.state
    if st.call_depth >= sh.limits.max_call_depth:
        raise LimitExceeded(f"eval: maximum nesting level exceeded ({sh.limits.max_call_depth})")
    st.call_depth += 1
    st.trace_depth += 1
    try:
        return (yield from sh.run_string(source, io))
    finally:
        st.call_depth -= 1
        st.trace_depth -= 1


def run_source(sh: Shell, argv: list[str], io: IO) -> Gen:
    if len(argv) < 2:
        print_error(io, f"{argv[0]}: filename argument required")
        return 2
    path = argv[1]
    host = sh.host_path(path)
    pipe = sh.open_pipe(path, "r")
    if pipe is not None:  # source <(...)
        source = b"".join(cast("Iterator[bytes]", pipe)).decode("utf-8", "surrogateescape")
    elif not fs.isfile(host):
        print_error(io, f"{path}: No such file or directory")
        return 1
    else:
        with fs.open(host, "rb") as handle:
            source = handle.read().decode("utf-8", "surrogateescape")
    st = sh.state
    if st.call_depth >= sh.limits.max_call_depth:
        raise LimitExceeded(f"{argv[0]}: maximum nesting level exceeded ({sh.limits.max_call_depth})")
    saved = st.positional
    if len(argv) > 2:
        st.positional = argv[2:]
    st.call_depth += 1
    st.sourcing += 1
    st.trace_depth += 1
    try:
        status = yield from sh.run_string(source, io, first_line=1)
    except ReturnFromFunction as ret:
        status = ret.status
    finally:
        st.call_depth -= 1
        st.sourcing -= 1
        st.trace_depth -= 1
        if len(argv) > 2:
            st.positional = saved
    return status


def run_exec(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    while args and args[0].startswith("-") and args[0] != "--":
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return 0
    status = yield from invoke(sh, args, io)
    raise ExitShell(status)


def run_bash(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    options: dict[str, bool] = {}
    command: str | None = None
    check_only = False
    while args and args[0].startswith(("-", "+")) and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        if a in ("-o", "+o") and args:
            options[args.pop(0)] = a == "-o"
            continue
        for f in a[1:]:
            if f == "c":
                command = ""
            elif f == "n":
                check_only = True
            elif f in OPTION_LETTERS:
                options[OPTION_LETTERS[f]] = a[0] == "-"
    if command is not None:
        if not args:
            print_error(io, f"{argv[0]}: -c: option requires an argument")
            return 2
        command = args.pop(0)
        name = args.pop(0) if args else argv[0]
        source, script_args = command, args
    elif args:
        name = args[0]
        host = sh.host_path(name)
        if not fs.isfile(host):
            print_error(io, f"{name}: No such file or directory")
            return 127
        with fs.open(host, "rb") as handle:
            source = handle.read().decode("utf-8", "surrogateescape")
        script_args = args[1:]
    else:
        name = argv[0]
        source = b"".join(io.stdin().chunks()).decode("utf-8", "surrogateescape")
        script_args = []
    if check_only:
        from ..parse import Parser

        try:
            Parser(source).parse_all()
        except ShellSyntaxError as exc:
            print_error(io, f"{name}: line {exc.line}: {exc.message}")
            return 2
        return 0
    return (yield from run_child_script(sh, source, name, script_args, io, options))


BUILTINS: dict[str, Entry] = {
    "eval": StreamingBuiltin(run_eval),
    "source": StreamingBuiltin(run_source),
    ".": StreamingBuiltin(run_source),
    "exec": StreamingBuiltin(run_exec),
    "bash": StreamingBuiltin(run_bash, bash_builtin=False),
    "sh": StreamingBuiltin(run_bash, bash_builtin=False),
}

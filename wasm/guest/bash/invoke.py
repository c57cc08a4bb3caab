"""Finding and running a command by name: a function, a builtin, a registered command, or
a script file (a child ``bash``), in that order. Also the bridges a command gets to the
shell: its ``CommandContext`` and ``ctx.run_command``."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

from .errors import BashError, ExitShell, LimitExceeded, ReturnFromFunction
from .redirects import IO
from .state import Var
from .streams import Channel, InputStream, can_access
from . import fs

if TYPE_CHECKING:
    from .commands.base import Command, CommandContext
    from .evaluate import Gen, Shell
    from .syntax import FuncDef

NETWORK_COMMANDS = frozenset(["curl", "wget", "nc", "ncat", "netcat", "ssh", "ping", "scp", "sftp", "ftp", "telnet", "rsync"])
"""Refused with a message of their own: the isolate has no network."""


def invoke(shell: Shell, argv: list[str], io: IO, decl_arrays: dict[int, list[str]] | None = None) -> Gen:
    """Run a function, builtin or command by name (argv already expanded)."""
    func = shell.state.functions.get(argv[0])
    if func is not None:
        return (yield from call_function(shell, func, argv, io))
    return (yield from invoke_no_functions(shell, argv, io, decl_arrays))


def invoke_no_functions(shell: Shell, argv: list[str], io: IO, decl_arrays: dict[int, list[str]] | None = None) -> Gen:
    """Run a builtin or a command by name, never a function (``command``, ``builtin``, ``env``)."""
    name = argv[0]
    builtin = _builtins.BUILTINS.get(name)
    if builtin is not None:
        CURRENT_LINE.number = shell.state.lineno
    if isinstance(builtin, Builtin):
        shell.decl_arrays = decl_arrays or {}
        try:
            status = builtin.run(shell, argv, io)
        except LimitExceeded:
            raise
        except BashError as exc:
            shell.error(io, f"{name}: {exc.message}" if not exc.message.startswith(name) else exc.message)
            status = exc.status
        except (RecursionError, MemoryError):
            raise
        except Exception as exc:  # a builtin bug must fail the command, not the interpreter
            shell.error(io, f"{name}: internal error: {type(exc).__name__}: {exc}")
            status = 1
        finally:
            shell.decl_arrays = {}
        if io.channel.buf:
            yield io.channel.take()
        return status
    if builtin is not None:  # a StreamingBuiltin
        try:
            status = yield from builtin.run(shell, argv, io)
        except LimitExceeded:
            raise
        except BashError as exc:
            shell.error(io, f"{name}: {exc.message}")
            status = exc.status
        if io.channel.buf:
            yield io.channel.take()
        return status
    command = registry().commands.get(name)
    if command is None:
        if "/" in name:
            return (yield from _run_script_file(shell, argv, io))
        if name in NETWORK_COMMANDS:
            io.out(2).write(f"bash: {name}: network access is disabled in this sandbox\n".encode())
            return 1
        found = path_search(shell, name)
        if found is not None:
            return (yield from _run_script_file(shell, [found, *argv[1:]], io, name))
        handler = shell.state.functions.get("command_not_found_handle")
        if handler is not None and not shell.state.in_not_found_handler:
            shell.state.in_not_found_handler = True
            try:
                return (yield from call_function(shell, handler, ["command_not_found_handle", *argv], io))
            finally:
                shell.state.in_not_found_handler = False
        shell.error(io, f"{name}: command not found")
        return 127
    return (yield from run_command(shell, command, argv, io, decl_arrays))


class _Registry(NamedTuple):
    commands: dict[str, Command]
    context: type[CommandContext]


_registry: _Registry | None = None


def registry() -> _Registry:
    """The command registry, imported on first use and kept: it imports the builtins, which
    import this module, so it cannot be imported at the top, and an import statement in each
    function that needs it cost one per command run (in the guest about 3 % of a small
    script's call)."""
    global _registry
    if _registry is None:
        from .commands import COMMANDS, CommandContext

        _registry = _Registry(COMMANDS, CommandContext)
    return _registry


def invoke_with_env(shell: Shell, argv: list[str], io: IO, env: dict[str, str]) -> Gen:
    """``env VAR=x cmd``: run with exactly ``env`` exported (a subshell-like scope)."""
    child = shell.fork()
    for scope in child.state.scopes:
        for name in [n for n, v in scope.items() if "x" in v.attrs]:
            owned = child.state.owned(scope, name)
            assert owned is not None
            owned.attrs.discard("x")
    for name, value in env.items():
        var = Var(value)
        var.attrs.add("x")
        child.state.scopes[0][name] = var
    return (yield from invoke_no_functions(child, argv, io))


def make_context(shell: Shell, argv: list[str], io: IO, decl_arrays: dict[int, list[str]] | None = None) -> CommandContext:
    """What a registered command gets to touch: its streams, the exported environment, the
    workspace root, a way to run other commands, and the shell itself (``extras``)."""
    env = shell.state.exported()
    return registry().context(
        stdin=io.stdin().chunks(),
        stderr=io.out(2),
        cwd=shell.state.cwd,
        env=env,
        root=shell.root,
        run_command=_run_command_callback(shell, io),
        extras={"shell": shell, "io": io, "decl_arrays": decl_arrays or {}, "deadline": shell.state.counters.deadline, "check_time": shell.state.counters.check_time},
    )


def run_command(shell: Shell, command: Command, argv: list[str], io: IO, decl_arrays: dict[int, list[str]] | None = None) -> Gen:
    """Run a registered command, copying its output to ``io`` and turning its failures into a
    status and a message (a bug in a command must not crash the interpreter)."""
    ctx = make_context(shell, argv, io, decl_arrays)
    out = io.out(1)
    channel = io.channel
    counters = shell.state.counters
    try:
        gen = command(ctx, argv)
    except BashError as exc:
        io.out(2).write(f"{argv[0]}: {exc.message}\n".encode())
        return exc.status
    status = 0
    try:
        while True:
            try:
                chunk = next(gen)
            except StopIteration as stop:
                status = stop.value if isinstance(stop.value, int) else 0
                break
            if chunk:
                out.write(chunk)
            if channel.buf:
                yield channel.take()
            counters.check_time()
    except LimitExceeded:
        raise
    except BashError as exc:
        io.out(2).write(f"bash: {argv[0]}: {exc.message}\n".encode("utf-8", "surrogateescape"))
        status = exc.status
    except RecursionError:
        raise LimitExceeded("maximum recursion depth exceeded")
    except OSError as exc:
        io.out(2).write(f"{argv[0]}: {exc.strerror or exc}\n".encode("utf-8", "surrogateescape"))
        status = 1
    except Exception as exc:  # a bug in a command must not crash the interpreter
        io.out(2).write(f"bash: {argv[0]}: internal error: {type(exc).__name__}: {exc}\n".encode("utf-8", "surrogateescape"))
        status = 1
    finally:
        gen.close()
    if channel.buf:
        yield channel.take()
    return status


def _run_command_callback(shell: Shell, io: IO) -> Callable[[list[str], Iterator[bytes]], Gen]:
    def run(argv: list[str], stdin: Iterator[bytes]) -> Gen:
        sub_io = io.copy()
        sub_io.channel = Channel()
        sub_io.fds[0] = InputStream(stdin)
        sub_io.fds[1] = sub_io.channel
        shell.state.counters.tick()
        try:
            status = yield from invoke(shell, argv, sub_io)
        except ExitShell as exc:
            status = exc.status
        return status

    return run


def call_function(shell: Shell, func: FuncDef, argv: list[str], io: IO) -> Gen:
    st = shell.state
    if st.call_depth >= shell.limits.max_call_depth:
        raise LimitExceeded(f"{argv[0]}: maximum function nesting level exceeded ({shell.limits.max_call_depth})")
    saved_positional = st.positional
    st.positional = argv[1:]
    st.scopes.append({})
    st.funcnames.append(argv[0])
    st.call_depth += 1
    depth = len(st.scopes)
    saved_loops, st.loop_depth = st.loop_depth, 0  # break in a function cannot leave the caller's loop
    try:
        try:
            status = yield from shell.exec_command(func.body, io)
        except ReturnFromFunction as ret:
            status = ret.status
        trap = st.traps.get("RETURN")
        if trap:
            st.last_status = status
            yield from shell.run_string(trap, io)
    finally:
        st.loop_depth = saved_loops
        st.call_depth -= 1
        st.funcnames.pop()
        del st.scopes[depth - 1 :]
        st.positional = saved_positional
    st.last_status = status
    return status


def path_search(shell: Shell, name: str) -> str | None:
    """The first file called ``name`` in a ``$PATH`` directory of the workspace (an executable
    one if any: bash skips a non-executable match but reports it if nothing better exists)."""
    path = shell.state.get("PATH") or ""
    modes = getattr(shell.state.counters, "file_modes", None)
    fallback: str | None = None
    for directory in path.split(":"):
        candidate = shell.resolve((directory or ".") + "/" + name)
        host = shell.host_path(candidate)
        if not fs.isfile(host):
            continue
        if can_access(host, os.X_OK, modes):
            return candidate
        fallback = fallback or candidate
    return fallback


def _run_script_file(shell: Shell, argv: list[str], io: IO, shown: str | None = None) -> Gen:
    shown = shown or argv[0]
    host = shell.host_path(argv[0])
    if fs.isdir(host):
        shell.error(io, f"{argv[0]}: Is a directory")
        return 126
    if not fs.exists(host):
        shell.error(io, f"{argv[0]}: No such file or directory")
        return 127
    if not can_access(host, os.X_OK, getattr(shell.state.counters, "file_modes", None)):
        shell.error(io, f"{shown}: Permission denied")
        return 126
    with fs.open(host, "rb") as handle:
        source = handle.read().decode("utf-8", "surrogateescape")
    first = source.split("\n", 1)[0]
    if first.startswith("#!") and not re.search(r"\b(ba)?sh\b", first):
        shell.error(io, f"{argv[0]}: cannot execute: interpreter {first[2:].strip()} is not available")
        return 126
    return (yield from run_child_script(shell, source, argv[0], argv[1:], io))


def run_child_script(shell: Shell, source: str, name: str, args: list[str], io: IO, options: dict[str, bool] | None = None) -> Gen:
    """A new bash process: only exported variables survive, functions do not."""
    from .evaluate import Shell
    from .state import State

    child_state = State(shell.state.counters)
    for key, value in shell.state.exported().items():
        var = Var(value)
        var.attrs.add("x")
        child_state.scopes[0][key] = var
    child_state.functions = {n: f for n, f in shell.state.functions.items() if n in shell.state.exported_functions}
    child_state.exported_functions = set(child_state.functions)
    child_state.rlimits = dict(shell.state.rlimits)  # a process's limits pass to its children
    child_state.script_name = name
    child_state.positional = list(args)
    child_state.in_subshell = shell.state.in_subshell + 1
    child_state.call_depth = shell.state.call_depth + 1
    if child_state.call_depth > shell.limits.max_call_depth:
        raise LimitExceeded(f"{name}: maximum nesting level exceeded ({shell.limits.max_call_depth})")
    child_state.options.update({"braceexpand": True, "hashall": True})
    child_state.options.update(options or {})
    for opt in ("IFS", "PS4", "OPTIND"):
        child_state.scopes[0].setdefault(opt, Var({"IFS": " \t\n", "PS4": "+ ", "OPTIND": "1"}[opt]))
    if "PWD" not in child_state.scopes[0]:
        child_state.scopes[0]["PWD"] = Var(shell.state.cwd)
    child = Shell(child_state, shell.root, shell.limits)
    child.cur_io = io
    try:
        status = yield from child.run_source(source, io)
    except ExitShell as exc:
        status = exc.status
    yield from child.run_exit_trap(io)
    return status


# Last: the builtins are still being imported when this module is (they import it), so only
# their package is bound here; the names are looked up when a command runs.
from . import builtins as _builtins  # noqa: E402
from .builtins._common import CURRENT_LINE, Builtin  # noqa: E402

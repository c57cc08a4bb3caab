"""A bash interpreter in plain Python, for the WebAssembly guest (and in-process tests).

``run_script`` is the only way in: it runs a script over a real directory (``root``) that
the script sees as ``/``, or over an in-memory tree (``filesystem=memfs.MemoryFS(...)``,
then ``root`` is ``/``), and returns what it printed and its exit status. Every file
operation goes through ``fs.py``, the one seam between the interpreter and a filesystem. Every command is
implemented in Python (``builtins/`` and ``commands/``); nothing is ever spawned.

Where things are: ``parse.py`` (the command grammar) builds the tree of ``syntax.py``;
``words.py`` parses a word's quotes and ``$`` constructs, ``expand.py`` expands them
(with ``arith.py``, ``braces.py``, ``pattern.py`` and ``escapes.py``); ``evaluate.py``
(``Shell``) runs the tree, with ``redirects.py`` (descriptors and redirections),
``invoke.py`` (running a command by name), ``substitute.py`` (``$(...)``) and ``procsub.py``
(``<(...)``, ``>(...)``);
``state.py`` holds variables, options and the working directory, ``streams.py`` the
channels and sinks output flows through, ``limits.py`` the ``BashLimits``, ``unparse.py``
prints functions back; ``builtins/`` are the builtins that work on the shell,
``commands/`` the commands that work on files and streams (their flags parsed by
``flagspec.py``); ``errors.py`` draws the exception tree.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import Generator

from . import procsub
from .background import Scheduler
from .errors import BashError, ControlFlow, ExitShell, LimitExceeded, TimeoutExpired
from .evaluate import Shell
from .invoke import registry
from .limits import BashLimits
from .redirects import IO
from .state import SHARED, RunCounters, State, Var
from .streams import CappedBuffer, Channel, InputStream
from . import fs

__all__ = ["BashLimits", "BashResult", "RECURSION_LIMIT", "run_script"]

# Deep shell recursion nests generator frames (about 16 per shell function level: 100 levels,
# the nesting limit, take about 1,600). The limit must stay where a RecursionError can still
# unwind in the guest: generator frames use wasm stack, and the exception's traceback is freed
# recursively, about 225 bytes a frame. Measured with the engine's 2 MiB wasm stack
# (sandbox.engine.MAX_WASM_STACK), a runaway recursion ended cleanly at limits up to 9,300 for
# shell functions, jq, bc and nested $( ) alike, 8,100 for a function piped into itself, and
# trapped the guest (stack_overflow) above; at 12,000 every one of them trapped. 4,000 keeps
# twice the room.
RECURSION_LIMIT = 4_000


@dataclass(frozen=True)
class BashResult:
    stdout: bytes
    stderr: bytes
    exit_code: int
    stdout_truncated: bool
    stderr_truncated: bool
    timed_out: bool


_DEFAULT_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/",
    "SHELL": "/bin/bash",
    "USER": "user",
    "LOGNAME": "user",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "SHLVL": "1",
}

_SHELL_VARS = {
    "IFS": " \t\n",
    "PS4": "+ ",
    "OPTIND": "1",
    "OPTERR": "1",
    "BASH": "/bin/bash",
    "BASH_VERSION": "5.2.15(1)-release",
    "HOSTNAME": "sandbox",
    "HOSTTYPE": "x86_64",
    "MACHTYPE": "x86_64-pc-linux-gnu",
    "OSTYPE": "linux-gnu",
    "UID": "1000",
    "EUID": "1000",
    "PPID": "1",
}


_SHOPTS_ON = (
    "checkwinsize", "cmdhist", "complete_fullquote", "extquote", "force_fignore", "globasciiranges",
    "globskipdots", "hostcomplete", "interactive_comments", "patsub_replacement", "progcomp",
    "promptvars", "sourcepath",
)
"""The shopt options a non-interactive bash 5.2 starts with."""


def _var(value: str | None, owner: int, exported: bool = True) -> Var:
    var = Var(value)
    if exported:
        var.attrs.add("x")
    var.owner = owner
    return var


_START_VARS = {**{name: _var(value, SHARED, exported=False) for name, value in _SHELL_VARS.items()},
               **{name: _var(value, SHARED) for name, value in _DEFAULT_ENV.items()}}
_VERSINFO = _var(None, SHARED, exported=False)
_VERSINFO.array = {0: "5", 1: "2", 2: "15", 3: "1", 4: "release", 5: "x86_64-pc-linux-gnu"}
"""The variables every run starts with, made once (in the guest's image) and shared by every
run's state: no state changes a shared variable in place, and a run copies only those it
touches (``State.owned``). Making them anew took an eighth of a ``true``'s run."""


def _initial_state(counters: RunCounters, cwd: str, env: dict[str, str] | None) -> State:
    state = State(counters)
    scope = state.scopes[0]
    scope.update(_START_VARS)
    if env:
        # An environment string ends at its first NUL, as execve(2) reads it.
        for name, value in env.items():
            scope[name.split("\0", 1)[0]] = _var(value.split("\0", 1)[0], state.owner)
    scope["PWD"] = _var(cwd, state.owner)
    scope["OLDPWD"] = _var(None, state.owner)
    scope["BASH_VERSINFO"] = _VERSINFO
    state.options.update({"braceexpand": True, "hashall": True, "interactive-comments": True})
    state.shopts.update({name: True for name in _SHOPTS_ON})
    return state


def _finish_background_jobs(counters: RunCounters) -> None:
    """The script is done; its background jobs still run to their end (bash exits, but
    their output reaches the same stdout), within the same deadline."""
    sched = counters.scheduler
    if isinstance(sched, Scheduler) and sched.live:
        sched.run_until(lambda: not sched.live)


def _normalise_cwd(cwd: str) -> str:
    parts: list[str] = []
    for seg in cwd.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts:
                parts.pop()
            continue
        parts.append(seg)
    return "/" + "/".join(parts)


def run_script(
    script: str,
    *,
    root: str,
    cwd: str = "/",
    env: dict[str, str] | None = None,
    stdin: bytes = b"",
    limits: BashLimits | None = None,
    skipped_notes: dict[str, str] | None = None,
    filesystem: fs.Backend | None = None,
) -> BashResult:
    """Run ``script`` with the directory ``root`` as ``/``; never raises for script errors.
    ``skipped_notes`` names workspace files left out of ``root`` (path -> a note line saying
    why), which ``ls`` of their directory mentions. ``filesystem`` serves every file
    operation of the run (``fs.RealFS``, the real directory, unless given)."""
    with fs.installed(filesystem or fs.RealFS()):
        return _run(script, root, cwd, env, stdin, limits, skipped_notes)


def _run(script: str, root: str, cwd: str, env: dict[str, str] | None, stdin: bytes,
         limits: BashLimits | None, skipped_notes: dict[str, str] | None) -> BashResult:
    limits = limits or BashLimits()
    # The command families imported before the clock starts: the first import is slow and
    # is not the script's time (not with the package: git's needs modules the guest's image
    # adds after it). Later runs find them bound.
    registry()
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    counters = RunCounters(limits, time.monotonic() + limits.timeout_ms / 1000.0)
    counters.skipped_notes = dict(skipped_notes or {})
    stdout = CappedBuffer(limits.max_output_bytes)
    stderr = CappedBuffer(limits.max_output_bytes)
    cwd = _normalise_cwd(cwd)
    real_root = os.path.abspath(root)
    host_cwd = real_root if cwd == "/" else os.path.join(real_root, cwd.lstrip("/"))
    state = _initial_state(counters, cwd, env)
    shell = Shell(state, real_root, limits)
    channel = Channel()
    io = IO({0: InputStream(data=stdin), 1: channel, 2: stderr}, channel)
    shell.cur_io = io
    status = 0
    timed_out = False
    if not fs.isdir(host_cwd):
        stderr.write(f"bash: cd: {cwd}: No such file or directory\n".encode())
        return BashResult(b"", stderr.result(), 1, False, stderr.truncated, False)

    def drive(gen: Generator[bytes, None, int]) -> int:
        while True:
            try:
                chunk = next(gen)
            except StopIteration as stop:
                return stop.value if isinstance(stop.value, int) else 0
            stdout.write(chunk)

    try:
        try:
            # bash drops NUL characters from the script it reads (no string holds one).
            status = drive(shell.run_source(script.replace("\0", ""), io))
        except ExitShell as exc:
            status = exc.status
        state.last_status = status
        try:
            counters.check_time()
            trap_status = drive(shell.run_exit_trap(io))
            if trap_status != status and "EXIT" not in state.traps:
                pass
        except ExitShell as exc:
            status = exc.status
        procsub.end_of_script(counters)
        _finish_background_jobs(counters)
    except TimeoutExpired as exc:
        stderr.write(f"bash: {exc.message}\n".encode())
        status = 124
        timed_out = True
    except LimitExceeded as exc:
        stderr.write(f"bash: {exc.message}\n".encode())
        status = exc.status if exc.status != 0 else 1
    except RecursionError:
        stderr.write(b"bash: maximum recursion depth exceeded\n")
        status = 1
    except BashError as exc:
        stderr.write(f"bash: {exc.message}\n".encode())
        status = exc.status
    except MemoryError:
        stderr.write(b"bash: out of memory\n")
        status = 1
    except (Exception, ControlFlow) as exc:
        # never let an interpreter bug escape as a crash; a break/return signal that reaches
        # the top (``eval return`` outside a function) has nowhere to unwind to, so it is one
        stderr.write(f"bash: internal error: {type(exc).__name__}: {exc}\n".encode("utf-8", "replace"))
        status = 1
    shell.close_persistent()
    if channel.buf:
        stdout.write(channel.take())
    return BashResult(stdout.result(), stderr.result(), status & 0xFF, stdout.truncated, stderr.truncated, timed_out)

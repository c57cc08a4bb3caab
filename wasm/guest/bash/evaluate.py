"""Runs the syntax tree: lists, pipelines, compound commands, simple commands and
assignments, ``[[ ]]``, traps and the EXIT trap; ``Shell`` is one running shell.

Every ``exec_*`` method is a generator that yields the bytes its context writes to its
``Channel`` (see ``streams.py``) and returns the exit status, so pipelines chain lazily:
``yes | head -3`` pulls three lines from ``yes`` and then closes it. Pipeline stages,
subshells and ``$(...)`` run in a forked ``Shell`` (a copy of the state), so they cannot
change their parent, exactly as in bash. ``break``/``continue``/``return``/``exit``
unwind as exceptions (``errors.py``).

The rest of running a command lives beside it, as functions that take the shell:
``redirects.py`` (the descriptor table and redirections), ``invoke.py`` (finding and running
a command by name) and ``substitute.py`` (``$(...)`` and ``<(...)``).
"""

from __future__ import annotations

import os
import random
import re
import time
from typing import Callable, Generator

from . import arith
from . import pattern as patterns
from .assignment import assign as assign_word
from .condeval import eval_cond
from . import xtrace
from .background import Job, JobTable, scheduler_of
from .procsub import feeds_substitution, readable, run_writer, writable
from .builtins import OperandError
from .errors import (
    AbortCommand, BashError, BreakLoop, ContinueLoop, ControlFlow, ExitShell, ExpansionError, FatalExpansionError,
    LimitExceeded, ReturnFromFunction, ShellSyntaxError,
)
from .expand import Expander
from .invoke import invoke
from .limits import BashLimits
from .parse import Parser, parse_cached
from .redirects import IO, apply_redirs, close_all
from .state import State, Var, arith_view
from .streams import Channel, InputStream
from .unparse import unparse_andor
from .syntax import (
    AndOr, ArithCmd, ArithFor, Case, Command, CondCmd, CondExpr, For, FuncDef, Group, If, ListNode, Loop, Pipeline, Simple,
    Subshell, Word, parse_assignment,
)

Gen = Generator[bytes, None, int]

DECLARATION_BUILTINS = frozenset(["declare", "typeset", "local", "export", "readonly"])
PIPE_BUFFER = 65536


class _StageBox:
    __slots__ = ("status", "done")

    def __init__(self) -> None:
        self.status = 0
        self.done = False


class Shell:
    """One shell (the script's, or a subshell's): its state plus the machinery to run."""

    def __init__(self, state: State, root: str, limits: BashLimits) -> None:
        self.state = state
        self.root = root
        self.limits = limits
        self.expander = Expander(self)
        self.random: random.Random | None = None
        """``$RANDOM``'s generator, seeded when first read (a subshell's anew, as bash 5.1+)."""
        self.cond_depth = 0
        self.cur_io: IO | None = None
        self.cleanups: list[Callable[[], None]] = []
        self.procsubs: dict[int, Job] = {}
        """This shell's process substitutions' lists, by pid (what ``wait $!`` finds)."""
        self.decl_arrays: dict[int, list[str]] = {}
        self.pending_trace: tuple[str, int] | None = None
        """A declaration's ``set -x`` line and how many of its arrays are still to be traced."""
        """The unexpanded ``name=(...)`` arguments of the declaration builtin being run, by argv index."""
        self.persistent: list[object] = []
        """Files opened by ``exec >file``: they stay open until the script ends."""
        self.jobs = JobTable()
        """The background jobs this shell started (a subshell starts with none)."""
        self.inherited_jobs: set[int] = set()
        """Numbers of the parent's jobs in ``jobs`` (listed here, not this shell's to finish)."""
        self.reaped: dict[int, int] = {}
        """pid -> status of the jobs ``wait`` collected (waiting again gives it again)."""

    # -- helpers -----------------------------------------------------------------------
    def close_persistent(self) -> None:
        close_all(self.persistent)
        self.persistent.clear()

    def fork(self) -> "Shell":
        child = Shell(self.state.fork(), self.root, self.limits)
        child.cur_io = self.cur_io
        child.persistent = self.persistent
        # a subshell can list its parent's jobs (`$(jobs -p)`), but waits only for its own
        child.jobs = JobTable(dict(self.jobs.jobs), self.jobs.next_number)
        child.inherited_jobs = set(self.jobs.jobs)
        return child

    def resolve(self, path: str) -> str:
        if not path.startswith("/"):
            path = self.state.cwd.rstrip("/") + "/" + path
        parts: list[str] = []
        for seg in path.split("/"):
            if seg in ("", "."):
                continue
            if seg == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(seg)
        return "/" + "/".join(parts)

    def open_pipe(self, path: str, mode: str) -> object | None:
        """``path`` opened when it names a live process substitution's pipe (``/dev/fd/N``):
        chunks to read (mode ``r``) or a sink to write (``w``); None otherwise."""
        if mode == "r":
            return readable(self.state.counters, self.resolve(path))
        return writable(self.state.counters, self.resolve(path))

    def host_path(self, path: str) -> str:
        virtual = self.resolve(path)
        if self.root in ("", "/"):
            return virtual
        return self.root if virtual == "/" else os.path.join(self.root, virtual.lstrip("/"))

    def glob(self, pat: str) -> list[str]:
        opts = patterns.GlobOptions(
            bool(self.state.shopts.get("dotglob")),
            bool(self.state.shopts.get("globstar")),
            bool(self.state.shopts.get("nocaseglob")),
            self.limits.max_glob_operations,
        )
        return patterns.glob(pat, self.state.cwd, self.host_path, opts)

    def warn(self, message: str) -> None:
        """A non-fatal diagnostic from inside an expansion (goes to the current stderr)."""
        if self.cur_io is not None:
            self.error(self.cur_io, message)

    def error(self, io: IO, message: str) -> None:
        io.out(2).write(f"bash: line {self.state.lineno}: {message}\n".encode("utf-8", "surrogateescape"))

    # -- entry points ------------------------------------------------------------------
    def run_source(self, source: str, io: IO) -> Gen:
        """Parse and run ``source`` command by command (a syntax error stops it, status 2)."""
        parser = Parser(source)
        status = 0
        while True:
            parser.extglob = bool(self.state.shopts.get("extglob"))
            try:
                node = parser.next_command()
            except ShellSyntaxError as exc:
                self.state.lineno = exc.line
                if exc.message:
                    self.error(io, exc.message)
                if exc.conditional:
                    raise ExitShell(self.state.last_status) from None
                self.state.last_status = 2
                raise ExitShell(2) from None
            if node is None:
                return status
            try:
                status = yield from self.exec_list(node, io)
            except AbortCommand as abort:  # the line is dropped: its status is the pipeline's
                status = self.state.last_status = abort.status
                self.state.pipestatus = [abort.status]

    def run_string(self, source: str, io: IO, first_line: int | None = None) -> Gen:
        """``eval``/traps/``source``: parse everything first, then run (a syntax error runs
        nothing). Line numbers continue from the current line, as bash's do."""
        if first_line is None:
            first_line = max(self.state.lineno, 1)
        try:
            node = parse_cached(source, bool(self.state.shopts.get("extglob")), first_line)
        except ShellSyntaxError as exc:
            if exc.message:
                self.error(io, exc.message)
            return 2
        return (yield from self.exec_list(node, io))

    # -- lists -------------------------------------------------------------------------
    def exec_list(self, node: ListNode, io: IO) -> Gen:
        status = self.state.last_status
        for andor, background in node.items:
            if background:
                status = yield from self._background(andor, io)
                continue
            status = yield from self.exec_andor(andor, io)
        return status

    def _background(self, andor: AndOr, io: IO) -> Gen:
        """``cmd &``: a subshell the scheduler runs alongside the script (``background.py``);
        its output goes where the script's went when it started."""
        child = self.fork()
        child.cond_depth = 0
        job_io = io.copy()
        job_io.channel = Channel()
        for fd in (1, 2):
            if io.fds.get(fd) is io.channel:
                job_io.fds[fd] = job_io.channel
        number = self.jobs.next_number
        job = Job(number, child.state.bashpid, _andor_text(andor), _job_body(child, andor, job_io), io.out(1))
        self.jobs.add(job)
        scheduler_of(self.state.counters).start(job)
        self.state.last_bg_pid = job.pid
        self.state.last_status = 0
        if False:  # a generator like every other command runner
            yield b""
        return 0

    def exec_andor(self, andor: AndOr, io: IO) -> Gen:
        rest = andor.rest
        if rest:
            self.cond_depth += 1
            try:
                status = yield from self.exec_pipeline(andor.first, io)
            finally:
                self.cond_depth -= 1
        else:
            status = yield from self.exec_pipeline(andor.first, io)
        last = andor.first
        ran_last = not rest
        for k, (op, pipe) in enumerate(rest):
            if (op == "&&") != (status == 0):
                continue
            final = k == len(rest) - 1
            if not final:
                self.cond_depth += 1
            try:
                status = yield from self.exec_pipeline(pipe, io)
            finally:
                if not final:
                    self.cond_depth -= 1
            last = pipe
            ran_last = final
        # -e and the ERR trap react to a failing simple command, subshell or pipeline; a
        # compound command (if, loop, group, case) failing was already handled inside it
        if status != 0 and ran_last and not last.negate and self.cond_depth == 0:
            if len(last.commands) > 1 or not isinstance(last.commands[0], _COMPOUND_TYPES):
                yield from self._on_failure(status, io)
        return status

    def _on_failure(self, status: int, io: IO) -> Gen:
        trap = self.state.traps.get("ERR")
        # functions do not inherit the ERR trap unless ``set -E`` (errtrace)
        if trap and (not self.state.funcnames or self.state.options.get("errtrace")):
            saved = self.state.last_status
            self.cond_depth += 1
            try:
                yield from self.run_string(trap, io)
            finally:
                self.cond_depth -= 1
            self.state.last_status = saved
        if self.state.options.get("errexit"):
            raise ExitShell(status)
        return status

    # -- pipelines ---------------------------------------------------------------------
    def exec_pipeline(self, pipe: Pipeline, io: IO) -> Gen:
        started = time.monotonic() if pipe.timed else 0.0
        if pipe.negate:
            self.cond_depth += 1
        try:
            if len(pipe.commands) == 1:
                status = yield from self.exec_command(pipe.commands[0], io)
                # after a compound command PIPESTATUS still describes its last pipeline
                if not isinstance(pipe.commands[0], _COMPOUND_TYPES):
                    self.state.pipestatus = [status]
            else:
                status = yield from self._multi_pipeline(pipe, io)
        finally:
            if pipe.negate:
                self.cond_depth -= 1
        if pipe.negate:
            status = 0 if status else 1
        self.state.last_status = status
        # bash applies a compound command's own redirections to the time report too
        last_redirs = [] if isinstance(pipe.commands[-1], Simple) else getattr(pipe.commands[-1], "redirs", [])
        if pipe.timed and not any(r.fd == 2 or r.op in ("&>", "&>>") for r in last_redirs):
            spent = time.monotonic() - started
            io.out(2).write(f"\nreal\t0m{spent:.3f}s\nuser\t0m0.000s\nsys\t0m0.000s\n".encode())
        return status

    def _stage(self, child: "Shell", command: Command, io: IO, box: _StageBox) -> Gen:
        try:
            status = yield from child.exec_command(command, io)
        except ExitShell as exc:
            status = exc.status
        except BreakLoop:
            status = 0
        except ContinueLoop:
            status = 0
        except ReturnFromFunction as exc:
            status = exc.status
        else:
            yield from child.run_exit_trap(io)
        if io.channel.buf:  # what the stage wrote just before it ended (an error message)
            yield io.channel.take()
        box.status = status
        box.done = True
        return status

    def _multi_pipeline(self, pipe: Pipeline, io: IO) -> Gen:
        n = len(pipe.commands)
        boxes = [_StageBox() for _ in range(n)]
        gens: list[Gen] = []
        upstream: InputStream = io.stdin()
        streams: list[InputStream] = []
        for k, command in enumerate(pipe.commands):
            child = self.fork()
            # unlike ( ), a pipeline stage may break/continue the enclosing loop (it just ends)
            child.state.loop_depth = self.state.loop_depth
            stage_io = io.copy()
            stage_io.fds[0] = upstream
            if k < n - 1:
                stage_io.channel = Channel()
                stage_io.fds[1] = stage_io.channel
                if pipe.stderr_too[k]:
                    stage_io.fds[2] = stage_io.channel
            gen = self._stage(child, command, stage_io, boxes[k])
            gens.append(gen)
            if k < n - 1:
                upstream = InputStream(gen)
                streams.append(upstream)
        try:
            if self.state.shopts.get("lastpipe"):
                # shopt -s lastpipe: the last stage runs in this shell, so `... | read x` sets x
                last_io = io.copy()
                last_io.fds[0] = upstream
                boxes[-1].status = yield from self.exec_command(pipe.commands[-1], last_io)
                boxes[-1].done = True
            else:
                yield from gens[-1]
        except BaseException:
            # the pipeline is being torn down (limit, exit, consumer closed): stop every stage
            for gen in gens[:-1]:
                gen.close()
            raise
        else:
            for k in range(n - 2, -1, -1):
                if boxes[k].done:
                    continue
                spent = 0
                try:
                    while spent <= PIPE_BUFFER:
                        chunk = next(gens[k])
                        spent += len(chunk)
                        self.state.counters.check_time()
                except StopIteration:
                    pass
                if not boxes[k].done:
                    gens[k].close()
                    boxes[k].status = 141
        statuses = [b.status for b in boxes]
        self.state.pipestatus = statuses
        status = statuses[-1]
        if self.state.options.get("pipefail"):
            for s in reversed(statuses):
                if s != 0:
                    status = s
                    break
        return status

    # -- commands ----------------------------------------------------------------------
    def exec_command(self, cmd: Command, io: IO) -> Gen:
        if isinstance(cmd, Simple):
            if feeds_substitution(cmd):
                return (yield from run_writer(self, lambda: self.exec_simple(cmd, io)))
            return (yield from self.exec_simple(cmd, io))
        if isinstance(cmd, FuncDef):
            self.state.functions[cmd.name] = cmd
            self.state.last_status = 0
            return 0
        redirs = cmd.redirs
        if redirs:
            try:
                io, opened = apply_redirs(self, redirs, io)
            except BashError as exc:
                self.error(io, exc.message)
                self.state.last_status = 1
                if self.cond_depth == 0:
                    yield from self._on_failure(1, io)
                return 1
            try:
                status = yield from self._compound_checked(cmd, io)
            finally:
                close_all(opened)
            return status
        return (yield from self._compound_checked(cmd, io))

    def _compound_checked(self, cmd: Command, io: IO) -> Gen:
        """Expansion errors of a compound command's own words end the (sub)shell, as in bash."""
        try:
            return (yield from self._compound(cmd, io))
        except FatalExpansionError as exc:
            self.error(io, exc.message)
            raise ExitShell(127 if self.state.in_subshell == 0 else 1) from None
        except ExpansionError as exc:
            self.error(io, exc.message)
            raise self.expansion_failed() from None

    def expansion_failed(self) -> ControlFlow:
        """What a non-fatal expansion error raises: a subshell exits, the top level drops
        the rest of the current command and goes on."""
        return AbortCommand(1) if self.state.in_subshell == 0 else ExitShell(1)

    def _compound(self, cmd: Command, io: IO) -> Gen:
        st = self.state
        if isinstance(cmd, Group):
            return (yield from self.exec_list(cmd.body, io))
        if isinstance(cmd, Subshell):
            return (yield from self._subshell(cmd.body, io))
        if isinstance(cmd, If):
            for cond, body in cmd.clauses:
                self.cond_depth += 1
                try:
                    status = yield from self.exec_list(cond, io)
                finally:
                    self.cond_depth -= 1
                if status == 0:
                    return (yield from self.exec_list(body, io))
            if cmd.else_body is not None:
                return (yield from self.exec_list(cmd.else_body, io))
            st.last_status = 0
            return 0
        if isinstance(cmd, Loop):
            return (yield from self._while(cmd, io))
        if isinstance(cmd, For):
            return (yield from self._for(cmd, io))
        if isinstance(cmd, ArithFor):
            return (yield from self._arith_for(cmd, io))
        if isinstance(cmd, Case):
            return (yield from self._case(cmd, io))
        if isinstance(cmd, ArithCmd):
            st.lineno = cmd.line
            st.counters.tick()
            try:
                value = self.traced_arith(cmd.expr, io)
                status = 0 if value else 1
            except FatalExpansionError:
                raise
            except LimitExceeded:
                raise
            except BashError as exc:
                self.error(io, exc.message)
                status = 1
            st.last_status = status
            return status
        if isinstance(cmd, CondCmd):
            st.lineno = cmd.line
            st.counters.tick()
            try:
                status = 0 if self.eval_cond(cmd.expr) else 1
            except FatalExpansionError:
                raise
            except LimitExceeded:
                raise
            except ExpansionError as exc:
                self.error(io, exc.message)
                raise self.expansion_failed() from None
            except BashError as exc:
                if exc.message:
                    self.error(io, exc.message)
                # an arithmetic error in an -eq operand fails the test; anything else is misuse
                status = 1 if isinstance(exc, OperandError) else 2
            st.last_status = status
            return status
        raise BashError(f"unsupported command {type(cmd).__name__}")

    def _subshell(self, body: ListNode, io: IO) -> Gen:
        child = self.fork()
        # ( ) in a condition (`(false; echo) || ...`) still ignores errexit inside
        child.cond_depth = self.cond_depth
        if child.state.in_subshell > self.limits.max_substitution_depth:
            raise LimitExceeded(f"subshell nesting limit exceeded ({self.limits.max_substitution_depth})")
        held = len(self.persistent)
        try:
            # its own descriptor table: `exec >file` inside must not redirect the parent
            status = yield from child.exec_list(body, io.copy())
        except ExitShell as exc:
            status = exc.status
        child.state.last_status = status
        yield from child.run_exit_trap(io)
        # what `exec >file` opened in the subshell closes when it exits (a >(...) list
        # then sees the end of its input)
        close_all(self.persistent[held:])
        del self.persistent[held:]
        self.state.last_status = status
        return status

    def run_exit_trap(self, io: IO) -> Gen:
        trap = self.state.traps.pop("EXIT", None)
        if trap:
            saved = self.state.last_status
            try:
                yield from self.run_string(trap, io)
            except ExitShell as exc:
                return exc.status
            self.state.last_status = saved
        return self.state.last_status

    def _loop_tick(self, count: int) -> None:
        if count > self.limits.max_loop_iterations:
            raise LimitExceeded(f"loop iteration limit exceeded ({self.limits.max_loop_iterations} iterations)")
        self.state.counters.check_time()

    def _body(self, body: ListNode, io: IO) -> Generator[bytes, None, tuple[int, str | None]]:
        """Run a loop body; returns (status, 'break'/'continue'/None)."""
        self.state.loop_depth += 1
        try:
            status = yield from self.exec_list(body, io)
        except BreakLoop as exc:
            if exc.levels > 1:
                exc.levels -= 1
                raise
            return 0, "break"
        except ContinueLoop as exc:
            if exc.levels > 1:
                exc.levels -= 1
                raise
            return 0, "continue"
        finally:
            self.state.loop_depth -= 1
        return status, None

    def _while(self, cmd: Loop, io: IO) -> Gen:
        status = 0
        count = 0
        while True:
            count += 1
            self._loop_tick(count)
            self.cond_depth += 1
            # break/continue are also valid in the loop's condition
            self.state.loop_depth += 1
            try:
                cond = yield from self.exec_list(cmd.cond, io)
            except BreakLoop as exc:
                if exc.levels > 1:
                    exc.levels -= 1
                    raise
                status = 0
                break
            except ContinueLoop as exc:
                if exc.levels > 1:
                    exc.levels -= 1
                    raise
                continue
            finally:
                self.cond_depth -= 1
                self.state.loop_depth -= 1
            if (cond == 0) == cmd.until:
                break
            status, flow = yield from self._body(cmd.body, io)
            if flow == "break":
                break
        self.state.last_status = status
        return status

    def _for(self, cmd: For, io: IO) -> Gen:
        self.state.lineno = cmd.line
        if not re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", cmd.var):
            self.error(io, f"`{cmd.var}': not a valid identifier")
            self.state.last_status = 1
            return 1
        if cmd.words is None:
            items = list(self.state.positional)
        else:
            try:
                items = self.expander.words([w.raw for w in cmd.words])
            except (FatalExpansionError, LimitExceeded):
                raise
            except BashError as exc:  # as a simple command's words: the line is dropped
                self.error(io, exc.message)
                raise self.expansion_failed() from None
        status = 0
        shown = "for " + cmd.var + " in " + ('"$@"' if cmd.words is None else " ".join(w.raw for w in cmd.words))
        for count, item in enumerate(items, 1):
            self._loop_tick(count)
            if self.state.options.get("xtrace"):
                xtrace.emit(self, io, shown)
            try:
                self._set_loop_var(cmd.var, item)
            except BashError as exc:
                self.error(io, exc.message)
                status = 1
                break
            status, flow = yield from self._body(cmd.body, io)
            if flow == "break":
                break
        self.state.last_status = status
        return status

    def _set_loop_var(self, name: str, item: str) -> None:
        """``for name in ...`` sets ``name``; a nameref loop variable is re-pointed at each
        word instead (bash 5.2, as ksh: ``for r in x y`` makes ``r`` a reference to x, then y)."""
        var = self.state.lookup(name)
        if var is None or "n" not in var.attrs:
            self.state.set(name, item)
            return
        if "r" in var.attrs:
            raise BashError(f"{name}: readonly variable")
        if not re.match(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\Z", item, re.S):
            raise BashError(f"`{item}': not a valid identifier")
        if item == name:
            raise BashError(f"{name}: nameref variable self references not allowed")
        var.value = item
        var.attrs.discard("unassigned")

    def _arith_for(self, cmd: ArithFor, io: IO) -> Gen:
        self.state.lineno = cmd.line
        status = 0
        try:
            # bash's parser keeps each part without its leading blanks, an empty one as 1
            init, cond, step = (part.lstrip() or "1" for part in (cmd.init, cmd.cond, cmd.step))
            self.traced_arith(init, io)
            count = 0
            while True:
                count += 1
                self._loop_tick(count)
                if self.traced_arith(cond, io) == 0:
                    break
                status, flow = yield from self._body(cmd.body, io)
                if flow == "break":
                    break
                self.traced_arith(step, io)
        except (FatalExpansionError, LimitExceeded):
            raise
        except ExpansionError as exc:
            self.error(io, exc.message)
            status = 1
        self.state.last_status = status
        return status

    def traced_arith(self, expr: str, io: IO) -> int:
        """The value of an ``(( ))`` expression, shown first under ``set -x`` once expanded."""
        ex = self.expander
        text = ex.arith_text(expr)
        if self.state.options.get("xtrace"):
            xtrace.emit(self, io, f"(( {text} ))")
        return arith.evaluate(text, arith_view(self.state))

    def _case(self, cmd: Case, io: IO) -> Gen:
        self.state.lineno = cmd.line
        word = self.expander.string(cmd.word.raw)
        if self.state.options.get("xtrace"):
            xtrace.emit(self, io, f"case {cmd.word.raw} in")
        nocase = bool(self.state.shopts.get("nocasematch"))
        status = 0
        fall = False
        k = 0
        items = cmd.items
        while k < len(items):
            item = items[k]
            matched = fall or any(patterns.match(self.expander.pattern(p.raw), word, nocase) for p in item.patterns)
            fall = False
            if matched:
                status = yield from self.exec_list(item.body, io)
                if not item.body.items:
                    status = 0
                if item.terminator == ";;":
                    break
                if item.terminator == ";&":
                    fall = True
            k += 1
        self.state.last_status = status
        return status

    # -- [[ ]] -----------------------------------------------------------------------------
    def eval_cond(self, expr: CondExpr) -> bool:
        return eval_cond(self, expr)

    # -- redirections ------------------------------------------------------------------------

    # -- simple commands ---------------------------------------------------------------
    def exec_simple(self, cmd: Simple, io: IO) -> Gen:
        st = self.state
        st.lineno = cmd.line
        st.counters.tick()
        self.cur_io = io
        ex = self.expander
        sub_marker = st.counters.commands
        st.cmdsub_status = None
        try:
            argv, decl_arrays = self._expand_argv(cmd.words)
        except FatalExpansionError as exc:
            self.error(io, exc.message)
            raise ExitShell(127 if self.state.in_subshell == 0 else 1) from None
        except LimitExceeded:
            raise
        except BashError as exc:
            self.error(io, exc.message)
            raise self.expansion_failed() from None
        if not argv:
            # `$(exit 3)` expanding to nothing: the status is the substitution's
            return self._assignments_only(cmd, io, sub_marker)
        if st.shopts.get("expand_aliases") and argv[0] in st.aliases:
            argv = ex.words(st.aliases[argv[0]].split()) + argv[1:]
            if not argv:
                return 0
        # prefix assignments live in a temporary scope, exported for this command only; one
        # bash cannot make (a subscript, a readonly name) is reported and the command still runs
        temp_scope: dict[str, Var] | None = None
        if cmd.assigns:
            temp_scope = {}
            try:
                for a in cmd.assigns:
                    if a.index is not None:
                        self.error(io, f"`{a.name}[{a.index}]': not a valid identifier")
                        continue
                    # bash keeps a list's text as the value, and += appends to the current one
                    value = "(" + " ".join(a.array) + ")" if a.array is not None else ex.string(a.value or "", True)
                    if a.append:
                        value = (st.get(a.name) or "") + value
                    old = st.lookup(a.name)
                    if old is not None and "r" in old.attrs:
                        self.error(io, f"{a.name}: readonly variable")
                        continue
                    var = Var(value)
                    var.attrs.add("x")
                    temp_scope[a.name] = var
                    if st.options.get("xtrace"):
                        xtrace.emit(self, io, f"{a.name}={xtrace.value(value)}")
            except FatalExpansionError as exc:
                self.error(io, exc.message)
                raise ExitShell(127 if self.state.in_subshell == 0 else 1) from None
            except LimitExceeded:
                raise
            except BashError as exc:
                self.error(io, exc.message)
                st.last_status = 1
                return 1
        if st.options.get("xtrace"):
            self._trace_command(io, argv, decl_arrays)
        if cmd.redirs:
            if argv[0] == "exec" and len(argv) == 1:
                try:
                    _, kept = apply_redirs(self, cmd.redirs, io, in_place=True)
                    self.persistent.extend(kept)
                except BashError as exc:
                    self.error(io, exc.message)
                    st.last_status = 1
                    return 1
                st.last_status = 0
                return 0
            try:
                io, opened = apply_redirs(self, cmd.redirs, io)
            except FatalExpansionError as exc:
                self.error(io, exc.message)
                raise ExitShell(127 if self.state.in_subshell == 0 else 1) from None
            except LimitExceeded:
                raise
            except BashError as exc:
                self.error(io, exc.message)
                st.last_status = 1
                return 1
        else:
            opened = []
        if temp_scope is not None:
            st.scopes.append(temp_scope)
        try:
            status = yield from invoke(self, argv, io, decl_arrays)
        finally:
            if self.pending_trace is not None:
                xtrace.emit(self, io, self.pending_trace[0])
                self.pending_trace = None
            if temp_scope is not None:
                if st.scopes and st.scopes[-1] is temp_scope:
                    st.scopes.pop()
                else:
                    try:
                        st.scopes.remove(temp_scope)
                    except ValueError:
                        pass
            close_all(opened)
            for cleanup in self.cleanups:
                cleanup()
            self.cleanups.clear()
        st.last_status = status
        st.scopes[0]["_"] = Var(argv[-1])
        return status

    def _trace_command(self, io: IO, argv: list[str], decl_arrays: dict[int, list[str]]) -> None:
        """``set -x``'s line for a command about to run. A declaration's ``name=(...)``
        arguments are traced first, as they are expanded (``assignment.py``), and the
        builtin's own line, where they are bare names, after them."""
        if not decl_arrays:
            xtrace.emit(self, io, xtrace.command(argv))
            return
        shown = [a.split("=", 1)[0].rstrip("+") if k in decl_arrays else a for k, a in enumerate(argv)]
        self.pending_trace = (xtrace.command(shown), len(decl_arrays))

    def _assignments_only(self, cmd: Simple, io: IO, sub_marker: int) -> int:
        """A simple command with no words (``a=1 b=$(f)``): assign in the shell itself; the
        status is that of the last ``$(...)`` it ran, as in bash."""
        st = self.state
        try:
            for a in cmd.assigns:
                assign_word(self, a)
        except FatalExpansionError as exc:
            self.error(io, exc.message)
            raise ExitShell(127 if self.state.in_subshell == 0 else 1) from None
        except LimitExceeded:
            raise
        except BashError as exc:
            self.error(io, exc.message)
            raise self.expansion_failed() from None
        sub_status = st.cmdsub_status
        status = sub_status if sub_status is not None and st.counters.commands > sub_marker else 0
        if cmd.redirs:
            try:
                _, opened = apply_redirs(self, cmd.redirs, io)
                close_all(opened)
            except BashError as exc:
                self.error(io, exc.message)
                status = 1
        # a <(...) in an assignment lives as long as the assignment, as in bash
        for cleanup in self.cleanups:
            cleanup()
        self.cleanups.clear()
        st.last_status = status
        return status

    def _expand_argv(self, words: list[Word]) -> tuple[list[str], dict[int, list[str]]]:
        ex = self.expander
        if not words:
            return [], {}
        first = ex.words([words[0].raw])
        if not first or first[0] not in DECLARATION_BUILTINS:
            return first + ex.words([w.raw for w in words[1:]]), {}
        # declaration builtins: assignment-shaped arguments are not split or globbed
        argv = list(first)
        arrays: dict[int, list[str]] = {}
        for w in words[1:]:
            assign = parse_assignment(w)
            if assign is None:
                argv.extend(ex.words([w.raw]))
                continue
            prefix = w.raw[: w.raw.index("=")]
            if assign.array is not None:
                arrays[len(argv)] = assign.array
                argv.append(prefix + "=(" + ")")
            else:
                argv.append(ex.string(prefix) + "=" + ex.string(assign.value or "", True))
        return argv, arrays

    # -- substitutions -------------------------------------------------------------------


_COMPOUND_TYPES = (Group, If, Loop, For, ArithFor, Case)


def _job_body(child: Shell, andor: AndOr, io: IO) -> Gen:
    try:
        status = yield from child.exec_andor(andor, io)
    except ExitShell as exc:
        status = exc.status
    if io.channel.buf:
        yield io.channel.take()
    return status


def _andor_text(andor: AndOr) -> str:
    return unparse_andor(andor).strip()

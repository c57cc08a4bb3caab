"""Command substitution (``$(...)``, backticks, ``$(< file)``): running a list in a forked
shell and capturing what it writes; process substitution's entry (``procsub.py`` runs it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import procsub
from .background import scheduler_of
from .errors import BashError, BreakLoop, ContinueLoop, ExitShell, LimitExceeded, ReturnFromFunction, ShellSyntaxError
from .parse import parse_cached
from .redirects import IO, open_target
from .streams import Channel, InputStream, NullSink
from .syntax import ListNode, Simple

if TYPE_CHECKING:
    from .evaluate import Shell


def command_subst(shell: Shell, source: str) -> str:
    data = command_subst_bytes(shell, source)
    if b"\0" in data:  # a string cannot hold a NUL: bash drops them, and says so
        shell.warn("warning: command substitution: ignored null byte in input")
        data = data.replace(b"\0", b"")
    return data.decode("utf-8", "surrogateescape").rstrip("\n")


def command_subst_bytes(shell: Shell, source: str, stdin_data: bytes | None = None) -> bytes:
    st = shell.state
    if st.subst_depth >= shell.limits.max_substitution_depth:
        raise LimitExceeded(f"command substitution nesting limit exceeded ({shell.limits.max_substitution_depth})")
    child = shell.fork()
    child.state.subst_depth += 1
    if not st.shopts.get("inherit_errexit"):
        child.state.options["errexit"] = False
    parent_io = shell.cur_io
    channel = Channel()
    fds: dict[int, object] = dict(parent_io.fds) if parent_io is not None else {}
    fds[1] = channel
    if stdin_data is not None:
        fds[0] = InputStream(data=stdin_data)
    io = IO(fds, channel)
    chunks: list[bytes] = []
    size = 0
    status = 0
    try:
        node = parse_cached(source, bool(shell.state.shopts.get("extglob")), max(st.lineno, 1))
        file_text = _lone_input_redirect(node)
        if file_text is not None:
            # $(< file): the file's contents, without running a command
            try:
                child.cur_io = io
                stream = open_target(child, child.expander.string(file_text), "r", io)
                data = b"".join(stream.chunks()) if isinstance(stream, InputStream) else b""
                if isinstance(stream, InputStream):
                    stream.close()
                st.last_status = 0
                return data
            except BashError as exc:
                (parent_io.out(2) if parent_io else NullSink()).write(f"bash: {exc.message}\n".encode())
                st.last_status = 1
                return b""
        gen = child.exec_list(node, io)
        while True:
            try:
                chunk = next(gen)
            except StopIteration as stop:
                status = stop.value or 0
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > shell.limits.max_string_bytes:
                gen.close()
                raise LimitExceeded(f"command substitution output exceeds {shell.limits.max_string_bytes} bytes")
        _finish_jobs(child)
    except ShellSyntaxError as exc:
        (parent_io.out(2) if parent_io else NullSink()).write(f"bash: command substitution: {exc.message}\n".encode())
        status = 2
    except ExitShell as exc:
        status = exc.status
    except (BreakLoop, ContinueLoop):
        status = 0
    except ReturnFromFunction as exc:
        status = exc.status
    if channel.buf:
        chunks.append(channel.take())
    try:
        for _chunk in child.run_exit_trap(io):
            chunks.append(_chunk)
    except ExitShell:
        pass
    if channel.buf:
        chunks.append(channel.take())
    st.last_status = status
    st.cmdsub_status = status
    return b"".join(chunks)


def _finish_jobs(child: Shell) -> None:
    """``$(cmd &)`` ends when every writer of its output is gone: its jobs run to the end."""
    mine = [j for n, j in child.jobs.jobs.items() if n not in child.inherited_jobs]
    if mine:
        scheduler_of(child.state.counters).run_until(lambda: all(j.done for j in mine))


def process_subst(shell: Shell, source: str, direction: str) -> str:
    """``<(cmd)`` / ``>(cmd)``: cmd runs alongside the command, joined to it by a pipe the
    command sees as ``/dev/fd/N`` (``procsub.py``)."""
    return procsub.start(shell, source, direction)


def _lone_input_redirect(node: ListNode) -> str | None:
    """The file of ``$(< file)`` (a command that is only an input redirection), else None."""
    if len(node.items) != 1:
        return None
    andor, background = node.items[0]
    if background or andor.rest or andor.first.negate or len(andor.first.commands) != 1:
        return None
    cmd = andor.first.commands[0]
    if not isinstance(cmd, Simple) or cmd.words or cmd.assigns or len(cmd.redirs) != 1:
        return None
    redir = cmd.redirs[0]
    if redir.op != "<" or redir.fd not in (None, 0):
        return None
    return redir.target

"""Process substitution: ``<(list)`` and ``>(list)`` run as jobs of the run's cooperative
scheduler (``background.py``), each joined to the command by an in-memory ``Pipe`` the
command sees as ``/dev/fd/N`` (63 down, as bash numbers them).

``<(list)``: what the list prints flows into the pipe as the scheduler steps it; a command
reading ``/dev/fd/N`` takes what is there and, when the pipe is empty, steps the scheduler
(every job: two substitutions sleeping a second each take one second together) until more
arrives or the list ends. A list that gets ahead of its reader waits (``HIGH_WATER``). Once
nothing reads the pipe any more, the list ends at its next write (bash's SIGPIPE).

``>(list)``: what the command writes to ``/dev/fd/N`` is the list's standard input. A job
can only wait for input by letting the scheduler step its writer, so a simple command with
a ``>(...)`` word runs as a job itself (``run_writer``) while the script waits for it; the
list then consumes what it writes as it writes it. Where the script is the writer (the
redirection of a compound command, ``exec > >(...)``), the list reads once the writer has
closed the pipe. The list outlives the command, as in bash: ``wait`` waits for it, and so
does the end of the script. Every wait is bounded by the script's deadline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator

from .background import Gen, Job, Scheduler, Sink, scheduler_of
from .errors import BashError, ControlFlow, ExitShell, LimitExceeded, ShellSyntaxError
from .parse import parse_cached
from .redirects import IO
from .streams import Channel, InputStream

if TYPE_CHECKING:
    from .evaluate import Shell
    from .state import RunCounters
    from .syntax import Simple

FIRST_FD = 63
HIGH_WATER = 1 << 16
"""Bytes a ``<(...)`` list may get ahead of its reader before it waits for the reader."""


class Pipe:
    """One substitution's pipe. ``writers``/``readers`` count the ends held open: the
    command that expanded the substitution holds one until it finishes, and every open of
    ``/dev/fd/N`` (a redirection, a command reading or writing the path) holds another."""

    def __init__(self, counters: RunCounters, fd: int, direction: str) -> None:
        self.counters = counters
        self.fd = fd
        self.direction = direction
        self.buf = bytearray()
        self.writers = 1 if direction == ">" else 0
        self.readers = 1 if direction == "<" else 0
        self.job: Job | None = None
        """The substitution's list."""
        self.writer: Job | None = None
        """``>``: the job running the command that writes (None: the script itself)."""

    # -- the writing end --------------------------------------------------------------
    @property
    def write_closed(self) -> bool:
        if self.direction == "<":
            return self.job is None or self.job.done
        return self.writers <= 0

    @property
    def read_closed(self) -> bool:
        return self.readers <= 0

    def write(self, data: bytes) -> int:
        if self.read_closed:
            if self.direction == "<" and self.job is not None and not self.job.done:
                scheduler_of(self.counters).kill(self.job, 141)  # SIGPIPE: nobody reads
            return len(data)
        self.buf += data
        if len(self.buf) > self.counters.limits.max_string_bytes:
            raise LimitExceeded(f"process substitution buffers more than {self.counters.limits.max_string_bytes} bytes")
        return len(data)

    def release_writer(self) -> None:
        self.writers -= 1

    # -- the reading end ----------------------------------------------------------------
    def open_reader(self) -> PipeReading:
        self.readers += 1
        return PipeReading(self)

    def release_reader(self) -> None:
        self.readers -= 1

    def take(self) -> bytes | None:
        """What is buffered, waiting for the writer while there is none; None at the end."""
        while not self.buf:
            if self.write_closed:
                return None
            self._wait()
        data = bytes(self.buf)
        self.buf.clear()
        return data

    def _wait(self) -> None:
        if self.direction == ">" and (self.writer is None or self.writer.busy):
            # the writer is beneath us on the stack: waiting could never end
            raise BashError("process substitution: its writer cannot run while the list waits for input")
        sched = scheduler_of(self.counters)
        if not sched.run_round():
            sched.idle(None)

    def ready(self) -> bool:
        """Whether the list's job can run without waiting on something that cannot move.
        A ``>(...)`` list waits for input inside its step, stepping its writer: so it runs
        only while its writer is a job that is not beneath it on the stack (or has closed
        the pipe), and starts only once there is input."""
        if self.direction == "<":
            return len(self.buf) < HIGH_WATER
        if self.write_closed:
            return True
        writer, job = self.writer, self.job
        if writer is None or writer.busy or writer.done:
            return False
        return bool(self.buf) or (job is not None and job.steps > 0)


class PipeReading:
    """One open of a pipe's reading end: chunks until the writer is done; closing it (or
    dropping it) lets go of the end."""

    def __init__(self, pipe: Pipe) -> None:
        self.pipe: Pipe | None = pipe

    def __iter__(self) -> PipeReading:
        return self

    def __next__(self) -> bytes:
        pipe = self.pipe
        if pipe is None:
            raise StopIteration
        data = pipe.take()
        if data is None:
            self.close()
            raise StopIteration
        return data

    def close(self) -> None:
        if self.pipe is not None:
            self.pipe.release_reader()
            self.pipe = None

    def __del__(self) -> None:
        self.close()


class PipeWriting:
    """One open of a pipe's writing end (a redirection, ``tee``'s file)."""

    def __init__(self, pipe: Pipe) -> None:
        pipe.writers += 1
        self.pipe: Pipe | None = pipe

    def write(self, data: bytes) -> int:
        return self.pipe.write(data) if self.pipe is not None else 0

    def flush(self) -> None:
        pass

    def close(self) -> None:
        if self.pipe is not None:
            self.pipe.release_writer()
            self.pipe = None


class PipeTable:
    """A run's pipes: by the ``/dev/fd/N`` their command sees (while it runs), and every
    one not yet closed (so the end of the script can close them)."""

    def __init__(self) -> None:
        self.named: dict[int, Pipe] = {}
        self.open: list[Pipe] = []


def pipes_of(counters: RunCounters) -> PipeTable:
    table = counters.pipes
    if table is None:
        table = counters.pipes = PipeTable()
    assert isinstance(table, PipeTable)
    return table


def lookup(counters: RunCounters, path: str) -> Pipe | None:
    """The live substitution named ``path`` (``/dev/fd/N``), if any."""
    if counters.pipes is None or not path.startswith("/dev/fd/") or not (path[8:].isascii() and path[8:].isdigit()):
        return None
    return pipes_of(counters).named.get(int(path[8:]))


def start(shell: Shell, source: str, direction: str) -> str:
    """Expand ``<(source)`` or ``>(source)``: start its list as a job and return the path
    the command gets."""
    counters = shell.state.counters
    table = pipes_of(counters)
    fd = FIRST_FD
    while fd in table.named:
        fd -= 1
    if fd < 10:
        raise LimitExceeded("too many process substitutions at once")
    pipe = Pipe(counters, fd, direction)
    sched = scheduler_of(counters)
    parent = shell.cur_io
    child = shell.fork()
    child.cond_depth = 0
    job_io = IO(dict(parent.fds) if parent is not None else {}, Channel())
    sink: Sink
    if direction == "<":
        job_io.fds[1] = job_io.channel
        sink = pipe
    else:
        job_io.fds[0] = InputStream(pipe.open_reader())
        out = parent.out(1) if parent is not None else None
        if parent is not None and parent.fds.get(1) is parent.channel:
            job_io.fds[1] = job_io.channel
        sink = out if out is not None else Channel()
        pipe.writer = sched.current
    body = _body(child, source, job_io, max(shell.state.lineno, 1))
    job = Job(0, child.state.bashpid, source.strip(), body, sink, ready=pipe.ready)
    pipe.job = job
    sched.start(job)
    table.named[fd] = pipe
    table.open.append(pipe)
    shell.procsubs[job.pid] = job
    shell.state.last_bg_pid = job.pid
    shell.cleanups.append(lambda: _command_done(table, pipe))
    return f"/dev/fd/{fd}"


def _command_done(table: PipeTable, pipe: Pipe) -> None:
    """The command that expanded the substitution has finished: its path is free again
    and the command's own hold on the pipe ends."""
    if table.named.get(pipe.fd) is pipe:
        del table.named[pipe.fd]
    if pipe.direction == "<":
        pipe.release_reader()
        if pipe.read_closed and pipe.job is not None and not pipe.job.done and not pipe.job.busy:
            scheduler_of(pipe.counters).kill(pipe.job, 141)
    else:
        pipe.release_writer()


def _body(child: Shell, source: str, io: IO, line: int) -> Gen:
    try:
        node = parse_cached(source, bool(child.state.shopts.get("extglob")), line)
    except ShellSyntaxError as exc:
        io.out(2).write(f"bash: process substitution: {exc.message}\n".encode())
        return 2
    try:
        status = yield from child.exec_list(node, io)
    except ExitShell as exc:
        status = exc.status
    if io.channel.buf:
        yield io.channel.take()
    return status


def feeds_substitution(cmd: Simple) -> bool:
    """Whether a simple command may hold a ``>(...)`` (and so runs as a writer job): a
    quick look at its raw text, on every command's path."""
    for word in cmd.words:
        if ">(" in word.raw:
            return True
    for redir in cmd.redirs:
        if ">(" in redir.target:
            return True
    return False


def run_writer(shell: Shell, body: Callable[[], Gen]) -> Gen:
    """Run a command with ``>(...)`` words as a job the script waits for, so its lists can
    read what it writes while it runs; its output, status and any exit or error it raises
    come through as if it had run directly."""
    sched = scheduler_of(shell.state.counters)
    out = Channel()
    caught: list[BaseException] = []

    def guarded() -> Gen:
        try:
            return (yield from body())
        except (ControlFlow, BashError) as exc:
            caught.append(exc)
            return 1

    job = Job(0, 0, "", guarded(), out)
    sched.start(job)
    while not job.done:
        sched.run_until(lambda: job.done or bool(out.buf))
        if out.buf:
            yield out.take()
        if not job.done and not any(not j.busy for j in sched.live):
            break  # only reachable when stepped from inside itself; never spin
    if out.buf:
        yield out.take()
    if caught:
        raise caught[0]
    return job.status if job.status is not None else 0


def end_of_script(counters: RunCounters) -> None:
    """The script is over: every pipe's ends close (``exec > >(...)`` included), so the
    ``>(...)`` lists see the end of their input and the ``<(...)`` ones nobody reads end."""
    if counters.pipes is None:
        return
    sched = counters.scheduler
    table = pipes_of(counters)
    for pipe in table.open:
        if pipe.direction == ">":
            pipe.writers = 0
        else:
            pipe.readers = 0
            if isinstance(sched, Scheduler) and pipe.job is not None and not pipe.job.done and not pipe.job.busy:
                sched.kill(pipe.job, 141)
    table.named.clear()
    table.open.clear()


def readable(counters: RunCounters, path: str) -> Iterator[bytes] | None:
    """``path`` opened for reading when it is a ``<(...)`` substitution's."""
    pipe = lookup(counters, path)
    if pipe is None or pipe.direction != "<":
        return None
    return pipe.open_reader()


def writable(counters: RunCounters, path: str) -> PipeWriting | None:
    """``path`` opened for writing when it is a ``>(...)`` substitution's."""
    pipe = lookup(counters, path)
    if pipe is None or pipe.direction != ">":
        return None
    return PipeWriting(pipe)

"""Background jobs: ``cmd &`` runs as a generator that a cooperative scheduler steps while
the script waits (``wait``, ``sleep``) and after the script ends.

The guest has one thread, so jobs take turns: a job runs until it yields output or is
blocked in ``sleep`` (a sleeping job yields an empty chunk and leaves its wake-up time in
``Scheduler.wake_hint``). Two jobs sleeping one second each therefore finish together, in
about one second. Everything runs under the script's deadline (``RunCounters``).

The ``Scheduler`` is one per run (shared by every subshell through ``RunCounters``); each
``Shell`` keeps the ``JobTable`` of the jobs it started (what ``jobs``, ``wait`` and
``kill %n`` see): a subshell starts with an empty table, as in bash.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Generator, Protocol

from .errors import BashError, BreakLoop, ContinueLoop, ExitShell, LimitExceeded, ReturnFromFunction

if TYPE_CHECKING:
    from .state import RunCounters

Gen = Generator[bytes, None, int]

IDLE_STEP_S = 0.005
"""How long a round in which every job is asleep waits when no wake-up time is known."""


class Sink(Protocol):
    def write(self, data: bytes, /) -> object: ...


@dataclass
class Job:
    number: int
    pid: int
    command: str
    gen: Gen | None
    sink: Sink
    status: int | None = None
    """None while running; the exit status once done (143 if killed)."""
    busy: bool = False
    """Being stepped right now (its frames are on the stack: it cannot be stepped again)."""
    reported: bool = False
    steps: int = 0
    """How many times the scheduler has stepped it."""
    ready: Callable[[], bool] | None = None
    """Whether the job can run now (a process substitution's list waiting for its pipe
    says no); None: always."""

    @property
    def done(self) -> bool:
        return self.status is not None

    @property
    def runnable(self) -> bool:
        return not self.busy and not self.done and (self.ready is None or self.ready())


@dataclass
class JobTable:
    """The jobs one shell started, by job number."""

    jobs: dict[int, Job] = field(default_factory=dict)
    next_number: int = 1

    def add(self, job: Job) -> None:
        self.jobs[job.number] = job
        self.next_number = job.number + 1

    def find(self, spec: str) -> Job | None:
        """A job by ``%n``, ``%%``/``%+``, ``%-`` or pid."""
        if spec in ("%%", "%+", "%"):
            return self.jobs[max(self.jobs)] if self.jobs else None
        if spec == "%-":
            numbers = sorted(self.jobs)
            return self.jobs[numbers[-2]] if len(numbers) > 1 else None
        if spec.startswith("%"):
            rest = spec[1:]
            if rest.isascii() and rest.isdigit():
                return self.jobs.get(int(rest))
            matches = [j for j in self.jobs.values() if j.command.startswith(rest)]
            return matches[0] if len(matches) == 1 else None
        if spec.isascii() and spec.isdigit():
            for job in self.jobs.values():
                if job.pid == int(spec):
                    return job
        return None

    def forget_done(self) -> None:
        for number in [n for n, j in self.jobs.items() if j.done and j.reported]:
            del self.jobs[number]
        if not self.jobs:
            self.next_number = 1


class Scheduler:
    """Steps every live job of the run in turn (one per run; see the module docstring)."""

    def __init__(self, counters: RunCounters) -> None:
        self.counters = counters
        self.live: list[Job] = []
        self.current: Job | None = None
        """The job being stepped (None: the script itself is running)."""
        self.wake_hint: float | None = None

    def start(self, job: Job) -> None:
        limit = self.counters.limits.max_background_jobs
        if len(self.live) >= limit:
            raise LimitExceeded(f"background job limit exceeded ({limit} jobs running)")
        self.live.append(job)

    def _step(self, job: Job) -> bool:
        """Run ``job`` to its next yield; True if it made progress (not just slept)."""
        assert job.gen is not None
        outer, self.current = self.current, job
        job.busy = True
        job.steps += 1
        try:
            chunk = next(job.gen)
        except StopIteration as stop:
            self._finish(job, stop.value if isinstance(stop.value, int) else 0)
            return True
        except (ExitShell, ReturnFromFunction) as exc:
            self._finish(job, exc.status)
            return True
        except (BreakLoop, ContinueLoop):
            self._finish(job, 0)
            return True
        except LimitExceeded:
            raise
        except BashError as exc:
            self._finish(job, exc.status)
            return True
        finally:
            job.busy = False
            self.current = outer
        if chunk:
            job.sink.write(chunk)
            return True
        return False

    def _finish(self, job: Job, status: int) -> None:
        job.status = status
        job.gen = None
        if job in self.live:
            self.live.remove(job)

    def kill(self, job: Job, status: int) -> None:
        """End ``job`` now (its ``finally`` blocks run), recording ``status`` (128 + signal)."""
        if job.gen is not None and not job.busy:
            job.gen.close()
        self._finish(job, status)

    def run_round(self) -> bool:
        """Step each runnable job once (a job started during the round included: a process
        substitution a job expands gets its first turn at once); True if any made
        progress."""
        progressed = False
        self.wake_hint = None
        stepped: set[int] = set()
        while True:
            pending = [j for j in self.live if id(j) not in stepped]
            if not pending:
                return progressed
            for job in pending:
                stepped.add(id(job))
                if not job.runnable:
                    continue
                self.counters.check_time()
                progressed = self._step(job) or progressed

    def idle(self, until: float | None) -> None:
        """Nothing can progress: sleep until the earliest wake-up (or ``until``), briefly."""
        now = time.monotonic()
        targets = [t for t in (self.wake_hint, until) if t is not None]
        pause = max(0.0, min(targets) - now) if targets else IDLE_STEP_S
        pause = min(pause, max(0.0, self.counters.deadline - now) + 0.001)
        time.sleep(max(pause, 0.0005))
        self.counters.check_time()

    def run_until(self, finished: Callable[[], bool], until: float | None = None) -> None:
        """Step jobs until ``finished()`` holds, or the time ``until`` passes."""
        while not finished():
            if until is not None and time.monotonic() >= until:
                return
            runnable = [j for j in self.live if j.runnable]
            if not runnable:
                if until is None:
                    return
                self.idle(until)
                continue
            if not self.run_round():
                self.idle(until)


def scheduler_of(counters: RunCounters) -> Scheduler:
    sched = counters.scheduler
    if sched is None:
        sched = counters.scheduler = Scheduler(counters)
    assert isinstance(sched, Scheduler)
    return sched


def sleep_for(counters: RunCounters, seconds: float) -> Gen:
    """``sleep``: in a job, yield (empty chunks) until the time has come, so the others run;
    in the script itself, run the jobs meanwhile. Raises ``TimeoutExpired`` at the deadline."""
    wake = time.monotonic() + seconds
    sched = counters.scheduler
    if wake > counters.deadline:
        wake = counters.deadline + 0.001
    if isinstance(sched, Scheduler) and sched.current is not None:
        while time.monotonic() < wake:
            sched.wake_hint = wake if sched.wake_hint is None else min(sched.wake_hint, wake)
            yielded = time.monotonic()
            yield b""
            if time.monotonic() - yielded < IDLE_STEP_S / 5:
                # resumed at once: a pipeline or $(...) inside the job is pulling, not the
                # scheduler, so wait a little rather than spin
                time.sleep(min(IDLE_STEP_S, max(0.0, wake - time.monotonic())))
        counters.check_time()
        return 0
    if isinstance(sched, Scheduler) and sched.live:
        sched.run_until(lambda: False, wake)
    remaining = wake - time.monotonic()
    if remaining > 0:
        time.sleep(remaining)
    counters.check_time()
    return 0

"""Time, waiting and jobs: ``sleep``, ``wait``, ``jobs``, ``kill``, ``timeout`` and the ``time``
command. Background jobs themselves live in ``background.py``: ``wait`` and ``sleep`` are
where the script lets them run.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from ..background import Job, scheduler_of, sleep_for
from ..errors import ExitShell, TimeoutExpired
from ..invoke import invoke, invoke_no_functions
from ._common import Builtin, Entry, Gen, StreamingBuiltin, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def _wait_one(sh: Shell, spec: str, io: IO) -> int:
    sched = scheduler_of(sh.state.counters)
    job = sh.jobs.find(spec)
    if job is None and (spec.isascii() and spec.isdigit()) and int(spec) in sh.procsubs:
        substitution = sh.procsubs.pop(int(spec))
        sched.run_until(lambda: substitution.done)
        return substitution.status if substitution.status is not None else 127
    if job is None:
        if (spec.isascii() and spec.isdigit()) and int(spec) in sh.reaped:
            return sh.reaped[int(spec)]
        if spec.startswith("%"):
            print_error(io, f"wait: {spec}: no such job")
        elif spec.isascii() and spec.isdigit():
            print_error(io, f"wait: pid {spec} is not a child of this shell")
        else:
            print_error(io, f"wait: `{spec}': not a pid or valid job spec")
            return 2
        return 127
    sched.run_until(lambda: job.done)
    return _reap(sh, job, io)


_REPORTED = {137: "Killed", 129: "Hangup", 131: "Quit", 138: "User defined signal 1", 140: "User defined signal 2"}
"""Deaths bash reports when it collects the job (not SIGTERM or SIGINT)."""


def _reap(sh: Shell, job: Job, io: IO) -> int:
    status = job.status if job.status is not None else 0
    if status in _REPORTED and not job.reported:
        print_error(io, f"{job.pid} {_REPORTED[status]:<24}{job.command}")
    sh.reaped[job.pid] = status
    job.reported = True
    sh.jobs.jobs.pop(job.number, None)
    if not sh.jobs.jobs:
        sh.jobs.next_number = 1
    return status


def run_wait(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    sched = scheduler_of(sh.state.counters)
    if args and args[0] == "-n":
        pending = [j for j in sh.jobs.jobs.values()]
        if not pending:
            return 127
        sched.run_until(lambda: any(j.done for j in pending))
        finished = next(j for j in pending if j.done)
        return _reap(sh, finished, io)
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        mine = list(sh.jobs.jobs.values())
        # bash 5.1 on: also the last process substitution, while $! is its pid
        last = sh.procsubs.get(sh.state.last_bg_pid or -1)
        if last is not None:
            sched.run_until(lambda: last.done)
        sched.run_until(lambda: all(j.done for j in mine))
        for job in mine:
            _reap(sh, job, io)
        return 0
    status = 0
    for spec in args:
        status = _wait_one(sh, spec, io)
    return status


def run_jobs(sh: Shell, argv: list[str], io: IO) -> int:
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    jobs = sorted(sh.jobs.jobs.values(), key=lambda j: j.number)
    numbers = [j.number for j in jobs]
    for job in jobs:
        if job.done:
            continue  # bash without job control does not report finished jobs here
        if "p" in flags:
            io.out(1).write(encode(f"{job.pid}\n"))
            continue
        mark = "+" if job.number == numbers[-1] else ("-" if len(numbers) > 1 and job.number == numbers[-2] else " ")
        pid = f"{job.pid} " if "l" in flags else ""
        io.out(1).write(encode(f"[{job.number}]{mark}  {pid}{'Running':<24}{job.command} &\n"))
    return 0


_SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15, "CONT": 18, "STOP": 19}


def run_kill(sh: Shell, argv: list[str], io: IO) -> int:
    """Signals reach background jobs only: a job ends with status 128 + the signal."""
    args = argv[1:]
    signal = 15
    if args and args[0] == "-l":
        io.out(1).write(encode(" ".join(sorted(_SIGNALS, key=_SIGNALS.__getitem__)) + "\n"))
        return 0
    if args and args[0] in ("-s", "-n") and len(args) > 1:
        args = ["-" + args[1], *args[2:]]
    if args and args[0].startswith("-") and args[0] != "--":
        name = args.pop(0)[1:].upper().removeprefix("SIG")
        number = int(name) if (name.isascii() and name.isdigit()) else _SIGNALS.get(name)
        if number is None:
            print_error(io, f"kill: {name}: invalid signal specification")
            return 1
        signal = number
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        print_error(io, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ...")
        return 2
    status = 0
    for spec in args:
        job = sh.jobs.find(spec)
        if job is None and (spec.isascii() and spec.isdigit()):
            job = next((j for j in scheduler_of(sh.state.counters).live if j.pid == int(spec)), None)
        if job is None:
            if (spec.isascii() and spec.isdigit()) and int(spec) in (sh.state.pid, sh.state.bashpid):
                if signal == 0:
                    continue
                raise ExitShell(128 + signal)
            print_error(io, f"kill: {spec}: no such job" if spec.startswith("%") else f"kill: ({spec}) - No such process")
            status = 1
            continue
        if signal != 0 and not job.done:
            scheduler_of(sh.state.counters).kill(job, 128 + signal)
    return status


def run_sleep(sh: Shell, argv: list[str], io: IO) -> Gen:
    if len(argv) < 2:
        io.out(2).write(b"sleep: missing operand\n")
        return 1
    total = 0.0
    for arg in argv[1:]:
        seconds = _duration(arg)
        if seconds is None:
            io.out(2).write(encode(f"sleep: invalid time interval '{arg}'\n"))
            return 1
        total += seconds
    return (yield from sleep_for(sh.state.counters, total))


def _duration(text: str) -> float | None:
    m = re.match(r"([0-9]*\.?[0-9]+)([smhd]?)\Z", text)
    if not m:
        return None
    return float(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2) or "s"]


def run_timeout(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    preserve = False
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a in ("-s", "-k", "--signal", "--kill-after") and args:
            args.pop(0)
        elif a == "--preserve-status":
            preserve = True
        elif a == "--":
            break
    if len(args) < 2:
        io.out(2).write(b"timeout: missing operand\n")
        return 125
    seconds = _duration(args[0])
    if seconds is None:
        io.out(2).write(encode(f"timeout: invalid time interval '{args[0]}'\n"))
        return 125
    counters = sh.state.counters
    outer = counters.deadline
    mine = time.monotonic() + seconds if seconds > 0 else outer
    counters.deadline = min(outer, mine)
    try:
        status = yield from invoke_no_functions(sh, args[1:], io)
    except TimeoutExpired:
        if time.monotonic() >= outer:
            raise
        status = 143 if preserve else 124
    finally:
        counters.deadline = outer
    return status


def run_time(sh: Shell, argv: list[str], io: IO) -> Gen:
    started = time.monotonic()
    status = 0
    if len(argv) > 1:
        status = yield from invoke(sh, argv[1:], io)
    spent = time.monotonic() - started
    io.out(2).write(encode(f"\nreal\t0m{spent:.3f}s\nuser\t0m0.000s\nsys\t0m0.000s\n"))
    return status


BUILTINS: dict[str, Entry] = {
    "wait": Builtin(run_wait),
    "jobs": Builtin(run_jobs),
    "kill": Builtin(run_kill),
    "sleep": StreamingBuiltin(run_sleep, bash_builtin=False),
    "timeout": StreamingBuiltin(run_timeout, bash_builtin=False),
    "time": StreamingBuiltin(run_time, bash_builtin=False),
}

"""Time and waiting: ``sleep``, ``wait``, ``timeout`` and the ``time`` command (the isolate
has no background jobs: ``&`` runs to completion, so ``wait`` has nothing to wait for).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from ..errors import TimeoutExpired
from ..invoke import invoke, invoke_no_functions
from ._common import Builtin, Entry, Gen, StreamingBuiltin, encode

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_wait(sh: Shell, argv: list[str], io: IO) -> int:
    return 0


def run_sleep(sh: Shell, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        io.out(2).write(b"sleep: missing operand\n")
        return 1
    total = 0.0
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    for arg in argv[1:]:
        m = re.match(r"([0-9]*\.?[0-9]+)([smhd]?)\Z", arg)
        if not m:
            io.out(2).write(encode(f"sleep: invalid time interval '{arg}'\n"))
            return 1
        total += float(m.group(1)) * units[m.group(2) or "s"]
    deadline = sh.state.counters.deadline
    remaining = deadline - time.monotonic()
    if total > remaining:
        time.sleep(max(0.0, remaining))
        raise TimeoutExpired(f"script timed out after {sh.limits.timeout_ms} ms")
    time.sleep(total)
    return 0


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
    "sleep": Builtin(run_sleep, bash_builtin=False),
    "timeout": StreamingBuiltin(run_timeout, bash_builtin=False),
    "time": StreamingBuiltin(run_time, bash_builtin=False),
}

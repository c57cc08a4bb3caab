"""What the code can observe of its process, made true for each run.

Every isolate starts from one snapshot taken at build time, so whatever the interpreter
decided then is the same in every run unless it is redone here, at the start of each run:

- ``random``'s global generator is reseeded from WASI's entropy (the snapshot's state would
  give every run the same "random" numbers).
- ``time.process_time`` counts from the start of the run. WASI has no CPU clock; libc's
  emulation counts from the snapshot, which made it negative. The run is single-threaded
  and never waits except in ``time.sleep``, so its wall time since the start is the honest
  figure; ``time.monotonic`` and ``perf_counter`` are WASI's monotonic clock already.
- ``sys.argv`` is ``["main.py"]``, as for a script run as ``python main.py``.
- ``os._exit(n)`` ends the run with exit status ``n``. The real one would stop the instance
  before it reports; this one raises ``SystemExit`` and records the status, so the run still
  reports its logs and the status stands even if the code catches what it raised.

Not redone: the string hash seed. CPython fixes it at start-up and every string and dict in
the snapshot already holds hashes made with it, so a new seed would break them; ``hash()``
of a string is therefore the same in every run of one build (as with ``PYTHONHASHSEED``
fixed), and differs between builds.
"""

from __future__ import annotations

import os
import posix
import random
import sys
import time
from typing import NoReturn

_perf_counter = time.perf_counter
_perf_counter_ns = time.perf_counter_ns
_started = 0.0
_started_ns = 0
_exit_code: int | None = None


def process_time() -> float:
    """Seconds this run has been running (see the module docstring)."""
    return _perf_counter() - _started


def process_time_ns() -> int:
    return _perf_counter_ns() - _started_ns


def hard_exit(status: int) -> NoReturn:
    """``os._exit``: end the run with ``status`` (an int, as the real one requires)."""
    global _exit_code
    if isinstance(status, bool) or not isinstance(status, int):
        raise TypeError(f"'{type(status).__name__}' object cannot be interpreted as an integer")
    _exit_code = status
    raise SystemExit(status)


def hard_exit_code() -> int | None:
    """The status ``os._exit`` was called with in this run, if it was."""
    return _exit_code


def install() -> None:
    """Done once, at build time."""
    time.process_time = process_time
    time.process_time_ns = process_time_ns
    os._exit = hard_exit
    posix._exit = hard_exit


def begin_run() -> None:
    """Done at the start of every run."""
    global _started, _started_ns, _exit_code
    _started, _started_ns, _exit_code = _perf_counter(), _perf_counter_ns(), None
    random.seed()
    # The component's start-up sets argv from WASI's (empty) arguments after the snapshot,
    # so it is set here; argparse and usage messages read argv[0].
    sys.argv = ["main.py"]

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

- ``hash()`` is keyed per run. CPython fixes its string hash secret at start-up and every
  string and dict in the snapshot holds hashes made with it, so the secret itself cannot be
  redone without breaking them. What code sees of it is ``hash()``: the builtin is replaced
  by the interpreter's hash passed through a bijection keyed from WASI's entropy at the
  start of each run, so equal objects still hash equal within a run, distinct hashes stay
  distinct, and a value differs from run to run as with a random ``PYTHONHASHSEED``.
  Numbers keep their documented hashes (``hash(7) == 7``), which no seed changes in CPython
  either. Left as built: the iteration order of sets of strings, which follows the
  interpreter's own hashes (it is the same in every run of one build).
"""

from __future__ import annotations

import builtins
import numbers
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


_interpreter_hash = builtins.hash
_HASH_BITS = sys.hash_info.width
_HASH_MASK = (1 << _HASH_BITS) - 1
_NUMBER_TYPES = (int, float, complex, bool)
_hash_xor, _hash_multiplier = 0, 1


def keyed_hash(obj: object, /) -> int:
    """``hash(obj)`` for this run (see the module docstring)."""
    value = _interpreter_hash(obj)
    if type(obj) in _NUMBER_TYPES or isinstance(obj, numbers.Number):
        return value
    # xor, multiply by an odd number and fold the high half down: each step is a bijection
    # of the hash width, so the mapping neither merges nor splits hash values.
    mixed = (((value & _HASH_MASK) ^ _hash_xor) * _hash_multiplier) & _HASH_MASK
    mixed ^= mixed >> (_HASH_BITS // 2)
    if mixed >> (_HASH_BITS - 1):
        mixed -= 1 << _HASH_BITS
    return -2 if mixed == -1 else mixed  # as CPython: -1 is never a hash


keyed_hash.__name__ = keyed_hash.__qualname__ = "hash"
keyed_hash.__doc__ = _interpreter_hash.__doc__


def _new_hash_key() -> None:
    global _hash_xor, _hash_multiplier
    key = int.from_bytes(os.urandom(2 * _HASH_BITS // 8), "little")
    _hash_xor = key & _HASH_MASK
    _hash_multiplier = (key >> _HASH_BITS) | 1


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
    builtins.hash = keyed_hash


def begin_run() -> None:
    """Done at the start of every run."""
    global _started, _started_ns, _exit_code
    _started, _started_ns, _exit_code = _perf_counter(), _perf_counter_ns(), None
    random.seed()
    _new_hash_key()
    # The component's start-up sets argv from WASI's (empty) arguments after the snapshot,
    # so it is set here; argparse and usage messages read argv[0].
    sys.argv = ["main.py"]

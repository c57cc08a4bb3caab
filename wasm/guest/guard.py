"""Guest-side containment: refuse the modules that would reach outside, and keep sleeps short.

Neither measure is the security boundary (the host grants no sockets and kills a worker that
overruns its deadline); both make the common case fail fast and clearly instead of hanging.
"""

from __future__ import annotations

import importlib.abc
import operator
import sys
import time
from typing import Sequence, SupportsIndex

SLEEP_SLICE_S = 0.02
"""Longest single WASI sleep: the host's epoch deadline can only fire between slices."""

_real_sleep = time.sleep


class _BlockedModuleFinder(importlib.abc.MetaPathFinder):
    """Answers every import of a blocked module with a clear ModuleNotFoundError."""

    def __init__(self, blocked: frozenset[str]) -> None:
        self.blocked = blocked

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        root = fullname.split(".")[0]
        if fullname in self.blocked or root in self.blocked:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: the sandbox has no network or processes",
                name=fullname,
            )
        return None


def block_modules(names: Sequence[str]) -> None:
    """Drop ``names`` from the module cache and refuse any later import of them."""
    blocked = frozenset(names)
    for name in list(sys.modules):
        if name in blocked or name.split(".")[0] in blocked:
            del sys.modules[name]
    sys.meta_path.insert(0, _BlockedModuleFinder(blocked))


def sliced_sleep(secs: float | SupportsIndex) -> None:
    """``time.sleep`` in short slices, so a deadline interrupts a long sleep promptly."""
    # time.sleep takes numbers only: a str is a TypeError there, so not float(secs).
    seconds = secs if isinstance(secs, (int, float)) else operator.index(secs)
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        _real_sleep(min(left, SLEEP_SLICE_S))


def install() -> None:
    time.sleep = sliced_sleep

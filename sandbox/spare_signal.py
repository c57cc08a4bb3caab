"""Whether a worker has its next isolate ready: a counter the worker writes and the pool reads.

Between runs a worker closes the isolate it used and makes the next one (``worker_main``'s
spare), about 0.7 ms of its CPU. The pool would rather hand a run to the worker that ran
last, whose memory is the likeliest to be in the CPU's caches still, but a run sent to a
worker still making its spare waits for it. So each worker counts the times it has finished
that work, in eight bytes of memory it shares with the service (a ``memfd`` passed to it
at spawn), and the pool reads them when it picks a worker, with no system call and no
wake-up of either process.

The counter is a hint, never trusted for anything else: a worker that lied about it, or a
torn read, could only make the pool pick another idle worker than it would have.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import struct
from typing import MutableMapping

from .memory_slots import map_shared

__all__ = ["ENV_VAR", "SpareSignal", "SpareCounter"]

ENV_VAR = "SANDBOX_SPARE_FD"
"""Names, in a worker's environment, the file descriptor of its counter."""
_COUNTER = struct.Struct("<Q")


class SpareSignal:
    """The pool's side for one worker: the counter's file descriptor to pass at spawn, then
    the counter read in place."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self._memory: mmap.mmap | None = None
        with contextlib.suppress(AttributeError, OSError):  # no memfd: no hint, FIFO order
            fd = os.memfd_create("sandbox-spare", os.MFD_CLOEXEC)
            try:
                os.ftruncate(fd, _COUNTER.size)
                self._memory = mmap.mmap(fd, _COUNTER.size)
            except OSError:
                os.close(fd)
                raise
            self.fd = fd

    def spawned(self) -> None:
        """The worker holds its own descriptor now; the mapping stays."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def finished(self) -> int:
        """How many times the worker has finished its work between runs (0 if unknown)."""
        return 0 if self._memory is None else int(_COUNTER.unpack_from(self._memory)[0])

    def close(self) -> None:
        self.spawned()
        if self._memory is not None:
            self._memory.close()
            self._memory = None


class SpareCounter:
    """The worker's side: counts the times its work between runs is done.

    Mapped by ``memory_slots.map_shared`` and its descriptor closed at once: a worker holds
    no descriptor it does not need."""

    def __init__(self, environ: MutableMapping[str, str] = os.environ) -> None:
        """Maps the counter ``environ`` names, and takes its name out of ``environ``."""
        self._cell: ctypes.c_uint64 | None = None
        self._count = 0
        with contextlib.suppress(KeyError, ValueError, OSError):
            fd = int(environ.pop(ENV_VAR))
            try:
                self._cell = ctypes.c_uint64.from_address(map_shared(fd, _COUNTER.size))
            finally:
                os.close(fd)

    def finished(self) -> None:
        """The next run's isolate is made and the last one's closed: say so."""
        self._count += 1
        if self._cell is not None:
            self._cell.value = self._count  # one aligned 8-byte store

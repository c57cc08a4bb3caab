"""The CPU scheduling class of a worker process between its runs.

After its answer, a worker drops the isolate it used and makes the next one (about 1-2 ms
of CPU here, most of it wasmtime filling the guest's function table and resetting its
memory). None of that is on anyone's path: the run after it goes to the next idle worker.
On a machine with few cores it still competed with what is on the path (the service
answering, the worker running the next call) as an equal, and a woken worker could find its
core taken by another one's background work.

So the pool puts a worker that has answered into ``SCHED_IDLE`` (the kernel runs it only on
a core nothing else wants, and treats a core running only such work as free when it places
a woken task) and back into ``SCHED_OTHER`` before it sends the worker its next run. The
pool makes both changes itself, in order, on its one event loop: a worker never changes its
own class, so no run can reach a worker left in the background, however the two processes
are scheduled. A worker's answer, host calls and run always go in ``SCHED_OTHER``.

Leaving ``SCHED_IDLE`` needs ``CAP_SYS_NICE`` (or an ``RLIMIT_NICE`` of 20), which an
unprivileged service may not have. :func:`background_policy` tries the round trip on a
thread of its own and falls back to ``SCHED_BATCH`` (no preemption of others on wake-up, the
same share of the CPU), which any process may leave; on a system with neither (not Linux),
workers keep their class.

Measured here (2 cores, 2026-12-03), this against the commit before it, two services in
alternating blocks of 50 requests (n=1,000 each, medians of paired blocks): HTTP execute
-0.19 ms (p50 2.77 -> 2.61 ms) and, in a quieter minute, -0.41 ms (2.74 -> 2.25); bash
-0.18, -0.19 and -0.42 ms in three runs, +0.27 in a fourth; with eight callers, 438 -> 516
executes per second and 444 -> 464 bash scripts (medians of 6 and 8 blocks of 2 s).
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

__all__ = ["BackgroundPolicy", "background_policy"]

log = logging.getLogger("sandbox.workers")


@dataclass(frozen=True)
class BackgroundPolicy:
    """How a worker is moved to the background between runs and back (``name``: ``idle``,
    ``batch`` or ``none``)."""

    name: str
    policy: int | None

    def background(self, pid: int) -> None:
        """Between runs: ``pid`` takes the background class."""
        self._set(pid, self.policy)

    def foreground(self, pid: int) -> None:
        """Before a run is sent to ``pid``: the normal class again."""
        self._set(pid, _OTHER)

    def _set(self, pid: int, policy: int | None) -> None:
        if self.policy is None or policy is None:
            return
        try:
            os.sched_setscheduler(pid, policy, os.sched_param(0))
        except ProcessLookupError:
            pass  # the worker has died; the pool finds out from its pipe
        except OSError as error:
            # Refused although the probe allowed it (a privilege dropped since): the run
            # goes on in whatever class the worker is in, and the pool keeps the worker.
            log.warning("could not move worker %d to scheduling class %s: %s", pid, policy, error)


_OTHER = getattr(os, "SCHED_OTHER", None)
_NONE = BackgroundPolicy("none", None)


def background_policy() -> BackgroundPolicy:
    """The best background class this process may move its workers into and out of."""
    idle, batch = getattr(os, "SCHED_IDLE", None), getattr(os, "SCHED_BATCH", None)
    if _OTHER is None or not hasattr(os, "sched_setscheduler"):
        return _NONE
    if idle is not None and _round_trip(idle):
        return BackgroundPolicy("idle", idle)
    if batch is not None and _round_trip(batch):
        return BackgroundPolicy("batch", batch)
    return _NONE


def _round_trip(policy: int) -> bool:
    """Whether a thread may take ``policy`` and return to ``SCHED_OTHER``: tried on a thread
    of its own, so a class that cannot be left stays with that thread, which then ends."""
    outcome: list[bool] = []

    def attempt() -> None:
        try:
            os.sched_setscheduler(0, policy, os.sched_param(0))
            os.sched_setscheduler(0, _OTHER, os.sched_param(0))  # type: ignore[arg-type]
        except OSError:
            outcome.append(False)
        else:
            outcome.append(True)

    thread = threading.Thread(target=attempt, name="sched-probe", daemon=True)
    thread.start()
    thread.join()
    return outcome == [True]

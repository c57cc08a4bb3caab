"""Keeping a running execution's lease while it runs: :class:`LeaseKeeper`.

A run's lease is set when a process claims it (its deadline, its inline approval wait and
a margin), and a sweep anywhere takes over a ``running`` execution whose lease has ended.
A run can outlive that estimate: each inline approval it waits on gives the guest its
waiting time back, so a run waiting on two approvals may run past its deadline plus one
wait. Left alone, its lease would end while it is alive and a second process would run it
too. The keeper renews the lease every ``every`` seconds for as long as the run is live in
this process; the renewal is a compare-and-set on the owner and ``running``, so it stops
by itself once the run parks, ends, or was taken over.

Nothing is scheduled but one timer per run, so a run shorter than ``every`` (nearly all of
them) costs a ``call_later`` and its cancel, no database write.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from .records import now
from .store import CodeModeStore

__all__ = ["LeaseKeeper", "renewal_interval"]

log = logging.getLogger(__name__)


def renewal_interval(lease_margin_s: float) -> float:
    """How often a live run's lease is renewed: a third of the margin (at least 0.5 s), so
    two renewals can fail before the margin is used up."""
    return max(0.5, lease_margin_s / 3)


class LeaseKeeper:
    """Renews ``execution_id``'s lease for ``owner`` to ``lease_s`` from each renewal."""

    def __init__(self, store: CodeModeStore, execution_id: str, owner: str, lease_s: float,
                 every: float, *, on_renew: Callable[[], None] | None = None) -> None:
        self._store = store
        self._id = execution_id
        self._owner = owner
        self._lease_s = lease_s
        self._every = every
        self._on_renew = on_renew
        self._loop = asyncio.get_running_loop()
        self._handle: asyncio.TimerHandle | None = self._loop.call_later(every, self._fire)
        self._task: asyncio.Task[None] | None = None
        """The renewal under way (held: the loop keeps only weak references to tasks)."""
        self._active = True
        self.renewals = 0

    def _fire(self) -> None:
        self._handle = None
        self._task = self._loop.create_task(self._renew())

    async def _renew(self) -> None:
        try:
            kept = await self._store.extend_lease(self._id, self._owner, now() + self._lease_s)
        except Exception:  # a lost connection: try again at the next interval
            log.warning("renewing the lease of execution %s failed", self._id, exc_info=True)
            kept = True
        else:
            self.renewals += 1
            if self._on_renew is not None:
                self._on_renew()
        if kept and self._active:
            self._handle = self._loop.call_later(self._every, self._fire)

    def stop(self) -> None:
        """No more renewals (one already under way finishes: it changes nothing once the
        run has parked or ended)."""
        self._active = False
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

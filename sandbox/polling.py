"""Keeping the event loop polling, instead of sleeping, for what is due within microseconds.

The service waits, a call at a time, on two things that usually come back quickly: a webhook
tool's answer and a guest's next host call. On a virtual machine whose idle cores halt (this
project's machine: ``cpuidle haltpoll`` with polling turned off), the loop that sleeps in
``epoll_wait`` for them is woken through the hypervisor, which costs tens of microseconds a
wake-up, more than the rest of a host call's Python. A :class:`Poller` keeps the loop turning
instead (a callback that schedules itself: each turn polls with a zero timeout) while exactly
one such wait is open and its window has not passed. A second wait open at once ends it: the
loop has other work then, and the cores are shared with the isolates.
"""

from __future__ import annotations

import asyncio

__all__ = ["POLLER", "Poller"]


class Poller:
    """Polls one event loop while exactly one wait it was told of is open (see the module
    docstring). ``open`` and ``close`` pair up; they never block or raise."""

    def __init__(self) -> None:
        self.polls = 0
        """Turns of the loop made polling, since this poller was made."""
        self._open = 0
        self._until = 0.0
        self._polling: asyncio.AbstractEventLoop | None = None
        """The loop a poll is scheduled on (None: none is)."""

    @property
    def waiting(self) -> int:
        """How many waits are open."""
        return self._open

    def open(self, window_s: float) -> None:
        """A wait begins that should end within ``window_s``: poll for it, if it is the
        only one open."""
        loop = asyncio.get_running_loop()
        self._open += 1
        if self._open != 1 or window_s <= 0:
            return
        self._until = loop.time() + window_s
        if self._polling is not loop:  # another loop's chain (a closed one) no longer runs
            self._polling = loop
            loop.call_soon(self._poll, loop)

    def close(self) -> None:
        """The wait ``open`` began is over."""
        self._open = max(self._open - 1, 0)

    def _poll(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._open == 1 and loop.time() < self._until:
            self.polls += 1
            loop.call_soon(self._poll, loop)
        else:
            self._polling = None


POLLER = Poller()
"""The process's poller: every wait polled for goes through it, so two never poll at once."""

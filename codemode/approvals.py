"""Waiting for a human's decision inside a running request (``inline`` approvals).

An ``inline`` approval holds the isolate while a request waits up to ``approval_wait_ms``
for a decision. The decision may come from this process (``POST /v1/approvals/{id}/approve``
handled here: :meth:`DecisionWaiters.notify` wakes the waiter at once) or from another
service process on the same database (the waiter also polls the stored approval). Whoever
decides, the stored approval row is the truth: the first decision committed wins.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

__all__ = ["DecisionWaiters"]

POLL_S = 0.25


class DecisionWaiters:
    """In-process waiters for approval decisions, keyed by approval id."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Event] = {}

    def notify(self, approval_id: str) -> bool:
        """Wake the waiter of ``approval_id``; False when nobody here waits for it."""
        event = self._waiting.get(approval_id)
        if event is None:
            return False
        event.set()
        return True

    async def wait(self, approval_id: str, timeout_s: float,
                   status_of: Callable[[], Awaitable[str | None]]) -> str:
        """The approval's status once decided, or ``"pending"`` when ``timeout_s`` passed.

        ``status_of`` reads the stored status; it is consulted on every wake-up and every
        :data:`POLL_S`, so a decision made by another process is seen within that time.
        """
        event = self._waiting.setdefault(approval_id, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout_s)
        try:
            while True:
                status = await status_of()
                if status is None:
                    return "cancelled"
                if status != "pending":
                    return status
                left = deadline - loop.time()
                if left <= 0:
                    return "pending"
                try:
                    await asyncio.wait_for(event.wait(), min(POLL_S, left))
                except TimeoutError:
                    pass
                event.clear()
        finally:
            self._waiting.pop(approval_id, None)

"""Counting the event loop's turns while a coroutine runs: how a test sees that it let the
loop go (and how often) without timing anything."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager


@asynccontextmanager
async def loop_turns() -> AsyncIterator[Callable[[], int]]:
    """Inside, a function that says how many times other work has run so far."""
    turns = 0

    async def other_work() -> None:
        nonlocal turns
        while True:
            await asyncio.sleep(0)
            turns += 1

    other = asyncio.ensure_future(other_work())
    await asyncio.sleep(0)  # started, and not yet counted
    try:
        yield lambda: turns
    finally:
        other.cancel()

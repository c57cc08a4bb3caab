"""The event loop polls, instead of sleeping, while exactly one wait is open and within its
window: for a guest's next host call after the service answered one, and (tested with the
peers' client) for a webhook's answer."""

from __future__ import annotations

import asyncio

from sandbox import AsyncSandbox
from sandbox.engine import CompiledGuest
from sandbox.polling import POLLER, Poller


async def _turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_one_open_wait_is_polled_for_until_it_closes() -> None:
    poller = Poller()
    poller.open(60.0)
    await _turns(10)
    assert poller.polls >= 9
    poller.close()
    await _turns(2)
    polls = poller.polls
    await _turns(10)
    assert poller.polls == polls and poller.waiting == 0


async def test_a_second_open_wait_ends_the_polling_and_a_closed_window_never_starts_it() -> None:
    poller = Poller()
    poller.open(60.0)
    poller.open(60.0)
    await _turns(2)
    polls = poller.polls
    await _turns(10)
    assert poller.polls == polls  # two waits: the loop sleeps as it would
    poller.close()
    poller.close()
    poller.open(0.0)  # counted, not polled for (a peer known to be slow)
    await _turns(10)
    assert poller.polls == polls and poller.waiting == 1
    poller.close()


async def test_the_window_bounds_the_polling() -> None:
    poller = Poller()
    loop = asyncio.get_running_loop()
    opened = loop.time()
    poller.open(0.05)
    while loop.time() - opened < 0.1:  # past the window, however slowly the loop turns
        await asyncio.sleep(0.01)
    polls = poller.polls
    await _turns(10)
    assert poller.polls == polls  # the wait is still open: only the window ended the poll
    poller.close()


def test_a_loop_after_a_closed_one_is_polled_for_too() -> None:
    poller = Poller()

    async def left_open() -> None:
        poller.open(60.0)  # its loop closes with the poll still scheduled

    async def polled() -> int:
        poller.close()
        poller.open(60.0)
        await _turns(5)
        poller.close()
        return poller.polls

    asyncio.run(left_open())
    before = poller.polls
    assert asyncio.run(polled()) > before


async def test_a_guests_next_host_call_is_polled_for_only_when_asked(
        compiled_guest: CompiledGuest) -> None:
    code = "for i in range(20):\n    tools.add(i, 1)"
    for poll_s, polled in ((0.0, False), (0.05, True)):
        async with AsyncSandbox(tools={"add": lambda a, b: a + b}, workers=1,
                                guest=compiled_guest, poll_s=poll_s) as box:
            before = POLLER.polls
            outcome = await box.execute(code)
            assert outcome.status == "completed", outcome
            assert (POLLER.polls > before) is polled
            assert POLLER.waiting == 0  # every wait it opened was closed

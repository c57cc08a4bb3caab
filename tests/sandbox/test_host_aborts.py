"""A handler's ``HostAbort`` reaches the caller with its own kind, through a real worker."""

from __future__ import annotations

from typing import Any, Callable

from sandbox import AsyncSandbox, HostAbort
from sandbox.engine import CompiledGuest


def _park() -> None:
    raise HostAbort("paused", "awaiting approval apr_1")


def _reject() -> None:
    raise HostAbort("rejected", "Action tools.pay was rejected")


TOOLS: dict[str, Callable[..., Any]] = {"park": _park, "reject": _reject}


async def test_a_park_keeps_its_kind_and_message_across_the_worker_pipe(
        compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome = await box.execute("tools.park()\n'not reached'")
        assert outcome.status == "error"
        assert outcome.trap == {"kind": "paused", "message": "awaiting approval apr_1"}
        rejected = await box.execute("tools.reject()")
        assert rejected.trap == {"kind": "rejected", "message": "Action tools.pay was rejected"}
        assert box.pool.restarts == 0  # an abort is an outcome, not a broken worker
        assert (await box.execute("6 * 7")).result == 42


async def test_guest_code_cannot_catch_a_park(compiled_guest: CompiledGuest) -> None:
    code = "try:\n    tools.park()\nexcept BaseException:\n    pass\n'caught'"
    async with AsyncSandbox(tools=TOOLS, workers=1, guest=compiled_guest) as box:
        outcome = await box.execute(code)
        assert outcome.result is None
        assert outcome.trap is not None and outcome.trap["kind"] == "paused"

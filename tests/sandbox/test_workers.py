"""Supervised workers: a stuck or dead worker costs one run, never the service."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import subprocess
import sys

import pytest

from sandbox.scratch import scratch_root
from sandbox import AsyncSandbox, Limits
from sandbox.engine import HOST_STACK_BYTES, CompiledGuest


async def test_a_run_stuck_in_a_host_call_is_killed_at_the_deadline_and_the_worker_replaced(
        compiled_guest: CompiledGuest) -> None:
    async def hang() -> None:
        await asyncio.sleep(60)

    async with AsyncSandbox(tools={"hang": hang}, workers=1, guest=compiled_guest) as box:
        first_pid = next(iter(box.pool._all)).pid
        outcome = await box.execute("tools.hang()", limits=Limits(deadline_s=0.3))
        assert outcome.trap is not None and outcome.trap["kind"] == "deadline"
        assert "replaced" in outcome.trap["message"]
        after = await box.execute("'alive'")
        assert after.result == "alive"
        assert box.pool.restarts == 1
        assert next(iter(box.pool._all)).pid != first_pid


async def test_a_worker_killed_mid_run_reports_a_crash_and_is_replaced(compiled_guest: CompiledGuest) -> None:
    box = AsyncSandbox(workers=1, guest=compiled_guest)

    def kill_my_worker() -> str:
        for worker in box.pool._all:
            os.kill(worker.pid, signal.SIGKILL)
        return "killed"

    box.tools.tools["kill_my_worker"] = kill_my_worker
    async with box:
        outcome = await box.execute("tools.kill_my_worker()\nimport time\ntime.sleep(0.5)")
        assert outcome.status == "error" and outcome.trap is not None
        assert outcome.trap["kind"] in ("crash", "trap")
        assert (await box.execute("1 + 1")).result == 2


async def test_runs_queue_when_every_worker_is_busy(compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(workers=2, guest=compiled_guest) as box:
        outcomes = await asyncio.gather(*(box.execute(f"import time\ntime.sleep(0.05)\n{n}") for n in range(8)))
        assert [o.result for o in outcomes] == list(range(8))
        assert box.pool.stats()["idle"] == 2


async def test_a_cancelled_caller_does_not_leak_its_worker(compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(workers=1, guest=compiled_guest) as box:
        task = asyncio.create_task(box.execute("import time\ntime.sleep(5)"))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        outcome = await asyncio.wait_for(box.execute("3"), timeout=30)
        assert outcome.result == 3


async def test_worker_holds_no_descriptors_beyond_its_pipes(compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(workers=1, guest=compiled_guest) as box:
        pid = next(iter(box.pool._all)).pid
        targets = {int(fd): os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        assert targets.pop(0) == "/dev/null"
        assert targets.pop(1) == targets.pop(2)  # stdout is pointed at stderr: the channel is private
        others = sorted(targets.values())
        assert sum(t.startswith("pipe:") for t in others) == 2  # the service's two pipe ends
        # The spare isolate holds its own empty scratch /tmp open (sandbox/scratch.py).
        scratch = [t for t in others if t.startswith(f"{scratch_root()}/{pid}/")]
        assert len(scratch) <= 1
        # The memory image and the worker's own page table reader, both read-only and neither
        # reachable by the guest (sandbox/memory_slots.py): nothing else.
        held = (compiled_guest.image.name, f"/proc/{pid}/pagemap")
        assert all(t.startswith("pipe:") or t.endswith(".cwasm") or t.startswith("anon_inode:")
                   or t.endswith(held) for t in others if t not in scratch), others


async def test_worker_carries_an_address_space_limit(compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(workers=1, guest=compiled_guest) as box:
        pid = next(iter(box.pool._all)).pid
        with open(f"/proc/{pid}/limits") as handle:
            limits = handle.read()
        address_line = next(line for line in limits.splitlines() if line.startswith("Max address space"))
        assert "unlimited" not in address_line.split()[3]


def _worker_stack_check(soft: int, hard: int) -> subprocess.CompletedProcess[str]:
    """``sandbox.worker_main``'s stack check in a process started with these limits."""
    code = ("import resource\nfrom sandbox.worker_main import _ensure_main_stack\n_ensure_main_stack()\n"
            "print(resource.getrlimit(resource.RLIMIT_STACK)[0])")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_STACK, (soft, hard)))


def test_a_worker_raises_a_low_stack_limit_to_hold_the_wasm_stack() -> None:
    # Runs go on the worker's main thread: under a 1 MiB stack a deep guest recursion
    # overflowed the host's stack (a segfault) before the 2 MiB wasm stack ran out (a trap).
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    if hard != resource.RLIM_INFINITY and hard < HOST_STACK_BYTES:
        pytest.skip("this machine's hard stack limit is below the worker's")
    done = _worker_stack_check(1 << 20, hard)
    assert done.returncode == 0 and int(done.stdout) == HOST_STACK_BYTES


def test_a_worker_refuses_a_hard_stack_limit_too_low_for_the_wasm_stack() -> None:
    done = _worker_stack_check(1 << 20, 1 << 20)
    assert done.returncode != 0 and "stack limit" in done.stderr

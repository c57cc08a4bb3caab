"""A worker runs in the normal scheduling class and waits in a background one between runs;
the background class is the best one the service may also leave."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from sandbox import AsyncSandbox
from sandbox.cpu_priority import background_policy
from sandbox.engine import CompiledGuest

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")

PROBE = "from sandbox.cpu_priority import background_policy; print(background_policy().name)"


def _python(code: str, *wrapper: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``code`` run by a Python of its own (under ``wrapper``), which must exit 0."""
    return subprocess.run([*wrapper, sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, check=True)


def _capable(bit: int) -> bool:
    """Whether this process holds the capability ``bit`` (linux/capability.h) in effect."""
    try:
        with open("/proc/self/status") as status:
            effective = next(line for line in status if line.startswith("CapEff:"))
    except (OSError, StopIteration):  # not Linux
        return False
    return bool(int(effective.split()[1], 16) >> bit & 1)


CAP_SETPCAP, CAP_SYS_NICE = 8, 23
NICE_ENOUGH = resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20
"""An RLIMIT_NICE that lets any process leave SCHED_IDLE, capability or not."""
WITHOUT_SYS_NICE = ("setpriv", "--bounding-set", "-sys_nice")
"""setpriv (util-linux) takes CAP_SYS_NICE out of the child's bounding set: the child may
lower a thread's class but not raise it again, as an unprivileged service."""
needs_dropping_sys_nice = pytest.mark.skipif(
    not _capable(CAP_SETPCAP) or NICE_ENOUGH,
    reason="needs CAP_SETPCAP to drop CAP_SYS_NICE for a child, and an RLIMIT_NICE below 20")


async def test_a_worker_is_in_the_normal_class_while_it_runs_and_in_the_background_between_runs(
        compiled_guest: CompiledGuest) -> None:
    seen: list[int] = []
    box = AsyncSandbox(workers=1, guest=compiled_guest)

    def my_class() -> int:
        # a host call: the worker is inside its run, waiting for this answer
        (worker,) = box.pool._all
        seen.append(os.sched_getscheduler(worker.pid))
        return len(seen)

    box.tools.tools["my_class"] = my_class
    async with box:
        policy = box.pool.priority
        assert policy.name in ("idle", "batch")
        (worker,) = box.pool._all
        for run in (1, 2, 3):
            outcome = await box.execute("tools.my_class()")
            assert outcome.result == run
            assert seen[-1] == os.SCHED_OTHER
            assert os.sched_getscheduler(worker.pid) == policy.policy
        assert (await box.execute("sum(range(10))")).result == 45


def test_the_background_class_is_idle_when_the_service_may_leave_it() -> None:
    may_leave = _capable(CAP_SYS_NICE) or NICE_ENOUGH
    assert _python(PROBE).stdout.strip() == background_policy().name == (
        "idle" if may_leave else "batch")


@needs_dropping_sys_nice
def test_without_the_capability_to_leave_idle_the_background_class_is_batch() -> None:
    assert _python(PROBE, *WITHOUT_SYS_NICE).stdout.strip() == "batch"


RUN_WITHOUT_THE_CAPABILITY = """
import asyncio, os
from sandbox import AsyncSandbox
from sandbox.engine import ensure_compiled

async def main() -> None:
    async with AsyncSandbox(workers=1, guest=ensure_compiled()) as box:
        results = [(await box.execute(f"{n} * 2")).result for n in range(3)]
        (worker,) = box.pool._all
        print(box.pool.priority.name, results, os.sched_getscheduler(worker.pid) == os.SCHED_BATCH)

asyncio.run(main())
"""


@needs_dropping_sys_nice
def test_a_service_without_the_capability_runs_its_workers_in_batch_between_runs() -> None:
    done = _python(RUN_WITHOUT_THE_CAPABILITY, *WITHOUT_SYS_NICE, timeout=300)
    assert done.stdout.strip() == "batch [0, 2, 4] True", done.stderr[-2000:]


REFUSED_WITHOUT_THE_CAPABILITY = """
import os, subprocess
from sandbox.cpu_priority import BackgroundPolicy
child = subprocess.Popen(["sleep", "30"])
try:
    policy = BackgroundPolicy("idle", os.SCHED_IDLE)
    policy.background(child.pid)
    policy.foreground(child.pid)  # refused without CAP_SYS_NICE: reported, not raised
    print(os.sched_getscheduler(child.pid) == os.SCHED_IDLE)
finally:
    child.kill()
"""


@needs_dropping_sys_nice
def test_a_refused_change_of_class_is_logged_and_does_not_stop_the_run() -> None:
    done = _python(REFUSED_WITHOUT_THE_CAPABILITY, *WITHOUT_SYS_NICE)
    assert done.stdout.strip() == "True"
    assert "could not move worker" in done.stderr and "Operation not permitted" in done.stderr

"""A worker runs in the normal scheduling class and waits in a background one between runs;
the background class is the best one the service may also leave."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sandbox import AsyncSandbox
from sandbox.cpu_priority import background_policy
from sandbox.engine import CompiledGuest

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")

PROBE = "from sandbox.cpu_priority import background_policy; print(background_policy().name)"


def _probe(*wrapper: str) -> str:
    done = subprocess.run([*wrapper, sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.strip()


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


def _capable(bit: int) -> bool:
    """Whether this process holds the capability ``bit`` (linux/capability.h) in effect."""
    try:
        with open("/proc/self/status") as status:
            effective = next(line for line in status if line.startswith("CapEff:"))
    except (OSError, StopIteration):  # not Linux
        return False
    return bool(int(effective.split()[1], 16) >> bit & 1)


CAP_SETPCAP, CAP_SYS_NICE = 8, 23


def test_the_background_class_is_idle_when_the_service_may_leave_it() -> None:
    import resource
    may_leave = _capable(CAP_SYS_NICE) or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20
    assert _probe() == background_policy().name == ("idle" if may_leave else "batch")


@pytest.mark.skipif(not _capable(CAP_SETPCAP),
                    reason="taking a capability out of a child's bounding set needs CAP_SETPCAP")
def test_without_the_capability_to_leave_idle_the_background_class_is_batch() -> None:
    # setpriv (util-linux) takes CAP_SYS_NICE out of the child's bounding set: a service
    # without it may lower a thread's class but not raise it again (with RLIMIT_NICE 0)
    import resource
    if resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20:
        pytest.skip("RLIMIT_NICE lets any process leave SCHED_IDLE here")
    assert _probe("setpriv", "--bounding-set", "-sys_nice") == "batch"


RUN_WITHOUT_THE_CAPABILITY = """
import asyncio, os, sys
from sandbox import AsyncSandbox
from sandbox.engine import ensure_compiled

async def main() -> None:
    async with AsyncSandbox(workers=1, guest=ensure_compiled()) as box:
        results = [(await box.execute(f"{n} * 2")).result for n in range(3)]
        (worker,) = box.pool._all
        print(box.pool.priority.name, results, os.sched_getscheduler(worker.pid) == os.SCHED_BATCH)

asyncio.run(main())
"""


@pytest.mark.skipif(not _capable(CAP_SETPCAP),
                    reason="taking a capability out of a child's bounding set needs CAP_SETPCAP")
def test_a_service_without_the_capability_runs_its_workers_in_batch_between_runs() -> None:
    import resource
    if resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20:
        pytest.skip("RLIMIT_NICE lets any process leave SCHED_IDLE here")
    done = subprocess.run(["setpriv", "--bounding-set", "-sys_nice", sys.executable, "-c",
                           RUN_WITHOUT_THE_CAPABILITY], capture_output=True, text=True,
                          timeout=300, check=True)
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


@pytest.mark.skipif(not _capable(CAP_SETPCAP),
                    reason="taking a capability out of a child's bounding set needs CAP_SETPCAP")
def test_a_refused_change_of_class_is_logged_and_does_not_stop_the_run() -> None:
    import resource
    if resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20:
        pytest.skip("RLIMIT_NICE lets any process leave SCHED_IDLE here")
    done = subprocess.run(["setpriv", "--bounding-set", "-sys_nice", sys.executable, "-c",
                           REFUSED_WITHOUT_THE_CAPABILITY], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "True"
    assert "could not move worker" in done.stderr and "Operation not permitted" in done.stderr

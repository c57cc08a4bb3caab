"""Bad input and containment: every hostile program fails closed, and the next run works."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from sandbox import Limits, Sandbox

SHORT = Limits(deadline_s=0.5)


def _still_healthy(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("21 * 2")
    assert outcome.status == "completed" and outcome.result == 42


@pytest.mark.parametrize("code", [
    "while True: pass",
    "import time\ntime.sleep(3600)",
    "import importlib, time\nimportlib.reload(time)\ntime.sleep(3600)",
    "import time\nwhile True:\n    try:\n        time.sleep(1)\n    except BaseException:\n        pass",
])
def test_runaway_code_stops_at_the_deadline(sandbox: Sandbox, code: str) -> None:
    started = time.perf_counter()
    outcome = sandbox.execute(code, limits=SHORT)
    elapsed = time.perf_counter() - started
    assert outcome.status == "error" and outcome.trap is not None
    assert outcome.trap["kind"] == "deadline"
    # Stopped, not run to the end: each of these would take an hour or for ever.
    assert elapsed < 30
    _still_healthy(sandbox)


def test_select_is_not_available_so_it_cannot_block(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import select\nselect.select([], [], [], 3600)", limits=SHORT)
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] == "ModuleNotFoundError"
    _still_healthy(sandbox)


def test_two_gigabyte_allocation_hits_the_memory_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("data = bytearray(2_000_000_000)\nlen(data)")
    assert outcome.status == "error" and outcome.trap is not None
    assert outcome.trap["kind"] == "memory"
    _still_healthy(sandbox)


def test_gradual_growth_hits_the_memory_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("chunks = []\nwhile True:\n    chunks.append(bytearray(10_000_000))",
                              limits=Limits(memory_bytes=128 * 1024 * 1024))
    assert outcome.trap is not None and outcome.trap["kind"] == "memory"
    _still_healthy(sandbox)


def test_huge_print_hits_the_output_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("print('x' * 10**9)")
    assert outcome.status == "error" and outcome.trap is not None
    assert outcome.trap["kind"] in ("output", "memory")
    _still_healthy(sandbox)


def test_output_limit_keeps_the_first_bytes_and_fails_closed(sandbox: Sandbox) -> None:
    code = "for i in range(100000):\n    print('line', i)"
    outcome = sandbox.execute(code, limits=Limits(output_bytes=1000))
    assert outcome.trap is not None and outcome.trap["kind"] == "output"
    assert outcome.logs[0] == "line 0"
    assert sum(len(line) + 1 for line in outcome.logs) <= 1001


def test_swallowing_the_output_error_does_not_escape_the_limit(sandbox: Sandbox) -> None:
    code = "for i in range(1000):\n    try:\n        print('y' * 100)\n    except BaseException:\n        pass\n'done'"
    outcome = sandbox.execute(code, limits=Limits(output_bytes=500))
    assert outcome.status == "error" and outcome.trap is not None and outcome.trap["kind"] == "output"


def test_deep_recursion_is_a_clean_error(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("def f(n):\n    return f(n + 1)\nf(0)")
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] == "RecursionError"
    _still_healthy(sandbox)


def test_raised_recursion_limit_still_fails_closed(sandbox: Sandbox) -> None:
    code = "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)"
    outcome = sandbox.execute(code, limits=Limits(deadline_s=5))
    assert outcome.status == "error"
    _still_healthy(sandbox)


def test_recursion_through_host_calls_is_bounded(sandbox: Sandbox) -> None:
    code = "def f(n):\n    return f(tools.add(n, 1))\nf(0)"
    outcome = sandbox.execute(code, limits=Limits(max_host_calls=1000))
    stopped_by_budget = outcome.trap is not None and outcome.trap["kind"] == "host_calls"
    stopped_by_recursion = outcome.error is not None and outcome.error["name"] == "RecursionError"
    assert outcome.status == "error" and (stopped_by_budget or stopped_by_recursion)
    _still_healthy(sandbox)


def test_host_call_budget_is_enforced_at_its_edge(sandbox: Sandbox) -> None:
    at_edge = sandbox.execute("for i in range(1000):\n    tools.add(i, 1)\n'ok'",
                              limits=Limits(max_host_calls=1000))
    assert at_edge.status == "completed" and at_edge.host_calls == 1000
    past_edge = sandbox.execute("for i in range(10000):\n    tools.add(i, 1)",
                                limits=Limits(max_host_calls=1000))
    assert past_edge.trap is not None and past_edge.trap["kind"] == "host_calls"


def test_guest_cannot_catch_the_host_call_limit(sandbox: Sandbox) -> None:
    code = ("for i in range(50):\n    try:\n        tools.add(i, 1)\n"
            "    except BaseException:\n        pass\n'escaped'")
    outcome = sandbox.execute(code, limits=Limits(max_host_calls=10))
    assert outcome.status == "error" and outcome.trap is not None and outcome.trap["kind"] == "host_calls"


def test_code_over_the_size_limit_is_refused_before_running(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("x = 1\n" + "#" * (10 * 1024 * 1024))
    assert outcome.status == "error" and outcome.trap is not None and outcome.trap["kind"] == "code_size"
    edge = Limits(max_code_bytes=100)
    assert sandbox.execute("1" + " " * 99, limits=edge).status == "completed"
    assert sandbox.execute("1" + " " * 100, limits=edge).trap is not None


@pytest.mark.parametrize("code", [
    "open('/etc/passwd').read()",
    "import os\nos.listdir('/')",
    "import os\nos.listdir('.')",
    "import pathlib\nlist(pathlib.Path('/').iterdir())",
])
def test_the_host_filesystem_is_invisible(sandbox: Sandbox, code: str) -> None:
    outcome = sandbox.execute(code)
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] in ("FileNotFoundError", "PermissionError", "OSError")


@pytest.mark.parametrize("module", [
    "socket", "_socket", "ssl", "select", "subprocess", "multiprocessing", "asyncio",
    "urllib.request", "http.client", "ctypes",
])
def test_network_and_process_modules_cannot_be_imported(sandbox: Sandbox, module: str) -> None:
    outcome = sandbox.execute(f"import {module}")
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] == "ModuleNotFoundError"


def test_removing_the_import_blocker_still_gives_no_network(sandbox: Sandbox) -> None:
    code = (
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if 'Blocked' not in type(f).__name__]\n"
        "try:\n    import _socket\nexcept ImportError as exc:\n    result = 'no socket module: ' + str(exc)\n"
        "else:\n"
        "    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n"
        "    s.connect(('127.0.0.1', 1))\n"
        "    result = 'connected'\n"
        "result"
    )
    outcome = sandbox.execute(code)
    assert outcome.result != "connected"
    if outcome.status == "completed":
        assert outcome.result.startswith("no socket module")


@pytest.mark.parametrize("code", [
    "import os\nos.system('ls')",
    "import os\nos.fork()",
    "import os\nos.execv('/bin/sh', ['sh'])",
    "import os\nos.posix_spawn('/bin/sh', ['sh'], {})",
])
def test_no_process_can_be_started(sandbox: Sandbox, code: str) -> None:
    outcome = sandbox.execute(code)
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] in ("AttributeError", "OSError", "NotImplementedError", "PermissionError")


def test_twenty_concurrent_executes_all_succeed(sandbox: Sandbox) -> None:
    with ThreadPoolExecutor(max_workers=20) as pool:
        outcomes = list(pool.map(lambda n: sandbox.execute(f"sum(range({n}))"), range(20)))
    assert [o.result for o in outcomes] == [sum(range(n)) for n in range(20)]
    assert len({o.execution_id for o in outcomes}) == 20

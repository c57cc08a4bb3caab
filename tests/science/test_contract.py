"""The science engine keeps the standard guest's contract: the namespaces, errors, limits at
and past their edges, traps, and what a run cannot see or reach (the network, the host's
files, an earlier run's state)."""

from __future__ import annotations

import socket
import threading

import pytest

from sandbox import Limits, Sandbox

NUMPY = "import numpy as np\n"


def test_a_tool_call_returns_its_value(science: Sandbox) -> None:
    done = science.execute(NUMPY + "tools.scale([1, 2], 10)")
    assert (done.status, done.result, done.host_calls) == ("completed", [10, 20], 1)


def test_a_failing_tool_raises_its_typed_error_in_the_guest(science: Sandbox) -> None:
    done = science.execute(NUMPY + "try:\n    tools.fail('no')\nexcept ValueError as e:\n"
                           "    r = [type(e).__name__, str(e), isinstance(e, ToolError)]\nr")
    assert done.result == ["ValueError", "no", True]


def test_an_unknown_tool_lists_the_available_ones(science: Sandbox) -> None:
    done = science.execute(NUMPY + "tools.nope()")
    assert done.status == "error" and "fail, scale" in done.error["message"]  # type: ignore[index]


def test_the_users_exception_is_the_error_with_only_its_frames(science: Sandbox) -> None:
    done = science.execute(NUMPY + "def f():\n    return np.array([1, 2]) @ np.array([1, 2, 3])\nf()")
    assert done.status == "error" and done.error is not None
    assert done.error["name"] == "ValueError"
    assert 'File "<code>", line 3, in f' in done.error["traceback"]
    assert "numpy" not in done.error["traceback"].split("ValueError")[0]


def test_top_level_return_and_fences_work_as_in_the_standard_guest(science: Sandbox) -> None:
    assert science.execute("```python\nimport numpy as np\nreturn int(np.sum([1, 2]))\n```").result == 3


def test_the_deadline_stops_a_busy_loop(science: Sandbox) -> None:
    done = science.execute(NUMPY + "while True:\n    np.ones(10).sum()", limits=Limits(deadline_s=1))
    assert done.trap is not None and done.trap["kind"] == "deadline"


def test_the_deadline_stops_a_long_sleep(science: Sandbox) -> None:
    done = science.execute(NUMPY + "import time\ntime.sleep(30)", limits=Limits(deadline_s=1))
    assert done.trap is not None and done.trap["kind"] == "deadline"


def test_a_run_within_its_deadline_completes(science: Sandbox) -> None:
    assert science.execute(NUMPY + "int(np.ones(5).sum())", limits=Limits(deadline_s=20)).result == 5


def test_an_array_past_the_memory_limit_is_a_memory_limit(science: Sandbox) -> None:
    done = science.execute(NUMPY + "x = np.ones(200 * 2**20, dtype=np.uint8)\nint(x.sum())",
                           limits=Limits(memory_bytes=256 * 2**20))
    assert done.status == "error" and done.trap is not None and done.trap["kind"] == "memory"


def test_the_same_array_fits_under_a_larger_limit(science: Sandbox) -> None:
    done = science.execute(NUMPY + "x = np.ones(200 * 2**20, dtype=np.uint8)\nint(x.sum())",
                           limits=Limits(memory_bytes=512 * 2**20))
    assert done.result == 200 * 2**20


def test_a_limit_below_the_engines_own_memory_refuses_to_start(science: Sandbox) -> None:
    done = science.execute(NUMPY + "1", limits=Limits(memory_bytes=32 * 2**20))
    assert done.trap is not None and done.trap["kind"] == "memory"


def test_output_up_to_the_budget_is_kept_and_past_it_fails(science: Sandbox) -> None:
    at_edge = science.execute(NUMPY + "print('x' * 99)", limits=Limits(output_bytes=100))
    assert at_edge.status == "completed" and at_edge.logs == ["x" * 99]
    past = science.execute(NUMPY + "print('x' * 100)", limits=Limits(output_bytes=100))
    assert past.trap is not None and past.trap["kind"] == "output"


def test_host_calls_up_to_the_limit_pass_and_one_more_stops_the_run(science: Sandbox) -> None:
    code = NUMPY + "for _ in range({n}):\n    tools.scale([1], 1)\n'ok'"
    assert science.execute(code.format(n=3), limits=Limits(max_host_calls=3)).result == "ok"
    past = science.execute(code.format(n=4), limits=Limits(max_host_calls=3))
    assert past.trap is not None and past.trap["kind"] == "host_calls"


def test_a_result_past_its_size_limit_is_refused(science: Sandbox) -> None:
    done = science.execute(NUMPY + "'x' * 5000", limits=Limits(max_result_bytes=4000))
    assert done.trap is not None and done.trap["kind"] == "output"


def test_deep_recursion_is_the_users_error_not_a_crash(science: Sandbox) -> None:
    done = science.execute(NUMPY + "def f(n):\n    return f(n + 1)\nf(0)")
    assert done.status == "error" and done.error is not None
    assert done.error["name"] == "RecursionError"


@pytest.mark.parametrize("engine", ["standard", "science"])
def test_exiting_ends_the_run_with_its_status_on_both_engines(science: Sandbox, engine: str) -> None:
    done = science.execute("import os\nprint('bye')\nos._exit(3)", engine=engine)
    assert (done.status, done.exit_code, done.logs) == ("error", 3, ["bye"])
    assert science.execute("int(7)", engine=engine).result == 7


def test_random_state_is_fresh_in_every_run(science: Sandbox) -> None:
    code = "import random, uuid, numpy as np\n[random.random(), float(np.random.rand()), str(uuid.uuid4())]"
    first, second = science.execute(code).result, science.execute(code).result
    assert all(a != b for a, b in zip(first, second))


@pytest.mark.parametrize("engine", ["standard", "science"])
def test_hash_is_keyed_per_run_on_both_engines(science: Sandbox, engine: str) -> None:
    code = "[hash('abc'), hash(('abc', 1)), hash('ab' + 'c') == hash('abc'), hash(7)]"
    first, second = (science.execute(code, engine=engine).result for _ in range(2))
    assert first[0] != second[0] and first[1] != second[1]  # each 1 in 2**32 to collide
    assert first[2:] == second[2:] == [True, 7]


def test_seeding_still_reproduces_within_a_run(science: Sandbox) -> None:
    done = science.execute("import numpy as np\nnp.random.seed(3)\na = np.random.rand()\n"
                           "np.random.seed(3)\na == np.random.rand()")
    assert done.result is True


def test_the_socket_module_is_refused(science: Sandbox) -> None:
    done = science.execute(NUMPY + "import socket")
    assert done.error is not None and done.error["name"] == "ModuleNotFoundError"
    assert "no network" in done.error["message"]


def test_no_connection_leaves_the_isolate_even_past_the_import_blocker(science: Sandbox) -> None:
    """The blocker is a convenience; the boundary is WASI granting no sockets. Code that
    removes the blocker and imports ``socket`` still reaches nothing: a real listener on the
    host's loopback sees no connection."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        for _ in range(15):
            try:
                accepted.append(listener.accept())
                return
            except OSError:
                continue

    waiter = threading.Thread(target=accept)
    waiter.start()
    code = NUMPY + (
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if 'Blocked' not in type(f).__name__]\n"
        "outcomes = []\n"
        "try:\n"
        "    import socket\n"
        "except ImportError as e:  # the C module is refused too, past the blocker\n"
        "    outcomes.append('no socket module')\n"
        "else:\n"
        "    for address in (('127.0.0.1', PORT), ('localhost', PORT)):\n"
        "        try:\n"
        "            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
        "            s.connect(address)\n"
        "            outcomes.append('connected')\n"
        "        except Exception as e:\n"
        "            outcomes.append(type(e).__name__)\n"
        "    try:\n"
        "        socket.getaddrinfo('localhost', PORT)\n"
        "        outcomes.append('resolved')\n"
        "    except Exception as e:\n"
        "        outcomes.append(type(e).__name__)\n"
        "outcomes").replace("PORT", str(port))
    done = science.execute(code)
    waiter.join()
    listener.close()
    assert done.status == "completed", done.error
    assert done.result == ["no socket module"] or (
        len(done.result) == 3 and not {"connected", "resolved"} & set(done.result)), done.result
    assert accepted == []


def test_the_hosts_files_are_out_of_sight(science: Sandbox) -> None:
    done = science.execute(NUMPY + "import os\nr = []\nfor p in ('/etc/passwd', '/proc/self/environ', '/root'):\n"
                           "    try:\n        open(p).read()\n        r.append('read')\n"
                           "    except OSError as e:\n        r.append(type(e).__name__)\nr")
    assert done.status == "completed" and "read" not in done.result


def test_the_stdlib_is_read_only(science: Sandbox) -> None:
    done = science.execute(NUMPY + "import os\ntry:\n    open('/usr/local/lib/x', 'w')\n    r = 'wrote'\n"
                           "except OSError as e:\n    r = type(e).__name__\nr")
    assert done.result != "wrote"


FILL_SCRATCH = ("import os\nn = 0\nwhile True:\n"
                "    with open(f'/tmp/f{n}', 'wb') as f:\n        f.write(b'x' * SIZE)\n    n += 1")


def test_writing_past_the_scratch_byte_limit_stops_the_run(science: Sandbox) -> None:
    limits = Limits(scratch_bytes=2 * 1024 * 1024, deadline_s=60)
    done = science.execute(NUMPY + "SIZE = 256 * 1024\n" + FILL_SCRATCH, limits=limits)
    assert done.trap is not None and done.trap["kind"] == "scratch", done
    assert "2097152 bytes" in done.trap["message"]


def test_making_more_scratch_files_than_allowed_stops_the_run(science: Sandbox) -> None:
    done = science.execute(NUMPY + "SIZE = 0\n" + FILL_SCRATCH,
                           limits=Limits(scratch_files=50, deadline_s=60))
    assert done.trap is not None and done.trap["kind"] == "scratch", done


def test_a_run_within_its_scratch_limits_is_not_stopped(science: Sandbox) -> None:
    code = NUMPY + "for n in range(20):\n    open(f'/tmp/f{n}', 'wb').write(b'x' * 1000)\n'ok'"
    assert science.execute(code, limits=Limits(scratch_files=30)).result == "ok"


def test_scratch_files_do_not_outlive_their_run(science: Sandbox) -> None:
    write = science.execute(NUMPY + "open('/tmp/left.txt', 'w').write('x')\nimport os\nos.getcwd()")
    assert write.result == "/tmp"
    assert science.execute(NUMPY + "import os\nos.path.exists('/tmp/left.txt')").result is False


def test_a_run_cannot_read_the_bytes_an_earlier_run_left_in_memory(science: Sandbox) -> None:
    # Memory is reused from run to run (sandbox.memory_slots) and put back to the image:
    # np.empty hands out whatever the allocator finds there, so a page not put back would
    # show the earlier run's 0xA5 bytes, in the heap and in what the memory grew.
    fill = NUMPY + "a = np.full(24_000_000, 0xA5, dtype=np.uint8)\nb = np.full(300_000, 0xA5, dtype=np.uint8)\nint(a[-1])"
    look = NUMPY + ("a = np.empty(24_000_000, dtype=np.uint8)\nb = np.empty(300_000, dtype=np.uint8)\n"
                    "[float((a == 0xA5).mean()), float((b == 0xA5).mean())]")
    _after_a_run_on_every_worker(science, fill, 0xA5)
    for _ in range(WORKERS):
        seen = science.execute(look).result
        assert isinstance(seen, list) and all(share < 0.01 for share in seen), seen


def test_module_state_does_not_outlive_its_run(science: Sandbox) -> None:
    _after_a_run_on_every_worker(science, NUMPY + "np.leak = 1\nnp.leak", 1)
    for _ in range(WORKERS):
        assert science.execute(NUMPY + "hasattr(np, 'leak')").result is False


WORKERS = 2
"""The science fixture's workers (conftest), taken in turn: runs one after another visit each."""


def _after_a_run_on_every_worker(science: Sandbox, code: str, result: object) -> None:
    for _ in range(WORKERS):
        assert science.execute(code).result == result


@pytest.mark.parametrize("engine", ["standard", "science"])
def test_both_engines_give_the_same_plain_result(science: Sandbox, engine: str) -> None:
    code = "import json, datetime\n{'t': (1, 2), 'd': datetime.date(2024, 1, 2), 'b': b'hi', 's': {3, 1}}"
    done = science.execute(code, engine=engine)
    assert done.engine == engine
    assert done.result == {"t": [1, 2], "d": "2024-01-02", "b": {"$bytes": "aGk="}, "s": [1, 3]}

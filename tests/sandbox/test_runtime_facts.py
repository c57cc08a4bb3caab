"""What code observes of its process inside a real isolate: argv, clocks, randomness, exits,
the shape of its result (a lone function is called) and of its tracebacks."""

from __future__ import annotations

from sandbox import Sandbox


def test_argv_is_a_script_name_so_argparse_works(sandbox: Sandbox) -> None:
    code = ("import argparse, sys\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--n', type=int, default=3)\n"
            "[sys.argv, parser.parse_args([]).n, parser.prog]")
    assert sandbox.execute(code).result == [["main.py"], 3, "main.py"]


def test_a_lone_function_definition_is_called_and_its_value_is_the_result(sandbox: Sandbox) -> None:
    assert sandbox.execute("def main():\n    return 7").result == 7
    assert sandbox.execute("import math\n\ndef main(n=4):\n    return math.factorial(n)").result == 24
    assert sandbox.execute("async def main():\n    return tools.add(2, 3)").result == 5


def test_a_function_that_needs_arguments_or_is_not_alone_is_not_called(sandbox: Sandbox) -> None:
    assert sandbox.execute("def f(x):\n    return x").result is None
    assert sandbox.execute("def f():\n    return 1\nx = 2").result is None


def test_a_coroutine_that_truly_suspends_says_there_is_no_event_loop(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("async def main():\n    import types\n"
                              "    await types.coroutine(lambda: (yield))()")
    assert outcome.error is not None and "no event loop" in outcome.error["message"]


def test_two_fresh_isolates_draw_different_random_numbers(sandbox: Sandbox) -> None:
    code = "import random\n[random.random(), random.getrandbits(64)]"
    first, second = sandbox.execute(code).result, sandbox.execute(code).result
    assert first != second


def test_two_fresh_isolates_hash_strings_differently(sandbox: Sandbox) -> None:
    code = "[hash('abc'), hash(b'abc'), hash(('abc', 1)), hash(frozenset({'x'}))]"
    runs = [sandbox.execute(code).result for _ in range(3)]
    for a, b in zip(runs, runs[1:]):
        assert all(x != y for x, y in zip(a, b)), runs  # each 1 in 2**32 to collide


def test_a_runs_hash_is_consistent_and_numbers_keep_theirs(sandbox: Sandbox) -> None:
    code = ("s = 'ab' + 'c'\n"
            "[hash(s) == hash('abc'), hash(('abc', 2)) == hash(('ab' + 'c', 2)),"
            " hash(7), hash(-1), hash(2.5) == hash(5 / 2), hash(True), hash(1) == hash(1.0),"
            " len({hash(str(i)) for i in range(10_000)}), hash.__name__,"
            " {'abc': 1}['ab' + 'c'], sorted({'b', 'a', 'c'}), hash(None) == hash(None)]")
    assert sandbox.execute(code).result == [True, True, 7, -2, True, 1, True, 10_000, "hash", 1,
                                            ["a", "b", "c"], True]


def test_clocks_make_sense(sandbox: Sandbox) -> None:
    code = ("import time\nstart = (time.process_time(), time.monotonic(), time.perf_counter())\n"
            "sum(range(100_000))\nend = (time.process_time(), time.monotonic(), time.perf_counter())\n"
            "[s >= 0 for s in start] + [e >= s for s, e in zip(start, end)] + "
            "[time.process_time_ns() >= 0, time.time() > 1.7e9]")
    assert sandbox.execute(code).result == [True] * 8


def test_sys_exit_is_an_exit_with_its_status(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("print('working')\nimport sys\nsys.exit(3)")
    assert outcome.status == "error" and outcome.exit_code == 3 and outcome.logs == ["working"]
    assert outcome.error is not None and outcome.error["name"] == "SystemExit"
    assert "status 3" in outcome.error["message"]
    clean = sandbox.execute("import sys\nsys.exit()")
    assert clean.status == "completed" and clean.exit_code == 0
    message = sandbox.execute("import sys\nsys.exit('no input file')")
    assert message.exit_code == 1 and message.logs == ["[error] no input file"]


def test_os_exit_is_an_exit_with_its_status_even_when_caught(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("print('before')\nimport os\nos._exit(4)")
    assert outcome.status == "error" and outcome.exit_code == 4 and outcome.logs == ["before"]
    caught = sandbox.execute("import os\ntry:\n    os._exit(5)\nexcept BaseException:\n    pass\n'after'")
    assert caught.exit_code == 5 and caught.result is None


def test_a_traceback_shows_the_users_frames_and_the_library_frame_that_raised(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import json\n\ndef load(text):\n    return json.loads(text)\n\nload('{bad')")
    assert outcome.error is not None
    traceback = outcome.error["traceback"]
    assert traceback.index('line 6, in <module>') < traceback.index('line 4, in load') \
        < traceback.index("json/decoder.py")
    assert "pyexec" not in traceback

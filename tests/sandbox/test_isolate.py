"""One store and one instance per call (``sandbox.isolate``), in this process: what the guest
sees, how its host calls are answered, and how its failures come out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox import DeadlineExceeded, GuestTrap, Limits, SandboxError
from sandbox.isolate import GuestRuntime, HostCallFailed, Preopen

LIMITS = Limits.default.replace(deadline_s=30.0)
"""Generous: only the deadline test is about time, and a loaded machine is slow."""


def _execute(runtime: GuestRuntime, code: str, *, limits: Limits = LIMITS,
             preopens: tuple[Preopen, ...] = (), answer: object = None) -> dict[str, object]:
    def on_host_call(name: str, payload: str) -> str:
        if callable(answer):
            return str(answer(name, payload))
        return json.dumps(answer)

    with runtime.isolate(limits, preopens) as isolate:
        return dict(json.loads(isolate.call("execute", json.dumps({"code": code}), on_host_call)))


def test_a_fresh_isolate_holds_nothing_of_the_last(runtime: GuestRuntime) -> None:
    assert _execute(runtime, "import builtins\nbuiltins.leak = 1\nleak")["result"] == 1
    second = _execute(runtime, "import builtins\nhasattr(builtins, 'leak')")
    assert second["result"] is False


def test_memory_a_run_wrote_is_its_initial_image_again_in_the_next_isolate(runtime: GuestRuntime) -> None:
    # Pooled slots are reset in place: a byte the last run wrote, in the snapshot's heap or
    # above it, must read as it was before any run.
    before = _execute(runtime, "import sys\nsorted(sys.modules)[:50]")["result"]
    scribble = ("import sys, gc\nfor name in list(sys.modules)[:20]:\n    sys.modules[name].__dict__['x'] = 1\n"
                "junk = [bytes([7]) * 4096 for _ in range(20_000)]\nlen(junk)")
    assert _execute(runtime, scribble)["result"] == 20_000
    after = _execute(runtime, "import sys\n[m for m in list(sys.modules)[:20] if hasattr(sys.modules[m], 'x')]")
    assert after["result"] == []
    assert _execute(runtime, "import sys\nsorted(sys.modules)[:50]")["result"] == before
    zeros = _execute(runtime, "bytearray(50_000_000).count(0)")
    assert zeros["result"] == 50_000_000


def test_isolates_outnumber_the_pool_slots_over_time(runtime: GuestRuntime) -> None:
    # Slots go back to the pool when a store closes, whatever ended its run.
    for n in range(12):
        if n % 3 == 0:
            with pytest.raises(DeadlineExceeded):
                _execute(runtime, "while True: pass", limits=LIMITS.replace(deadline_s=0.05))
        else:
            assert _execute(runtime, f"{n} * 2")["result"] == n * 2


def test_two_isolates_can_be_alive_at_once(runtime: GuestRuntime) -> None:
    with runtime.isolate(LIMITS) as spare, runtime.isolate(LIMITS) as running:
        answer = json.loads(running.call("execute", json.dumps({"code": "1 + 1"}), lambda n, p: "null"))
        assert answer["result"] == 2
        answer = json.loads(spare.call("execute", json.dumps({"code": "2 + 2"}), lambda n, p: "null"))
        assert answer["result"] == 4


def test_an_export_the_guest_does_not_have_is_refused_every_time(runtime: GuestRuntime) -> None:
    for _ in range(2):  # the second from the runtime's remembered lookup
        with runtime.isolate(LIMITS) as isolate:
            with pytest.raises(SandboxError, match="no export 'nope'"):
                isolate.call("nope", "{}", lambda _n, _p: "null")
    with runtime.isolate(LIMITS) as isolate:
        assert json.loads(isolate.call("execute", json.dumps({"code": "2"}), lambda _n, _p: "null"))["result"] == 2


def test_an_isolate_runs_once(runtime: GuestRuntime) -> None:
    isolate = runtime.isolate(LIMITS)
    isolate.call("execute", json.dumps({"code": "1"}), lambda name, payload: "null")
    isolate.close()
    with pytest.raises(SandboxError, match="already used"):
        isolate.call("execute", json.dumps({"code": "1"}), lambda name, payload: "null")


def test_the_guest_sees_only_its_preopened_directory(runtime: GuestRuntime, tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("mine")
    code = ("import os\n"
            "seen = sorted(os.listdir('/work'))\n"
            "try:\n    open('/etc/passwd').read()\n    leaked = True\n"
            "except OSError:\n    leaked = False\n"
            "[seen, leaked, open('/work/mine.txt').read()]")
    outcome = _execute(runtime, code, preopens=(Preopen(str(tmp_path), "/work"),))
    assert outcome["result"] == [["mine.txt"], False, "mine"]


def test_a_directory_granted_before_the_call_is_all_the_guest_sees(runtime: GuestRuntime,
                                                                    tmp_path: Path) -> None:
    granted, other = tmp_path / "granted", tmp_path / "other"
    granted.mkdir()
    other.mkdir()
    (granted / "mine.txt").write_text("mine")
    code = ("import os\n"
            "try:\n    os.listdir('/old')\n    old = True\nexcept OSError:\n    old = False\n"
            "[sorted(os.listdir('/work')), old, open('/work/mine.txt').read()]")
    with runtime.isolate(LIMITS, (Preopen(str(other), "/old"),)) as isolate:
        isolate.grant((Preopen(str(granted), "/work"),))
        answer = json.loads(isolate.call("execute", json.dumps({"code": code}), lambda n, p: "null"))
    assert answer["result"] == [["mine.txt"], False, "mine"]


def test_no_directory_is_granted_once_the_isolate_has_run(runtime: GuestRuntime, tmp_path: Path) -> None:
    with runtime.isolate(LIMITS) as isolate:
        isolate.call("execute", json.dumps({"code": "1"}), lambda n, p: "null")
        with pytest.raises(SandboxError, match="only before"):
            isolate.grant((Preopen(str(tmp_path), "/work"),))


def test_a_host_call_answer_reaches_the_guest(runtime: GuestRuntime) -> None:
    calls: list[tuple[str, str]] = []

    def answer(name: str, payload: str) -> str:
        calls.append((name, payload))
        return json.dumps({"sum": 5})

    request = {"code": "tools.add(a=2, b=3)", "namespaces": {"tools": [{"name": "add"}]}}
    with runtime.isolate(LIMITS) as isolate:
        outcome = json.loads(isolate.call("execute", json.dumps(request), answer))
    assert outcome["result"] == {"sum": 5}
    assert len(calls) == 1 and "add" in calls[0][0] + calls[0][1]


def test_a_refused_host_call_is_an_error_inside_the_guest(runtime: GuestRuntime) -> None:
    def refuse(name: str, payload: str) -> str:
        raise HostCallFailed(json.dumps({"name": "ValueError", "message": "no"}))

    request = {"code": "try:\n    tools.add()\nexcept ValueError as e:\n    caught = str(e)\ncaught",
               "namespaces": {"tools": [{"name": "add"}]}}
    with runtime.isolate(LIMITS) as isolate:
        outcome = json.loads(isolate.call("execute", json.dumps(request), refuse))
    assert "no" in str(outcome["result"])


def test_an_exception_of_the_host_unwinds_the_guest_uncaught(runtime: GuestRuntime) -> None:
    # A BaseException, not an Exception: one that crossed wasmtime's callback as it was
    # crashed the process (a segfault), so the isolate carries it across.
    class Park(BaseException):
        pass

    def park(name: str, payload: str) -> str:
        raise Park()

    request = {"code": "try:\n    tools.add()\nexcept BaseException:\n    pass\n'caught'",
               "namespaces": {"tools": [{"name": "add"}]}}
    with runtime.isolate(LIMITS) as isolate, pytest.raises(Park):
        isolate.call("execute", json.dumps(request), park)


def test_a_busy_loop_stops_at_the_deadline(runtime: GuestRuntime) -> None:
    with pytest.raises(DeadlineExceeded, match="deadline of 0.2 s"):
        _execute(runtime, "while True:\n    pass", limits=LIMITS.replace(deadline_s=0.2))


def test_a_wasm_trap_is_a_guest_trap_with_its_code(runtime: GuestRuntime) -> None:
    code = "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1) + 1\nf(0)"
    with pytest.raises(GuestTrap) as caught:
        _execute(runtime, code)
    assert caught.value.code == "stack_overflow"


def test_recursion_through_c_ends_as_a_recursion_error_not_a_trap(runtime: GuestRuntime) -> None:
    # Each level resumes the interpreter from C: with wasmtime's default 512 KiB wasm stack
    # this trapped (stack_overflow) before Python's limit of 1,000; the engine's 2 MiB holds it.
    code = ("class A:\n    def __getattr__(self, name):\n        return getattr(self, name)\n"
            "def m(x):\n    return list(map(m, [x]))\ncaught = []\n"
            "for attempt in (lambda: A().x, lambda: m(1)):\n    try:\n        attempt()\n"
            "    except RecursionError:\n        caught.append(1)\nlen(caught)")
    assert _execute(runtime, code)["result"] == 2


def test_a_deep_structure_freed_in_the_guest_traps_past_the_wasm_stack(runtime: GuestRuntime) -> None:
    # Freeing nested tuples recurses in C without a check: 5,000 levels fit the 2 MiB wasm
    # stack (about 1,900 fitted 512 KiB), 100,000 do not, and that is a trap, never a crash.
    assert _execute(runtime, "t = None\nfor i in range(5000):\n    t = (t,)\ndel t\n1")["result"] == 1
    with pytest.raises(GuestTrap) as caught:
        _execute(runtime, "t = None\nfor i in range(100000):\n    t = (t,)\ndel t")
    assert caught.value.code == "stack_overflow"

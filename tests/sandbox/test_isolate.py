"""One store and one instance per call (``sandbox.isolate``), in this process: what the guest
sees, how its host calls are answered, and how its failures come out."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import CompiledGuest, DeadlineExceeded, GuestTrap, Limits, SandboxError
from sandbox.isolate import GuestRuntime, HostCallFailed, Preopen

LIMITS = Limits.default.replace(deadline_s=30.0)
"""Generous: only the deadline test is about time, and a loaded machine is slow."""


@pytest.fixture(scope="module")
def runtime(compiled_guest: CompiledGuest) -> Iterator[GuestRuntime]:
    yield GuestRuntime(compiled_guest)


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

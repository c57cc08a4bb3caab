"""Traps are known by wasmtime's TrapCode: every code has a name, the name survives the
worker pipe, and a real trap in a real isolate comes back named."""

from __future__ import annotations

import pytest
import wasmtime
from wasmtime import TrapCode

from sandbox import GuestTrap, Sandbox
from sandbox.errors import DeadlineExceeded, from_trap
from sandbox.traps import ABORT, DEADLINE, MEMORY, TRAP_NAMES, abort_cause, trap_code, trap_description

LIMITS = {DEADLINE, MEMORY}


def test_every_code_wasmtime_defines_has_a_name() -> None:
    assert set(TRAP_NAMES) == set(TrapCode)


def test_names_are_distinct_apart_from_the_limits() -> None:
    names = [name for name in TRAP_NAMES.values() if name not in LIMITS]
    assert len(names) == len(set(names))
    assert all(name.isidentifier() and name.islower() for name in names)


def test_the_limits_are_the_interrupt_fuel_and_allocation_codes() -> None:
    assert {code for code, name in TRAP_NAMES.items() if name == DEADLINE} == {
        TrapCode.INTERRUPT, TrapCode.OUT_OF_FUEL}
    assert {code for code, name in TRAP_NAMES.items() if name == MEMORY} == {
        TrapCode.ALLOCATION_TOO_LARGE}


def test_each_code_has_its_own_description() -> None:
    descriptions = [trap_description(code) for code in TrapCode]
    assert len(descriptions) == len(set(descriptions)) and all(descriptions)


@pytest.mark.parametrize("code", list(TrapCode), ids=lambda c: c.name)
def test_a_trap_of_a_component_call_maps_back_to_its_code(code: TrapCode) -> None:
    # How a trap inside a component call reaches Python: an error whose cause names it.
    error = wasmtime.WasmtimeError(
        "error while executing at wasm backtrace:\n    0: 0x1 - guest!f\n\nCaused by:\n"
        f"    wasm trap: {trap_description(code)}\n")
    assert trap_code(error) is code


def test_an_abort_is_read_from_a_backtrace_whatever_its_offsets_padding() -> None:
    # wasmtime pads the offsets to the widest one: the first frames' gap is two spaces here.
    message = ("error while executing at wasm backtrace:\n"
               "    0:  0x1a3c8 - libc.so!abort\n"
               "    1:  0x78d20 - libwasi-emulated-signal.so!raise\n"
               "    2: 0x469798 - libpython3.14.so!signal_raise_signal_impl\n")
    assert abort_cause(message) == (ABORT, "by raising a signal (signal.raise_signal or os.kill on itself)")


def test_an_error_that_is_no_trap_has_no_code() -> None:
    assert trap_code(wasmtime.WasmtimeError("failed to instantiate: unknown import")) is None


def test_a_trap_keeps_its_code_over_the_worker_pipe() -> None:
    trap = GuestTrap("guest trapped: unreachable", code="unreachable").to_trap()
    assert trap == {"kind": "trap", "message": "guest trapped: unreachable", "code": "unreachable"}
    again = from_trap(trap)
    assert isinstance(again, GuestTrap) and again.code == "unreachable"
    assert isinstance(from_trap(DeadlineExceeded("late").to_trap()), DeadlineExceeded)


def test_a_stack_overflow_in_a_real_isolate_is_named(sandbox: Sandbox) -> None:
    code = "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1) + 1\nf(0)"
    outcome = sandbox.execute(code)
    assert outcome.status == "error"
    assert outcome.trap == {"kind": "trap", "code": "stack_overflow",
                            "message": "guest trapped: stack_overflow"}
    assert sandbox.execute("1 + 1").result == 2  # and the worker serves the next run

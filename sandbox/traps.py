"""What each WebAssembly trap means to the sandbox, by wasmtime's ``TrapCode``.

The code decides, not words written here: a core ``wasmtime.Trap`` carries its code, and
a trap inside a component call reaches Python as a ``WasmtimeError`` whose cause reads
``wasm trap: <description>``, where the description is the one this same wasmtime build
gives that code (asked of wasmtime at import by building a trap of each code), so it maps
back to exactly one code. ``INTERRUPT`` is the epoch deadline and becomes
``DeadlineExceeded``; ``ALLOCATION_TOO_LARGE`` is a memory limit; every other code becomes a
``GuestTrap`` whose ``code`` is the stable name below. ``tests/sandbox/test_traps.py`` checks
that every code wasmtime defines has an entry here, so a wasmtime upgrade that adds one fails
a test instead of reaching users as an unnamed error.
"""

from __future__ import annotations

import re

import wasmtime
from wasmtime import TrapCode
from wasmtime import _ffi as ffi

__all__ = ["ABORT", "DEADLINE", "MEMORY", "TRAP_NAMES", "abort_cause", "trap_code", "trap_description"]

DEADLINE = "deadline"
MEMORY = "memory"
ABORT = "abort"
"""Not a ``TrapCode``: an ``unreachable`` trap whose wasm backtrace starts in libc's ``abort``."""

TRAP_NAMES: dict[TrapCode, str] = {
    # limits the host sets
    TrapCode.INTERRUPT: DEADLINE,
    TrapCode.OUT_OF_FUEL: DEADLINE,
    TrapCode.ALLOCATION_TOO_LARGE: MEMORY,
    # core WebAssembly
    TrapCode.STACK_OVERFLOW: "stack_overflow",
    TrapCode.MEMORY_OUT_OF_BOUNDS: "memory_out_of_bounds",
    TrapCode.HEAP_MISALIGNED: "heap_misaligned",
    TrapCode.TABLE_OUT_OF_BOUNDS: "table_out_of_bounds",
    TrapCode.INDIRECT_CALL_TO_NULL: "indirect_call_to_null",
    TrapCode.BAD_SIGNATURE: "bad_signature",
    TrapCode.INTEGER_OVERFLOW: "integer_overflow",
    TrapCode.INTEGER_DIVISION_BY_ZERO: "integer_division_by_zero",
    TrapCode.BAD_CONVERSION_TO_INTEGER: "bad_conversion_to_integer",
    TrapCode.UNREACHABLE: "unreachable",
    TrapCode.ATOMIC_WAIT_NON_SHARED_MEMORY: "atomic_wait_non_shared_memory",
    TrapCode.DISABLED_OPCODE: "disabled_opcode",
    # garbage collection and exceptions proposals
    TrapCode.NULL_REFERENCE: "null_reference",
    TrapCode.ARRAY_OUT_OF_BOUNDS: "array_out_of_bounds",
    TrapCode.CAST_FAILURE: "cast_failure",
    TrapCode.UNHANDLED_TAG: "unhandled_tag",
    TrapCode.UNCAUGHT_EXCEPTION: "uncaught_exception",
    TrapCode.CONTINUATION_ALREADY_CONSUMED: "continuation_already_consumed",
    # the component model's canonical ABI: the guest broke a rule of the boundary
    TrapCode.CANNOT_ENTER_COMPONENT: "cannot_enter_component",
    TrapCode.CANNOT_LEAVE_COMPONENT: "cannot_leave_component",
    TrapCode.INVALID_CHAR: "invalid_char",
    TrapCode.INVALID_DISCRIMINANT: "invalid_discriminant",
    TrapCode.UNALIGNED_POINTER: "unaligned_pointer",
    TrapCode.LIST_OUT_OF_BOUNDS: "list_out_of_bounds",
    TrapCode.STRING_OUT_OF_BOUNDS: "string_out_of_bounds",
    TrapCode.REFERENCE_COUNT_OVERFLOW: "reference_count_overflow",
    TrapCode.NO_ASYNC_RESULT: "no_async_result",
    TrapCode.ASYNC_DEADLOCK: "async_deadlock",
    TrapCode.BACKPRESSURE_OVERFLOW: "backpressure_overflow",
    TrapCode.CANNOT_BLOCK_SYNC_TASK: "cannot_block_sync_task",
    TrapCode.CANNOT_RESUME_THREAD: "cannot_resume_thread",
    TrapCode.CONCURRENT_FUTURE_STREAM_OP: "concurrent_future_stream_op",
    TrapCode.STREAM_OP_TOO_BIG: "stream_op_too_big",
    TrapCode.SUBTASK_CANCEL_AFTER_TERMINAL: "subtask_cancel_after_terminal",
    TrapCode.SUBTASK_DROP_NOT_RESOLVED: "subtask_drop_not_resolved",
    TrapCode.TASK_CANCEL_NOT_CANCELLED: "task_cancel_not_cancelled",
    TrapCode.TASK_CANCEL_OR_RETURN_TWICE: "task_cancel_or_return_twice",
    TrapCode.TASK_RETURN_INVALID: "task_return_invalid",
    TrapCode.THREAD_NEW_INDIRECT_INVALID_TYPE: "thread_new_indirect_invalid_type",
    TrapCode.THREAD_NEW_INDIRECT_UNINITIALIZED: "thread_new_indirect_uninitialized",
    TrapCode.UNSUPPORTED_CALLBACK_CODE: "unsupported_callback_code",
    TrapCode.WAITABLE_SET_DROP_HAS_WAITERS: "waitable_set_drop_has_waiters",
    TrapCode.WAITABLE_SYNC_AND_ASYNC: "waitable_sync_and_async",
    # wasmtime's own debug assertions on the boundary
    TrapCode.DEBUG_ASSERT_EQUAL_CODE_UNITS: "debug_assert_equal_code_units",
    TrapCode.DEBUG_ASSERT_POINTER_ALIGNED: "debug_assert_pointer_aligned",
    TrapCode.DEBUG_ASSERT_STRING_ENCODING_FINISHED: "debug_assert_string_encoding_finished",
    TrapCode.DEBUG_ASSERT_UPPER_BITS_UNSET: "debug_assert_upper_bits_unset",
}


_MARKER = "wasm trap: "


def trap_description(code: TrapCode) -> str:
    """wasmtime's own words for ``code`` (``call stack exhausted``)."""
    trap = wasmtime.Trap._from_ptr(ffi.wasmtime_trap_new_code(code.value))
    return trap.message.removeprefix(_MARKER).strip()


_CODE_BY_DESCRIPTION: dict[str, TrapCode] = {trap_description(code): code for code in TrapCode}


def trap_code(error: wasmtime.Trap | wasmtime.WasmtimeError) -> TrapCode | None:
    """The code of the trap behind ``error``; None when it is no trap (a link error...)."""
    if isinstance(error, wasmtime.Trap):
        if error.trap_code is not None:
            return error.trap_code
        message = error.message
    else:
        message = str(error)
    at = message.rfind(_MARKER)
    if at < 0:
        return None
    description = message[at + len(_MARKER):].strip().split("\n", 1)[0].strip()
    return _CODE_BY_DESCRIPTION.get(description)


_FRAME = re.compile(r"^\s*\d+:\s+0x[0-9a-f]+ - (?P<name>.+?)\s*$", re.MULTILINE)
"""A backtrace frame; wasmtime pads the offset to align the frames, so the gap varies."""
_ALLOCATION_FAILURE = ("handle_alloc_error", "alloc_error_handler", "capacity_overflow")


def abort_cause(message: str) -> tuple[str, str] | None:
    """For an ``unreachable`` trap, what the guest was doing when it aborted, from the wasm
    backtrace wasmtime attaches (function names come from the compiled guest's name section,
    not from anything the guest's code can write): ``(MEMORY, words)`` for an allocation
    failure, ``(ABORT, words)`` for any other call of ``abort()``, None when the trap is no
    abort. ``words`` finish the sentence "the guest aborted ...".
    """
    frames = [m.group("name") for m in _FRAME.finditer(message)]
    if not frames or not frames[0].endswith("!abort"):
        return None
    names = " ".join(frames)
    if any(marker in names for marker in _ALLOCATION_FAILURE):
        return MEMORY, "because an allocation failed"
    if "!raise" in names and "signal" in names:
        return ABORT, "by raising a signal (signal.raise_signal or os.kill on itself)"
    if "rust_panic" in names or "panicking" in names:
        return ABORT, "because its runtime panicked (an error escaped the guest's entry point)"
    caller = frames[1].rpartition("!")[2] if len(frames) > 1 else "unknown"
    return ABORT, f"by calling abort() (from {caller})"

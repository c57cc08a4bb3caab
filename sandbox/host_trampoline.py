"""The guest's one host import, ``call(name: string, payload: string) -> result<string, string>``,
bound to wasmtime through a callback that knows its signature.

wasmtime-py's generic component callback rebuilds the function's type from C on every call
(the parameter list, each parameter's type, the result type and both its cases) and then
converts each value by asking that type. For this import that is most of a host call's cost
in the isolate: measured on the 2-core machine, a guest loop of no-op host calls answered in
process took 0.06-0.11 ms a call through the generic callback and 0.03 ms through this one.

The signature is fixed by the WIT world (``wasm/wit``) the guest is built against, so this
callback reads two strings and writes one result without asking for their types; it still
checks the count and kind of what it is given, so a call of any other shape (a guest built
against another world) is refused as a trap, never read as something else.
Errors travel as wasmtime-py's own callbacks carry them (``catch_exceptions``): an exception
raised by the handler unwinds the guest and is raised again from the export call.
"""

from __future__ import annotations

import ctypes
from ctypes import byref, create_string_buffer
from typing import Any, Callable, cast

from wasmtime import WasmtimeError
from wasmtime import _ffi as ffi
from wasmtime import component as wc
from wasmtime.component._linker import FUNCTIONS, func_finalize
from wasmtime.component._enter import catch_exceptions

__all__ = ["StringCall", "add_string_call"]

StringCall = Callable[[Any, str, str], wc.Variant]
"""``(store, name, payload) -> Variant("ok" | "err", str)``."""

_STRING = ffi.WASMTIME_COMPONENT_STRING.value


def _take_string(value: Any) -> str:
    """The string argument ``value`` holds, which this callback owns and frees."""
    if value.kind != _STRING:
        raise TypeError("host call argument is not a string")
    vector = value.of.string
    try:
        return ctypes.string_at(vector.data, vector.size).decode("utf-8") if vector.size else ""
    finally:
        ffi.wasm_byte_vec_delete(byref(vector))


def _put_result(answer: wc.Variant, out: Any) -> None:
    """Write ``answer`` as a ``result<string, string>`` where wasmtime reads the result."""
    if answer.tag not in ("ok", "err") or not isinstance(answer.payload, str):
        raise TypeError("host call answer is not ok(str) or err(str)")
    data = answer.payload.encode("utf-8")
    vector = ffi.wasm_byte_vec_t()
    ffi.wasm_byte_vec_new_uninitialized(byref(vector), len(data))
    if data:  # straight from the bytes: ``ffi.str_to_capi`` copies them once more on the way
        ctypes.memmove(vector.data, data, len(data))
    payload = ffi.wasmtime_component_val_t()
    payload.kind = ffi.WASMTIME_COMPONENT_STRING
    payload.of.string = vector
    out.kind = ffi.WASMTIME_COMPONENT_RESULT
    out.of.result.is_ok = answer.tag == "ok"
    out.of.result.val = ffi.wasmtime_component_val_new(byref(payload))


@ffi.wasmtime_component_func_callback_t  # type: ignore[untyped-decorator]
def _string_call(index: Any, context: Any, _type: Any, args: Any, nargs: int, results: Any,
                 nresults: int) -> Any:
    def run(store: Any) -> None:
        if nargs != 2 or nresults != 1:
            raise TypeError(f"host call with {nargs} arguments and {nresults} results")
        function = cast(StringCall, FUNCTIONS.get(index or 0))
        _put_result(function(store, _take_string(args[0]), _take_string(args[1])), results[0])
    return catch_exceptions(context, run)


def add_string_call(instance: wc.LinkerInstance, name: str, function: StringCall) -> None:
    """Define ``name`` in ``instance`` as ``function``, called through :func:`_string_call`.

    The function is kept in wasmtime-py's own table and released by its finaliser, as a
    function added with ``LinkerInstance.add_func`` is."""
    instance._assert_not_locked()
    encoded = name.encode("utf-8")
    index = FUNCTIONS.allocate(function)
    error = ffi.wasmtime_component_linker_instance_add_func(
        instance.ptr(), create_string_buffer(encoded), len(encoded), _string_call, index,
        func_finalize)
    if error:
        raise WasmtimeError._from_ptr(error)

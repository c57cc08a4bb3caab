"""The standard guest's memory image moved out of its component (``sandbox.wasm_snapshot``'s
``split_data`` and ``split_component_data``), on small modules and components written here:
the image is the memory an instance of the original starts with, the module keeps its code
and no segment, and shapes a split cannot carry are refused."""

from __future__ import annotations

import struct

import pytest
import wasmtime

from sandbox import wasm_snapshot as ws

PAGE = 65536
WITH_DATA = """
(module
  (memory (export "memory") 3)
  (data (i32.const 16) "first")
  (data (i32.const 70000) "second, on page two")
  (data (i32.const 18) "overwritten in order")
  (func (export "peek") (param i32) (result i32) (i32.load8_u (local.get 0))))
"""


def _memory_of(module: bytes) -> bytes:
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    memory = wasmtime.Instance(store, wasmtime.Module(engine, module), []).exports(store)["memory"]
    assert isinstance(memory, wasmtime.Memory)
    return bytes(memory.read(store, 0, memory.data_len(store)))


def test_the_image_is_the_memory_an_instance_of_the_original_starts_with() -> None:
    original = wasmtime.wat2wasm(WITH_DATA)
    stripped, image = ws.split_data(original)
    assert image == _memory_of(original) and len(image) == 3 * PAGE
    assert _memory_of(stripped) == bytes(3 * PAGE)  # the segments are gone, the size stays


def test_a_split_module_runs_the_same_code() -> None:
    stripped, _ = ws.split_data(wasmtime.wat2wasm(WITH_DATA))
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    peek = wasmtime.Instance(store, wasmtime.Module(engine, stripped), []).exports(store)["peek"]
    assert isinstance(peek, wasmtime.Func) and peek(store, 16) == 0


@pytest.mark.parametrize("wat, refused", [
    ('(module (memory 1) (data "passive") (func (memory.init 0 (i32.const 0) (i32.const 0) (i32.const 1))))',
     "data count"),
    ('(module (memory 1) (data "passive"))', "passive"),
    ('(module (import "env" "base" (global i32)) (memory 1) (data (global.get 0) "x"))', "not an i32 constant"),
    ('(module (memory 1) (data (i32.const 65530) "past the end"))', "past the memory"),
    ('(module (func))', "no memory"),
])
def test_shapes_a_split_cannot_carry_are_refused(wat: str, refused: str) -> None:
    with pytest.raises(ws.SnapshotError, match=refused):
        ws.split_data(wasmtime.wat2wasm(wat))


def _component(*sections: tuple[int, bytes]) -> bytes:
    out = bytearray(b"\0asm\x0d\0\x01\0")
    for section_id, body in sections:
        out += bytes([section_id]) + ws._enc_uleb(len(body)) + body
    return bytes(out)


def test_a_component_loses_the_segments_of_its_one_memory_defining_module() -> None:
    main = wasmtime.wat2wasm(WITH_DATA)
    shim = wasmtime.wat2wasm('(module (import "m" "memory" (memory 1)) (func))')
    custom = b"\x04note" + b"kept as it is"
    stripped, image = ws.split_component_data(_component((1, shim), (0, custom), (1, main)))
    assert image == _memory_of(main)
    assert stripped == _component((1, shim), (0, custom), (1, ws.split_data(main)[0]))


def test_a_component_with_two_memories_or_none_is_refused() -> None:
    main = wasmtime.wat2wasm(WITH_DATA)
    with pytest.raises(ws.SnapshotError, match="exactly one"):
        ws.split_component_data(_component((1, main), (1, main)))
    with pytest.raises(ws.SnapshotError, match="exactly one"):
        ws.split_component_data(_component((4, _component((1, main))), (1, main)))
    with pytest.raises(ws.SnapshotError, match="exactly one"):
        ws.split_component_data(_component((1, wasmtime.wat2wasm("(module)"))))
    with pytest.raises(ws.SnapshotError, match="not a WebAssembly component"):
        ws.split_component_data(main)
    with pytest.raises(ws.SnapshotError, match="runs past"):
        ws.split_component_data(b"\0asm\x0d\0\x01\0" + b"\x01" + struct.pack("B", 100) + b"short")

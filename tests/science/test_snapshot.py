"""Our own snapshot step (``sandbox.wasm_snapshot``) on small modules written here: what an
initialiser leaves in memory and globals is where a fresh instance of the snapshot starts;
shapes it cannot carry are refused; a compiled snapshot whose bytes changed is never loaded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import wasmtime

from sandbox import CompiledScience, GuestBuildError
from sandbox import wasm_snapshot as ws
from sandbox.science_isolate import ScienceRuntime

COUNTER = """
(module
  (memory (export "memory") 1)
  (global $count (mut i32) (i32.const 7))
  (global $wide (mut i64) (i64.const -5))
  (global $ratio (mut f64) (f64.const 0.5))
  (global $fixed i32 (i32.const 99))
  (data (i32.const 16) "seed")
  (func (export "init")
    (global.set $count (i32.const -123456))
    (global.set $wide (i64.const 8589934592))
    (global.set $ratio (f64.const 2.25))
    (drop (memory.grow (i32.const 2)))
    (i32.store8 (i32.const 70000) (i32.const 42))
    (i32.store (i32.const 150000) (i32.const 1234)))
  (func (export "count") (result i32) (global.get $count))
  (func (export "wide") (result i64) (global.get $wide))
  (func (export "ratio") (result f64) (global.get $ratio))
  (func (export "fixed") (result i32) (global.get $fixed))
  (func (export "peek") (param i32) (result i32) (i32.load8_u (local.get 0)))
  (func (export "word") (param i32) (result i32) (i32.load (local.get 0))))
"""


def _instance(data: bytes) -> tuple[wasmtime.Store, wasmtime.Instance]:
    store = wasmtime.Store()
    return store, wasmtime.Instance(store, wasmtime.Module(store.engine, data), [])


def _snapshot_after_init(wat: str) -> bytes:
    original = wasmtime.wat2wasm(wat)
    store, instance = _instance(ws.with_global_exports(original))
    exports = instance.exports(store)
    init = exports["init"]
    assert isinstance(init, wasmtime.Func)
    init(store)
    values = {}
    for name in exports.keys():
        slot = exports[name]
        if name.startswith(ws.GLOBAL_EXPORT_PREFIX) and isinstance(slot, wasmtime.Global):
            values[int(name[len(ws.GLOBAL_EXPORT_PREFIX):])] = slot.value(store)
    memory = exports["memory"]
    assert isinstance(memory, wasmtime.Memory)
    return ws.snapshot_module(original, values, bytes(memory.read(store, 0, memory.data_len(store))))


def _call(instance: wasmtime.Instance, store: wasmtime.Store, name: str, *args: int) -> object:
    func = instance.exports(store)[name]
    assert isinstance(func, wasmtime.Func)
    return func(store, *args)


def test_a_fresh_instance_starts_where_the_initialiser_left_off() -> None:
    store, instance = _instance(_snapshot_after_init(COUNTER))
    assert _call(instance, store, "count") == -123456
    assert _call(instance, store, "wide") == 8589934592
    assert _call(instance, store, "ratio") == 2.25
    assert _call(instance, store, "fixed") == 99
    assert [_call(instance, store, "peek", 16 + i) for i in range(4)] == list(b"seed")
    assert _call(instance, store, "peek", 70000) == 42
    assert _call(instance, store, "word", 150000) == 1234
    memory = instance.exports(store)["memory"]
    assert isinstance(memory, wasmtime.Memory) and memory.size(store) == 3


def test_the_snapshot_leaves_zero_pages_out_and_adds_no_export() -> None:
    snapshot = _snapshot_after_init(COUNTER)
    assert len(snapshot) < 3 * ws.PAGE / 4
    assert ws.GLOBAL_EXPORT_PREFIX.encode() not in snapshot
    assert [g.mutable for g in ws.module_globals(snapshot)] == [True, True, True, False]


def test_without_data_the_memory_keeps_its_size_and_its_contents_are_the_hosts() -> None:
    original = wasmtime.wat2wasm(COUNTER)
    store, instance = _instance(ws.with_global_exports(original))
    _call(instance, store, "init")
    memory = instance.exports(store)["memory"]
    assert isinstance(memory, wasmtime.Memory)
    image = bytes(memory.read(store, 0, memory.data_len(store)))
    values = {int(name[len(ws.GLOBAL_EXPORT_PREFIX):]): slot.value(store)
              for name, slot in instance.exports(store).items()
              if name.startswith(ws.GLOBAL_EXPORT_PREFIX) and isinstance(slot, wasmtime.Global)}
    bare = ws.snapshot_module(original, values, image, with_data=False)
    assert b"seed" not in bare
    store, fresh = _instance(bare)
    assert _call(fresh, store, "count") == -123456
    assert _call(fresh, store, "peek", 16) == 0  # no segment wrote it
    fresh_memory = fresh.exports(store)["memory"]
    assert isinstance(fresh_memory, wasmtime.Memory) and fresh_memory.size(store) == 3


def test_the_original_module_is_untouched_by_the_run() -> None:
    original = wasmtime.wat2wasm(COUNTER)
    _snapshot_after_init(COUNTER)
    store, instance = _instance(original)
    assert _call(instance, store, "count") == 7


@pytest.mark.parametrize(("wat", "words"), [
    ('(module (memory 1) (func $s) (start $s))', "start function"),
    ('(module (memory 1) (data "x") (func (memory.init 0 (i32.const 0) (i32.const 0) (i32.const 1))))',
     "data count"),
    ('(module (import "env" "m" (memory 1)))', "imports its memory"),
    ('(module (memory 1) (memory 1))', "memories"),
])
def test_shapes_it_cannot_carry_are_refused(wat: str, words: str) -> None:
    data = wasmtime.wat2wasm(wat)
    with pytest.raises(ws.SnapshotError, match=words):
        ws.snapshot_module(data, {}, bytes(ws.PAGE))


def test_not_a_module_is_refused() -> None:
    with pytest.raises(ws.SnapshotError, match="not a WebAssembly"):
        ws.module_globals(b"\0asm\x0d\0\x01\0")


def test_a_compiled_snapshot_whose_bytes_changed_is_never_loaded(tmp_path: Path) -> None:
    artifact = tmp_path / "science.cwasm"
    artifact.write_bytes(b"not what was recorded")
    compiled = CompiledScience(artifact, "0" * 64, tmp_path, tmp_path / "science.mem", "0" * 64)
    with pytest.raises(GuestBuildError, match="changed on disk"):
        ScienceRuntime(compiled)


def test_a_new_build_keeps_the_two_newest_snapshots_of_other_inputs(tmp_path: Path) -> None:
    # Two checkouts with other guest sources share one cache: each keeps the other's.
    from sandbox.science_engine import _prune

    for age, key in enumerate(["current", "newer", "older", "oldest"]):
        for suffix in (".cwasm", ".json", ".mem"):
            made = tmp_path / f"science-{key}{suffix}"
            made.write_bytes(b"x")
            os.utime(made, (1_000_000 - age, 1_000_000 - age))
    _prune(tmp_path / "science-current.cwasm")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"science-{key}{suffix}" for key in ("current", "newer", "older")
        for suffix in (".cwasm", ".json", ".mem"))

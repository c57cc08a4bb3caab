"""The science engine's memory slots (``sandbox.memory_slots``) on small modules written here:
every instance starts from the image exactly, whatever the instances before it wrote, grew or
left behind, whether a slot is put back page by page or mapped anew."""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Iterator

import pytest
import wasmtime

from sandbox import memory_slots
from sandbox.memory_slots import MemorySlots

PAGE = 65536
MODULE = """
(module
  (memory (export "memory") 2)
  (func (export "peek") (param i32) (result i32) (i32.load8_u (local.get 0)))
  (func (export "poke") (param i32 i32) (i32.store8 (local.get 0) (local.get 1)))
  (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))
"""
IMAGE = bytes(range(256)) * (2 * PAGE // 256)
"""Two wasm pages, no byte of which is zero-page material: every offset says where it is."""


@pytest.fixture()
def image(tmp_path: Path) -> Path:
    path = tmp_path / "image.mem"
    path.write_bytes(IMAGE)
    return path


@pytest.fixture(params=["scan", "remap"])
def slots(request: pytest.FixtureRequest, image: Path) -> Iterator[MemorySlots]:
    made = MemorySlots(str(image))
    if request.param == "remap":
        made._pagemap = None  # as on a kernel without PAGEMAP_SCAN
    yield made


def _engine(slots: MemorySlots) -> wasmtime.Engine:
    config = wasmtime.Config()
    slots.install(config)
    return wasmtime.Engine(config)


class Guest:
    def __init__(self, engine: wasmtime.Engine, module: wasmtime.Module) -> None:
        self.store = wasmtime.Store(engine)
        self.exports = wasmtime.Instance(self.store, module, []).exports(self.store)

    def __call__(self, name: str, *args: int) -> object:
        func = self.exports[name]
        assert isinstance(func, wasmtime.Func)
        return func(self.store, *args)

    def pages(self) -> int:
        memory = self.exports["memory"]
        assert isinstance(memory, wasmtime.Memory)
        return memory.size(self.store)

    def close(self) -> None:
        self.store.close()


GROWN = (2 * PAGE, 3 * PAGE + 5, 5 * PAGE - 1)


def _run_that_scribbles(guest: Guest) -> None:
    """Writes four pages of the image, grows the memory and writes what it grew."""
    for at in (0, 4095, 4096, PAGE + 17, 2 * PAGE - 1):
        guest("poke", at, 0xEE)
    assert guest("grow", 3) == 2
    assert [guest("peek", at) for at in GROWN] == [0, 0, 0]
    for at in GROWN:
        guest("poke", at, 0xAB)


def test_an_instance_sees_the_image(slots: MemorySlots) -> None:
    engine = _engine(slots)
    guest = Guest(engine, wasmtime.Module(engine, MODULE))
    assert [guest("peek", at) for at in (0, 1, 255, 256, PAGE + 3)] == [0, 1, 255, 0, 3]
    assert guest.pages() == 2
    guest.close()


def test_what_a_run_wrote_or_grew_is_gone_for_the_next(slots: MemorySlots) -> None:
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE)
    for _ in range(3):  # the same slot, reused
        guest = Guest(engine, module)
        assert [guest("peek", at) for at in (0, 4095, 4096, PAGE + 17, 2 * PAGE - 1)] == \
            [0, 4095 % 256, 0, 17, 255]
        assert guest.pages() == 2
        _run_that_scribbles(guest)
        guest.close()
    assert slots.live == 0


def test_a_reused_slot_keeps_only_what_it_put_back(image: Path) -> None:
    slots = MemorySlots(str(image))
    if not slots.scan:
        pytest.skip("this kernel has no PAGEMAP_SCAN: slots are mapped anew (tested above)")
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE)
    guest = Guest(engine, module)
    _run_that_scribbles(guest)
    guest.close()
    (slot,) = slots._free
    assert slot.kept == 4 * 4096  # the four pages written inside the image, copied back
    assert ctypes.string_at(slot.base, len(IMAGE)) == IMAGE


def test_past_the_kept_limit_the_image_is_mapped_anew(image: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory_slots, "MAX_KEPT_BYTES", 4096)
    slots = MemorySlots(str(image))
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE)
    guest = Guest(engine, module)
    _run_that_scribbles(guest)
    guest.close()
    (slot,) = slots._free
    assert slot.kept == 0
    again = Guest(engine, module)
    assert [again("peek", at) for at in (0, 4096, PAGE + 17)] == [0, 0, 17]
    again.close()


def test_live_instances_never_share_a_slot(slots: MemorySlots) -> None:
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE)
    first, second = Guest(engine, module), Guest(engine, module)
    first("poke", 10, 0xEE)
    assert second("peek", 10) == 10
    assert slots.live == 2
    first.close()
    third = Guest(engine, module)  # takes the slot the first one left
    assert third("peek", 10) == 10
    second.close()
    third.close()


def test_a_memory_of_another_size_is_fresh_zero_memory_never_reused(slots: MemorySlots) -> None:
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE.replace("(memory (export \"memory\") 2)",
                                                    "(memory (export \"memory\") 3)"))
    for _ in range(2):
        guest = Guest(engine, module)
        assert [guest("peek", at) for at in (1, PAGE + 3, 3 * PAGE - 1)] == [0, 0, 0]
        guest("poke", 1, 0xEE)
        guest.close()
        assert slots.live == 0 and not slots._free


def test_an_image_that_is_not_whole_pages_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.mem"
    path.write_bytes(b"x" * 100)
    with pytest.raises(ValueError, match="whole number of pages"):
        MemorySlots(str(path))


def test_released_slots_are_unmapped_and_new_ones_see_the_image(slots: MemorySlots) -> None:
    engine = _engine(slots)
    module = wasmtime.Module(engine, MODULE)
    guest = Guest(engine, module)
    _run_that_scribbles(guest)
    guest.close()
    (slot,) = slots._free
    slots.release()
    assert slots._free == [] and slot.base == 0
    again = Guest(engine, module)
    assert [again("peek", at) for at in (0, 4095, PAGE + 17)] == [0, 4095 % 256, 17]
    again.close()

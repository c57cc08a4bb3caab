"""The standard guest's memory is kept resident between isolates (``sandbox.memory_slots``):
no byte of one run may reach the next. A fresh isolate's memory is its image byte for byte,
whatever the runs before it wrote (heap, stack, memory they grew) or how they ended, and the
rest of its state (globals, tables) is as fresh as the first isolate's. The probes are
shown to find a leak when the reset is broken on purpose, so they can fail."""

from __future__ import annotations

import ctypes
import json
import uuid
from collections.abc import Iterator

import pytest

from sandbox import CompiledGuest, DeadlineExceeded, Limits, SandboxError
from sandbox.isolate import GuestRuntime, Isolate
from sandbox.memory_slots import MemorySlots

LIMITS = Limits.default.replace(deadline_s=30.0, memory_bytes=512 * 2**20)
"""Room for the image (~126 MiB) and what a run grows (``GROWN``)."""
GROWN = 200_000_000
"""Bytes a run allocates at once: more than the image (~126 MiB), so the memory grows."""
STATE_PROBE = ("import gc, sys\n"
               "(len(gc.get_objects()), len(sys.modules), sys.getrecursionlimit(), gc.isenabled())")
"""The interpreter's state as a run finds it: the live object count, the modules loaded, the
recursion limit (a run below sets it to 10**9) and the collector's switch. The same in every
fresh isolate only if what the last run did to them is gone. No address: each run keys
``hash()`` and reseeds ``random`` from WASI's entropy before the code runs
(``runfacts.begin_run``), and those random integers differ in size from run to run, so even a
16-byte object lands in one of two pools by chance (measured on the builds of 2026-12-02,
after plain runs too); the memory itself is compared with the image byte for byte."""


@pytest.fixture()
def runtime(compiled_guest: CompiledGuest) -> Iterator[GuestRuntime]:
    made = GuestRuntime(compiled_guest)
    yield made
    made.memories.release()  # what the runs left resident (a broken reset: 200 MB) goes now


@pytest.fixture(scope="module")
def image(compiled_guest: CompiledGuest) -> bytes:
    return compiled_guest.image.read_bytes()


def _memory(runtime: GuestRuntime) -> bytes:
    """The live isolate's whole linear memory, read from the host side."""
    (slot,) = runtime.memories._live.values()
    return ctypes.string_at(slot.base, slot.size)


def _run(isolate: Isolate, code: str) -> dict[str, object]:
    return dict(json.loads(isolate.call("execute", json.dumps({"code": code}), lambda _n, _p: "null")))


def _leaves_marker(runtime: GuestRuntime, marker: str) -> None:
    """One run that writes ``marker`` into the heap, deep into the C stack (formatting nested
    lists recurses in C, each frame holding the marker's pieces), and into memory it grew."""
    code = (f"m = {marker!r}\n"
            "kept = [m * 64 for _ in range(256)]\n"
            "nested = [m]\n"
            "for _ in range(400):\n    nested = [nested, m]\n"
            "text = repr(nested)\n"
            f"big = bytearray({GROWN})\n"
            "for at in range(100_000_000, len(big) - 100, 7_000_000):\n"
            "    big[at:at + len(m)] = m.encode()\n"
            "len(text) > 0 and big.count(m.encode())")
    with runtime.isolate(LIMITS) as isolate:
        assert _run(isolate, code)["result"] >= 10


def _marker() -> str:
    return f"secret-of-run-one-{uuid.uuid4().hex}"


def test_a_fresh_isolate_is_its_image_byte_for_byte_after_runs_that_wrote_everywhere(
        runtime: GuestRuntime, image: bytes) -> None:
    marker = _marker()
    _leaves_marker(runtime, marker)
    with runtime.isolate(LIMITS) as isolate:
        memory = _memory(runtime)
        assert len(memory) == len(image)  # what the last run grew is gone
        assert marker.encode() not in memory
        assert memory == image
        zeros = _run(isolate, f"bytearray({GROWN}).count(0)")
        assert zeros["result"] == GROWN


def test_the_slot_was_reused_so_the_check_above_is_about_a_reset(runtime: GuestRuntime) -> None:
    if not runtime.memories.scan:
        pytest.skip("this kernel has no PAGEMAP_SCAN: every slot is mapped anew")
    with runtime.isolate(LIMITS) as isolate:
        (first,) = runtime.memories._live.values()
        _run(isolate, "x = [str(i) for i in range(10_000)]")
    with runtime.isolate(LIMITS):
        (second,) = runtime.memories._live.values()
        assert second is first and second.kept > 0


@pytest.mark.parametrize("broken", ["scan finds nothing", "slot never reset"])
def test_the_probe_finds_the_marker_when_the_reset_is_broken(
        runtime: GuestRuntime, image: bytes, broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not runtime.memories.scan:
        pytest.skip("this kernel has no PAGEMAP_SCAN: every slot is mapped anew")
    if broken == "scan finds nothing":
        monkeypatch.setattr(MemorySlots, "written_regions", lambda self, base, length: [])
    else:
        monkeypatch.setattr("sandbox.memory_slots._Slot.reset", lambda self: None)
    marker = _marker()
    _leaves_marker(runtime, marker)
    with runtime.isolate(LIMITS):
        memory = _memory(runtime)
        assert marker.encode() in memory and memory != image


def test_every_isolate_starts_in_the_state_of_the_first_whatever_ended_the_runs_between(
        runtime: GuestRuntime, image: bytes) -> None:
    with runtime.isolate(LIMITS) as first:
        fresh = _run(first, STATE_PROBE)["result"]
    with runtime.isolate(LIMITS.replace(deadline_s=0.2)) as stopped:
        with pytest.raises(DeadlineExceeded):  # stopped mid-allocation, deep in the C stack
            _run(stopped, "x = []\nwhile True:\n    x = [x, repr(x)[:100] * 3]")
    with runtime.isolate(LIMITS) as overflowed:  # however the guest ends it, deep in C recursion
        try:
            _run(overflowed, "import sys\nsys.setrecursionlimit(10**9)\nx = []\n"
                             "for _ in range(10**6):\n    x = [x]\nrepr(x)")
        except SandboxError:
            pass
    with runtime.isolate(LIMITS) as grew:
        _run(grew, f"x = bytearray({GROWN})\nx[-1] = 1")
    for _ in range(2):
        with runtime.isolate(LIMITS) as again:
            assert _memory(runtime) == image
            assert _run(again, STATE_PROBE)["result"] == fresh


def test_a_python_level_change_does_not_outlive_its_run(runtime: GuestRuntime) -> None:
    with runtime.isolate(LIMITS) as isolate:
        _run(isolate, "import builtins, sys\nbuiltins.leak = 1\nsys.modules['json'].leak = 2")
    with runtime.isolate(LIMITS) as isolate:
        result = _run(isolate, "import builtins, json\n[hasattr(builtins, 'leak'), hasattr(json, 'leak')]")
        assert result["result"] == [False, False]

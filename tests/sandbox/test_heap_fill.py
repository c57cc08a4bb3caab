"""The build takes the heap's free chunks (``wasm/guest/heap_fill.py``) before its snapshot."""

from __future__ import annotations

from sandbox import Sandbox


def test_the_build_took_the_free_chunks_below_its_last_object_and_stopped_at_the_top(
        sandbox: Sandbox) -> None:
    facts = sandbox.execute(
        "import heap_fill\n"
        "[len(heap_fill.fillers), heap_fill.sizes_done == len(heap_fill.SIZES),\n"
        " len(heap_fill.fillers) < heap_fill.MAX_FILLERS,\n"
        " all(id(f) < heap_fill.live_top for f in heap_fill.fillers)]").result
    assert facts is not None
    taken, every_size_reached_the_top, under_the_bound, all_below = facts
    assert taken > 0 and every_size_reached_the_top and under_the_bound and all_below


def test_a_run_s_large_allocations_come_from_the_top_of_the_heap(sandbox: Sandbox) -> None:
    # Nothing the build left free below its last object can hold these any more; before the
    # fill, large buffers reused the holes the imports left all over the image.
    above = sandbox.execute(
        "import heap_fill\n"
        "made = [bytes(n) for n in (300, 1_500, 5_000, 20_000, 70_000)]\n"
        "[id(b) > heap_fill.live_top for b in made]").result
    assert above == [True] * 5

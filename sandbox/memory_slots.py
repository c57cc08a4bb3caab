"""Guest linear memories kept resident from run to run: one image, reset page by page.

Both engines start every run from a memory image: the standard guest's is its main core
module's data segments (the componentize-py snapshot, moved out of the component at build
time by ``sandbox.wasm_snapshot.split_component_data``), the science engine's the snapshot it
makes itself (``sandbox.science_engine``). wasmtime gives each new instance such an image
mapped copy-on-write, so every page a run touches is a page fault, and on this kind of
machine (a virtual machine, where a fault that changes the page tables is dear) a fault
costs 2-4 us: a fresh ``pass`` in the science engine took about 710 of them, about 3 ms of
its 5, a fresh ``print(1+1)`` in the standard guest about 300 above the pooling allocator's
resident span. wasmtime's pooling allocator can keep memory resident between instances, but
through the C API that wasmtime-py binds it resets by copying the whole resident span back
(7-9 ms for the science engine's 131 MiB image, 1.4 ms for the standard guest's first 24
MiB), not only the pages written.

So the engines make their memories here (wasmtime's host memory creator), and a memory
lives in a *slot*: the address space wasmtime asks for (its reservation and guard),
inaccessible, with the image file mapped private over its start. A slot whose
store is dropped is put back the way wasmtime's pooling allocator does it on Linux when it
can, with the kernel's ``PAGEMAP_SCAN``: every page of the memory that is neither the image
file's own page nor the zero page (present or swapped out: any page a run could have
written, since a write to a private file page always makes a private copy) is copied back
from a read-only mapping of the image; whatever the memory grew past the image is mapped
anew, zero and inaccessible. The next instance then finds, at every address, exactly what
a fresh mapping of the image would show, and the pages earlier runs touched already in
place: no fault for them. The private copies stay (and are copied back after each run):
past ``MAX_KEPT_BYTES`` of them the image is mapped over the slot anew instead. Where the
scan is not available (another kernel, another system) every slot is mapped anew after
each run, which is the copy-on-write behaviour wasmtime has.

Only the memory of the image's size is the module's; any other memory an engine asks for
gets a fresh zero slot, unmapped when dropped. Tables, globals and every other piece of an
instance's state are wasmtime's, made anew for each instance (neither engine uses the
pooling allocator, which would ignore a memory creator).

The image is trusted as the compiled module is: its SHA-256 is checked before it is mapped
(``sandbox.isolate``, ``sandbox.science_isolate``), and like the module it lives in the
cache directory.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
from typing import Any

from wasmtime import _ffi as ffi

__all__ = ["MemorySlots", "MAX_KEPT_BYTES", "FREE_SLOTS", "map_shared"]

MAX_KEPT_BYTES = 32 * 1024 * 1024
"""Private pages a slot keeps between runs before its image is mapped anew. Each reset copies
all it keeps (about 0.13 ms per MiB here), pages of earlier runs included, while a page the
next run touches unkept costs it a fault (2-4 us, about what copying 8-16 pages costs): a
`pass` keeps 1.8 MiB, a pandas groupby 6 MiB, so 32 MiB holds a varied mix of runs and
bounds the copy near 4 ms."""
FREE_SLOTS = 2
"""Slots kept for the next instances once their store is gone (a worker has one instance
alive at a time); more are unmapped."""
_REGIONS = 4096
"""Regions read per ``PAGEMAP_SCAN`` call; the scan continues until it reaches the end."""

_PROT_NONE, _PROT_READ, _PROT_RW = 0, 1, 3
_MAP_PRIVATE, _MAP_FIXED, _MAP_ANONYMOUS, _MAP_NORESERVE = 0x02, 0x10, 0x20, 0x4000
_MAP_FAILED = ctypes.c_void_p(-1).value
_PAGE_IS_FILE, _PAGE_IS_PRESENT, _PAGE_IS_SWAPPED, _PAGE_IS_PFNZERO = 1 << 2, 1 << 3, 1 << 4, 1 << 5

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]


class _ScanArg(ctypes.Structure):
    """``struct pm_scan_arg`` (linux/fs.h)."""

    _fields_ = [(name, ctypes.c_uint64) for name in (
        "size", "flags", "start", "end", "walk_end", "vec", "vec_len", "max_pages",
        "category_inverted", "category_mask", "category_anyof_mask", "return_mask")]


class _Region(ctypes.Structure):
    """``struct page_region``."""

    _fields_ = [("start", ctypes.c_uint64), ("end", ctypes.c_uint64), ("categories", ctypes.c_uint64)]


_PAGEMAP_SCAN = (3 << 30) | (ctypes.sizeof(_ScanArg) << 16) | (ord("f") << 8) | 16
"""``_IOWR('f', 16, struct pm_scan_arg)``."""


class MemoryError_(OSError):
    """A system call behind a slot failed."""


def _check_map(address: int | None, what: str) -> int:
    if address is None or address == _MAP_FAILED:
        raise MemoryError_(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")
    return address


def map_shared(fd: int, length: int) -> int:
    """The address of ``fd``'s first ``length`` bytes mapped shared and writable, through
    libc's ``mmap`` (Python's ``mmap`` would keep a duplicate of ``fd`` open); ``fd`` may be
    closed at once. A ``MemoryError_`` if the kernel refuses."""
    return _check_map(_libc.mmap(None, length, _PROT_RW, mmap.MAP_SHARED, fd, 0), "mapping shared memory")


def _check(result: int, what: str) -> None:
    if result != 0:
        raise MemoryError_(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


class _Slot:
    """One memory's address space: the image mapped private at ``base`` (or, for a memory
    that is not the module's, ``minimum`` zero bytes), then what the memory grew to, then
    inaccessible reservation and guard."""

    def __init__(self, slots: "MemorySlots", span: int, minimum: int | None = None) -> None:
        self.span = span
        self.base = _check_map(_libc.mmap(None, span, _PROT_NONE,
                                          _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0),
                               "reserving a guest memory")
        self.size = 0
        self.kept = 0
        """Bytes of private pages left in place by the last reset."""
        self.imaged = minimum is None
        self._slots = slots
        try:
            if minimum is None:
                self._map_image()
            else:
                self.grow(minimum)
        except BaseException:
            self.unmap()
            raise

    def _map_image(self) -> None:
        slots = self._slots
        _check_map(_libc.mmap(self.base, slots.image_bytes, _PROT_RW, _MAP_PRIVATE | _MAP_FIXED,
                              slots.image_fd, 0), "mapping the guest memory image")
        self.size = slots.image_bytes
        self.kept = 0

    def grow(self, new_size: int) -> None:
        if new_size > self.span - self._slots.guard_bytes:
            raise MemoryError_(0, f"memory of {new_size} bytes is past its reservation")
        if new_size > self.size:
            _check(_libc.mprotect(self.base + self.size, new_size - self.size, _PROT_RW),
                   "growing a guest memory")
            self.size = new_size

    def reset(self) -> None:
        """Back to a fresh image: see the module docstring."""
        slots = self._slots
        image = slots.image_bytes
        if self.size > image:
            _check_map(_libc.mmap(self.base + image, self.size - image, _PROT_NONE,
                                  _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE | _MAP_FIXED, -1, 0),
                       "dropping what a guest memory grew")
            self.size = image
        written = slots.written_regions(self.base, image)
        if written is None or sum(end - start for start, end in written) > MAX_KEPT_BYTES:
            self._map_image()
            return
        source = slots.pristine
        kept = 0
        for start, end in written:
            ctypes.memmove(self.base + start, source + start, end - start)
            kept += end - start
        self.kept = kept

    def unmap(self) -> None:
        if self.base:
            _libc.munmap(self.base, self.span)
            self.base = 0


class MemorySlots:
    """An engine's memory creator: hands wasmtime slots, takes them back at drop.

    ``install(config)`` makes a ``wasmtime.Config`` create its memories here. Instances of
    one engine share it; it must outlive the engine (wasmtime calls back into it)."""

    def __init__(self, image_path: str) -> None:
        self.image_fd = os.open(image_path, os.O_RDONLY | os.O_CLOEXEC)
        self.image_bytes = os.fstat(self.image_fd).st_size
        if not self.image_bytes or self.image_bytes % mmap.PAGESIZE:
            os.close(self.image_fd)
            raise ValueError(f"memory image {image_path} is not a whole number of pages")
        self.pristine = _check_map(_libc.mmap(None, self.image_bytes, _PROT_READ, _MAP_PRIVATE,
                                              self.image_fd, 0), "mapping the pristine image")
        self.guard_bytes = 0
        self._free: list[_Slot] = []
        self._live: dict[int, _Slot] = {}
        self._next_id = 1
        self._pagemap = _open_pagemap()
        self._pid = os.getpid()
        """A forked child would read its parent's page tables through the inherited file."""
        self.scan = self._pagemap is not None
        """Whether slots are reset page by page (``PAGEMAP_SCAN``) or mapped anew."""
        self._buffer = (_Region * _REGIONS)()
        self._flat = memoryview(self._buffer).cast("B").cast("Q")
        # wasmtime keeps raw pointers to these: they live as long as this object.
        self._new = ffi.wasmtime_new_memory_callback_t(self._new_memory)
        self._get = ffi.wasmtime_memory_get_callback_t(self._get_memory)
        self._grow = ffi.wasmtime_memory_grow_callback_t(self._grow_memory)
        self._drop = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._drop_memory)
        self._no_op = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(lambda env: None)
        self._creator = ffi.wasmtime_memory_creator_t(None, self._new, self._no_op)

    def install(self, config: Any) -> None:
        ffi.wasmtime_config_host_memory_creator_set(config.ptr(), ctypes.byref(self._creator))

    @property
    def live(self) -> int:
        return len(self._live)

    def release(self) -> None:
        """Unmap the free slots, and with them what runs left resident (a process that is done
        with its runtime, a test); slots of live stores stay until their stores drop."""
        free, self._free = self._free, []
        for slot in free:
            slot.unmap()

    def written_regions(self, base: int, length: int) -> list[tuple[int, int]] | None:
        """Offsets of the pages in ``[base, base + length)`` that are not the image file's
        own nor the zero page; None if the kernel would not say."""
        if self._pagemap is None or os.getpid() != self._pid:
            return None
        found: list[tuple[int, int]] = []
        at, end = base, base + length
        buffer = self._buffer
        while at < end:
            arg = _ScanArg(size=ctypes.sizeof(_ScanArg), start=at, end=end,
                           vec=ctypes.addressof(buffer), vec_len=_REGIONS,
                           category_inverted=_PAGE_IS_FILE | _PAGE_IS_PFNZERO,
                           category_mask=_PAGE_IS_FILE | _PAGE_IS_PFNZERO,
                           category_anyof_mask=_PAGE_IS_PRESENT | _PAGE_IS_SWAPPED)
            count = _libc.ioctl(self._pagemap, _PAGEMAP_SCAN, ctypes.byref(arg))
            if count < 0:
                return None
            # Read as one flat run of u64 (start, end, categories): a ctypes attribute read
            # per field cost 0.2 ms for the ~1,000 regions a pandas run leaves.
            flat = self._flat[:3 * count]
            found.extend(zip([start - base for start in flat[0::3].tolist()],
                             [end - base for end in flat[1::3].tolist()]))
            if arg.walk_end <= at:
                return None  # no progress: never trust a scan that did not cover it all
            at = arg.walk_end
        return found

    def _new_memory(self, env: Any, request: Any, out: Any) -> int:
        try:
            asked = request[0]  # wasmtime_memory_request_t: the memory wasmtime wants
            minimum, maximum = asked.minimum, asked.maximum
            guard = asked.guard_size_in_bytes
            span = max(asked.reserved_size_in_bytes, maximum if maximum else 1 << 32, minimum) + guard
            self.guard_bytes = guard
            # The module's memory is the one of the image's size; wasmtime makes others for
            # itself (with exceptions on, a GC heap for exception objects), each fresh and
            # zero, unmapped when dropped.
            slot = self._take(span) if minimum == self.image_bytes else _Slot(self, span, minimum)
            slot_id, self._next_id = self._next_id, self._next_id + 1
            self._live[slot_id] = slot
            out[0].env = slot_id
            out[0].get_memory = self._get
            out[0].grow_memory = self._grow
            out[0].finalizer = self._drop
            return 0
        except BaseException as error:  # never unwind through wasmtime
            return _error(f"cannot create the guest memory: {error}")

    def _take(self, span: int) -> _Slot:
        while self._free:
            slot = self._free.pop()
            if slot.span == span:
                return slot
            slot.unmap()
        return _Slot(self, span)

    def _get_memory(self, env: Any, size: Any, capacity: Any) -> int:
        slot = self._live.get(env or 0)
        if slot is None:
            size[0] = capacity[0] = 0
            return 0
        size[0] = slot.size
        capacity[0] = slot.span - self.guard_bytes
        return slot.base

    def _grow_memory(self, env: Any, new_size: int) -> int:
        slot = self._live.get(env or 0)
        if slot is None:
            return _error("no such guest memory")
        try:
            slot.grow(new_size)
        except BaseException as error:
            return _error(str(error))
        return 0

    def _drop_memory(self, env: Any) -> None:
        slot = self._live.pop(env or 0, None)
        if slot is None:
            return
        try:
            if slot.imaged and len(self._free) < FREE_SLOTS:
                slot.reset()
                self._free.append(slot)
                return
        except BaseException as error:  # an unreset slot is never handed out again
            print(f"guest memory reset failed, slot unmapped: {error}", file=sys.stderr)
        slot.unmap()


def _error(message: str) -> int:
    return int(ctypes.cast(ffi.wasmtime_error_new(message.encode()), ctypes.c_void_p).value or 0)


def _open_pagemap() -> int | None:
    """``/proc/self/pagemap`` if it answers ``PAGEMAP_SCAN`` (Linux 6.7 and later)."""
    try:
        fd = os.open("/proc/self/pagemap", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    probe = (_Region * 1)()
    arg = _ScanArg(size=ctypes.sizeof(_ScanArg), start=0, end=0, vec=ctypes.addressof(probe),
                   vec_len=1, category_mask=_PAGE_IS_PRESENT)
    if _libc.ioctl(fd, _PAGEMAP_SCAN, ctypes.byref(arg)) < 0:
        os.close(fd)
        return None
    return fd

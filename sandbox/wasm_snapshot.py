"""Pre-initialisation of a core WebAssembly module, written as bytes: our own small snapshot step.

A snapshot is the module as it is after an initialiser ran in it: its linear memory and its
mutable globals written back as data segments and constant initialisers, so a fresh instance
starts where the initialiser left off. This module owns the byte-level half of that (the
half that runs the initialiser lives in ``sandbox.science_engine``):

- ``with_global_exports`` adds an export for every defined mutable global, so the host can
  read values a module does not export (the C stack pointer, above all);
- ``snapshot_module`` rewrites the original module with the values read: the global
  section's initialisers become constants, the memory's minimum becomes its current size,
  and the data section becomes the non-zero stretches of the memory (zero pages are left
  out, a fresh memory is zero there anyway). With ``with_data=False`` the data section is
  left empty: the memory's contents are then the host's to supply (the science engine maps
  them from an image file into memory it keeps resident, ``sandbox.memory_slots``).

- ``split_component_data`` moves a component's memory image out of it: the one core module
  that defines a memory loses its data segments, which become a raw image of the memory's
  initial size, so the host can map that image itself (``sandbox.memory_slots``) instead of
  wasmtime copying or mapping the segments in at every instantiation.

It parses only the top-level structure plus the four sections it touches (globals, exports,
memory, data) and refuses what it does not handle (several memories, a data count section,
which would let code refer to the segments it replaces, imported memories). Tables, tags,
functions and the name section stay byte for byte, so trap backtraces keep their names.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterator, Mapping

__all__ = ["SnapshotError", "GlobalSlot", "module_globals", "with_global_exports", "snapshot_module",
           "split_data", "split_component_data", "GLOBAL_EXPORT_PREFIX", "PAGE"]

PAGE = 65536
"""The WebAssembly page size."""
GLOBAL_EXPORT_PREFIX = "__snapshot_global_"
_HEADER = b"\0asm\x01\0\0\0"
_COMPONENT_HEADER = b"\0asm\x0d\0\x01\0"
_CORE_MODULE, _NESTED_COMPONENT = 1, 4
"""Component sections: a core module's bytes, a nested component."""
_IMPORT, _MEMORY, _GLOBAL, _EXPORT, _START, _DATA, _DATACOUNT = 2, 5, 6, 7, 8, 11, 12
_CHUNK = 4096
"""Granularity of the zero scan: a stretch of memory is kept or left out in these units."""
_MERGE_GAP = 4
"""Zero chunks a segment may span rather than start a new one (fewer, larger segments)."""
_VALTYPES = {0x7F: "i32", 0x7E: "i64", 0x7D: "f32", 0x7C: "f64"}


class SnapshotError(Exception):
    """The module has a shape this snapshot step does not handle, or is not a module."""


@dataclass(frozen=True)
class GlobalSlot:
    """A defined global: its index in the global index space, type and mutability."""

    index: int
    valtype: str
    mutable: bool


def _leb(data: bytes, at: int, *, signed: bool = False) -> tuple[int, int]:
    """The LEB128 number at ``at`` (unsigned unless ``signed``) and the offset after it."""
    result = shift = 0
    while True:
        if at >= len(data):
            raise SnapshotError("truncated LEB128 number")
        byte = data[at]
        at += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                result -= 1 << shift
            return result, at


def _uleb(data: bytes, at: int) -> tuple[int, int]:
    return _leb(data, at)


def _skip_sleb(data: bytes, at: int) -> int:
    while data[at] & 0x80:
        at += 1
    return at + 1


def _enc_uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _enc_sleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _name(text: str) -> bytes:
    raw = text.encode()
    return _enc_uleb(len(raw)) + raw


def _sections(data: bytes) -> Iterator[tuple[int, int, int]]:
    """(id, start of contents, end of contents) of every top-level section."""
    if not data.startswith(_HEADER):
        raise SnapshotError("not a WebAssembly core module (version 1)")
    at = len(_HEADER)
    while at < len(data):
        section_id = data[at]
        size, start = _uleb(data, at + 1)
        end = start + size
        if end > len(data):
            raise SnapshotError(f"section {section_id} runs past the end of the module")
        yield section_id, start, end
        at = end


def _section(section_id: int, body: bytes) -> bytes:
    return bytes([section_id]) + _enc_uleb(len(body)) + body


def _skip_const_expr(data: bytes, at: int) -> int:
    """The offset just past a constant expression's ``end``."""
    while True:
        op = data[at]
        at += 1
        if op == 0x0B:
            return at
        if op in (0x41, 0x42):
            at = _skip_sleb(data, at)
        elif op == 0x43:
            at += 4
        elif op == 0x44:
            at += 8
        elif op in (0x23, 0xD2):
            _, at = _uleb(data, at)
        elif op == 0xD0:
            at = _skip_sleb(data, at)
        elif op == 0xFD:
            sub, at = _uleb(data, at)
            if sub != 12:
                raise SnapshotError(f"unsupported vector instruction {sub} in a constant")
            at += 16
        elif 0x6A <= op <= 0x6C or 0x7C <= op <= 0x7E:
            continue
        else:
            raise SnapshotError(f"unsupported instruction 0x{op:02x} in a constant expression")


def _imported_globals(data: bytes, start: int) -> int:
    count, at = _uleb(data, start)
    globals_seen = 0
    for _ in range(count):
        for _ in range(2):
            length, at = _uleb(data, at)
            at += length
        kind = data[at]
        at += 1
        if kind == 0x00:
            _, at = _uleb(data, at)
        elif kind == 0x01:
            at += 1
            at = _skip_limits(data, at)
        elif kind == 0x02:
            raise SnapshotError("the module imports its memory; a snapshot cannot own it")
        elif kind == 0x03:
            at += 2
            globals_seen += 1
        elif kind == 0x04:
            at += 1
            _, at = _uleb(data, at)
        else:
            raise SnapshotError(f"unknown import kind {kind}")
    return globals_seen


def _skip_limits(data: bytes, at: int) -> int:
    flags = data[at]
    _, at = _uleb(data, at + 1)
    if flags & 1:
        _, at = _uleb(data, at)
    return at


def _global_entries(data: bytes, start: int, first_index: int) -> list[tuple[GlobalSlot, int, int]]:
    """Each defined global with the span of its initialiser expression."""
    count, at = _uleb(data, start)
    entries = []
    for offset in range(count):
        valtype = data[at]
        if valtype not in _VALTYPES:
            raise SnapshotError(f"global of unsupported type 0x{valtype:02x}")
        mutable = data[at + 1] == 1
        expr_start = at + 2
        at = _skip_const_expr(data, expr_start)
        entries.append((GlobalSlot(first_index + offset, _VALTYPES[valtype], mutable), expr_start, at))
    return entries


def module_globals(data: bytes) -> list[GlobalSlot]:
    """Every global the module defines (not imports)."""
    imported = 0
    for section_id, start, end in _sections(data):
        if section_id == _IMPORT:
            imported = _imported_globals(data, start)
        elif section_id == _GLOBAL:
            return [slot for slot, _, _ in _global_entries(data, start, imported)]
    return []


def with_global_exports(data: bytes) -> bytes:
    """``data`` with one more export per mutable global, named ``GLOBAL_EXPORT_PREFIX + index``."""
    extra = [slot for slot in module_globals(data) if slot.mutable]
    out = bytearray(data[:len(_HEADER)])
    for section_id, start, end in _sections(data):
        if section_id != _EXPORT:
            out += _section(section_id, data[start:end])
            continue
        count, at = _uleb(data, start)
        body = _enc_uleb(count + len(extra)) + data[at:end]
        for slot in extra:
            body += _name(f"{GLOBAL_EXPORT_PREFIX}{slot.index}") + b"\x03" + _enc_uleb(slot.index)
        out += _section(_EXPORT, body)
    return bytes(out)


def _const(slot: GlobalSlot, value: int | float) -> bytes:
    if slot.valtype == "i32":
        as_int = int(value) & 0xFFFFFFFF
        return b"\x41" + _enc_sleb(as_int - (1 << 32) if as_int >= 1 << 31 else as_int) + b"\x0b"
    if slot.valtype == "i64":
        as_long = int(value) & 0xFFFFFFFFFFFFFFFF
        return b"\x42" + _enc_sleb(as_long - (1 << 64) if as_long >= 1 << 63 else as_long) + b"\x0b"
    if slot.valtype == "f32":
        return b"\x43" + struct.pack("<f", float(value)) + b"\x0b"
    return b"\x44" + struct.pack("<d", float(value)) + b"\x0b"


def _memory_section(data: bytes, start: int, end: int, pages: int) -> bytes:
    count, at = _uleb(data, start)
    if count != 1:
        raise SnapshotError(f"the module defines {count} memories; a snapshot handles one")
    flags = data[at]
    if flags & ~1:
        raise SnapshotError("only 32-bit, unshared memories can be snapshotted")
    _, after_min = _uleb(data, at + 1)
    rest = data[after_min:end]
    if flags & 1:
        maximum, _ = _uleb(data, after_min)
        if maximum < pages:
            raise SnapshotError("the memory grew past its own maximum")
    return _enc_uleb(1) + bytes([flags]) + _enc_uleb(pages) + rest


def _data_section(memory: bytes) -> bytes:
    """Active segments for the non-zero stretches of ``memory``."""
    zero = bytes(_CHUNK)
    view = memoryview(memory)
    spans: list[list[int]] = []
    for at in range(0, len(memory), _CHUNK):
        if view[at:at + _CHUNK] == zero[:len(view[at:at + _CHUNK])]:
            continue
        if spans and at - spans[-1][1] <= _MERGE_GAP * _CHUNK:
            spans[-1][1] = min(at + _CHUNK, len(memory))
        else:
            spans.append([at, min(at + _CHUNK, len(memory))])
    body = bytearray(_enc_uleb(len(spans)))
    for begin, finish in spans:
        offset = begin - (1 << 32) if begin >= 1 << 31 else begin
        body += b"\x00\x41" + _enc_sleb(offset) + b"\x0b"
        body += _enc_uleb(finish - begin) + view[begin:finish]
    return bytes(body)


def snapshot_module(data: bytes, globals_now: Mapping[int, int | float], memory: bytes,
                    with_data: bool = True) -> bytes:
    """The module ``data`` rewritten to start with ``memory`` and the globals ``globals_now``
    (by global index; every mutable defined global must be there). ``with_data=False``
    writes no data segments: only the memory's size is kept, its contents are the host's."""
    if len(memory) % PAGE:
        raise SnapshotError("memory is not a whole number of pages")
    pages = len(memory) // PAGE
    imported = 0
    out = bytearray(_HEADER)
    wrote_data = False
    for section_id, start, end in _sections(data):
        if section_id == _IMPORT:
            imported = _imported_globals(data, start)
        if section_id == _DATACOUNT:
            raise SnapshotError("the module has a data count section (code may use its segments)")
        if section_id == _START:
            raise SnapshotError("the module has a start function, which would run again")
        if section_id == _GLOBAL:
            body = bytearray(data[start:_uleb(data, start)[1]])
            for slot, expr_start, expr_end in _global_entries(data, start, imported):
                body += data[expr_start - 2:expr_start]
                if slot.mutable:
                    if slot.index not in globals_now:
                        raise SnapshotError(f"no value read for mutable global {slot.index}")
                    body += _const(slot, globals_now[slot.index])
                else:
                    body += data[expr_start:expr_end]
            out += _section(_GLOBAL, bytes(body))
        elif section_id == _MEMORY:
            out += _section(_MEMORY, _memory_section(data, start, end, pages))
        elif section_id == _DATA:
            out += _section(_DATA, _data_section(memory) if with_data else _enc_uleb(0))
            wrote_data = True
        else:
            out += _section(section_id, data[start:end])
    if not wrote_data:
        raise SnapshotError("the module has no data section to replace")
    return bytes(out)


def _memory_pages(data: bytes, start: int) -> int:
    count, at = _uleb(data, start)
    if count != 1:
        raise SnapshotError(f"the module defines {count} memories; a split handles one")
    if data[at] & ~1:
        raise SnapshotError("only 32-bit, unshared memories can be split")
    pages, _ = _uleb(data, at + 1)
    return pages


def _active_segments(data: bytes, start: int) -> Iterator[tuple[int, bytes]]:
    """(offset, bytes) of each segment of a data section; only active segments of memory 0
    at a constant offset are handled."""
    count, at = _uleb(data, start)
    for _ in range(count):
        flags, at = _uleb(data, at)
        if flags == 2:
            memory, at = _uleb(data, at)
            if memory != 0:
                raise SnapshotError(f"a data segment of memory {memory}")
        elif flags != 0:
            raise SnapshotError("a passive data segment (code may refer to it)")
        if data[at] != 0x41:
            raise SnapshotError("a data segment at an offset that is not an i32 constant")
        offset, at = _leb(data, at + 1, signed=True)
        if data[at] != 0x0B:
            raise SnapshotError("a data segment offset that is not a single constant")
        length, at = _uleb(data, at + 1)
        if at + length > len(data):
            raise SnapshotError("a data segment runs past the end of the module")
        yield offset & 0xFFFFFFFF, data[at:at + length]
        at += length


def split_data(module: bytes) -> tuple[bytes, bytes]:
    """``module`` without its data segments, and the memory they make: its initial size, the
    segments written over zeros in order (as instantiation would write them)."""
    pages: int | None = None
    segments: list[tuple[int, bytes]] = []
    out = bytearray(_HEADER)
    for section_id, start, end in _sections(module):
        if section_id == _DATACOUNT:
            raise SnapshotError("the module has a data count section (code may use its segments)")
        if section_id == _MEMORY:
            pages = _memory_pages(module, start)
        if section_id == _DATA:
            segments = list(_active_segments(module, start))
            out += _section(_DATA, _enc_uleb(0))
        else:
            out += _section(section_id, module[start:end])
    if pages is None:
        raise SnapshotError("the module defines no memory")
    image = bytearray(pages * PAGE)
    for offset, blob in segments:
        if offset + len(blob) > len(image):
            raise SnapshotError("a data segment lies past the memory's initial size")
        image[offset:offset + len(blob)] = blob
    return bytes(out), bytes(image)


def _defines_memory(module: bytes) -> bool:
    return any(section_id == _MEMORY for section_id, _, _ in _sections(module))


def _component_sections(component: bytes) -> Iterator[tuple[int, int, int, int]]:
    """(id, start of the section, start of contents, end) of every top-level section."""
    if not component.startswith(_COMPONENT_HEADER):
        raise SnapshotError("not a WebAssembly component")
    at = len(_COMPONENT_HEADER)
    while at < len(component):
        section_id = component[at]
        size, start = _uleb(component, at + 1)
        if start + size > len(component):
            raise SnapshotError(f"component section {section_id} runs past the end")
        yield section_id, at, start, start + size
        at = start + size


def _memories_defined(component: bytes) -> int:
    """Core modules defining a memory, nested components included."""
    found = 0
    for section_id, _, start, end in _component_sections(component):
        if section_id == _CORE_MODULE:
            found += _defines_memory(component[start:end])
        elif section_id == _NESTED_COMPONENT:
            found += _memories_defined(component[start:end])
    return found


def split_component_data(component: bytes) -> tuple[bytes, bytes]:
    """``component`` with its one memory-defining core module split (``split_data``), and
    that memory's image. Every other core module, nested ones included, must import its
    memory (the shape of a componentize-py component: one main module, adapters and shims
    around it), so the image's memory is the only one the host must supply."""
    if _memories_defined(component) != 1:
        raise SnapshotError("the component does not have exactly one core module defining a memory")
    out = bytearray(_COMPONENT_HEADER)
    image: bytes | None = None
    for section_id, at, start, end in _component_sections(component):
        if section_id == _CORE_MODULE and _defines_memory(component[start:end]):
            module, image = split_data(component[start:end])
            out += _section(_CORE_MODULE, module)
        else:
            out += component[at:end]
    if image is None:
        raise SnapshotError("the memory-defining core module is nested; a split handles the top level")
    return bytes(out), image

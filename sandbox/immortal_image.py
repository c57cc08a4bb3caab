"""The standard guest's memory image with its long-lived objects made immortal.

Every run starts from the same image (``sandbox.memory_slots``), and every page a run writes
is copied back when its store is dropped: the reset costs about 0.25 ms per MiB written
here. Much of what a run writes is not its own data but reference counts: each object of
the image a run merely uses (a module, a function, its code and constants) is increfed and
decrefed, so its page becomes a private copy to reset. CPython 3.12+ does not touch the
count of an *immortal* object (PEP 683: a count at or above ``1 << 30`` on a 32-bit build
means "never counted, never freed"). So once the guest is compiled, the image's objects that
live as long as any isolate are given the immortal count in the image itself. Measured
(pages a run writes, fresh image each time): ``pass`` 1.49 -> 1.11 MiB, bash ``echo hi``
2.15 -> 1.49, ``grep -c error FILE`` 5.23 -> 3.16, an ``awk | sort | uniq -c`` pipeline
10.4 -> 8.2.

Which objects, and how we know each is the image's, not a run's:
- Everything the build froze (``gc.freeze()`` at the end of ``wasm/guest/app.py``): a run
  lists the collector's permanent generation, which holds exactly those of them still
  alive, since only ``gc.freeze`` puts objects there.
- The code objects of frozen functions (and code nested in their constants), those code
  objects' constants and names (the tuples, and the strings, bytes, numbers, tuples and
  frozensets in them), and the strings, bytes and numbers among the items of frozen tuples
  and frozensets: all of them immutable containers, so what they hold was theirs when the
  image was made.
Objects already immortal are left alone. Nothing reached only through a mutable container
(a dict's keys and values, a list's items) is taken: a run may have put something of its
own there before the listing ran.

The listing runs as code in a throwaway isolate of the freshly compiled guest; its answer is
not trusted blindly. Each address must hold, in the image file, an object header whose type
pointer is the one the run saw and whose count is a plausible live count (above 0, below
immortal). Candidates that fail are skipped (left mortal, which is always safe); more than
``MAX_SKIPPED_SHARE`` of them failing means the layout assumption is wrong, and the build
stops rather than patch an image it does not understand.

What immortality changes for guest code: ``sys.getrefcount`` of such an object is huge, and
an image object the code drops (``del sys.modules["json"]``) is never freed; the isolate's
memory is thrown away after the run anyway. Only the standard guest is patched; the science
engine's image is left as it is.
"""

from __future__ import annotations

import json
import struct
import tempfile
from array import array
from dataclasses import dataclass
from pathlib import Path

from .engine import CompiledGuest
from .errors import GuestBuildError
from .isolate import GuestRuntime, Preopen
from .limits import Limits
from .scratch import GUEST_PATH

IMMORTAL_REFCOUNT = 5 << 28
"""CPython's initial count for an immortal object on a 32-bit build (``_Py_IMMORTAL_INITIAL_REFCNT``)."""
IMMORTAL_MINIMUM = 1 << 30
"""The least count CPython reads as immortal on a 32-bit build (``_Py_IMMORTAL_MINIMUM_REFCNT``)."""
MAX_SKIPPED_SHARE = 0.01

_HEADER = struct.Struct("<iI")
"""A 32-bit CPython object header: ``ob_refcnt`` (Py_ssize_t) then ``ob_type`` (a pointer)."""
_LISTING_FILE = "image-objects.bin"

LISTING_CODE = f"""
import array, gc, sys, types

def _listing():
    atoms = (str, bytes, int, float)
    running = {{id(o) for o in gc.get_objects()}}
    gc.unfreeze()
    frozen = [o for o in gc.get_objects() if id(o) not in running]
    found = {{}}

    def take(o):
        if id(o) not in found and sys.getrefcount(o) < {IMMORTAL_MINIMUM}:
            found[id(o)] = id(type(o))

    codes, seen_codes = [], set()
    for o in frozen:
        take(o)
        if type(o) is tuple or type(o) is frozenset:
            for item in o:
                if type(item) in atoms:
                    take(item)
        elif type(o) is types.FunctionType:
            codes.append(o.__code__)
    while codes:
        code = codes.pop()
        if id(code) in seen_codes:
            continue
        seen_codes.add(id(code))
        take(code)
        held = [code.co_consts, code.co_names]
        while held:
            item = held.pop()
            if type(item) is types.CodeType:
                codes.append(item)
            elif type(item) in atoms:
                take(item)
            elif type(item) is tuple or type(item) is frozenset:
                take(item)
                held.extend(item)
    addresses = array.array("I", found)
    types_ = array.array("I", found.values())
    with open("{GUEST_PATH}/{_LISTING_FILE}", "wb") as out:
        out.write(addresses.tobytes())
        out.write(types_.tobytes())
    return {{"objects": len(found), "frozen": len(frozen), "maxsize": sys.maxsize,
            "version": list(sys.version_info[:2]),
            "gil": bool(getattr(sys, "_is_gil_enabled", lambda: True)())}}

_listing()
"""
"""Runs in the guest as an execute; its value is the run's facts, the listing goes to a file
(address array, then the matching type-pointer array, both little-endian u32)."""


@dataclass(frozen=True)
class Immortalised:
    """What patching an image did."""

    patched: int
    skipped: int


def patch_image(image: bytearray, addresses: array[int], type_addresses: array[int]) -> Immortalised:
    """Give each listed object of ``image`` the immortal count, after checking its header;
    raise ``GuestBuildError`` when too many headers do not match (see the module docstring)."""
    if len(addresses) != len(type_addresses):
        raise GuestBuildError("the guest's object listing is malformed")
    patched = skipped = 0
    limit = len(image) - _HEADER.size
    for address, type_address in zip(addresses, type_addresses):
        if address % 4 or address > limit:
            skipped += 1
            continue
        count, seen_type = _HEADER.unpack_from(image, address)
        if seen_type != type_address or not 0 < count < IMMORTAL_MINIMUM:
            skipped += 1
            continue
        struct.pack_into("<i", image, address, IMMORTAL_REFCOUNT)
        patched += 1
    if skipped > MAX_SKIPPED_SHARE * max(1, patched + skipped):
        raise GuestBuildError(
            f"{skipped} of {patched + skipped} objects the guest listed do not match its memory "
            "image; refusing to patch an image whose object layout is not the expected one")
    return Immortalised(patched, skipped)


def list_image_objects(guest: CompiledGuest) -> tuple[array[int], array[int]]:
    """Run ``LISTING_CODE`` in a fresh isolate of ``guest``: the candidates' addresses and
    their type pointers."""
    runtime = GuestRuntime(guest)
    try:
        with tempfile.TemporaryDirectory(prefix="sandbox-image-objects-") as scratch:
            isolate = runtime.isolate(Limits(deadline_s=120, memory_bytes=1 << 31),
                                      [Preopen(scratch, GUEST_PATH)])
            try:
                answer = json.loads(isolate.call("execute", json.dumps({"code": LISTING_CODE}),
                                                 lambda _name, _payload: "null"))
            finally:
                isolate.close()
            if answer.get("status") != "completed":
                raise GuestBuildError(f"listing the guest's image objects failed: {answer.get('error')}")
            facts = answer.get("result") or {}
            if facts.get("maxsize") != 2**31 - 1 or facts.get("version", [0])[0] != 3 or \
                    facts.get("version", [0, 0])[1] < 12 or not facts.get("gil"):
                raise GuestBuildError(f"the guest's Python is not a 32-bit CPython >= 3.12 with the GIL: {facts}")
            raw = (Path(scratch) / _LISTING_FILE).read_bytes()
    finally:
        runtime.memories.release()
    half = len(raw) // 2
    addresses, type_addresses = array("I"), array("I")
    addresses.frombytes(raw[:half])
    type_addresses.frombytes(raw[half:])
    return addresses, type_addresses


def immortalise(guest: CompiledGuest) -> tuple[bytes, Immortalised]:
    """The patched content of ``guest``'s memory image (the file itself is not touched)."""
    addresses, type_addresses = list_image_objects(guest)
    image = bytearray(guest.image.read_bytes())
    done = patch_image(image, addresses, type_addresses)
    return bytes(image), done

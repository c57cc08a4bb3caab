"""The compiled guest's image objects are immortal: runs use them without writing their pages."""

from __future__ import annotations

import struct
from array import array

import pytest

from sandbox import Sandbox
from sandbox.engine import CompiledGuest
from sandbox.errors import GuestBuildError
from sandbox.immortal_image import (IMMORTAL_MINIMUM, IMMORTAL_REFCOUNT, list_image_objects,
                                    patch_image)


def _logs(sandbox: Sandbox, code: str) -> list[str]:
    result = sandbox.execute(code)
    assert result.status == "completed", result.error
    return result.logs


def test_the_image_s_modules_functions_code_and_constants_are_immortal(sandbox: Sandbox) -> None:
    logs = _logs(sandbox, "import sys, json, re\n"
                          "code = json.dumps.__code__\n"
                          "print([sys._is_immortal(o) for o in (json, json.dumps, code, re.compile, "
                          "code.co_consts, json.__dict__)])")
    assert logs == ["[True, True, True, True, True, True]"]


def test_what_a_run_makes_stays_mortal(sandbox: Sandbox) -> None:
    logs = _logs(sandbox, "import sys\n"
                          "made = [object(), [1, 2], 'run-' + str(len(sys.argv)), {'a': 1}]\n"
                          "print([sys._is_immortal(o) for o in made])")
    assert logs == ["[False, False, False, False]"]


def test_a_run_that_lets_go_of_image_modules_keeps_working(sandbox: Sandbox) -> None:
    logs = _logs(sandbox, "import gc, sys, json, weakref\n"
                          "dumps, decoder = json.dumps, weakref.ref(json.decoder)\n"
                          "del sys.modules['json'], sys.modules['json.decoder'], json\n"
                          "gc.collect()\n"
                          "print(decoder() is not None, dumps({'a': [2]}))")
    assert logs == ['True {"a": [2]}']


def test_after_the_patch_the_listing_finds_almost_nothing_left_to_make_immortal(
        compiled_guest: CompiledGuest) -> None:
    # What the build listed is immortal now, so a listing of the patched image names only
    # what the build had to skip (at most its 1 % share), not the ~350,000 objects it patched.
    addresses, _ = list_image_objects(compiled_guest)
    assert len(addresses) < 1_000


def _image(*headers: tuple[int, int]) -> bytearray:
    """An image holding one 8-byte object header (count, type pointer) every 16 bytes."""
    image = bytearray(16 * len(headers) + 16)
    for index, (count, type_pointer) in enumerate(headers):
        struct.pack_into("<iI", image, 16 * index, count, type_pointer)
    return image


def _count(image: bytearray, address: int) -> int:
    return int(struct.unpack_from("<i", image, address)[0])


def test_a_listed_object_whose_header_matches_gets_the_immortal_count() -> None:
    image = _image((3, 0x1000), (1, 0x2000))
    done = patch_image(image, array("I", [0, 16]), array("I", [0x1000, 0x2000]))
    assert (done.patched, done.skipped) == (2, 0)
    assert [_count(image, 0), _count(image, 16)] == [IMMORTAL_REFCOUNT, IMMORTAL_REFCOUNT]
    assert IMMORTAL_REFCOUNT >= IMMORTAL_MINIMUM


@pytest.mark.parametrize("header, address, why", [
    ((3, 0x9999), 0, "another type's object is there"),
    ((0, 0x1000), 0, "a count of 0: a freed block, not a live object"),
    ((IMMORTAL_MINIMUM, 0x1000), 0, "already immortal"),
    ((3, 0x1000), 2, "not a 4-aligned address"),
    ((3, 0x1000), 1 << 20, "past the image's end"),
])
def test_a_listed_object_whose_header_does_not_match_is_left_as_it_was(
        header: tuple[int, int], address: int, why: str) -> None:
    image = _image(header, *[(2, 0x1000)] * 199)
    odd_one = bytes(image[address:address + 8])
    others = [16 * i for i in range(1, 200)]
    done = patch_image(image, array("I", [address, *others]), array("I", [0x1000] * 200))
    assert (done.patched, done.skipped) == (199, 1), why
    assert bytes(image[address:address + 8]) == odd_one
    assert {_count(image, at) for at in others} == {IMMORTAL_REFCOUNT}


def test_too_many_mismatches_stop_the_build_instead_of_patching_blind() -> None:
    image = _image(*[(2, 0x1000)] * 10)
    with pytest.raises(GuestBuildError, match="do not match"):
        patch_image(image, array("I", [16 * i for i in range(10)]), array("I", [0x2000] * 10))


def test_a_listing_whose_two_halves_differ_in_length_is_refused() -> None:
    with pytest.raises(GuestBuildError, match="malformed"):
        patch_image(_image((2, 0x1000)), array("I", [0]), array("I", []))

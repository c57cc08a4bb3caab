"""A bash response's written files, taken out and decoded in the worker, put back in the service."""

from __future__ import annotations

import base64
import json
import os

import pytest

from sandbox.errors import GuestProtocolError
from sandbox.file_contents import MIN_CONTENT_CHARS, SPLIT_FROM_CHARS, put_files, take_files


def _response(files: dict[str, str], stdout: str = "") -> str:
    return json.dumps({"stdout": stdout, "exit_code": 0,
                       "changes": {"files": files, "deleted": ["/gone"]}})


def test_large_contents_leave_the_response_decoded_and_come_back_in_place() -> None:
    big, small = os.urandom(SPLIT_FROM_CHARS), b"tiny"
    response = _response({"/big.bin": base64.b64encode(big).decode(),
                          "/small.txt": base64.b64encode(small).decode()}, stdout="caf\u00e9")
    rest, files = take_files(response)
    assert files == {"/big.bin": big}
    assert len(rest) < MIN_CONTENT_CHARS
    result = json.loads(rest)
    assert result["changes"]["files"] == {"/small.txt": base64.b64encode(small).decode()}
    put_files(result, files)
    assert result == {**json.loads(response),
                      "changes": {"files": {"/small.txt": base64.b64encode(small).decode(),
                                            "/big.bin": big}, "deleted": ["/gone"]}}


def test_a_small_response_is_left_as_it_is() -> None:
    response = _response({"/a": base64.b64encode(b"x" * 1000).decode()})
    assert take_files(response) == (response, {})


@pytest.mark.parametrize("response", [
    "x" * SPLIT_FROM_CHARS,                                     # not JSON
    "[" * SPLIT_FROM_CHARS,                                     # nested past any limit
    json.dumps(["/a", "A" * SPLIT_FROM_CHARS]),                 # not an object
    json.dumps({"stdout": "A" * SPLIT_FROM_CHARS}),             # no change list
    json.dumps({"changes": {"files": ["A" * SPLIT_FROM_CHARS]}}),
    _response({"/bad": "!" * SPLIT_FROM_CHARS}),                # not base64: the service refuses it
])
def test_what_cannot_be_read_is_left_for_the_service_to_refuse(response: str) -> None:
    assert take_files(response) == (response, {})


@pytest.mark.parametrize("result", [
    {"stdout": ""},
    {"changes": {"files": {"/big.bin": "QUJD"}}},               # the same path twice
    {"changes": ["/big.bin"]},
    ["changes"],
])
def test_contents_with_no_place_in_the_response_are_a_protocol_error(result: object) -> None:
    with pytest.raises(GuestProtocolError):
        put_files(result, {"/big.bin": b"ABC"})

"""A large execute result, taken out of the guest's response in the worker and carried to
the service as its JSON text, reads as the very value the response held."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastapi.encoders import jsonable_encoder

from sandbox import AsyncSandbox, CompiledGuest, Limits
from sandbox.api import result_from_response
from sandbox.envelope import MAX_RESULT_DEPTH
from sandbox.json_text import (TAKE_FROM_CHARS, JSONText, ascii_string_json, plain_strings_json, take_result,
                               value_of)

ROWS = [{"a": i, "b": str(i), "c": [1.5, None, True], "d": "caf\u00e9 \u2603"} for i in range(3_000)]


def _response(result: object, **fields: object) -> str:
    return json.dumps({"status": "completed", "result": result, "logs": ["hi"], **fields},
                      ensure_ascii=False)


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_a_large_list_dict_or_string_result_leaves_the_response_as_its_strict_compact_text() -> None:
    for result in (ROWS, {"rows": ROWS, "count": len(ROWS)}, "caf\u00e9\n\"" * TAKE_FROM_CHARS):
        response = _response(result)
        assert len(response) > TAKE_FROM_CHARS
        rest, text = take_result(response)
        assert text is not None
        assert json.loads(text) == result
        assert text == json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        assert json.loads(rest) == {"status": "completed", "logs": ["hi"]}


def test_the_service_reads_the_rest_and_the_text_as_it_read_the_whole_response() -> None:
    response = _response(ROWS, exit_code=0)
    rest, text = take_result(response)
    assert text is not None
    whole = result_from_response("exec_x", response, 1.0, 0)
    carried = result_from_response("exec_x", rest, 1.0, 0, taken=JSONText(text))
    assert isinstance(carried.result, JSONText) and carried.result.value() == whole.result
    carried.result = value_of(carried.result)
    assert carried == whole


@pytest.mark.parametrize("response", [
    _response(list(range(100))),                                  # small: parsing twice costs more
    _response(10 ** 4000, pad="x" * TAKE_FROM_CHARS),             # a number: never long
    _response([float("nan")] + ROWS),                             # not strict JSON
    _response(["\ud800"] + ROWS),                                 # a lone surrogate
    _response(_nested(MAX_RESULT_DEPTH + 1), pad="x" * TAKE_FROM_CHARS),  # too deep: refused later
    json.dumps({"status": "error", "result": ROWS, "error": {"name": "E"}}),
    "x" * TAKE_FROM_CHARS,                                        # not JSON: refused later
    "[" * TAKE_FROM_CHARS,
    json.dumps([ROWS]),                                           # not an envelope
])
def test_a_response_the_worker_should_not_split_is_left_as_it_is(response: str) -> None:
    assert take_result(response) == (response, None)


def test_what_else_the_guest_sent_stays_for_the_service_to_judge() -> None:
    rest, text = take_result(_response(ROWS, exit_code=float("nan"), extra=True))
    assert text is not None
    assert '"exit_code":NaN' in rest and '"extra":true' in rest
    refused = result_from_response("exec_x", rest, 1.0, 0, taken=JSONText(text))
    assert refused.status == "error" and refused.trap is not None and refused.trap["kind"] == "protocol"


def test_a_result_the_host_replaces_with_an_error_drops_the_carried_text() -> None:
    rest, text = take_result(_response(ROWS, logs=["x" * 100]))
    assert text is not None
    cut = result_from_response("exec_x", rest, 1.0, 0, Limits.default.replace(output_bytes=10),
                               taken=JSONText(text))
    assert cut.status == "error" and cut.result is None and cut.trap is not None


def test_a_json_text_is_not_taken_for_a_dataclass_by_other_serialisers() -> None:
    with pytest.raises(ValueError):
        jsonable_encoder({"result": JSONText("[1]")})
    assert JSONText("[1]") == JSONText("[1]") and repr(JSONText("[1]")) == "JSONText(3 characters)"


LARGE = "[{'a': i, 'b': str(i), 'c': [i, None]} for i in range(20_000)]"
EXPECTED = [{"a": i, "b": str(i), "c": [i, None]} for i in range(20_000)]


async def test_through_a_real_worker_the_python_api_gets_the_value_and_code_mode_the_text(
        compiled_guest: CompiledGuest) -> None:
    async with AsyncSandbox(workers=1, guest=compiled_guest) as box:
        plain = await box.execute(LARGE)
        carried = await box.execute(LARGE, result_as_text=True)
        small = await box.execute("[1, 2]", result_as_text=True)
    assert plain.status == "completed" and plain.result == EXPECTED
    assert isinstance(carried.result, JSONText) and carried.result.value() == EXPECTED
    assert carried.to_dict()["result"] == EXPECTED
    assert small.result == [1, 2]


_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
           | st.sampled_from(["\ud800", "$bytes", "x" * 1_000]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=2), inner, max_size=4), max_leaves=12)
_FIELDS = st.fixed_dictionaries({"status": st.sampled_from(["completed"] * 4 + ["error", "paused", 1])}, optional={
    "logs": st.lists(st.text(max_size=5), max_size=3) | st.just("not a list"),
    "error": st.none() | st.just({"name": "E", "message": "m", "traceback": ""}) | st.just(7),
    "exit_code": st.sampled_from([None, 0, 1, True, 2**40, float("nan")]),
    "limit": st.sampled_from([None, "memory", "disk"]),
    "extra": st.just(1),
})


@settings(max_examples=400, deadline=None)
@given(fields=_FIELDS, item=_VALUES, copies=st.sampled_from([1, 40]), large=st.sampled_from([True, True, False]),
       depth=st.sampled_from([0, 0, 99, 101]))
def test_whatever_the_guest_sends_the_service_reads_the_same_outcome_either_way(
        fields: dict[str, Any], item: Any, copies: int, large: bool, depth: int) -> None:
    result: Any = [item] * copies + (["p" * TAKE_FROM_CHARS] if large else [])
    for _ in range(depth):
        result = [result]
    response = json.dumps({**fields, "result": result}, ensure_ascii=False)
    rest, text = take_result(response)
    whole = result_from_response("exec_x", response, 1.0, 0)
    carried = result_from_response("exec_x", rest, 1.0, 0,
                                   taken=None if text is None else JSONText(text))
    carried.result = value_of(carried.result)
    assert json.dumps(carried.to_dict(), sort_keys=True) == json.dumps(whole.to_dict(), sort_keys=True)


_STRINGS = st.lists(st.one_of(st.sampled_from(["", "x", "plain line 1", "\x7f", "a\"b", "back\\slash",
                                               "tab\there", "new\nline", "\x00", "caf\u00e9",
                                               "lone \udc80", "\u2028"]),
                              st.text(max_size=8)), max_size=40)


@settings(max_examples=400, deadline=None)
@given(strings=_STRINGS, separator=st.sampled_from([",", ", "]))
def test_plain_strings_are_written_as_the_encoder_writes_them_and_others_left_to_it(
        strings: list[str], separator: str) -> None:
    pieces = plain_strings_json(strings, separator)
    encoded = json.dumps(strings, ensure_ascii=False, separators=(separator, ":"))
    plain = all(s.isascii() and not any(c in s for c in '"\\') and all(ord(c) >= 0x20 for c in s)
                for s in strings)
    assert (pieces is not None) == plain
    if pieces is not None:
        assert b"".join(pieces) == encoded.encode("ascii")


def test_many_plain_strings_come_in_pieces_that_join_to_the_encoders_text() -> None:
    lines = [f"line {i} " + "y" * (i % 50) for i in range(5_000)]
    pieces = plain_strings_json(lines)
    assert pieces is not None and len(pieces) > 3
    assert b"".join(pieces) == json.dumps(lines, separators=(",", ":")).encode("ascii")
    assert plain_strings_json(lines[:-1] + ['the last "quoted"']) is None
    assert plain_strings_json(["a", 1]) is None  # type: ignore[list-item]


def test_a_separator_json_would_escape_is_refused() -> None:
    for separator in ('"', "\\", "\n", "\u00e9"):
        with pytest.raises(ValueError):
            plain_strings_json(["a"], separator)


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list('ab "\\\n\r\t\x01\x08\x0c\x7f\u00e9\udc80')), max_size=30))
def test_an_ascii_string_is_written_as_the_encoder_writes_it_or_left_to_it(text: str) -> None:
    pieces = ascii_string_json(text)
    plain = text.isascii() and all(ord(c) >= 0x20 or c in "\n\r\t" for c in text)
    assert (pieces is not None) == plain
    if pieces is not None:
        assert b"".join(pieces) == json.dumps(text, ensure_ascii=False).encode("ascii")

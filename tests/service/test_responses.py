"""The service's JSON responses: compact, safe for any text, a carried result written as is."""

from __future__ import annotations

import json

import pytest

from sandbox.json_text import JSONText
from sandbox.service.responses import SPLICED_CHARS, SPLICED_LIST_ITEMS, SafeJSONResponse


def _body(content: object) -> bytes:
    return bytes(SafeJSONResponse(content).body)


def test_a_result_carried_as_its_text_is_written_as_that_text() -> None:
    text = json.dumps([{"a": 1, "s": "caf\u00e9"}] * 3, ensure_ascii=False, separators=(",", ":"))
    body = _body({"execution_id": "exec_1", "result": JSONText(text), "logs": ["x"]})
    assert text.encode("utf-8") in body
    assert json.loads(body) == {"execution_id": "exec_1", "logs": ["x"], "result": json.loads(text)}
    assert json.loads(_body({"result": JSONText("[]")})) == {"result": []}


def test_the_other_fields_may_hold_lone_surrogates() -> None:
    body = _body({"logs": ["bad \udc80"], "result": JSONText('{"k":"\u00e9"}')})
    assert json.loads(body) == {"logs": ["bad \udc80"], "result": {"k": "\u00e9"}}


def test_a_carried_text_anywhere_but_the_top_level_is_refused_not_mangled() -> None:
    with pytest.raises(TypeError):
        _body({"outer": {"result": JSONText("[1]")}})


def test_a_long_list_of_plain_lines_is_written_as_the_encoder_writes_it() -> None:
    lines = [f"line {i}" for i in range(SPLICED_LIST_ITEMS * 3)]
    content = {"execution_id": "exec_1", "status": "completed", "result": None, "logs": lines}
    body = _body(content)
    assert json.loads(body) == content
    assert json.dumps(lines, separators=(",", ":")).encode("ascii") in body


def test_a_long_list_with_a_line_to_escape_still_comes_out_right() -> None:
    for odd in ('say "hi"', "tab\t", "caf\u00e9", "lone \udc80"):
        lines = ["plain"] * SPLICED_LIST_ITEMS + [odd]
        assert json.loads(_body({"logs": lines, "n": 1})) == {"logs": lines, "n": 1}
    only = ["x"] * SPLICED_LIST_ITEMS
    assert json.loads(_body({"logs": only})) == {"logs": only}


def test_a_short_list_holding_a_long_line_is_written_as_the_encoder_writes_it_too() -> None:
    lines = ["x" * SPLICED_CHARS, "done"]
    body = _body({"logs": lines, "status": "completed"})
    assert json.loads(body) == {"logs": lines, "status": "completed"}
    spliced = json.dumps(lines, separators=(",", ":")).encode("ascii")
    assert body.endswith(b'"logs":' + spliced + b"}")  # written after the other fields
    assert json.loads(_body({"logs": [1] * 3, "x": ["y" * SPLICED_CHARS, 2]})) == {
        "logs": [1] * 3, "x": ["y" * SPLICED_CHARS, 2]}


def test_a_long_ascii_string_is_written_as_the_encoder_writes_it() -> None:
    stdout = 'line "one"\\ttab\r\n' * (SPLICED_CHARS // 8)
    content = {"stdout": stdout, "stderr": "", "exit_code": 0}
    body = _body(content)
    assert json.loads(body) == content
    assert body.endswith(b'"stdout":' + json.dumps(stdout).encode("ascii") + b"}")
    for odd in ("\x01", "caf\u00e9", "\udc80"):
        assert json.loads(_body({"stdout": stdout + odd})) == {"stdout": stdout + odd}

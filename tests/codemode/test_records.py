"""The value codec: strict for what is recorded and replayed, lenient for what is only shown."""

from __future__ import annotations

import pytest

from codemode import NotSerialisableError
from codemode.records import decode_value, display_value, encode_value


class Opaque:
    pass


def test_strict_and_lenient_agree_on_everything_that_has_a_durable_form() -> None:
    value = {"b": b"\x00\xff", "f": float("inf"), "l": [1, "two", None], "$bytes": 1}
    assert display_value(value) == encode_value(value)
    assert decode_value(encode_value(value)) == value


@pytest.mark.parametrize("value", [{1, 2}, Opaque(), {"k": Opaque()}, {(1, 2): "tuple key"}])
def test_the_durable_codec_refuses_what_it_could_not_replay(value: object) -> None:
    with pytest.raises(NotSerialisableError):
        encode_value(value)


def test_the_lenient_form_never_raises_and_marks_what_it_could_not_show() -> None:
    deep: list[object] = []
    cursor = deep
    for _ in range(300):
        cursor.append([])
        cursor = cursor[0]  # type: ignore[assignment]
    shown = display_value({"set": {3}, "obj": Opaque(), (1, 2): "k", "text": "lone \udc80",
                           "deep": deep})
    assert shown["set"] == [3] and shown["obj"] == "<Opaque>" and shown["<tuple>"] == "k"
    assert shown["text"] == "lone \ufffd"
    assert "[Too deep]" in str(shown["deep"])
    assert display_value(list(range(50)), max_nodes=10)[-1] == "[Truncated]"

"""The value codec: strict for what is recorded and replayed, lenient for what is only shown."""

from __future__ import annotations

import pytest

from codemode import NotSerialisableError
from codemode.codec import decode_value, display_value, encode_value


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


def test_plain_and_tagged_forms_write_keys_and_cycles_the_same_way() -> None:
    from codemode.codec import to_json_safe

    loop: list[object] = [1]
    loop.append(loop)
    value = {7: "a", False: "b", None: "c", 2.5: "d", "loop": loop}
    assert to_json_safe(value) == encode_value(value)
    assert to_json_safe([float("nan")]) == [None]
    assert encode_value([float("nan")]) == [{"$float": "nan"}]


def test_a_lone_surrogate_is_kept_through_sqlite_safe_text() -> None:
    import json

    from codemode.codec import durable_value_json, sqlite_safe_json, sqlite_text, text_from_sqlite

    text = durable_value_json("The result", {"s": "\ud800", "b": b"\x00"})
    text.encode("utf-8")  # SQLite can hold it
    assert decode_value(json.loads(text)) == {"s": "\ud800", "b": b"\x00"}
    assert sqlite_safe_json('{"a":"é"}') == '{"a":"é"}'  # only escaped when it must be
    assert text_from_sqlite(sqlite_text("x\udcffy")) == "x\udcffy"


def test_no_other_module_defines_its_own_json_codec() -> None:
    """Journal, records, ledger and store all encode through codemode.codec."""
    import ast
    from pathlib import Path

    import codemode

    for path in sorted(Path(codemode.__file__).parent.glob("*.py")):
        if path.name == "codec.py":
            continue
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and node.value in ("$bytes", "surrogatepass"):
                if path.name == "normalise.py" and node.value == "surrogatepass":
                    continue  # counting UTF-8 bytes of logs, not encoding values
                raise AssertionError(f"{path.name} encodes values itself ({node.value!r})")
            if isinstance(node, ast.keyword) and node.arg == "ensure_ascii" and \
                    isinstance(node.value, ast.Constant) and node.value.value is True:
                raise AssertionError(f"{path.name} escapes JSON itself")

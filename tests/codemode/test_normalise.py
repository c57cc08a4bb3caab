"""Output normalisation for the model and size checks for durable records."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.errors import CodeModeError, DurableSizeError, NotSerialisableError
from codemode.codec import (
    DURABLE_LIMIT,
    canonical_json,
    check_durable_text,
    durable_json,
    durable_result_or_note,
    to_json_safe,
)
from codemode.normalise import (
    OUTPUT_CAP,
    cap_model_text,
    normalise_output,
    plain_output_text,
    trim_log_lines,
    trim_logs,
)


def test_short_strings_and_strings_at_the_cap_are_unchanged() -> None:
    assert normalise_output("hello") == "hello"
    exact = "x" * OUTPUT_CAP
    assert normalise_output(exact) == exact


def test_long_string_is_cut_with_a_count_of_what_was_dropped() -> None:
    out = normalise_output("a" * 20_000 + "b" * 1234)
    assert out == "a" * 20_000 + "\n\n[truncated 1234 chars]"


def test_small_structures_pass_through_as_json_data() -> None:
    value = {"a": [1, 2.5, True, None, "s"], "b": {"c": (1, 2)}}
    assert normalise_output(value) == {"a": [1, 2.5, True, None, "s"], "b": {"c": [1, 2]}}


def test_json_mapping_rules_for_python_values() -> None:
    assert to_json_safe([math.nan, math.inf, -math.inf]) == [None, None, None]
    assert to_json_safe({7: "a", False: "b", None: "c", 2.5: "d"}) == {
        "7": "a",
        "false": "b",
        "null": "c",
        "2.5": "d",
    }


def test_cycles_become_circular_markers() -> None:
    items: list[Any] = [1]
    items.append(items)
    record: dict[str, Any] = {"name": "loop"}
    record["self"] = record
    assert normalise_output(items) == [1, "[Circular]"]
    assert normalise_output(record) == {"name": "loop", "self": "[Circular]"}


def test_shared_references_that_are_not_cycles_are_kept() -> None:
    shared = {"k": 1}
    assert normalise_output([shared, shared]) == [{"k": 1}, {"k": 1}]


def test_values_over_the_cap_become_truncated_preview() -> None:
    value = {"rows": ["x" * 100] * 300}
    text = json.dumps(value, separators=(",", ":"))
    out = normalise_output(value)
    assert out == {"truncated": True, "chars": len(text), "preview": text[:OUTPUT_CAP]}


@pytest.mark.parametrize(
    ("value", "type_name"),
    [(b"bytes", "bytes"), ({1, 2}, "set"), ({"k": object()}, "object"), ([1, 1j], "complex")],
)
def test_unserialisable_values_are_reported_not_raised(value: Any, type_name: str) -> None:
    out = normalise_output(value)
    assert out["serialized"] is False
    assert type_name in out["error"]


def test_tuple_keys_are_unserialisable() -> None:
    assert normalise_output({(1, 2): "x"})["serialized"] is False


def test_absurd_nesting_is_unserialisable_not_a_crash() -> None:
    value: Any = []
    for _ in range(5000):
        value = [value]
    out = normalise_output(value)
    assert out["serialized"] is False
    assert "nested" in out["error"]


def test_canonical_json_sorts_keys_and_is_compact() -> None:
    assert canonical_json({"b": 1, "a": [1, {"d": 2, "c": 3}]}) == '{"a":[1,{"c":3,"d":2}],"b":1}'
    assert canonical_json({"x": 1, "y": 2}) == canonical_json({"y": 2, "x": 1})
    assert canonical_json({"é": "ü"}) == '{"é":"ü"}'


def test_durable_json_accepts_values_up_to_the_limit() -> None:
    text = "x" * (DURABLE_LIMIT - 2)  # plus two quotes is exactly the limit
    assert len(durable_json("The result", text)) == DURABLE_LIMIT


def test_durable_json_refuses_values_over_the_limit_with_advice() -> None:
    with pytest.raises(DurableSizeError) as caught:
        durable_json("The arguments of tools.upload", {"data": "x" * DURABLE_LIMIT})
    message = str(caught.value)
    assert message.startswith("The arguments of tools.upload is too large to record durably")
    assert "Write large data to a file or workspace instead." in message
    assert caught.value.limit == DURABLE_LIMIT
    assert isinstance(caught.value, CodeModeError)


def test_durable_json_refuses_unserialisable_values_naming_them() -> None:
    with pytest.raises(NotSerialisableError, match="The result of tools.x cannot be serialised"):
        durable_json("The result of tools.x", {"b": b"raw"})


def test_code_over_a_million_characters_is_refused() -> None:
    check_durable_text("The code", "x" * DURABLE_LIMIT)
    with pytest.raises(DurableSizeError, match="too large to record durably"):
        check_durable_text("The code", "x" * (DURABLE_LIMIT + 1))


def test_over_large_final_result_is_replaced_by_a_note_in_the_record() -> None:
    assert durable_result_or_note({"ok": 1}) == {"ok": 1}
    note = durable_result_or_note("x" * DURABLE_LIMIT)
    assert set(note) == {"note"}
    assert "not recorded" in note["note"]
    assert "not recorded" in durable_result_or_note(b"raw")["note"]


def test_model_text_cap_adds_truncated_note() -> None:
    assert cap_model_text("short") == "short"
    out = cap_model_text("y" * 30_000)
    assert out.startswith("y" * 24_000 + "\n\n--- TRUNCATED ---")
    assert "30,000" in out


def test_logs_over_a_megabyte_are_trimmed_on_a_character_boundary() -> None:
    assert trim_logs("small") == "small"
    logs = "é" * 600_000  # 1.2 MB of UTF-8
    out = trim_logs(logs)
    kept, note = out.split("\n[logs trimmed: ")
    assert kept == "é" * 500_000
    assert note == "200,000 bytes omitted]"


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=5)
    | st.tuples(children, children),
    max_leaves=30,
)


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(value=_json_values, cap=st.integers(min_value=1, max_value=400))
def test_normalised_output_is_always_json_within_the_cap(value: Any, cap: int) -> None:
    out = normalise_output(value, cap=cap)
    text = json.dumps(out, allow_nan=False)
    if isinstance(value, str):
        assert len(out) <= cap + len(f"\n\n[truncated {len(value)} chars]")
    elif isinstance(out, dict) and out.get("truncated") is True:
        assert len(out["preview"]) == cap < out["chars"]
    else:
        assert len(json.dumps(out, separators=(",", ":"), ensure_ascii=False)) <= cap
    assert text


@settings(max_examples=300, deadline=None)
@given(logs=st.lists(st.sampled_from(["", "x", "caf\u00e9", "lone \udc80", "a\nb", "y" * 9]), max_size=10),
       limit=st.integers(0, 60))
def test_log_lines_are_kept_to_their_limit_as_counted_a_line_at_a_time(logs: list[str], limit: int) -> None:
    total = sum(len(line.encode("utf-8", "surrogatepass")) + 1 for line in logs)
    kept = trim_log_lines(logs, limit_bytes=limit)
    if total <= limit:
        assert kept == logs
    else:
        assert kept[-1].startswith("[logs trimmed: ") and kept[:-1] != logs


@pytest.mark.fuzz
@settings(max_examples=300, deadline=None)
@given(value=_json_values | st.dictionaries(st.integers() | st.booleans() | st.none(), _json_values,
                                            max_size=3),
       cap=st.integers(min_value=1, max_value=400))
def test_a_plain_outputs_text_is_what_the_long_way_shows(value: Any, cap: int) -> None:
    text = plain_output_text(value, cap=cap)
    if text is None:
        return
    shown = normalise_output(value, cap=cap)
    assert text == json.dumps(shown, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@pytest.mark.parametrize("value", [
    "a string is capped as it is", float("nan"), [1, float("inf")], b"bytes", {"b": bytearray(2)},
    {"k": object()}, {(1, 2): "tuple key"}, ["x" * OUTPUT_CAP],
], ids=["str", "nan", "inf", "bytes", "bytearray", "object", "tuple-key", "over-the-cap"])
def test_what_the_encoder_refuses_or_would_cut_takes_the_long_way(value: Any) -> None:
    assert plain_output_text(value) is None


def test_a_cycle_takes_the_long_way_and_is_shown_circular() -> None:
    cycle: list[Any] = [1]
    cycle.append(cycle)
    assert plain_output_text(cycle) is None
    assert normalise_output(cycle) == [1, "[Circular]"]


def test_nesting_past_the_codecs_bound_takes_the_long_way() -> None:
    def nested(levels: int) -> Any:
        value: Any = []
        for _ in range(levels - 1):
            value = [value]
        return value
    assert plain_output_text(nested(200)) == "[" * 200 + "]" * 200 == json.dumps(
        normalise_output(nested(200)), separators=(",", ":"))
    assert plain_output_text(nested(201)) is None
    # Brackets inside strings count too: a false alarm costs the long way, never a wrong text.
    assert plain_output_text({"s": "[" * 300}) is None

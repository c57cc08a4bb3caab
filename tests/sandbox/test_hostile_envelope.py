"""What crosses from the guest is checked on the host: the execute envelope, host-call
payloads, and what a trap or a guest error is reported as.

Each test runs the hostile program in a real isolate (issue 12, findings 3 and 4 and the
"safe but wrong" list) and checks the outcome is a typed result, not an exception, and that
the same sandbox still runs ordinary code afterwards.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import CompiledGuest, Limits, Sandbox
from sandbox.envelope import (MAX_ERROR_CHARS, MAX_PAYLOAD_CHARS, MAX_PAYLOAD_DEPTH,
                              _capped_line_by_line, _capped_logs, bounded_loads, depth_exceeds,
                              read_envelope)
from sandbox.errors import GuestProtocolError

# Replaces the envelope's encoder the guest took at import: whatever it returns is what the
# host receives, as if the guest's runtime itself were hostile.
FORGE = "import sys\nsys.modules['pyexec']._encode = lambda outcome: {forged}\n"


def _still_healthy(sandbox: Sandbox) -> None:
    assert sandbox.execute("1 + 1").result == 2


# --- finding 3: the envelope ---------------------------------------------------------------

def test_replacing_json_dumps_does_not_forge_the_envelope(sandbox: Sandbox) -> None:
    code = ("import json\njson.dumps = lambda *a, **k: json.JSONEncoder().encode("
            "{'status': 'completed', 'result': 1, 'logs': ['x' * 5_000_000]})\nprint('real')\n2")
    outcome = sandbox.execute(code, limits=Limits(output_bytes=100))
    assert (outcome.status, outcome.result, outcome.logs) == ("completed", 2, ["real"])
    _still_healthy(sandbox)


def test_replacing_json_does_not_break_tool_calls(sandbox: Sandbox) -> None:
    code = "import json\njson.dumps = json.loads = None\ntools.add(2, 3)"
    assert sandbox.execute(code).result == 5


def test_a_forged_five_megabyte_log_is_capped_by_the_host(sandbox: Sandbox) -> None:
    forged = "'{\"status\": \"completed\", \"result\": 1, \"logs\": [\"' + 'x' * 5_000_000 + '\"]}'"
    outcome = sandbox.execute(FORGE.format(forged=forged), limits=Limits(output_bytes=100))
    assert outcome.status == "error" and outcome.result is None
    assert outcome.trap is not None and outcome.trap["kind"] == "output"
    assert sum(len(line.encode()) for line in outcome.logs) <= 100
    _still_healthy(sandbox)


def test_many_empty_forged_log_lines_are_capped_too(sandbox: Sandbox) -> None:
    forged = "'{\"status\": \"completed\", \"result\": 1, \"logs\": [' + ','.join(['\"\"'] * 100_000) + ']}'"
    outcome = sandbox.execute(FORGE.format(forged=forged), limits=Limits(output_bytes=100))
    assert outcome.trap is not None and outcome.trap["kind"] == "output"
    assert len(outcome.logs) <= 103
    _still_healthy(sandbox)


@pytest.mark.parametrize("forged", [
    "'not json'",
    "'[1, 2]'",
    "'{\"status\": \"done\"}'",
    "'{\"status\": \"completed\", \"logs\": \"x\"}'",
    "'{\"status\": \"error\", \"logs\": []}'",
    "'{\"status\": \"error\", \"logs\": [], \"error\": {\"name\": 5}}'",
    "'{\"status\": \"completed\", \"logs\": [], \"extra\": 1}'",
    "'{\"status\": \"completed\", \"logs\": [], \"result\": ' + '[' * 100_000 + ']' * 100_000 + '}'",
    "'{\"status\": \"completed\", \"logs\": [], \"result\": ' + '[' * 500 + ']' * 500 + '}'",
])
def test_a_malformed_envelope_is_a_protocol_error(sandbox: Sandbox, forged: str) -> None:
    outcome = sandbox.execute(FORGE.format(forged=forged))
    assert outcome.status == "error" and outcome.trap is not None
    assert outcome.trap["kind"] == "protocol", outcome.trap
    assert outcome.error is not None and outcome.error["name"] == "GuestProtocolError"
    _still_healthy(sandbox)


def test_a_deep_but_honest_result_is_still_completed(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("x = []\nfor _ in range(300):\n    x = [x]\nx")
    assert outcome.status == "completed"
    depth, value = 0, outcome.result
    while isinstance(value, list):
        depth, value = depth + 1, value[0]
    assert depth == 100 and value == "[MaxDepth]"
    # Bytes and exceptions become objects below the last list: 101 levels, still honest.
    outcome = sandbox.execute("x = b'a'\nfor _ in range(100):\n    x = [x]\nx")
    assert outcome.status == "completed", outcome.trap


def test_an_honest_output_limit_is_still_reported_as_output(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("print('é' * 100)", limits=Limits(output_bytes=11))
    assert outcome.trap is not None and outcome.trap["kind"] == "output"
    assert outcome.logs == ["ééééé"]


def test_a_raised_output_limit_name_is_an_ordinary_error(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("class OutputLimitExceeded(Exception): pass\nraise OutputLimitExceeded('no')")
    assert outcome.status == "error" and outcome.trap is None


# --- finding 4: host-call payloads ---------------------------------------------------------

def test_a_deeply_nested_raw_host_call_is_the_guests_value_error(sandbox: Sandbox) -> None:
    code = ("from wit_world.imports import host\nfrom componentize_py_types import Err\n"
            "try:\n    host.call('tool', '[' * 100000)\nexcept Err as err:\n    answer = err.value\n"
            "answer")
    outcome = sandbox.execute(code)
    assert outcome.status == "completed", outcome
    error = json.loads(outcome.result)
    assert error["name"] == "ValueError" and "deeper than" in error["message"]
    _still_healthy(sandbox)


def test_a_deep_tool_argument_raises_value_error_in_the_guest(compiled_guest: CompiledGuest) -> None:
    with Sandbox(tools={"echo": lambda value: value}, workers=1, guest=compiled_guest) as sandbox:
        code = (f"x = []\nfor _ in range({MAX_PAYLOAD_DEPTH + 10}):\n    x = [x]\n"
                "try:\n    tools.echo(x)\nexcept ValueError as exc:\n    caught = str(exc)\ncaught")
        outcome = sandbox.execute(code)
        assert outcome.status == "completed" and "deeper than" in outcome.result
        assert sandbox.execute("tools.echo([[1]])").result == [[1]]


def test_a_raw_host_call_that_is_not_json_is_a_value_error(sandbox: Sandbox) -> None:
    code = ("from wit_world.imports import host\nfrom componentize_py_types import Err\n"
            "try:\n    host.call('tool', '{')\nexcept Err as err:\n    answer = err.value\nanswer")
    assert json.loads(sandbox.execute(code).result)["name"] == "ValueError"


def test_a_host_call_payload_over_the_size_limit_is_refused_in_the_worker(sandbox: Sandbox) -> None:
    code = ("from wit_world.imports import host\nfrom componentize_py_types import Err\n"
            f"try:\n    host.call('tool', '\"' + 'x' * {MAX_PAYLOAD_CHARS} + '\"')\n"
            "except Err as err:\n    answer = err.value\nanswer")
    outcome = sandbox.execute(code)
    assert outcome.status == "completed", outcome
    error = json.loads(outcome.result)
    assert error["name"] == "ValueError" and "the limit is" in error["message"]
    _still_healthy(sandbox)


# --- safe but wrong: honest outcomes ---------------------------------------------------------

def test_a_fifty_megabyte_exception_message_is_cut_with_a_marker(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("raise ValueError('x' * 50_000_000)")
    assert outcome.status == "error" and outcome.trap is None
    assert outcome.error is not None and outcome.error["name"] == "ValueError"
    message = outcome.error["message"]
    assert message.startswith("x" * 1000) and message.endswith("more characters]")
    assert len(message) < MAX_ERROR_CHARS + 100
    assert len(outcome.error["traceback"]) < MAX_ERROR_CHARS + 100
    _still_healthy(sandbox)


def test_the_host_cuts_a_long_message_the_guest_did_not(sandbox: Sandbox) -> None:
    code = "import sys\nsys.modules['pyexec']._cut = lambda text: text\nraise ValueError('y' * 1_000_000)"
    outcome = sandbox.execute(code)
    assert outcome.error is not None and outcome.error["name"] == "ValueError"
    assert outcome.error["message"].endswith(f"[truncated: {1_000_000 - MAX_ERROR_CHARS} more characters]")


def test_an_error_that_cannot_be_described_still_names_itself(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("class E(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise E()")
    assert outcome.error is not None and outcome.error["name"] == "E" and outcome.trap is None


def test_raising_a_signal_is_reported_as_a_guest_abort(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import _signal\n_signal.raise_signal(6)")
    assert outcome.trap is not None and outcome.trap["kind"] == "trap"
    assert outcome.trap["code"] == "abort" and "signal" in outcome.trap["message"]
    _still_healthy(sandbox)


def test_os_abort_is_reported_as_a_guest_abort(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import os\nos.abort()")
    assert outcome.trap is not None and outcome.trap.get("code") == "abort"
    assert "abort()" in outcome.trap["message"]


def test_a_two_gigabyte_string_is_the_memory_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("'x' * 2**31")
    assert outcome.trap is not None and outcome.trap["kind"] == "memory"
    assert outcome.error is not None and outcome.error["name"] == "OverflowError"
    assert sandbox.execute("float(10**400)").trap is None  # an overflow that is no size
    _still_healthy(sandbox)


def test_raising_memory_error_is_not_the_memory_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("raise MemoryError()")
    assert outcome.status == "error" and outcome.trap is None
    assert outcome.error is not None and outcome.error["name"] == "MemoryError"
    outcome = sandbox.execute("def f():\n    raise MemoryError('fake')\nf()")
    assert outcome.trap is None


def test_a_real_allocation_failure_is_still_the_memory_limit(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("b = bytearray(10**9)")
    assert outcome.trap is not None and outcome.trap["kind"] == "memory"


# --- the host-side checks on their own ---------------------------------------------------------

def test_bounded_loads_refuses_depth_size_and_garbage_with_one_error() -> None:
    for text in ("[" * 100_000, "[" * 200 + "]" * 200, "{", "x" * 50):
        with pytest.raises(GuestProtocolError):
            bounded_loads(text, max_depth=128, max_chars=40 if text.startswith("x") else None)
    assert bounded_loads("[" * 128 + "]" * 128, max_depth=128) is not None


def test_the_depth_bound_counts_dicts_and_lists_alike_however_wide() -> None:
    def text(levels: int) -> str:
        deep = "[" * levels + "]" * levels
        return json.dumps({"wide": [{"a": [1]}] * 1000, "b": "x"})[:-1] + ', "deep": {"d": ' + deep + "}}"
    assert bounded_loads(text(126), max_depth=128) is not None  # the object, its "deep", 126 lists
    with pytest.raises(GuestProtocolError):
        bounded_loads(text(127), max_depth=128)


def test_read_envelope_keeps_an_honest_envelope_as_it_is() -> None:
    body = {"status": "error", "result": None, "logs": ["a", "[error] b"], "output_truncated": False,
            "error": {"name": "KeyError", "message": "'k'", "traceback": "..."}}
    envelope = read_envelope(json.dumps(body), output_bytes=1000)
    assert (envelope.status, envelope.logs, envelope.error, envelope.trap) == (
        "error", ["a", "[error] b"], body["error"], None)


_LINES = st.lists(st.sampled_from(["", "x", "[error] ", "[error] oops", "[warn] w", "caf\u00e9",
                                   "lone \udc80", "a\nb", "\n[error] x", "[warn]", "y" * 30]),
                  max_size=12)


@settings(max_examples=500, deadline=None)
@given(logs=_LINES, slack=st.integers(-40, 40))
def test_logs_are_counted_whole_as_they_are_line_by_line(logs: list[str], slack: int) -> None:
    budget = max(0, sum(len(line.encode("utf-8", "surrogatepass")) for line in logs) + slack)
    assert _capped_logs(logs, budget) == _capped_line_by_line(logs, budget)


def _deeper_than(value: object, max_depth: int) -> bool:
    """The plain recursive reading of nesting depth, for values shallow enough to recurse."""
    def depth(v: object) -> int:
        if isinstance(v, dict):
            return 1 + max((depth(c) for c in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(c) for c in v), default=0)
        return 0
    return depth(value) > max_depth


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3))
_NESTED = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.text(max_size=2), inner, max_size=3),
    # long containers of scalars (a run's log lines), with a container at their end or not
    st.builds(lambda tail, n: ["line"] * n + tail, st.lists(inner, max_size=1), st.integers(60, 80)),
    st.builds(lambda tail, n: {**{str(i): i for i in range(n)}, "t": tail}, inner, st.integers(60, 80)),
), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(value=_NESTED, max_depth=st.integers(0, 6))
def test_depth_is_measured_as_the_recursive_reading_measures_it(value: object, max_depth: int) -> None:
    assert depth_exceeds(value, max_depth) == _deeper_than(value, max_depth)


def test_logs_that_are_not_a_list_of_strings_are_refused() -> None:
    for logs in ("ab", ["a", 1], [None], [b"a"], {"a": 1}):
        with pytest.raises(GuestProtocolError):
            _capped_logs(logs, 100)

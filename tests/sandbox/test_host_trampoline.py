"""The host import's own callback (``sandbox.host_trampoline``): the strings it reads and
writes arrive whole in any script, answers of every kind reach the guest, what is not an
answer stops the run, and no host call asks wasmtime for the import's type."""

from __future__ import annotations

import json

import pytest
from wasmtime.component import _types

from sandbox import Limits
from sandbox.isolate import GuestRuntime, HostCallFailed

LIMITS = Limits.default.replace(deadline_s=30.0)
RAW_CALL = ("from wit_world.imports import host\nfrom componentize_py_types import Err\n"
            "def call(name, payload):\n"
            "    try:\n        return ['ok', host.call(name, payload)]\n"
            "    except Err as err:\n        return ['err', err.value]\n")
TEXTS = ["", "a", "h\u00e9llo", "\u4e2d\u6587", "\U0001f600 astral", "nul\x00inside",
         "x" * 100_000]


def _run(runtime: GuestRuntime, code: str, answer: object) -> object:
    with runtime.isolate(LIMITS) as isolate:
        outcome = json.loads(isolate.call("execute", json.dumps({"code": code}), answer))  # type: ignore[arg-type]
    assert outcome["status"] == "completed", outcome
    return outcome["result"]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)}-chars")
def test_name_payload_and_answer_cross_whole_in_any_script(runtime: GuestRuntime, text: str) -> None:
    seen: list[tuple[str, str]] = []

    def echo(name: str, payload: str) -> str:
        seen.append((name, payload))
        return payload + name

    result = _run(runtime, RAW_CALL + f"call({text!r}, {text[::-1]!r})", echo)
    assert seen == [(text, text[::-1])]
    assert result == ["ok", text[::-1] + text]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)}-chars")
def test_an_error_answer_reaches_the_guest_as_its_err_case(runtime: GuestRuntime, text: str) -> None:
    def refuse(name: str, payload: str) -> str:
        raise HostCallFailed(text)

    assert _run(runtime, RAW_CALL + "call('tool', '{}')", refuse) == ["err", text]


def test_many_calls_in_one_run_each_get_their_own_answer(runtime: GuestRuntime) -> None:
    code = RAW_CALL + "[call(str(i), '')[1] for i in range(2_000)] == [str(i * 3) for i in range(2_000)]"
    assert _run(runtime, code, lambda name, payload: str(int(name) * 3)) is True


def test_an_answer_that_is_not_a_string_stops_the_run_uncaught(runtime: GuestRuntime) -> None:
    code = RAW_CALL + "try:\n    call('tool', '')\nexcept BaseException:\n    pass\n'caught'"
    with runtime.isolate(LIMITS) as isolate, pytest.raises(TypeError):
        isolate.call("execute", json.dumps({"code": code}), lambda name, payload: 7)  # type: ignore[arg-type,return-value]


def test_an_answer_that_is_not_utf8_encodable_stops_the_run(runtime: GuestRuntime) -> None:
    code = RAW_CALL + "call('tool', '')"
    with runtime.isolate(LIMITS) as isolate, pytest.raises(UnicodeEncodeError):
        isolate.call("execute", json.dumps({"code": code}), lambda name, payload: "\ud800")


def test_the_next_run_is_answered_normally_after_one_that_was_stopped(runtime: GuestRuntime) -> None:
    with runtime.isolate(LIMITS) as isolate, pytest.raises(TypeError):
        isolate.call("execute", json.dumps({"code": RAW_CALL + "call('a', '')"}),
                     lambda name, payload: None)  # type: ignore[arg-type,return-value]
    assert _run(runtime, RAW_CALL + "call('a', 'b')", lambda name, payload: "fine") == ["ok", "fine"]


def test_a_host_call_never_asks_wasmtime_for_the_imports_type(
        runtime: GuestRuntime, monkeypatch: pytest.MonkeyPatch) -> None:
    # The generic callback rebuilds the function's type on every call, before it calls the
    # function; that was most of a host call's cost in the isolate (see the module's
    # docstring). The export's own call reads its type once, before any host call, so the
    # reading is refused from the first host call on.
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the import's type was read during a host call")

    def answer(name: str, payload: str) -> str:
        monkeypatch.setattr(_types.FuncType, "_from_ptr", classmethod(refuse))
        return payload

    code = RAW_CALL + "[call('n', str(i)) for i in range(3)]"
    with runtime.isolate(LIMITS) as isolate:
        outcome = json.loads(isolate.call("execute", json.dumps({"code": code}), answer))
    assert outcome["result"] == [["ok", "0"], ["ok", "1"], ["ok", "2"]], outcome

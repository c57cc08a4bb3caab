"""The Python API (``Sandbox.execute``): code normalisation, results, logs, errors and tools."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from sandbox import AsyncSandbox, CompiledGuest, HostCallError, Limits, Sandbox, api


def test_trailing_expression_is_the_result(sandbox: Sandbox) -> None:
    assert sandbox.execute("1 + 2").result == 3


def test_top_level_return_ends_the_run_with_its_value(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("x = 40\nif x:\n    return x + 2\nprint('never')")
    assert outcome.status == "completed" and outcome.result == 42 and outcome.logs == []


def test_return_inside_a_function_is_an_ordinary_return(sandbox: Sandbox) -> None:
    assert sandbox.execute("def f():\n    return 5\nf() * 2").result == 10


def test_the_word_return_outside_a_statement_changes_nothing(sandbox: Sandbox) -> None:
    # (the return rewriter runs only when the text holds the keyword)
    assert sandbox.execute("s = 'return'  # return\ns + '!'").result == "return!"
    assert sandbox.execute("returned = 3\nreturned * 2").result == 6


def test_an_error_line_is_the_code_s_own_with_or_without_a_return(sandbox: Sandbox) -> None:
    for code in ("x = 1\ny = 2\nraise ValueError('here')", "x = 1\nif x:\n    raise ValueError('here')\nreturn 3"):
        outcome = sandbox.execute(code)
        assert outcome.status == "error" and outcome.error is not None
        assert "line 3" in outcome.error["traceback"], outcome.error


def test_empty_code_returns_none(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("")
    assert outcome.status == "completed" and outcome.result is None


def test_statement_only_code_returns_none(sandbox: Sandbox) -> None:
    assert sandbox.execute("x = 1").result is None


def test_whole_input_markdown_fence_is_stripped(sandbox: Sandbox) -> None:
    assert sandbox.execute("```python\nvalue = 7\nvalue * 6\n```").result == 42
    assert sandbox.execute("```\n'plain'\n```").result == "plain"


def test_print_output_becomes_logs_with_stderr_marked(sandbox: Sandbox) -> None:
    code = "import sys\nprint('hello')\nprint('a\\nb')\nprint('oops', file=sys.stderr)\nprint('tail', end='')"
    assert sandbox.execute(code).logs == ["hello", "a", "b", "[error] oops", "tail"]


def test_warnings_are_logged_with_a_warn_prefix(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("import warnings\nwarnings.warn('careful')")
    assert outcome.logs == ["[warn] UserWarning: careful"]


def test_error_has_name_message_and_traceback_of_user_code_only(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("def f():\n    raise KeyError('k')\nf()")
    assert outcome.status == "error"
    assert outcome.error is not None and outcome.error["name"] == "KeyError"
    assert outcome.error["message"] == "'k'"
    trace = outcome.error["traceback"]
    assert 'File "<code>", line 3' in trace and 'File "<code>", line 2, in f' in trace
    assert "pyexec" not in trace and "app.py" not in trace


def test_name_error_lists_the_available_globals(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("helper = 1\nmissing_thing")
    assert outcome.error is not None and outcome.error["name"] == "NameError"
    message = outcome.error["message"]
    assert "missing_thing" in message and "Available globals: ToolError, helper, tools" in message


def test_syntax_error_reports_line_and_column(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("x = 1\ny = (")
    assert outcome.error is not None and outcome.error["name"] == "SyntaxError"
    assert "line 2" in outcome.error["message"]


def test_results_are_normalised_to_json(sandbox: Sandbox) -> None:
    code = (
        "import datetime, decimal, uuid\n"
        "from dataclasses import dataclass\n"
        "@dataclass\nclass P:\n    x: int\n    y: str\n"
        "cyclic = [1]\ncyclic.append(cyclic)\n"
        "{'bytes': b'\\x00\\xff', 'set': {3, 1, 2}, 'tuple': (1, 2),\n"
        " 'date': datetime.date(2026, 1, 2), 'dec': decimal.Decimal('1.10'),\n"
        " 'nan': float('nan'), 'inf': float('-inf'), 'dc': P(1, 'a'), 'cyclic': cyclic,\n"
        " 1: 'int key', None: 'none key', 'obj': object.__new__(type('Thing', (), {}))}"
    )
    result = sandbox.execute(code).result
    assert result["bytes"] == {"$bytes": "AP8="}
    assert result["set"] == [1, 2, 3] and result["tuple"] == [1, 2]
    assert result["date"] == "2026-01-02" and result["dec"] == "1.10"
    assert result["nan"] == "NaN" and result["inf"] == "-Infinity"
    assert result["dc"] == {"x": 1, "y": "a"}
    assert result["cyclic"] == [1, "[Circular]"]
    assert result["1"] == "int key" and result["null"] == "none key"
    assert "Thing object at" in result["obj"]


def test_system_exit_zero_completes_and_nonzero_fails(sandbox: Sandbox) -> None:
    assert sandbox.execute("import sys\nprint('x')\nsys.exit(0)").status == "completed"
    outcome = sandbox.execute("import sys\nsys.exit(3)")
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] == "SystemExit"


def test_tools_are_called_on_the_host_and_return_values(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("tools.add(2, 3) * 10")
    assert outcome.result == 50 and outcome.host_calls == 1


def test_tool_keyword_arguments_cross_as_json(sandbox: Sandbox) -> None:
    assert sandbox.execute("tools.echo(a=[1, {'b': None}], c='d')").result == {"a": [1, {"b": None}], "c": "d"}


def test_tool_exception_is_a_typed_error_in_the_guest(sandbox: Sandbox) -> None:
    code = (
        "try:\n    tools.fail('bad input')\n"
        "except ValueError as exc:\n    caught = (type(exc).__name__, str(exc), isinstance(exc, ToolError))\n"
        "caught"
    )
    assert sandbox.execute(code).result == ["ValueError", "bad input", True]


async def _refuse(**_: object) -> None:
    raise HostCallError("QuotaError", "over quota", details={
        "status": 429, "body": {"retry_after": 3},
        "name": "Hidden", "message": "hidden", "_private": 1, "not an identifier": 2})


def test_a_typed_errors_details_are_attributes_of_the_guests_exception(
        compiled_guest: CompiledGuest) -> None:
    code = ("try:\n    tools.refuse()\nexcept ToolError as e:\n"
            "    r = [type(e).__name__, e.name, e.message, e.status, e.body,\n"
            "         hasattr(e, '_private'), isinstance(e, ToolError)]\nr")
    with Sandbox(tools={"refuse": _refuse}, workers=1, guest=compiled_guest) as box:
        result = box.execute(code).result
    assert result == ["QuotaError", "QuotaError", "over quota", 429, {"retry_after": 3},
                      False, True]


def test_uncaught_tool_exception_fails_the_run_with_its_name(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("tools.fail('nope')")
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error["name"] == "ValueError" and outcome.error["message"] == "nope"


def test_unknown_tool_lists_the_available_ones(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("tools.nonexistent()")
    assert outcome.error is not None and outcome.error["name"] == "AttributeError"
    assert "Available: add, echo, fail" in outcome.error["message"]


def test_unserialisable_tool_arguments_fail_in_the_guest(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("tools.echo(x=object())")
    assert outcome.error is not None and outcome.error["name"] == "TypeError"
    assert outcome.host_calls == 0


def test_arguments_holding_a_cycle_are_a_type_error_in_the_guest(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("a = [1]\na.append(a)\ntools.echo(x=a)")
    assert outcome.error is not None and outcome.error["name"] == "TypeError"
    assert "not JSON-serialisable: Circular reference detected" in outcome.error["message"]
    assert outcome.host_calls == 0


def test_bytes_in_arguments_and_answers_cross_tagged(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("r = tools.echo(x=[b'\\x00\\xff', {'k': b'z'}], y='caf\u00e9')\n"
                              "[type(r['x'][0]).__name__, r['x'][0] == b'\\x00\\xff', r['x'][1], r['y']]")
    assert outcome.error is None, outcome.error
    assert outcome.result == ["bytes", True, {"k": {"$bytes": "eg=="}}, "caf\u00e9"]


def test_tool_docstring_is_visible_to_the_code(sandbox: Sandbox) -> None:
    assert sandbox.execute("tools.add.__doc__").result == "Add two numbers."


def test_each_execute_starts_from_a_fresh_isolate(sandbox: Sandbox) -> None:
    sandbox.execute("import json\njson.leaked = 1\nglobal_marker = 1")
    assert sandbox.execute("import json\nhasattr(json, 'leaked')").result is False
    assert sandbox.execute("'global_marker' in globals()").result is False


def test_execution_ids_are_unique_and_prefixed(sandbox: Sandbox) -> None:
    first, second = sandbox.execute("1"), sandbox.execute("1")
    assert first.execution_id.startswith("exec_") and first.execution_id != second.execution_id


def test_limits_can_be_set_per_call(sandbox: Sandbox) -> None:
    outcome = sandbox.execute("print('x' * 100)", limits=Limits(output_bytes=10))
    assert outcome.status == "error" and outcome.trap is not None and outcome.trap["kind"] == "output"


async def test_a_large_answer_is_checked_between_turns_of_the_event_loop(
        compiled_guest: CompiledGuest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Other requests get the loop before and after a large answer's checks, which are one
    long stretch of it (see ``api.LET_GO_AROUND_CHARS``)."""
    turns = 0
    seen: dict[str, int] = {}

    async def other_work() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    checks = api.result_from_response

    def timed_checks(*args: Any, **kwargs: Any) -> Any:
        seen["checks begin"] = turns
        try:
            return checks(*args, **kwargs)
        finally:
            seen["checks end"] = turns

    monkeypatch.setattr(api, "result_from_response", timed_checks)
    limits = dataclasses.replace(Limits(), output_bytes=4 * api.LET_GO_AROUND_CHARS)
    async with AsyncSandbox(workers=1, guest=compiled_guest) as box:
        run = box.pool.run

        async def timed_run(*args: Any, **kwargs: Any) -> Any:
            output = await run(*args, **kwargs)
            seen["answered"] = turns
            return output

        monkeypatch.setattr(box.pool, "run", timed_run)
        ticker = asyncio.create_task(other_work())
        outcome = await box.execute(f"print('x' * {2 * api.LET_GO_AROUND_CHARS})", limits=limits)
        seen["returned"] = turns
        ticker.cancel()
    assert outcome.status == "completed" and len(outcome.logs[0]) == 2 * api.LET_GO_AROUND_CHARS
    assert seen["answered"] < seen["checks begin"] <= seen["checks end"] < seen["returned"]

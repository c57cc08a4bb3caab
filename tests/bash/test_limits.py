"""Every BashLimits limit: at its edge the script still works, past it the run stops with a
clear ``bash: ...`` message and a non-zero status."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bash import BashLimits, BashResult, run_script


def run(tmp_path: Path, script: str, **limits: int) -> BashResult:
    return run_script(script, root=str(tmp_path), limits=BashLimits(**limits))


def test_default_limits_match_the_reference() -> None:
    limits = BashLimits()
    assert (limits.timeout_ms, limits.max_output_bytes, limits.max_commands) == (30_000, 64_000, 100_000)
    assert (limits.max_loop_iterations, limits.max_call_depth, limits.max_substitution_depth) == (100_000, 100, 50)
    assert (limits.max_string_bytes, limits.max_array_elements, limits.max_brace_expansion) == (64 * 1024 * 1024, 1_000_000, 100_000)


def test_timeout_exits_124_with_message(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run(tmp_path, "while true; do :; done", timeout_ms=200)
    assert result.exit_code == 124
    assert result.timed_out
    assert b"timed out after 200 ms" in result.stderr  # this limit, not the 30 s default
    assert time.monotonic() - started < 30  # it ends (the default would only stop it at 30 s)


def test_timeout_interrupts_sleep(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run(tmp_path, "sleep 60; echo never", timeout_ms=200)
    assert (result.exit_code, result.stdout, result.timed_out) == (124, b"", True)
    assert time.monotonic() - started < 30  # a sleep that is not interrupted takes 60 s


def test_timeout_keeps_output_printed_before_it(tmp_path: Path) -> None:
    result = run(tmp_path, "echo started; while :; do :; done", timeout_ms=200)
    assert result.stdout == b"started\n"


def test_output_at_limit_is_not_truncated(tmp_path: Path) -> None:
    result = run(tmp_path, "printf '%s' 0123456789", max_output_bytes=10)
    assert (result.stdout, result.stdout_truncated) == (b"0123456789", False)


def test_output_past_limit_is_truncated_with_total_size(tmp_path: Path) -> None:
    result = run(tmp_path, "printf '%s' 0123456789AB; echo err >&2", max_output_bytes=10)
    assert result.stdout_truncated
    assert result.stdout.startswith(b"0123456789\n... (12 bytes")
    assert result.stderr == b"err\n" and not result.stderr_truncated


def test_stderr_is_capped_separately(tmp_path: Path) -> None:
    result = run(tmp_path, "for i in 1 2 3 4 5; do echo error-line >&2; done; echo ok", max_output_bytes=20)
    assert result.stderr_truncated and result.stdout == b"ok\n"


def test_command_limit_edge_and_past(tmp_path: Path) -> None:
    assert run(tmp_path, "for i in 1 2 3 4; do :; done", max_commands=4).exit_code == 0
    result = run(tmp_path, "for i in 1 2 3 4 5; do :; done; echo never", max_commands=4)
    assert result.exit_code == 1 and result.stdout == b""
    assert b"command limit exceeded" in result.stderr


def test_loop_iteration_limit(tmp_path: Path) -> None:
    assert run(tmp_path, "i=0; while ((i < 10)); do ((i++)); done; echo $i", max_loop_iterations=11).stdout == b"10\n"
    result = run(tmp_path, "i=0; while ((i < 10)); do ((i++)); done; echo $i", max_loop_iterations=10)
    assert result.exit_code == 1 and b"loop iteration limit" in result.stderr


def test_call_depth_limit(tmp_path: Path) -> None:
    script = "d() { if (( $1 > 0 )); then d $(( $1 - 1 )); else echo bottom; fi; }; d {n}"
    assert run(tmp_path, script.replace("{n}", "9"), max_call_depth=10).stdout == b"bottom\n"
    result = run(tmp_path, script.replace("{n}", "10"), max_call_depth=10)
    assert result.exit_code == 1 and b"maximum function nesting level exceeded (10)" in result.stderr


def test_substitution_depth_limit(tmp_path: Path) -> None:
    nested = "echo $(echo $(echo $(echo deep)))"
    assert run(tmp_path, nested, max_substitution_depth=3).stdout == b"deep\n"
    result = run(tmp_path, nested, max_substitution_depth=2)
    assert result.exit_code == 1 and b"command substitution nesting limit" in result.stderr


def test_string_length_limit(tmp_path: Path) -> None:
    assert run(tmp_path, "x=aaaa; x=$x$x; echo ${#x}", max_string_bytes=8).stdout == b"8\n"
    result = run(tmp_path, "x=aaaa; x=$x$x$x; echo ${#x}", max_string_bytes=8)
    assert result.exit_code == 1 and b"string length limit" in result.stderr


def test_array_size_limit(tmp_path: Path) -> None:
    assert run(tmp_path, "a=(1 2 3); a+=(4); echo ${#a[@]}", max_array_elements=4).stdout == b"4\n"
    result = run(tmp_path, "a=(1 2 3); a+=(4 5); echo ${#a[@]}", max_array_elements=4)
    assert result.exit_code == 1 and b"array size limit" in result.stderr


def test_brace_expansion_limit(tmp_path: Path) -> None:
    assert run(tmp_path, "set -- {1..5}; echo $#", max_brace_expansion=5).stdout == b"5\n"
    result = run(tmp_path, "set -- {1..6}; echo $#", max_brace_expansion=5)
    assert result.exit_code == 1 and b"brace expansion" in result.stderr


def test_glob_operation_limit(tmp_path: Path) -> None:
    for k in range(20):
        (tmp_path / f"f{k}").write_text("")
    assert run(tmp_path, "set -- f*; echo $#", max_glob_operations=100).stdout == b"20\n"
    result = run(tmp_path, "set -- f*; echo $#", max_glob_operations=10)
    assert result.exit_code == 1 and b"glob" in result.stderr


@pytest.mark.parametrize("script", ["yes | head -3", "seq 1 1000000000000 | head -3"])
def test_infinite_producers_stream_into_head(tmp_path: Path, script: str) -> None:
    # Neither producer can ever be run to its end: exit 0 (not the timeout's 124) means head
    # stopped it after three lines.
    started = time.monotonic()
    result = run(tmp_path, script)
    assert result.stdout.count(b"\n") == 3 and result.exit_code == 0
    assert not result.timed_out
    assert time.monotonic() - started < 30

"""The interpreter's exception tree: control-flow signals are not errors."""

from __future__ import annotations

import pytest

from bash import run_script
from bash.errors import BreakLoop, ContinueLoop, ControlFlow, ExitShell, ReturnFromFunction


@pytest.mark.parametrize("signal", [BreakLoop, ContinueLoop, ReturnFromFunction, ExitShell])
def test_control_flow_signals_pass_through_except_exception(signal: type[ControlFlow]) -> None:
    assert not issubclass(signal, Exception)
    assert issubclass(signal, BaseException)


def test_break_unwinds_through_a_command_that_runs_commands(tmp_path: object) -> None:
    result = run_script("for i in 1 2 3; do find . -maxdepth 0 -exec break \\; ; echo $i; done; echo end", root=str(tmp_path))
    assert (result.stdout, result.exit_code) == (b"end\n", 0)

"""Digits of other scripts are not numbers to the shell and its commands (bash and GNU
tools read only ASCII digits), and no name or number a script gives ends in the
interpreter's own error. ``str.isdigit`` takes U+2463 (a circled 4), which ``int``
refuses: the fuzzer found the sed parser raising on it, and the same check was in about
seventy places; a redirection to a name longer than a file name may be was another."""

from __future__ import annotations

from pathlib import Path

import pytest

from bash import run_script

SCRIPTS = [
    "echo a >/dev/fd/\u2463",
    "kill %\u2463; echo $?",
    "wait \u2463; echo $?",
    "a[\u2463]=x; echo ${a[@]}",
    "echo ${\u2463}",
    "printf '%0\u2463d\\n' 5",
    "echo abc | cut -c \u2463",
    "echo abc | fold -w \u2463",
    "echo abc | head -n \u2463",
    "seq 3 | sed -n '\u2463p'",
    "echo abc | tr 'a[b*\u2463]' x",
    "echo hi > out" + "\ufffd" * 107 + "1",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_script_with_foreign_digits_or_a_long_name_gets_a_shell_answer(
        script: str, tmp_path: Path) -> None:
    result = run_script(script, root=str(tmp_path))
    assert b"internal error" not in result.stderr, result.stderr
    assert 0 <= result.exit_code <= 255


def test_a_redirection_to_a_name_too_long_names_the_reason(tmp_path: Path) -> None:
    result = run_script("echo hi > " + "x" * 300 + "; echo $?", root=str(tmp_path))
    assert b"File name too long" in result.stderr and result.stdout == b"1\n"

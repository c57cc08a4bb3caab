"""Hostile scripts end quickly with a clear result and leave the workspace intact."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bash import BashLimits, run_script


def test_fork_bomb_stops_at_the_job_limit(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_script(":(){ :|:& };:", root=str(tmp_path))
    # the jobs multiply in breadth, so the background job limit stops them
    assert result.exit_code != 0 and b"background job limit exceeded" in result.stderr
    assert not result.timed_out  # stopped by a limit, not by the 30 s timeout
    assert time.monotonic() - started < 30


def test_fork_bomb_shaped_named_function(tmp_path: Path) -> None:
    result = run_script("bomb() { bomb | bomb; }; bomb; echo never", root=str(tmp_path))
    assert result.exit_code != 0 and result.stdout == b""


def test_infinite_recursion_is_a_clear_error(tmp_path: Path) -> None:
    result = run_script("f() { f; }; f", root=str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.startswith(b"bash: f: maximum function nesting level exceeded")


def test_infinite_recursion_through_command_substitution(tmp_path: Path) -> None:
    result = run_script("f() { echo $(f); }; f", root=str(tmp_path))
    assert result.exit_code == 1 and b"nesting limit" in result.stderr


def test_million_line_heredoc(tmp_path: Path) -> None:
    script = "while read -r l; do :; done <<EOF\n" + "line\n" * 1_000_000 + "EOF\necho done\n"
    started = time.monotonic()
    result = run_script("n=0\nwc -l <<EOF\n" + "line\n" * 1_000_000 + "EOF\n", root=str(tmp_path))
    assert result.exit_code == 0 and result.stdout.strip() == b"1000000"  # within the 30 s timeout
    assert time.monotonic() - started < 30
    looped = run_script(script, root=str(tmp_path), limits=BashLimits(timeout_ms=2000))
    assert looped.exit_code != 0 and looped.stderr.startswith(b"bash: ")


def test_cd_never_goes_above_root(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    result = run_script("cd ../../..; pwd; ls", root=str(tmp_path / "inside"))
    assert result.stdout == b"/\n"
    result = run_script("cd /; cd ..; echo x > escaped.txt; pwd", root=str(tmp_path / "inside"))
    assert result.stdout == b"/\n"
    assert (tmp_path / "inside" / "escaped.txt").exists()
    assert not (tmp_path / "escaped.txt").exists()


def test_redirection_with_dotdot_stays_inside(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    run_script("echo x > ../../outside.txt", root=str(tmp_path / "ws"))
    assert not (tmp_path / "outside.txt").exists()
    assert (tmp_path / "ws" / "outside.txt").read_text() == "x\n"


def test_names_with_newlines(tmp_path: Path) -> None:
    result = run_script("touch $'a\\nb'; for f in *; do printf '<%s>\\n' \"$f\"; done; rm -f $'a\\nb'; echo *", root=str(tmp_path))
    assert result.stdout == b"<a\nb>\n*\n"


def test_nul_in_data_does_not_crash(tmp_path: Path) -> None:
    result = run_script("printf 'a\\0b\\n' > f; read -r x < f; echo \"[$x]\"; x=$(printf 'a\\0b'); echo ${#x}", root=str(tmp_path))
    assert result.exit_code == 0


def test_deep_nesting_of_subshells(tmp_path: Path) -> None:
    script = "( " * 60 + "echo deep" + " )" * 60
    result = run_script(script, root=str(tmp_path))
    assert result.exit_code == 1 and b"nesting limit" in result.stderr


def test_huge_brace_expansion_is_refused_quickly(tmp_path: Path) -> None:
    # 10^12 words: refused as soon as the count passes the limit, or it would never end.
    started = time.monotonic()
    result = run_script("echo {1..1000}{1..1000}{1..1000}{1..1000}", root=str(tmp_path))
    assert result.exit_code == 1 and b"brace expansion" in result.stderr
    assert time.monotonic() - started < 30


def test_exponential_string_growth_is_stopped(tmp_path: Path) -> None:
    result = run_script("x=a; while :; do x=$x$x; done", root=str(tmp_path))
    assert result.exit_code == 1 and b"string length limit" in result.stderr


def test_bad_input_is_a_status_not_a_crash(tmp_path: Path) -> None:
    for script in ["if", "((", "${", "echo $((", "case x in", "f() {", "[[ a", "echo \"", "a=(", "done"]:
        result = run_script(script, root=str(tmp_path))
        assert result.exit_code == 2, script
        assert result.stderr.startswith(b"bash: "), script


_TOKENS = (
    "echo x=1 $x ${x } ${x:-a} ${x#*} $( ) (( )) [[ ]] && || ; | & < > >> 2>&1 ' \" ` if then fi "
    "for in do done case esac ;; while { } ( a* ? [a-z] ~ $((1+ $@ $* $# $? ! function f() local "
    "declare -a arr=( ${arr[@]} read printf %s \\ {1..3} {a,b} let eval set -e -u trap EXIT exit "
    "return break shift cd .. / unset export = += -eq == =~ ^a 0 1 -1 # @ : % /# // ^^ ,, <( <<< &> |&"
).split() + ["<<EOF\n", "EOF\n", "\n"]


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_random_token_soup_never_crashes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    limits = BashLimits(timeout_ms=500, max_commands=2000, max_loop_iterations=200)
    for _ in range(150):
        script = " ".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 12)))
        result = run_script(script, root=str(tmp_path), limits=limits)
        assert 0 <= result.exit_code <= 255, script
        assert b"internal error" not in result.stderr, (script, result.stderr)

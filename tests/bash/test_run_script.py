"""The ``run_script`` API: result fields, the workspace seen at ``/``, cwd, env and stdin."""

from __future__ import annotations

from pathlib import Path

from bash import BashLimits, BashResult, run_script


def test_result_carries_stdout_stderr_and_status(tmp_path: Path) -> None:
    result = run_script("echo before; echo bad >&2; exit 9", root=str(tmp_path))
    assert result == BashResult(b"before\n", b"bad\n", 9, False, False, False)


def test_script_sees_root_as_slash(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("payload\n")
    result = run_script("read -r x < /data.txt; echo $x; echo $PWD; echo new > /made.txt", root=str(tmp_path))
    assert result.stdout == b"payload\n/\n"
    assert (tmp_path / "made.txt").read_text() == "new\n"


def test_cwd_is_honoured_and_relative_paths_use_it(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    result = run_script("pwd; echo x > here.txt; cd ..; pwd", root=str(tmp_path), cwd="/src")
    assert result.stdout == b"/src\n/\n"
    assert (tmp_path / "src" / "here.txt").exists()


def test_missing_cwd_is_a_clear_error(tmp_path: Path) -> None:
    result = run_script("echo hi", root=str(tmp_path), cwd="/nope")
    assert result.exit_code == 1 and b"No such file or directory" in result.stderr and result.stdout == b""


def test_env_is_exported_to_commands(tmp_path: Path) -> None:
    result = run_script('echo "$GREETING"; printenv GREETING', root=str(tmp_path), env={"GREETING": "hi there"})
    assert result.stdout == b"hi there\nhi there\n"


def test_stdin_feeds_the_script(tmp_path: Path) -> None:
    result = run_script("while read -r l; do echo \"<$l>\"; done", root=str(tmp_path), stdin=b"a\nb\n")
    assert result.stdout == b"<a>\n<b>\n"


def test_dev_null_and_std_streams_work(tmp_path: Path) -> None:
    script = "echo gone > /dev/null; echo out > /dev/stdout; echo err > /dev/stderr; read x < /dev/null; echo $?"
    result = run_script(script, root=str(tmp_path))
    assert (result.stdout, result.stderr) == (b"out\n1\n", b"err\n")
    assert not (tmp_path / "dev").exists()


def test_unknown_command_is_127(tmp_path: Path) -> None:
    result = run_script("frobnicate --now", root=str(tmp_path))
    assert result.exit_code == 127
    assert result.stderr.endswith(b"frobnicate: command not found\n")


def test_network_commands_are_refused(tmp_path: Path) -> None:
    for name in ("curl", "wget", "nc", "ssh", "ping", "scp", "ftp", "telnet"):
        result = run_script(f"{name} example.com", root=str(tmp_path))
        assert result.exit_code == 1, name
        assert b"network access is disabled in this sandbox" in result.stderr, name


def test_syntax_error_reports_line_and_status_2(tmp_path: Path) -> None:
    result = run_script("echo ok\nif then\necho never", root=str(tmp_path))
    assert result.stdout == b"ok\n" and result.exit_code == 2
    assert b"line 2" in result.stderr and b"syntax error" in result.stderr


def test_exit_trap_runs_at_the_end(tmp_path: Path) -> None:
    result = run_script("trap 'echo bye' EXIT; echo main; exit 3", root=str(tmp_path))
    assert (result.stdout, result.exit_code) == (b"main\nbye\n", 3)


def test_output_limit_is_configurable(tmp_path: Path) -> None:
    result = run_script("printf 'x%.0s' {1..100}", root=str(tmp_path), limits=BashLimits(max_output_bytes=5))
    assert result.stdout.startswith(b"xxxxx\n... (100 bytes") and result.stdout_truncated


def test_state_does_not_leak_between_runs(tmp_path: Path) -> None:
    run_script("export LEAK=1; f() { :; }; cd /", root=str(tmp_path))
    result = run_script('echo "[${LEAK-}]"; type -t f; echo $?', root=str(tmp_path))
    assert result.stdout == b"[]\n1\n"


def test_xtrace_does_not_rerun_command_substitutions(tmp_path: Path) -> None:
    result = run_script("set -x; x=$(echo once >> log.txt); y=2", root=str(tmp_path))
    assert (tmp_path / "log.txt").read_text() == "once\n"
    assert result.stderr == b"++ echo once\n+ x=\n+ y=2\n"  # bash shows an empty value as nothing


def test_no_nul_reaches_a_word_from_the_script_its_environment_or_its_input(
        tmp_path: Path) -> None:
    # bash drops NULs from the script it reads and from what read and $(...) take in; an
    # environment string ends at its first NUL. None becomes an internal error on a path.
    script = ('echo "${X}|${#X}"; cat "a\0b"; echo $?; x=$(printf "c\\0d"); echo "$x"; '
              'read -r v; echo "$v"; cat "$v"; echo $?')
    result = run_script(script, root=str(tmp_path), env={"X": "e\0f"}, stdin=b"g\0h\n")
    assert result.stdout == b"e|1\n1\ncd\ngh\n1\n"
    assert b"internal error" not in result.stderr
    assert result.stderr.count(b"No such file or directory") == 2
    assert b"command substitution: ignored null byte in input" in result.stderr

"""The ``sandbox`` command line, run as a real subprocess (and its help, in process)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.engine import CompiledGuest


def _sandbox(*args: str, stdin: str | None = None, cache: Path,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``sandbox ARGS`` as a subprocess, with the given guest cache and extra environment
    (``SANDBOX_DATA_DIR`` is left out so the default data directory applies)."""
    inherited = {k: v for k, v in os.environ.items() if k != "SANDBOX_DATA_DIR"}
    env = {**inherited, "SANDBOX_CACHE_DIR": str(cache), **(env or {})}
    return subprocess.run([sys.executable, "-m", "sandbox.cli", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=300)


def test_exec_prints_logs_and_result(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("exec", "-c", "print('hello')\n{'a': 1}", cache=compiled_guest.path.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'hello\n{\n  "a": 1\n}\n'


def test_exec_runs_a_file_and_stdin(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("return sum(range(10))\n")
    done = _sandbox("exec", str(script), cache=compiled_guest.path.parent)
    assert done.returncode == 0 and done.stdout.strip() == "45"
    done = _sandbox("exec", "-", stdin="6 * 7", cache=compiled_guest.path.parent)
    assert done.returncode == 0 and done.stdout.strip() == "42"


def test_exec_exits_non_zero_with_the_traceback_on_error(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("exec", "-c", "raise ValueError('broken')", cache=compiled_guest.path.parent)
    assert done.returncode == 1
    assert "ValueError: broken" in done.stderr and 'File "<code>", line 1' in done.stderr


def test_exec_exits_non_zero_on_a_trap(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("exec", "--timeout-ms", "200", "-c", "while True: pass", cache=compiled_guest.path.parent)
    assert done.returncode == 1 and "[deadline]" in done.stderr


def test_exec_json_prints_the_whole_result(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("exec", "--json", "-c", "1", cache=compiled_guest.path.parent)
    body = json.loads(done.stdout)
    assert body["status"] == "completed" and body["result"] == 1 and "execution_id" in body


def test_exec_without_code_is_a_usage_error(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("exec", cache=compiled_guest.path.parent)
    assert done.returncode == 2 and "give -c CODE" in done.stderr


def test_doctor_shows_versions_and_cache_state(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    done = _sandbox("doctor", "--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent)
    state = json.loads(done.stdout)
    assert state["wasmtime"] == metadata.version("wasmtime") and state["componentize_py"].startswith("0.25.")
    assert state["cache_dir"] == str(compiled_guest.path.parent)


def test_bash_exit_status_is_the_scripts_and_changes_persist(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    cache = compiled_guest.path.parent
    done = _sandbox("bash", "--data-dir", str(tmp_path), "-c", "echo saved > f.txt; echo out; exit 3", cache=cache)
    assert done.returncode == 3 and done.stdout == "out\n"
    done = _sandbox("bash", "--data-dir", str(tmp_path), "-c", "cat f.txt", cache=cache)
    assert done.returncode == 0 and done.stdout == "saved\n"


def test_help_is_plain_text_listing_every_command_with_one_line_each(tmp_path: Path) -> None:
    done = _sandbox("--help", cache=tmp_path)
    assert done.returncode == 0
    assert "``" not in done.stdout and ":func:" not in done.stdout
    listed = {line.split()[0]: line.split(maxsplit=1)[1:] for line in done.stdout.splitlines()
              if line.startswith("    ") and line.split()[0].isalpha()}
    assert set(listed) >= {"serve", "exec", "bash", "ws", "approvals", "doctor", "build"}
    assert all(description for description in listed.values()), listed
    assert "exit status:" in done.stdout


def test_version_names_the_package_and_what_builds_the_guest(tmp_path: Path) -> None:
    done = _sandbox("--version", cache=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("sandbox ") and f"wasmtime {metadata.version('wasmtime')}" in done.stdout and "Python 3." in done.stdout


def test_exec_of_a_missing_file_is_one_line_and_exit_1(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    done = _sandbox("exec", str(tmp_path / "missing.py"), cache=compiled_guest.path.parent)
    assert done.returncode == 1
    assert done.stderr == f"sandbox exec: {tmp_path / 'missing.py'}: no such file\n"
    done = _sandbox("bash", str(tmp_path / "missing.sh"), cache=compiled_guest.path.parent)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "no such file" in done.stderr


def test_ws_honours_xdg_data_home_like_bash(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    cache = compiled_guest.path.parent
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    done = _sandbox("bash", "-c", "echo a > f", cache=cache, env=env)
    assert done.returncode == 0, done.stderr
    done = _sandbox("ws", "cat", "f", cache=cache, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a\n"
    assert (tmp_path / "xdg" / "sandbox" / "sandbox.db").is_file()


def test_build_with_a_warm_cache_prints_the_path_and_nothing_on_stderr(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("build", cache=compiled_guest.path.parent)
    assert done.returncode == 0
    assert done.stdout == f"{compiled_guest.path}\n" and done.stderr == ""


def test_a_limit_that_is_not_above_zero_is_a_usage_error(tmp_path: Path) -> None:
    done = _sandbox("exec", "--timeout-ms", "-5", "-c", "1", cache=tmp_path)
    assert done.returncode == 2 and "--timeout-ms: '-5' must be above 0" in done.stderr
    assert "Traceback" not in done.stderr


def test_bash_over_a_workspace_name_the_store_refuses_is_one_line_and_exit_1(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    done = _sandbox("bash", "--data-dir", str(tmp_path), "-w", "../x", "-c", "echo", cache=compiled_guest.path.parent)
    assert done.returncode == 1
    assert done.stderr.startswith("sandbox bash: EINVAL: workspace names are") and done.stderr.count("\n") == 1


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _sandbox("serve", "--port", str(port), "--data-dir", str(tmp_path), cache=tmp_path / "cache")
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "cache").exists(), "refused before building anything"


@pytest.mark.parametrize("command", [["serve"], ["mcp"], ["exec"], ["bash"], ["ws"], ["ws", "ls"], ["approvals"],
                                     ["approvals", "approve"], ["doctor"], ["build"]])
def test_every_commands_help_is_plain_text(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    shown = capsys.readouterr().out
    assert done.value.code == 0 and shown.startswith(f"usage: sandbox {' '.join(command)}")
    assert "`" not in shown and ":func:" not in shown

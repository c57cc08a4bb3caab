"""The ``sandbox`` command line, run as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sandbox.engine import CompiledGuest


def _sandbox(*args: str, stdin: str | None = None, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(cache)}
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


def test_doctor_shows_versions_and_cache_state(compiled_guest: CompiledGuest) -> None:
    done = _sandbox("doctor", cache=compiled_guest.path.parent)
    state = json.loads(done.stdout)
    assert state["wasmtime"].startswith("50.") and state["componentize_py"].startswith("0.25.")
    assert state["cache_dir"] == str(compiled_guest.path.parent)


def test_bash_exit_status_is_the_scripts_and_changes_persist(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    cache = compiled_guest.path.parent
    done = _sandbox("bash", "--data-dir", str(tmp_path), "-c", "echo saved > f.txt; echo out; exit 3", cache=cache)
    assert done.returncode == 3 and done.stdout == "out\n"
    done = _sandbox("bash", "--data-dir", str(tmp_path), "-c", "cat f.txt", cache=cache)
    assert done.returncode == 0 and done.stdout == "saved\n"

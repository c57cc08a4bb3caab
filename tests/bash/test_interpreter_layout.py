"""The shape of the interpreter and its builtins: each module short and saying what it owns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GUEST = Path(__file__).resolve().parents[2] / "wasm" / "guest" / "bash"
MODULES = sorted([*(p for p in GUEST.glob("*.py") if p.name != "flagspec.py"), *(GUEST / "builtins").glob("*.py")])


def _name(path: Path) -> str:
    return str(path.relative_to(GUEST))


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_module_says_what_it_owns_and_stays_under_a_thousand_lines(path: Path) -> None:
    source = path.read_text()
    assert ast.get_docstring(ast.parse(source)), "module docstring missing"
    assert source.count("\n") <= 1000


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_is_longer_than_120_lines(path: Path) -> None:
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 120]
    assert not long


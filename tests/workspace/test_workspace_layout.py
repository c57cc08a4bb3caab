"""The shape of the workspace package: every module says what it owns and stays readable."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "workspace"
MODULES = sorted(PACKAGE.glob("*.py"))
MAX_MODULE_LINES = 1000
MAX_FUNCTION_LINES = 120


def test_the_package_has_modules() -> None:
    assert {"__init__.py", "fs.py", "database.py", "transaction.py", "blobs.py", "entries.py"} <= {
        m.name for m in MODULES
    }


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_module_has_a_docstring_and_stays_under_the_line_limit(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(text)), f"{module.name} does not say what it owns"
    assert len(text.splitlines()) <= MAX_MODULE_LINES


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_function_is_longer_than_the_limit(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    long = [
        f"{node.name} ({node.lineno}): {(node.end_lineno or node.lineno) - node.lineno + 1} lines"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []

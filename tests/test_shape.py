"""The shape every module keeps, host and guest alike: it starts with a docstring saying what
it owns, it stays under 1,000 lines, and none of its functions is over 120 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ("sandbox", "codemode", "audit", "workspace", "storage", "wasm/guest", "wasm/science")
MAX_MODULE_LINES = 1000
MAX_FUNCTION_LINES = 120
MODULES = sorted(p for tree in TREES for p in (ROOT / tree).rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_walk_finds_every_tree() -> None:
    found = {tree for tree in TREES for p in MODULES if _name(p).startswith(tree + "/")}
    assert found == set(TREES)


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_module_shape(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    assert ast.get_docstring(tree), f"{_name(path)} does not say what it owns"
    lines = len(text.splitlines())
    assert lines <= MAX_MODULE_LINES, f"{_name(path)} is {lines} lines"
    long = [f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{_name(path)}: " + "; ".join(long)


def test_test_files_have_distinct_names() -> None:
    # pytest imports test modules by file name (there are no packages under tests/), so two
    # test_x.py files in different folders would make one of them fail to collect.
    names: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(path.name, []).append(_name(path))
    assert not {name: paths for name, paths in names.items() if len(paths) > 1}

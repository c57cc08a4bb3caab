"""The exception tree: one module holds every exception Code Mode defines, drawn in its docstring."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import codemode
import codemode.errors as errors_module
from codemode.errors import CodeModeError, SubscriptionClosed

PACKAGE = Path(codemode.__file__).parent


def _exception_classes() -> list[type[BaseException]]:
    return [obj for obj in vars(errors_module).values()
            if inspect.isclass(obj) and issubclass(obj, BaseException)
            and obj.__module__ == errors_module.__name__]


def test_error_tree_docstring_names_every_error_and_all_share_one_base() -> None:
    doc = errors_module.__doc__ or ""
    classes = _exception_classes()
    assert len(classes) >= 30
    for cls in classes:
        if cls is not SubscriptionClosed:  # the normal end of an event stream, not an error
            assert issubclass(cls, CodeModeError), cls
        assert re.search(rf"\b{cls.__name__}\b", doc), f"{cls.__name__} is missing from the drawn tree"
        assert cls.__doc__ and "\n" not in cls.__doc__.strip(), f"{cls.__name__} needs a one-line doc"


def test_drawn_tree_shows_each_class_under_its_base() -> None:
    lines = [line for line in (errors_module.__doc__ or "").splitlines() if "── " in line or
             line.strip() in ("CodeModeError", "Exception")]
    depth_of: dict[str, int] = {}
    parents: list[str] = []
    for line in lines:
        name = line.split("── ")[-1].split()[0] if "── " in line else line.strip()
        depth = (line.index("── ") + 3 - 8) // 4 if "── " in line else -1
        depth_of[name] = depth
        parents = parents[: depth + 1] + [name]
        if depth >= 0:
            parent = parents[-2]
            cls = getattr(errors_module, name)
            assert cls.__bases__[0].__name__ == parent, f"{name} is drawn under {parent}"
    assert {cls.__name__ for cls in _exception_classes()} <= set(depth_of)


def test_no_other_module_of_the_package_defines_an_exception() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "errors.py":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base) for base in node.bases}
                assert not any(b.endswith(("Error", "Exception", "Conflict", "NotFound"))
                               or b in {"CodeModeError", "BaseException"} for b in bases), (
                    f"{path.name} defines exception {node.name}; it belongs in errors.py")


def test_every_exception_is_exported_from_the_package_root() -> None:
    for cls in _exception_classes():
        assert getattr(codemode, cls.__name__) is cls
        assert cls.__name__ in codemode.__all__

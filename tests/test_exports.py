"""Each unit's root is its whole public surface: ``__all__`` lists exactly the public names
the root holds (the other units import nothing else; see ``test_layers.py``)."""

from __future__ import annotations

import importlib

import pytest

ROOTS = ("sandbox", "sandbox.service", "sandbox.cli", "codemode", "audit", "workspace", "storage")


@pytest.mark.parametrize("root", ROOTS)
def test_all_lists_exactly_the_public_names(root: str) -> None:
    module = importlib.import_module(root)
    exported = list(getattr(module, "__all__"))
    assert len(exported) == len(set(exported))
    public = {name for name in vars(module) if not name.startswith("_")
              and not isinstance(vars(module)[name], type(importlib))}
    assert set(exported) == public - {"annotations"}

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
    # dir(), not vars(): a root may import a name when first asked for (sandbox.service).
    public = {name for name in dir(module) if not name.startswith("_")
              and not isinstance(getattr(module, name), type(importlib))}
    assert set(exported) == public - {"annotations"}


def test_a_name_the_service_imports_when_asked_for_is_the_one_its_module_holds() -> None:
    service = importlib.import_module("sandbox.service")
    assert service.create_app is importlib.import_module("sandbox.service.app").create_app
    assert service.SCOPES is importlib.import_module("sandbox.service.identity").SCOPES
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        getattr(service, "nothing_here")

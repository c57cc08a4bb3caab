"""The package surface: ``workspace.__all__`` is complete, sorted, and imports nothing upstream."""

import sys

import workspace


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert workspace.__all__ == sorted(workspace.__all__, key=str.casefold)
    for name in workspace.__all__:
        assert getattr(workspace, name) is not None


def test_workspace_imports_neither_codemode_nor_sandbox() -> None:
    for module in list(sys.modules):
        if module.startswith("workspace"):
            source = getattr(sys.modules[module], "__file__", "") or ""
            if source:
                with open(source, encoding="utf-8") as f:
                    text = f.read()
                assert "import codemode" not in text and "from codemode" not in text
                assert "import sandbox" not in text and "from sandbox" not in text

"""Host-side bash tests: the guest's ``bash`` package is importable through pytest's
``pythonpath`` (``wasm/guest``, set in pyproject.toml)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from bash import RECURSION_LIMIT


@pytest.fixture
def guest_recursion_limit() -> Iterator[None]:
    """The recursion limit ``bash.run_script`` sets in the guest, for tests that parse deep
    programs outside it: nesting then fails here as deep as it does there."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(RECURSION_LIMIT)
    yield
    sys.setrecursionlimit(before)

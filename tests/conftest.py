"""Shared fixtures: one compiled guest and one pooled sandbox for the whole test session."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from sandbox import Sandbox
from sandbox.engine import CompiledGuest, ensure_compiled


def _add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def _fail(message: str = "boom") -> None:
    raise ValueError(message)


def _echo(**kwargs: object) -> object:
    return kwargs


TEST_TOOLS = {"add": _add, "fail": _fail, "echo": _echo}


@pytest.fixture(scope="session")
def compiled_guest() -> CompiledGuest:
    return ensure_compiled()


@pytest.fixture(scope="session")
def sandbox(compiled_guest: CompiledGuest) -> Iterator[Sandbox]:
    with Sandbox(tools=TEST_TOOLS, workers=2, guest=compiled_guest) as box:
        yield box


@pytest.fixture
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent



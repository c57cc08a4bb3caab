"""Fixtures of the isolate tests: one guest runtime per test module, in this process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox import CompiledGuest
from sandbox.isolate import GuestRuntime


@pytest.fixture(scope="module")
def runtime(compiled_guest: CompiledGuest) -> Iterator[GuestRuntime]:
    """A module's runtime, its memory released after the module's last test (a module that
    checks what runs leave resident makes a fresh one per test instead)."""
    made = GuestRuntime(compiled_guest)
    yield made
    made.memories.release()

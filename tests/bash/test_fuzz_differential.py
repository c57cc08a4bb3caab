"""Random scripts from the fuzzer's grammar (``fuzz_differential.py``) behave in our
interpreter exactly as in GNU bash; a failure shows the difference reduced to a minimal
script. Needs GNU bash on the machine (the recorded corpus does not)."""

from __future__ import annotations

import os

import pytest

from fuzz_differential import differs, generate, reduce

pytestmark = [
    pytest.mark.fuzz,
    pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="GNU bash is not installed"),
]

SEEDS = range(0, 120)
"""Fixed seeds: a seed names the same script on every machine, so a failure reproduces."""


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_script_matches_gnu_bash(seed: int) -> None:
    script = generate(seed)
    fields = differs(script)
    if fields:
        minimal = reduce(script)
        pytest.fail(f"{', '.join(fields)} differ from GNU bash; minimal script:\n{minimal}")

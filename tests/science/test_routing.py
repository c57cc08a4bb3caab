"""Which engine runs a piece of code: by its imports (``auto``), or as the request says."""

from __future__ import annotations

import pytest

from sandbox import Sandbox, choose_engine
from sandbox.engines import science_imports


@pytest.mark.parametrize("code", [
    "import numpy as np",
    "import pandas",
    "from scipy import stats",
    "import matplotlib.pyplot as plt",
    "from sklearn.linear_model import LinearRegression",
    "def f():\n    import numpy\n    return numpy",
    "np = __import__('numpy')",
    "import importlib\npd = importlib.import_module('pandas.api.types')",
    "```python\nimport numpy\n```",
])
def test_code_importing_the_scientific_stack_goes_to_the_science_engine(code: str) -> None:
    assert choose_engine(code) == "science"


@pytest.mark.parametrize("code", [
    "import json, math, statistics",
    "print('numpy')",
    "from . import numpy",
    "numpy = 1\nnumpy + 1",
    "import numpyish",
    "def broken(:",
    "",
])
def test_everything_else_stays_on_the_standard_guest(code: str) -> None:
    assert choose_engine(code) == "standard"


def test_an_explicit_choice_wins_over_the_imports() -> None:
    assert choose_engine("import numpy", "standard") == "standard"
    assert choose_engine("1 + 1", "science") == "science"


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="auto, standard, science"):
        choose_engine("1", "gpu")


def test_the_imports_found_are_the_science_ones_only() -> None:
    assert science_imports("import os, numpy.linalg\nfrom pandas import DataFrame") == {"numpy", "pandas"}


def test_auto_runs_plain_code_on_the_standard_guest_and_numpy_on_science(science: Sandbox) -> None:
    plain = science.execute("import sys\nsys.version_info[:2]")
    numeric = science.execute("import numpy, sys\nsys.version_info[:2]")
    assert plain.engine == "standard" and numeric.engine == "science"
    assert plain.result != numeric.result  # two interpreters: the science one is CPython 3.15
    assert numeric.result == [3, 15]


def test_the_standard_guest_has_no_numpy_when_chosen_explicitly(science: Sandbox) -> None:
    done = science.execute("import numpy", engine="standard")
    assert done.error is not None and done.error["name"] == "ModuleNotFoundError"

"""Hypothesis strategies for values that have a strict JSON text (what a result carried as
its text, ``sandbox.json_text.JSONText``, can hold), tag look-alikes included."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

_KEYS = st.sampled_from(["a", "b", "$bytes", "$float", "$dict", "é", "[", "z"])
_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=4) | st.sampled_from(["$bytes", "[", "{", "caf\u00e9"]))
JSON_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(_KEYS, inner, max_size=3), max_leaves=10)
"""A small value with a strict JSON text; ``[value] * copies`` makes it as large as wanted."""


def strict_text(value: Any) -> str:
    """The text the worker sends for ``value``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

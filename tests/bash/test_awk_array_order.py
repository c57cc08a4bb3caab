"""``for (k in a)`` visits keys in mawk 1.3.4's order after any mix of array operations.

The order comes from mawk's hash chains (``commands/awk/array.py``), which move an element
they find to the front; the elements are found through a dict beside the chains. Random
programs of inserts by string and by number, lookups, ``in`` tests, deletes and ``split``
are run by our awk and by this machine's mawk, and must print the same keys in the same
order, from small arrays and from ones large enough to double their tables."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_text_support import run_gnu, run_ours

pytestmark = pytest.mark.skipif(shutil.which("mawk") is None, reason="mawk is not installed")

_KEY = st.one_of(st.integers(-3, 40).map(str), st.sampled_from(['"k"', '"x"', '"10"', '"07"', '"1.5"', '""', "1.5",
                                                                 '"a" i', "i", "i * 2", "-i"]))
_STEP = st.one_of(
    st.builds(lambda k: f"a[{k}] = 1", _KEY),
    st.builds(lambda k: f"y = a[{k}]", _KEY),
    st.builds(lambda k: f"y = ({k} in a)", _KEY),
    st.builds(lambda k: f"delete a[{k}]", _KEY),
    st.builds(lambda n: f"for (i = 0; i < {n}; i++) a[\"w\" i] = i", st.sampled_from([3, 50, 900])),
    st.builds(lambda n: f"for (i = 1; i <= {n}; i++) y = a[i]", st.sampled_from([5, 80])),
    st.just('split("p q r s", a)'),
)


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(_STEP, min_size=1, max_size=8))
def test_for_in_visits_keys_in_mawks_order(steps: list[str]) -> None:
    program = "BEGIN { i = 3; " + "; ".join(steps) + "; n = 0; for (k in a) printf \"%s \", k; print \"\" }"
    ours, mawk = run_ours(["awk", program]), run_gnu(["mawk", program])
    assert (ours.stdout, ours.status) == (mawk.stdout, mawk.status), program

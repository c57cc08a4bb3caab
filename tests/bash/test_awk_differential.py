"""awk against this machine's mawk 1.3.4 on random programs and input.

``for (k in a)`` visits keys in mawk's order after any mix of array operations. The order comes from mawk's hash chains (``commands/awk/array.py``), which move an element
they find to the front; the elements are found through a dict beside the chains. Random
programs of inserts by string and by number, lookups, ``in`` tests, deletes and ``split``
are run by our awk and by this machine's mawk, and must print the same keys in the same
order, from small arrays and from ones large enough to double their tables.

Input fields are numeric strings or strings as mawk decides (a field of ASCII digits is
taken as a number without the regular expressions every other field goes through), and
compare and convert as mawk's do."""

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


_FIELD = st.one_of(st.from_regex(r"\A[0-9]{1,4}\Z", fullmatch=True),
                   st.sampled_from(["-3", "+4", "007", "1e3", ".5", "0x1A", "0x10", "12a", "١٢", "", "inf",
                                    "-0", "00", "99999999999999999999", "3.", " 5", "x"]))


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(_FIELD, _FIELD), min_size=1, max_size=6))
def test_fields_compare_and_convert_as_in_mawk(rows: list[tuple[str, str]]) -> None:
    data = "".join(f"{a}\t{b}\n" for a, b in rows).encode()
    program = '{ print ($1 < $2), ($1 == $2), $1 + 0, $2 * 2; s += $1 } END { print s }'
    ours = run_ours(["awk", "-F\t", program], data)
    mawk = run_gnu(["mawk", "-F\t", program], data)
    assert (ours.stdout, ours.status) == (mawk.stdout, mawk.status), rows

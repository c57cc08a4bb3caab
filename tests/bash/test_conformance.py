"""Differential conformance: every case in ``cases/*.test.sh`` must behave in our interpreter
exactly as recorded from GNU bash in ``fixtures/`` (stdout bytes, exit status, stderr
emptiness, resulting files). Cases listed under "Known divergences" are strict xfails.
Each case runs on both of the interpreter's filesystems: the real directory and the
in-memory tree the guest uses (``bash/memfs.py``)."""

from __future__ import annotations

import pytest

from run_cases import Case, compare, load_cases, load_fixture, run_in_interpreter

_FIXTURES: dict[str, dict] = {}


def _params() -> list[object]:
    params: list[object] = []
    for case in load_cases():
        marks = []
        if case.divergence:
            marks.append(pytest.mark.xfail(reason=case.divergence, strict=True))
        params.append(pytest.param(case, id=f"{case.area}::{case.name}", marks=marks))
    return params


@pytest.mark.parametrize("backend", ["real", "memory"])
@pytest.mark.parametrize("case", _params())
def test_case_matches_gnu_bash(case: Case, backend: str) -> None:
    if case.area not in _FIXTURES:
        _FIXTURES[case.area] = load_fixture(case.area)
    expected = _FIXTURES[case.area].get(case.name)
    if expected is None:
        pytest.skip(f"no fixture recorded for {case.area}::{case.name}; run tests/bash/record.py {case.area}")
    diffs = compare(expected, run_in_interpreter(case, backend))
    assert not diffs, "\n".join(diffs)

"""The conformance corpus again, through real WebAssembly isolates.

``test_conformance.py`` runs every case in-process; this runs the same cases in the guest
(the interpreter as built into the component, over a preopened directory), so what passes
on the host also passes where users run it.
"""

from __future__ import annotations

import base64
import tempfile

import pytest

from run_cases import BASH_ENV, CASE_TIMEOUT_S, Case, Outcome, compare, load_cases, load_fixture, snapshot_files

from sandbox import Limits, Sandbox  # noqa: E402

_FIXTURES: dict[str, dict[str, Outcome]] = {}
pytestmark = pytest.mark.slow

ISOLATE_DIVERGENCES = {
    "cmd_files_find::find-follow-detects-loop":
        "WASI reports no device/inode numbers, so find -L sees the loop one level later",
    "fid_cond::m-dbl-ef":
        "WASI reports no device/inode numbers, so -ef cannot tell a symlink names the same file",
    "cmd_files_ops::cp-missing-source":
        "WASI answers stat of a missing path under a preopen with EACCES, not ENOENT",
    "cmd_files_ops::cp-trailing-slash-target-errors":
        "WASI path resolution reports other errnos for a trailing slash on a missing target",
}
"""Cases that match GNU bash in-process but not inside the isolate, with the reason."""


def _params() -> list[object]:
    params: list[object] = []
    for case in load_cases():
        reason = case.divergence or ISOLATE_DIVERGENCES.get(f"{case.area}::{case.name}")
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(case, id=f"{case.area}::{case.name}", marks=marks))
    return params


def run_in_isolate(sandbox: Sandbox, case: Case) -> Outcome:
    timeout_ms = int(CASE_TIMEOUT_S * 1000)
    request = {"script": case.script, "cwd": "/", "env": dict(BASH_ENV, HOME="/"),
               "limits": {"timeout_ms": timeout_ms, "max_output_bytes": 10_000_000},
               "output_encoding": "base64"}
    with tempfile.TemporaryDirectory(prefix="isolatesh-") as work:
        body = sandbox.run_bash(request, work, Limits(deadline_s=CASE_TIMEOUT_S + 5,
                                                      memory_bytes=1024 ** 3,
                                                      max_result_bytes=64 * 1024 * 1024))
        stdout, stderr = base64.b64decode(body["stdout"]), base64.b64decode(body["stderr"])
        return Outcome(stdout, int(body["exit_code"]), stderr == b"", snapshot_files(work), stderr)


@pytest.mark.parametrize("case", _params())
def test_case_matches_gnu_bash_in_the_isolate(sandbox: Sandbox, case: Case) -> None:
    if case.area not in _FIXTURES:
        _FIXTURES[case.area] = load_fixture(case.area)
    expected = _FIXTURES[case.area].get(case.name)
    assert expected is not None, f"no fixture recorded for {case.area}::{case.name}"
    assert compare(expected, run_in_isolate(sandbox, case)) == []

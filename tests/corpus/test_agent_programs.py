"""Every program of the corpus runs in a real isolate and produces its expected result."""

from __future__ import annotations

import importlib

import pytest

from sandbox import Limits, Sandbox

from corpus import Case

FAMILIES = ("data", "dates", "text", "archives", "markup", "algorithms", "sql", "templates",
            "spreadsheets", "algebra", "graphs", "logs", "scripts")
CASES: list[Case] = [c for family in FAMILIES
                     for c in importlib.import_module(f"corpus.{family}").CASES]
LIMITS = Limits(deadline_s=60)


def test_the_corpus_holds_at_least_200_distinct_programs() -> None:
    assert len(CASES) >= 200
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("program", CASES, ids=[c.name for c in CASES])
def test_the_program_produces_its_expected_output(sandbox: Sandbox, program: Case) -> None:
    outcome = sandbox.execute(program.code, limits=LIMITS)
    assert outcome.exit_code == program.exit_code
    expected_status = "error" if program.exit_code else "completed"
    assert outcome.status == expected_status, (outcome.error, outcome.trap)
    assert outcome.result == program.result
    if program.logs is not None:
        assert outcome.logs == program.logs

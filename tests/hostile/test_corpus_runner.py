"""The hostile corpus's runner, judged without a service: the corpus is big enough and
spread over every area, each predicate is an expression over the outcome, and a predicate
or invariant that does not hold is reported (so a case can fail)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hostile_runner import AREAS, Case, Context, CorpusError, Outcome, judge, load_cases


def test_the_corpus_has_150_cases_over_every_area() -> None:
    areas = Counter(case.area for case in load_cases())
    assert sum(areas.values()) >= 150
    assert set(areas) == set(AREAS) and min(areas.values()) >= 8, areas


def test_every_predicate_reads_the_outcome() -> None:
    assert all("o." in case.expect for case in load_cases())


def test_xfails_name_the_finding_they_wait_for() -> None:
    reasons = [case.xfail for case in load_cases() if case.xfail]
    assert all(r.startswith(("issue 12", "fuzz finding", "corpus finding")) for r in reasons), reasons


def _context(tmp_path: Path, url: str = "http://127.0.0.1:9") -> Context:
    sentinel = tmp_path / "secret.txt"
    sentinel.write_text("the-secret\n")
    return Context(url, "token", sentinel, "the-secret", tmp_path, "CANARY", "canary-value")


def _case(expect: str) -> Case:
    return Case("c", "network", "a test", {"kind": "execute", "value": "1", "body": {}}, expect)


ERROR = Outcome(200, '{"status": "error"}', 0.1, {"status": "error", "result": None,
                                                 "error": {"name": "ModuleNotFoundError"}})


def test_a_predicate_that_holds_is_not_reported(tmp_path: Path) -> None:
    problems = judge(_context(tmp_path), _case("o.status == 'error'"), ERROR)
    assert [p for p in problems if "expect" in p] == []


def test_a_deliberately_wrong_predicate_fails(tmp_path: Path) -> None:
    problems = judge(_context(tmp_path), _case("o.status == 'completed'"), ERROR)
    assert "expect does not hold: o.status == 'completed'" in problems


def test_a_predicate_that_raises_fails(tmp_path: Path) -> None:
    problems = judge(_context(tmp_path), _case("o.result['x'] == 1"), ERROR)
    assert any(p.startswith("expect raised TypeError") for p in problems)


def test_a_leaked_secret_or_changed_host_file_or_dead_service_fails(tmp_path: Path) -> None:
    context = _context(tmp_path)
    leaked = Outcome(200, "... the-secret ... canary-value", 0.1, {"status": "error"})
    context.sentinel.write_text("overwritten")
    problems = judge(context, _case("o.status == 'error'"), leaked)
    assert "a response carries the host file's secret" in problems
    assert "a response carries the host environment's secret" in problems
    assert any("changed" in p for p in problems)
    assert "/healthz does not answer after the case" in problems  # nothing listens on :9


@pytest.mark.parametrize("text, fragment", [
    ('area = "moon"\n', "area"),
    ('area = "network"\n[[case]]\nid = "x"\ntries = "t"\nexpect = "o.http == 1"\n', "exactly one"),
    ('area = "network"\n[[case]]\nid = "x"\ntries = "t"\nexecute = "1"\nexpect = "o.http =="\n',
     "invalid syntax"),
])
def test_a_malformed_case_file_is_refused(tmp_path: Path, text: str, fragment: str) -> None:
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises((CorpusError, SyntaxError), match=fragment):
        load_cases(tmp_path)

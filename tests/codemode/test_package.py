"""The surface of the package: one way in, grouped; the durable vocabulary defined once.
(Every module's docstring and size limits: ``tests/test_shape.py``; imports: ``tests/test_layers.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import codemode

PACKAGE = Path(codemode.__file__).parent


def _all_groups() -> list[tuple[str, list[str]]]:
    source = (PACKAGE / "__init__.py").read_text()
    body = re.search(r"^__all__ = \[\n(.*?)^\]", source, re.S | re.M)
    assert body is not None
    groups: list[tuple[str, list[str]]] = []
    for line in body.group(1).splitlines():
        line = line.strip()
        if line.startswith("#"):
            groups.append((line.lstrip("# "), []))
        elif line:
            assert groups, "every name in __all__ sits under a group comment"
            groups[-1][1].append(line.strip('",'))
    return groups


def test_all_is_grouped_under_comments_and_sorted_within_each_group() -> None:
    groups = _all_groups()
    assert len(groups) >= 8
    for title, names in groups:
        assert names, f"group {title!r} is empty"
        assert names == sorted(names), f"group {title!r} is not sorted"
    assert [n for _, names in groups for n in names] == list(codemode.__all__)


def test_the_glossary_defines_the_durable_vocabulary_once() -> None:
    doc = codemode.__doc__ or ""
    glossary = doc.split("Glossary", 1)[1]
    for term in ("execution", "journal", "entry", "step", "seq", "replay", "divergence",
                 "park", "decision", "resume", "recovery", "rollback", "ledger", "action"):
        assert re.search(rf"^    {term}\b", glossary, re.M), f"{term} is not defined"

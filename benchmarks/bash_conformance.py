"""Bash conformance: how many recorded GNU bash cases our interpreter matches, per area.

    .venv/bin/python benchmarks/bash_conformance.py [--pattern '*.test.sh'] [--show-failures]

Each case in ``tests/bash/cases`` was recorded from GNU bash (``tests/bash/record.py``); a
case passes when stdout bytes, exit status, stderr emptiness and the resulting files all
match. Known divergences (listed in each case file's header) count as differences.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bash"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wasm" / "guest"))

from run_cases import compare, load_cases, load_fixture, run_in_interpreter  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pattern", default="*.test.sh")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures: list[str] = []
    fixtures: dict[str, dict[str, Any]] = {}
    for case in load_cases(args.pattern):
        if case.area not in fixtures:
            fixtures[case.area] = load_fixture(case.area)
        expected = fixtures[case.area].get(case.name)
        family = case.area.split("_")[0] if case.area.startswith("lang") else case.area
        totals[family][1] += 1
        if expected is None:
            failures.append(f"{case.area}::{case.name}: no fixture recorded")
            continue
        diffs = compare(expected, run_in_interpreter(case))
        if diffs:
            failures.append(f"{case.area}::{case.name}: {'; '.join(diffs)[:200]}")
        else:
            totals[family][0] += 1
    print(f"| {'area':<20} | {'identical':>9} | {'cases':>5} | {'rate':>7} |")
    print(f"|{'-' * 22}|{'-' * 11}|{'-' * 7}|{'-' * 9}|")
    passed = total = 0
    for area in sorted(totals):
        ok, count = totals[area]
        passed, total = passed + ok, total + count
        print(f"| {area:<20} | {ok:>9} | {count:>5} | {ok / count:>6.1%} |")
    print(f"| {'all':<20} | {passed:>9} | {total:>5} | {passed / max(total, 1):>6.1%} |")
    if args.show_failures:
        print("\n".join(failures))


if __name__ == "__main__":
    main()

"""Re-record the GNU bash fixtures: ``PYTHONPATH=wasm/guest:tests/bash python tests/bash/record.py [area ...]``.

Runs every case of ``cases/<area>.test.sh`` in ``/bin/bash`` (``env -i`` with a fixed PATH,
HOME, LC_ALL=C, TZ=UTC, in a fresh temp directory) and writes ``fixtures/<area>.json``.
A case file with the line ``# Recorded as a non-root user`` before its first case is run as
``nobody`` when the recorder runs as root: what its cases show (``ulimit`` raising a hard
limit) differs for root, and the sandbox's script is never root.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from run_cases import case_files, parse_case_file, run_in_bash, write_fixture

NON_ROOT = "# Recorded as a non-root user"


def recording_user(path: Path) -> str | None:
    """The user to run ``path``'s cases as (None: the recorder's own)."""
    header = path.read_text(encoding="utf-8").split("\n### ", 1)[0]
    wants_non_root = any(line.startswith(NON_ROOT) for line in header.split("\n"))
    return "nobody" if wants_non_root and os.geteuid() == 0 else None


def main(argv: list[str]) -> int:
    bash = "/bin/bash"
    version = subprocess.run([bash, "-c", "echo $BASH_VERSION"], capture_output=True, text=True).stdout.strip()
    wanted = set(argv)
    for path in case_files():
        cases = parse_case_file(path)
        if not cases:
            continue
        area = cases[0].area
        if wanted and area not in wanted:
            continue
        user = recording_user(path)
        outcomes = {case.name: run_in_bash(case, bash, user) for case in cases}
        write_fixture(area, outcomes, version)
        print(f"{area}: recorded {len(outcomes)} cases with bash {version}" + (f" as {user}" if user else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

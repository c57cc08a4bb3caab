"""Re-record the GNU bash fixtures: ``PYTHONPATH=wasm/guest:tests/bash python tests/bash/record.py [area ...]``.

Runs every case of ``cases/<area>.test.sh`` in ``/bin/bash`` (``env -i`` with a fixed PATH,
HOME, LC_ALL=C, TZ=UTC, in a fresh temp directory) and writes ``fixtures/<area>.json``.
"""

from __future__ import annotations

import subprocess
import sys

from run_cases import case_files, parse_case_file, run_in_bash, write_fixture


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
        outcomes = {case.name: run_in_bash(case, bash) for case in cases}
        write_fixture(area, outcomes, version)
        print(f"{area}: recorded {len(outcomes)} cases with bash {version}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

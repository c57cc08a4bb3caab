"""Target ``bash_expand``: arbitrary text run as a script by the guest's interpreter
(``bash.run_script``: parse, brace/parameter/arithmetic/pattern expansion, evaluation)
over an empty temporary directory seen as ``/``, with small limits; and each line through
brace expansion (``bash.braces.expand_braces``) alone.

A finding: ``run_script`` raising at all (it documents that it never raises for script
errors), an interpreter bug it had to contain (``bash: internal error:`` on stderr), an exit
status outside 0-255, a file created beside the directory the script sees as ``/``, brace
expansion returning more words than its limit or raising anything but ``LimitExceeded``,
and a hang past the harness's bound (the script's own deadline is 2 s).
"""

from __future__ import annotations

import os
import tempfile

from bash import BashLimits, run_script
from bash.braces import expand_braces
from bash.errors import LimitExceeded

from ._harness import Finding, Known, allow, text

MAX_LEN = 2048
BRACE_LIMIT = 1000
KNOWN: tuple[Known, ...] = ()
LIMITS = BashLimits(timeout_ms=2000, max_output_bytes=16_000, max_commands=2000,
                    max_loop_iterations=2000, max_call_depth=30, max_substitution_depth=10,
                    max_string_bytes=1_000_000, max_array_elements=10_000,
                    max_brace_expansion=10_000, max_glob_operations=10_000,
                    max_heredoc_bytes=1_000_000)


def _braces(line: str) -> None:
    words = allow(lambda: expand_braces(line, BRACE_LIMIT), (LimitExceeded, RecursionError))
    if words is not None and len(words) > BRACE_LIMIT:
        raise Finding(f"brace expansion made {len(words)} words past its limit {BRACE_LIMIT}")


def one_input(data: bytes) -> None:
    script = text(data)
    for line in script.splitlines()[:8]:
        _braces(line)
    with tempfile.TemporaryDirectory(prefix="fuzz-bash-") as scratch:
        root = os.path.join(scratch, "root")
        os.mkdir(root)
        result = allow(lambda: run_script(script, root=root, limits=LIMITS), ())
        beside = sorted(set(os.listdir(scratch)) - {"root"})
    if beside:
        raise Finding(f"the script wrote beside its root: {beside}")
    if b"bash: internal error:" in result.stderr:
        raise Finding(result.stderr.decode("utf-8", "replace")[-500:])
    if not 0 <= result.exit_code <= 255:
        raise Finding(f"exit status {result.exit_code}")

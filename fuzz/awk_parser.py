"""Target ``awk_parser``: arbitrary text as an awk program, through the guest's awk lexer and
parser (``bash/commands/awk/parse.py``: ``Parser(...).parse()``).

A finding: an exception other than ``AwkSyntaxError`` (which ``awk`` reports with its line,
exit 2; a program nested past the parser's bound is one, "nesting too deep"), such as a
``RecursionError`` at the guest's recursion limit; a result that is not the
``(items, functions)`` pair; a hang past the harness's bound.
"""

from __future__ import annotations

import sys

from bash import RECURSION_LIMIT
from bash.commands.awk.parse import AwkSyntaxError, Parser

from ._harness import Finding, Known, allow, text

MAX_LEN = 8192
GUEST_RECURSION_LIMIT = RECURSION_LIMIT
"""What ``bash.run_script`` sets in the guest, so nesting fails here as deep as it does there."""
KNOWN: tuple[Known, ...] = ()


def one_input(data: bytes) -> None:
    sys.setrecursionlimit(GUEST_RECURSION_LIMIT)
    parsed = allow(lambda: Parser(text(data)).parse(), (AwkSyntaxError,))
    if parsed is not None:
        items, functions = parsed
        if not isinstance(items, list) or not isinstance(functions, dict):
            raise Finding(f"awk parse returned {type(items).__name__}, {type(functions).__name__}")

"""Target ``jq_parser``: arbitrary text as a jq filter, through the guest's jq lexer, parser
and name check (``bash/commands/jq/parse.py``: ``Parser(...).parse()``, ``check``).

A finding: an exception other than ``JqCompileError`` (which ``jq`` reports as a compile
error, exit 3; a filter nested past the parser's bound is one, "filter nesting too deep");
a hang past the harness's bound (the parser is linear in the filter: it used to backtrack
exponentially on unclosed ``[``, ``(`` and ``if`` and on nested string interpolations).
"""

from __future__ import annotations

import sys

from bash import RECURSION_LIMIT
from bash.commands.jq.builtins import KNOWN_FUNCTIONS
from bash.commands.jq.command import PREDEFINED_VARIABLES
from bash.commands.jq.parse import JqCompileError, Parser, check

from ._harness import Known, allow, text

MAX_LEN = 2048
GUEST_RECURSION_LIMIT = RECURSION_LIMIT
"""What ``bash.run_script`` sets in the guest, so nesting fails here as deep as it does there."""
KNOWN: tuple[Known, ...] = ()
DOCUMENTED = (JqCompileError,)


def one_input(data: bytes) -> None:
    sys.setrecursionlimit(GUEST_RECURSION_LIMIT)
    source = text(data)
    ast = allow(lambda: Parser(source).parse(), DOCUMENTED)
    if ast is not None:
        allow(lambda: check(ast, KNOWN_FUNCTIONS, PREDEFINED_VARIABLES, source), DOCUMENTED)

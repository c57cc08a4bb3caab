"""Target ``jq_parser``: arbitrary text as a jq filter, through the guest's jq lexer, parser
and name check (``bash/commands/jq/parse.py``: ``Parser(...).parse()``, ``check``).

A finding: an exception other than ``JqCompileError`` (which ``jq`` reports as a compile
error, exit 3) and ``RecursionError`` (which ``jq`` reports as "filter nesting too deep");
a hang past the harness's bound.
"""

from __future__ import annotations

from bash.commands.jq.parse import JqCompileError, Parser, check

from ._harness import Known, allow, text

MAX_LEN = 2048
KNOWN = (Known(r"[\[(]|\bif\b", "fuzz finding: parse time doubles with every two unclosed `[`, "
               "`(` or `if` (`jq \"$(printf '[%.0s' {1..40})\"` runs to the deadline)", inputs=10),)
DOCUMENTED = (JqCompileError, RecursionError)
KNOWN_FUNCS = frozenset({("length", 0), ("map", 1), ("select", 1), ("keys", 0), ("empty", 0),
                         ("tostring", 0), ("add", 0), ("range", 1), ("range", 2), ("not", 0)})


def one_input(data: bytes) -> None:
    source = text(data)
    ast = allow(lambda: Parser(source).parse(), DOCUMENTED)
    if ast is not None:
        allow(lambda: check(ast, KNOWN_FUNCS, frozenset({"ENV", "__loc__"}), source), DOCUMENTED)

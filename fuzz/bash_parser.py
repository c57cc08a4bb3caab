"""Target ``bash_parser``: arbitrary text into the guest's bash parser (``bash.parse``),
whole (``parse_script``) and command by command (``Parser.next_command``, as the
interpreter reads a script), with and without ``extglob``.

A finding: an exception other than ``ShellSyntaxError`` (``RecursionError`` is contained by
``run_script`` and allowed here); incremental parsing that does not advance or ends in a
different outcome than a whole parse; a hang past the harness's bound.
"""

from __future__ import annotations

import sys

from bash import RECURSION_LIMIT
from bash.errors import ShellSyntaxError
from bash.parse import Parser, parse_script

from ._harness import Finding, allow, text

MAX_LEN = 4096
DOCUMENTED = (ShellSyntaxError, RecursionError)


def _incremental(source: str, extglob: bool) -> int:
    parser = Parser(source)
    parser.extglob = extglob
    count = 0
    while True:
        before = parser.i
        node = parser.next_command()
        if node is None:
            return count
        if parser.i <= before:
            raise Finding(f"next_command returned a command without advancing (at {before})")
        count += len(node.items)


def one_input(data: bytes) -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    source = text(data)
    whole = allow(lambda: len(parse_script(source).items), DOCUMENTED)
    for extglob in (True, False):
        pieces = allow(lambda: _incremental(source, extglob), DOCUMENTED)
        if extglob and pieces != whole:
            raise Finding(f"a whole parse gives {whole} commands, command by command {pieces}")

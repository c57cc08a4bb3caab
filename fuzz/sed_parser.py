"""Target ``sed_parser``: arbitrary text as a sed script, basic and extended
(``bash/commands/sed/parse.py``: ``Parser(script, extended).parse()``, which also compiles
every regex through ``sed/regex.py``).

A finding: an exception other than ``SedError`` (which ``sed`` reports as
``sed: -e expression #1, char N: ...``); a branch to a command index outside the script; a
hang past the harness's bound.
"""

from __future__ import annotations

from bash.commands.sed.parse import Parser, SedError

from ._harness import Finding, allow, text

MAX_LEN = 2048
JUMPS = frozenset("btT{")


def one_input(data: bytes) -> None:
    script = text(data)
    for extended in (False, True):
        cmds = allow(lambda: Parser(script, extended).parse(), (SedError,))
        for cmd in cmds or ():
            if cmd.name in JUMPS and not 0 <= cmd.target <= len(cmds):
                raise Finding(f"command {cmd.name!r} jumps to {cmd.target} of {len(cmds)}")

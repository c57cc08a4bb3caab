"""awk: a POSIX awk with mawk 1.3.4 behaviour where POSIX is silent (see ``base.py``).

This package owns the ``awk`` (``mawk``, ``nawk``) command:

- ``command``: the command line and the run over the inputs
- ``parse``: lexer and parser, program text to a tuple AST
- ``runtime``: compiles the AST to closures and runs it, in layers: ``state`` (variables,
  the record and fields, conversions), ``io`` (redirections, pipes, main input), ``expressions``,
  ``builtins`` (the builtin functions) and ``runtime`` (statements, rules, the main loop)
- ``records``: input split into records by RS
- ``value``: numbers, strings, numeric strings and their conversions
- ``array``: arrays in mawk's layout (so ``for (k in a)`` order matches)
- ``format``: printf/sprintf with C semantics

Regular expressions are POSIX EREs translated by ``sed.regex``.
"""

from __future__ import annotations

from .command import COMMANDS

__all__ = ["COMMANDS"]

"""jq: a jq 1.6-compatible JSON processor (see ``base.py`` for the command protocol).

This package owns the ``jq`` command:

- ``command``: the command line and the loop over the inputs
- ``parse``: lexer and parser, filter text to a tuple AST
- ``evaluate``: generators over the AST, plus path expressions
- ``operators``: arithmetic and comparison (``binop``); ``formats``: the ``@formats``
- ``builtins``: the native builtins by family, and the prelude defined in jq
- ``json``: parsing input streams, printing exactly as jq 1.6 does, and jq's ordering
"""

from __future__ import annotations

from .command import COMMANDS

__all__ = ["COMMANDS"]

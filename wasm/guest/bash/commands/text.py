"""The text-processing command family: registers every text command with the registry.

The implementations live in private modules by theme (``_text_basic`` for whole-stream
commands, ``_text_grep``, ``_text_sort``, ``_text_diff``, ``_text_bc`` ...); this module only
collects their tables so ``commands/__init__.py`` sees one family.
"""

from __future__ import annotations

from . import _text_basic, _text_bc, _text_diff, _text_encode, _text_expr, _text_fields, _text_format, _text_grep, _text_sort
from .base import Command

COMMANDS: dict[str, Command] = {}
for _table in (_text_basic.COMMANDS, _text_grep.COMMANDS, _text_sort.COMMANDS, _text_fields.COMMANDS, _text_format.COMMANDS, _text_encode.COMMANDS, _text_diff.COMMANDS, _text_expr.COMMANDS, _text_bc.COMMANDS):
    COMMANDS.update(_table)

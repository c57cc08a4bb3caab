"""The registry of bash commands: every family module contributes its ``COMMANDS`` table.

A family (a module, or a package whose ``__init__`` is its way in: ``awk``, ``jq``, ``sed``,
``files``, ``text``, ``data``, ``git``) holds related commands behind the one protocol of ``base.py`` and
exports ``COMMANDS: dict[str, Command]``. This module merges them; a name defined twice is a bug
and fails at import (so at guest build time, not in a user's script).
"""

from __future__ import annotations

from .. import builtins
from . import awk, data, files, git, jq, sed, text
from .base import Command, CommandContext, CommandResult

FAMILIES = (builtins, files, text, awk, sed, jq, data, git)


def _merge() -> dict[str, Command]:
    merged: dict[str, Command] = {}
    for family in FAMILIES:
        for name, command in family.COMMANDS.items():
            if name in merged:
                raise RuntimeError(f"bash command {name!r} is defined twice ({family.__name__})")
            merged[name] = command
    return merged


COMMANDS: dict[str, Command] = _merge()

__all__ = ["COMMANDS", "Command", "CommandContext", "CommandResult"]

"""Data commands: ``sqlite3`` (over the guest's sqlite3 module), ``xan`` (a CSV toolkit),
``yq`` (YAML through jq) and ``html-to-markdown``; see each module."""

from __future__ import annotations

from ..base import Command
from . import csvkit, htmlmd, sqlite, yq

COMMANDS: dict[str, Command] = {**sqlite.COMMANDS, **csvkit.COMMANDS, **htmlmd.COMMANDS, **yq.COMMANDS}

__all__ = ["COMMANDS"]

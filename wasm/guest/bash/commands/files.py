"""File commands (ls, cp, find, ...): the family table; each command lives in a ``_files_*`` module."""

from __future__ import annotations

from . import _files_chmod, _files_copy, _files_find, _files_ls, _files_misc, _files_ops, _files_paths
from .base import Command

COMMANDS: dict[str, Command] = {}
for _module in (_files_chmod, _files_copy, _files_find, _files_ls, _files_misc, _files_ops,
                _files_paths):
    COMMANDS.update(_module.COMMANDS)

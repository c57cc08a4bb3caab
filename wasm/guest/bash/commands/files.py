"""File commands (ls, cp, find, ...): the family table; each command lives in a ``_files_*`` module."""

from __future__ import annotations

from . import (
    _files_chmod,
    _files_chown,
    _files_copy,
    _files_du,
    _files_find,
    _files_ls,
    _files_ops,
    _files_paths,
    _files_split,
    _files_stat,
    _files_tree,
    _files_type,
)
from ._files_help import with_help
from .base import Command

COMMANDS: dict[str, Command] = {}
for _module in (_files_chmod, _files_chown, _files_copy, _files_du, _files_find, _files_ls,
                _files_ops, _files_paths, _files_split, _files_stat, _files_tree, _files_type):
    for _name, _command in _module.COMMANDS.items():
        COMMANDS[_name] = with_help(_name, _command)

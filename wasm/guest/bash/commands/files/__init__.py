"""File and archive commands (ls, cp, find, tar, gzip, ...): one module per command or family.

This package owns:

- ``ls``, ``stat``, ``tree``, ``du``, ``file`` (``file.py``): looking at files
- ``copy`` (cp mv ln), ``ops`` (mkdir rmdir touch rm), ``chmod``, ``chown`` (chown chgrp)
- ``paths`` (readlink realpath basename dirname mktemp), ``split`` (split tee)
- ``find`` (with ``findfmt``, its ``-printf``), ``tar``, ``gzip`` (gzip gunzip zcat, over
  ``gzipfmt``, the file format)
- shared: ``common`` (quoting, paths, errors, modes), ``glob`` (wildcards and find's
  regexes), ``dates`` (``touch -d``, ``find -newermt``), ``help`` (``--help``/``--version``)

Every command is registered wrapped by ``help.with_help``.
"""

from __future__ import annotations

from . import chmod, chown, copy, du, find, gzip, ls, ops, paths, split, stat, tar, tree
from . import file as file_command
from ..base import Command
from .help import with_help

COMMANDS: dict[str, Command] = {}
for _module in (chmod, chown, copy, du, find, ls, ops, paths, split, stat, tree, file_command, gzip, tar):
    for _name, _command in _module.COMMANDS.items():
        COMMANDS[_name] = with_help(_name, _command)

__all__ = ["COMMANDS"]

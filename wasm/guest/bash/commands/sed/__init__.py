"""sed: the GNU sed 4.x stream editor, and the POSIX regex translation awk shares.

This package owns:

- ``command``: the ``sed`` command line and the executor
- ``parse``: sed scripts to a flat command list
- ``regex``: POSIX BRE/ERE (GNU flavour) translated to Python ``re``; awk uses it too
"""

from __future__ import annotations

from .command import COMMANDS
from .regex import RegexError, argv_text, bytes_text, compile_posix

__all__ = ["COMMANDS", "RegexError", "argv_text", "bytes_text", "compile_posix"]

"""Where ``exec`` and ``bash`` get their program: ``-c TEXT``, a file, or ``-`` for stdin."""

from __future__ import annotations

import sys
from pathlib import Path

from .output import CommandError


def program_text(inline: str | None, file: str | None, what: str) -> str:
    """The program to run; a missing or unreadable file is a :class:`CommandError` (exit 1),
    no program at all one with exit status 2 (the command line is incomplete)."""
    if inline is not None:
        return inline
    if file == "-":
        return sys.stdin.read()
    if not file:
        raise CommandError(f"give -c {what} or a FILE (- for stdin)", status=2)
    try:
        return Path(file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{file}: no such file") from None
    except UnicodeDecodeError:
        raise CommandError(f"{file}: not UTF-8 text") from None
    except OSError as exc:
        raise CommandError(f"{file}: {exc.strerror or exc}") from None

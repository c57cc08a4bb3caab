"""Where ``exec`` and ``bash`` get their program (``-c TEXT``, a file, or ``-`` for stdin) and
how their numeric options are read."""

from __future__ import annotations

import argparse
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


def positive_int(text: str) -> int:
    """An argparse type: a whole number above 0 (else a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0")
    return value

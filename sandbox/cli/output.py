"""How the commands print and fail: JSON for machines (indented), text as it is, and
:class:`CommandError`, an expected failure that ``main`` reports as one line on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["CommandError", "os_error", "print_json", "say"]


class CommandError(Exception):
    """An expected failure of a command (a missing file, workspace or service): ``main``
    prints ``sandbox <command>: <message>`` on stderr and exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def say(command: str, message: str) -> None:
    """One line on stderr, prefixed with the command it comes from."""
    print(f"sandbox {command}: {message}", file=sys.stderr)


def os_error(exc: OSError) -> str:
    """An OSError as one line: ``<file>: <reason>``."""
    target = f"{exc.filename}: " if exc.filename else ""
    return f"{target}{exc.strerror or exc}"

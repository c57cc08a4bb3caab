"""text commands (see base.py for the protocol)."""

from __future__ import annotations

from .base import Command

COMMANDS: dict[str, Command] = {}

"""A corpus of realistic agent programs, each with the result it must produce in the guest.

Each family module (``data.py``, ``dates.py``, ...) holds ``CASES``: programs of the kind
models write for agents (munging csv and json, dates across time zones, reports, archives,
XML and HTML, regular expressions, small algorithms, SQL, templates, spreadsheets, algebra,
graphs, logging), written here, with the value their last expression must have (or the
lines they must print). ``test_agent_programs.py`` runs every one in a real isolate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    result: Any = None
    logs: list[str] | None = field(default=None)
    """When set, the printed lines must be exactly these."""
    exit_code: int | None = None
    """When set, the program must exit with this status (``sys.exit``)."""


def case(name: str, code: str, result: Any = None, logs: list[str] | None = None,
         exit_code: int | None = None) -> Case:
    return Case(name, code.strip("\n"), result, logs, exit_code)

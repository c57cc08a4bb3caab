"""What every builtin family shares: the two kinds of registry entry, the output helpers and
the run's recorded file modes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generator

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO

Gen = Generator[bytes, None, int]
"""A builtin that runs other commands: yields their output, returns the exit status."""


@dataclass(frozen=True)
class Builtin:
    """A builtin that works on the shell and its descriptors and returns its exit status."""

    run: Callable[["Shell", list[str], "IO"], int]
    bash_builtin: bool = True
    """False for the commands that live here only because they need the shell (``date``,
    ``sleep``, ``which``...): bash runs those from ``/usr/bin``, so ``type`` and ``builtin``
    must not call them builtins."""


@dataclass(frozen=True)
class StreamingBuiltin:
    """A builtin that runs other commands (``eval``, ``command``, ``xargs``...): a generator
    that yields their output as it comes, so it can stream through a pipeline."""

    run: Callable[["Shell", list[str], "IO"], Gen]
    bash_builtin: bool = True
    """As for ``Builtin``."""


Entry = Builtin | StreamingBuiltin
"""One row of a family's ``BUILTINS`` table."""


def encode(text: str) -> bytes:
    """Text as the bytes a builtin writes (undecodable bytes round-trip)."""
    return text.encode("utf-8", "surrogateescape")


class _Line:
    """The line of the builtin now running (set by ``invoke`` before each builtin call; the
    guest runs one script at a time), so its messages read ``bash: line N: ...`` as bash's do."""

    number = 0


CURRENT_LINE = _Line()


def print_error(io: "IO", text: str) -> None:
    """Write ``bash: line N: <text>`` to the builtin's standard error."""
    line = CURRENT_LINE.number
    io.out(2).write(encode(f"bash: line {line}: {text}\n" if line > 0 else f"bash: {text}\n"))


def file_modes(sh: "Shell") -> dict[str, int] | None:
    """Permission bits ``chmod`` recorded during this run (see ``streams.can_access``)."""
    table = getattr(sh.state.counters, "file_modes", None)
    return table if isinstance(table, dict) else None

"""The one protocol every bash command implements, and the context it runs with.

The guest has no threads and spawns no processes, so a pipeline cannot run its stages
concurrently. Commands are therefore *generators*: a command pulls its standard input
lazily from ``ctx.stdin`` (an iterator of byte chunks) and yields its standard output as
byte chunks. The pipeline driver chains generators, so ``yes | head -3`` finishes at once:
``head`` stops pulling after three lines and the driver closes ``yes``.

A command returns its exit status (the generator's return value, ``StopIteration.value``).
Standard error is pushed, not yielded: write bytes to ``ctx.stderr`` (a ``bytearray``-like
sink the interpreter owns, capped by the output limit).

    def run(ctx: CommandContext, argv: list[str]) -> Iterator[bytes]:  # Generator[bytes, None, int]
        for line in ctx.lines():
            yield line.upper()
        return 0

Paths: the script sees the workspace at ``/``. ``ctx.host_path(p)`` maps a script path
(absolute or relative to ``ctx.cwd``) to the real path to open; it never resolves above the
workspace root. Commands open files only through it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Generator, Iterator, Protocol

CommandResult = Generator[bytes, None, int]


class Sink(Protocol):
    def write(self, data: bytes, /) -> object: ...


@dataclass
class CommandContext:
    """What a command may touch: its streams, the environment and the filesystem."""

    stdin: Iterator[bytes]
    """Standard input as an iterator of byte chunks (chunk boundaries are arbitrary)."""
    stderr: Sink
    """Where error messages go; written directly, never yielded."""
    cwd: str
    """The current directory as the script sees it (always absolute, e.g. ``/src``)."""
    env: dict[str, str]
    """Exported variables, as ``env`` would print them."""
    root: str
    """Real directory that the script sees as ``/`` (``/`` itself inside the isolate)."""
    run_command: Callable[[list[str], Iterator[bytes]], CommandResult] | None = None
    """Runs another command by name (``find -exec``, awk's ``system()`` and pipes)."""
    extras: dict[str, object] = field(default_factory=dict)
    """Interpreter services a command family may need (documented where used)."""

    def resolve(self, path: str) -> str:
        """Return the script-visible absolute, normalised path for ``path``."""
        if not path.startswith("/"):
            path = self.cwd.rstrip("/") + "/" + path
        parts: list[str] = []
        for segment in path.split("/"):
            if segment in ("", "."):
                continue
            if segment == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(segment)
        return "/" + "/".join(parts)

    def host_path(self, path: str) -> str:
        """Map a script path to the real path to open; never above ``root``."""
        virtual = self.resolve(path)
        if self.root in ("", "/"):
            return virtual
        return os.path.join(self.root, virtual.lstrip("/")) if virtual != "/" else self.root

    def open_pipe(self, path: str, mode: str) -> object | None:
        """``path`` when it is a live process substitution's ``/dev/fd/N``, opened through
        the interpreter in ``extras["shell"]``: an iterator of chunks for ``r``, a sink with
        ``write``/``close`` for ``w``; None for any other path."""
        if not path.startswith("/dev/fd/"):
            return None
        opener = getattr(self.extras.get("shell"), "open_pipe", None)
        return opener(path, mode) if callable(opener) else None

    def error(self, message: str) -> None:
        """Write ``message`` and a newline to standard error."""
        self.stderr.write(message.encode("utf-8", "surrogateescape") + b"\n")

    def read_all_stdin(self) -> bytes:
        return b"".join(self.stdin)

    def lines(self) -> Iterator[bytes]:
        """Standard input split into lines, each keeping its trailing newline (if any)."""
        pending = b""
        for chunk in self.stdin:
            pending += chunk
            while True:
                cut = pending.find(b"\n")
                if cut < 0:
                    break
                yield pending[: cut + 1]
                pending = pending[cut + 1 :]
        if pending:
            yield pending


Command = Callable[[CommandContext, list[str]], CommandResult]
"""A command: called with its context and full argv (``argv[0]`` is the command name)."""

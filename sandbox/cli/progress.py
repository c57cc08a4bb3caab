"""Progress on long CLI work: a bar per step on a terminal's stderr, nothing otherwise.

The long work is making the guest ready (build about 15 s, compile about 10 s, once per
machine and guest version); :func:`guest_ready` wraps :func:`sandbox.ensure_compiled` with a
:func:`progress_step` display. Neither step reports how far it has got, so the bar pulses
beside the elapsed time instead of pretending to a percentage.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from .. import CompiledGuest, CompiledScience, ensure_compiled, ensure_science

__all__ = ["guest_ready", "logged_step", "progress_step", "science_ready", "stderr_console"]

StepDisplay = Callable[[str, float], AbstractContextManager[object]]


def stderr_console() -> Console | None:
    """A console on stderr when stderr is a terminal, else None (stay quiet)."""
    return Console(stderr=True) if sys.stderr.isatty() else None


def progress_step(bar: Progress) -> StepDisplay:
    """A step hook that shows each step as a row of ``bar`` while it runs."""
    @contextmanager
    def step(what: str, expected_s: float) -> Iterator[object]:
        task = bar.add_task(what, total=None, note=f"about {expected_s:.0f} s, once")
        try:
            yield task
        finally:
            bar.update(task, total=1, completed=1, note="done")

    return step


def _bar(console: Console) -> Progress:
    return Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                    TimeElapsedColumn(), TextColumn("[dim]{task.fields[note]}"), console=console)


def _quiet(_message: str) -> None:
    pass


def logged_step(say: Callable[[str], None]) -> StepDisplay:
    """A step hook that says when each step starts and how long it took (for logs)."""
    @contextmanager
    def step(what: str, expected_s: float) -> Iterator[object]:
        started = time.monotonic()
        say(f"{what} (once, about {expected_s:.0f} s)...")
        yield None
        say(f"{what}: done in {time.monotonic() - started:.1f} s")

    return step


def _silent(_what: str, _expected_s: float) -> AbstractContextManager[object]:
    return nullcontext()


def guest_ready(cache_dir: Path | None = None, console: Console | None = None, *,
                quietly: bool = False, step: StepDisplay = _silent) -> CompiledGuest:
    """The compiled guest, built and compiled first if needed, with bars on ``console``
    (default: stderr if it is a terminal). Without one, or ``quietly``, each step goes to
    ``step`` instead, which by default shows nothing."""
    console = None if quietly else console or stderr_console()
    if console is None:
        return ensure_compiled(cache_dir, progress=_quiet, step=step)
    with _bar(console) as bar:
        return ensure_compiled(cache_dir, progress=_quiet, step=progress_step(bar))


def science_ready(cache_dir: Path | None = None, console: Console | None = None) -> CompiledScience:
    """The science engine's compiled snapshot, made first if needed: bars on a terminal,
    otherwise one line per step on stderr (it takes minutes: silence would look hung)."""
    console = console or stderr_console()
    if console is None:
        return ensure_science(cache_dir, progress=_quiet,
                              step=logged_step(lambda line: print(line, file=sys.stderr, flush=True)))
    with _bar(console) as bar:
        return ensure_science(cache_dir, progress=_quiet, step=progress_step(bar))

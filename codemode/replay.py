"""Replay: matching a resumed run's host calls against the journal of its earlier runs.

A resumed execution re-runs its code from the start in a fresh isolate. Each call it makes
gets the next ``seq``; when the journal already holds that step, the call must be the same
one (namespace and method) with the same canonical arguments, and then its recorded outcome
is the answer. Anything else is a :class:`~codemode.errors.ReplayDivergence`: the execution
stops with an error naming the step, what was recorded and what came, and nothing after it
runs. Divergence is reported, never guessed around (see ``durability.md``).

Kept free of I/O so the rules can be read, and tested, on their own.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import ReplayDivergence
from .records import JournalEntry

__all__ = ["check_step", "first_unconsumed", "replayable"]


def check_step(execution_id: str, recorded: JournalEntry, incoming: JournalEntry) -> None:
    """Raise :class:`ReplayDivergence` unless ``incoming`` is the call ``recorded`` records."""
    if (recorded.namespace, recorded.method) != (incoming.namespace, incoming.method):
        raise ReplayDivergence(recorded.seq, recorded.path, incoming.path,
                               execution_id=execution_id, kind="call")
    if recorded.args != incoming.args:
        raise ReplayDivergence(recorded.seq, recorded.path, incoming.path,
                               execution_id=execution_id, kind="arguments",
                               recorded_args=recorded.args, actual_args=incoming.args)


def replayable(recorded: JournalEntry) -> bool:
    """Whether the recorded outcome answers the call (else the call runs again).

    ``applied`` and ``error`` outcomes are what the code saw the first time, so they are
    replayed; an ephemeral entry is re-run by design; ``pending`` (just approved or still
    awaiting), ``executing`` (interrupted: run again under the same idempotency key) and
    ``reverted`` (undone: a fresh call) all run.
    """
    return recorded.state in ("applied", "error") and not recorded.ephemeral


def first_unconsumed(execution_id: str, entries: Iterable[JournalEntry],
                     consumed: int) -> ReplayDivergence | None:
    """The divergence of a run that ended after ``consumed`` steps with more recorded."""
    for entry in entries:
        if entry.seq >= consumed:
            return ReplayDivergence(entry.seq, entry.path, "the end of the code",
                                    execution_id=execution_id, kind="missing")
    return None

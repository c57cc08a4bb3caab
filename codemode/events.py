"""Execution events for watchers: an in-process bus, the history a watcher sees first, and SSE.

``GET /v1/executions/{id}/events`` lets an operator page or an agent host watch one
execution: its status, log lines, tool calls, approvals asked for and decided, and the
outcome. Three pieces live here:

- :class:`EventBus`, where the runtime publishes as things happen. Publishing never blocks
  and never raises: each watcher has a bounded queue, and one that falls behind is sent a
  final ``overflow`` event and dropped, so a slow watcher can never slow an execution.
  The bus keeps the last few events of each recently active execution, so a watcher that
  connects a moment late, or reconnects with ``Last-Event-ID``, still sees them.
- :func:`history_events`, the picture of an execution derived from its stored record,
  which is what a new watcher is sent first.
- :func:`sse_stream`, the bytes of the Server-Sent Events response that joins the two.

Event ids come from one bus-wide counter seeded from the clock, so they increase per
execution *and* across service restarts: a ``Last-Event-ID`` from before a restart (or from
before the bus forgot an idle execution) can never be mistaken for a recent one; the
stream notices the gap and sends the full history instead.

Every event a stream sends has its own id, increasing along the stream. A live event's id
is its bus position ``P``. The history a new watcher is sent first is a picture of the
execution as of one bus position ``M``; its events count down to it: ``M-3``, ``M-2``,
``M-1``, ``M`` (``M-k``: k more events of this picture follow). A watcher that reconnects
with ``Last-Event-ID: M-k`` gets the last k events of the same picture and then what
happened after ``M``, as long as nothing happened to the execution in between (else a new
picture: its full history again, with new ids); with ``M`` or ``P``, what happened after it.

Event types and their data::

    status              {status}
    log                 {line}
    tool_call           {seq, namespace, method, args, state, result?, error?, replayed?}
    approval_requested  {approval_id, seq, namespace, method, args, descriptor}
    approval_decided    {approval_id, decision, by, reason?}
    tool_requested      {seq, namespace, method, args}   a client-resolved call awaits its result
    <status>            {status, result?, error?, pending?}   the execution stopped: parked
                        (paused, awaiting_tool) or finished (completed, error, rejected,
                        rolled_back, cancelled, dead_letter); the event is named after it
    overflow            {message, dropped_from}     this watcher fell behind and is closed
    error               {message}                   the stream cannot be served (an outcome
                                                    ``error`` carries ``status`` instead)

The runtime publishes an outcome as ``completed`` with its status in the data (see
:meth:`EventBus.publish`); the bus names the event after the status. A run's printed lines
are published when it stops, after its record: all of them while someone watches, else only
those the buffer keeps (:meth:`EventBus.unwatched_tail`).

For the snapshot in :func:`sse_stream` to be exact, publish after the store write that the
event describes has committed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from codemode.errors import SubscriptionClosed
from codemode.codec import display_value
from codemode.records import EXECUTION_STATES, ExecutionRecord, JournalEntry
from sandbox import JSONText, value_of, writes_as_itself

__all__ = [
    "EVENT_TYPES",
    "FINAL_STATUSES",
    "PARKED_STATUSES",
    "EventBus",
    "ExecutionEvent",
    "Subscription",
    "completed_data",
    "event_data",
    "history_events",
    "sse_stream",
    "tool_call_data",
]

_log = logging.getLogger(__name__)

OUTCOME_TYPES = frozenset(EXECUTION_STATES - {"running"})
"""Names of the event that says an execution stopped (parked or finished): its status."""
EVENT_TYPES = frozenset(
    {
        "status",
        "log",
        "tool_call",
        "approval_requested",
        "approval_decided",
        "tool_requested",
        "overflow",
        "error",
    }
) | OUTCOME_TYPES
PARKED_STATUSES = frozenset({"paused", "awaiting_tool"})
"""Statuses an execution leaves again (after an approval or a client result): a watcher stays."""
FINAL_STATUSES = frozenset({"completed", "error", "rejected", "rolled_back", "cancelled",
                            "dead_letter"})
"""Statuses nothing follows; the stream ends after their ``completed`` event.

Any other status that is neither running nor parked also ends the stream: a watcher that
leaves too early can reconnect, whereas one held open forever costs the server.
"""

MAX_EVENT_CHARS = 64 * 1024
"""Largest JSON text of one event's data; bigger fields are cut to a preview (the full
values stay in the execution record)."""

EVENT_OVERHEAD_BYTES = 512
"""Memory an event costs beyond its JSON text (the dicts, the event, the deque slot): measured
with tracemalloc at about 480 bytes for a small event. Counting 64 instead, as before, let the
buffers hold about six times their stated bound (found by the soak benchmark)."""
_PREVIEW_CHARS = 2_000
_MAX_DEPTH = 100
_MAX_NODES = 200_000


# --- the event and its data ---------------------------------------------------------------


@dataclass(frozen=True)
class ExecutionEvent:
    """One thing that happened to an execution, as a watcher receives it.

    ``id`` is 0 for events that are not on the bus (an ``error``, an ``overflow``, or a
    history event not yet stamped); such events are sent without an SSE ``id:`` line so
    they never move a client's ``Last-Event-ID``. A history event is stamped with the bus
    position its picture reflects and ``remaining``, how many events of that picture follow
    it (its SSE id is ``id-remaining``, the last one's plain ``id``). ``data`` is expected to
    be JSON-ready (see :func:`event_data`); :meth:`to_sse` copes if it is not.
    """

    execution_id: str
    type: str
    data: dict[str, Any]
    id: int = 0
    remaining: int = 0

    @property
    def sse_id(self) -> str:
        """The SSE ``id:`` of this event ("" for one sent without)."""
        if self.id <= 0:
            return ""
        return f"{self.id}-{self.remaining}" if self.remaining > 0 else str(self.id)

    def to_sse(self) -> bytes:
        """The event as one SSE message: ``id:``, ``event:``, one ``data:`` line, blank line."""
        try:
            body = _dumps(self.data).encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError, RecursionError):
            body = _dumps(event_data(self.data)).encode("utf-8")
        # A field value may not contain a line break; event names are ours, but be sure.
        name = "".join(ch for ch in self.type if ch not in "\r\n") or "message"
        head = f"id: {self.sse_id}\n" if self.id > 0 else ""
        return f"{head}event: {name}\n".encode("utf-8") + b"data: " + body + b"\n\n"


def _dumps(value: Any) -> str:
    # Compact and single-line: json escapes CR and LF inside strings, so ``data:`` is one line.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def event_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-ready copy of ``data`` that always serialises and fits :data:`MAX_EVENT_CHARS`.

    Values take the execution record's tagged form (:func:`codemode.records.display_value`:
    bytes as ``{"$bytes": base64}``, non-finite floats as ``{"$float": ...}``, cycles as
    ``"[Circular]"``), and what has no JSON form becomes a marker string. Never raises.
    """
    return _sized_event_data(data)[0]


def _sized_event_data(data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """``event_data`` and the length of its JSON text (which ``EventBus`` charges its buffer
    for), from the one serialisation the size check makes anyway."""
    carried = {key: value.text for key, value in data.items() if isinstance(value, JSONText)}
    if carried:
        return _carried_event_data(data, carried) or _sized_event_data(
            {key: value_of(value) for key, value in data.items()})
    return _plain_event_data(data) or _displayed_event_data(data)


def _carried_event_data(data: Mapping[str, Any],
                        carried: dict[str, str]) -> tuple[dict[str, Any], int] | None:
    """:func:`_plain_event_data` for data whose ``carried`` fields are JSON texts already (a
    large result: ``sandbox.json_text``), cut to fit without parsing them; None when that is
    not certain, or the data fits an event whole (then it is parsed, as any small event)."""
    texts = _field_texts(data, carried)
    if texts is None or _joined_length(texts) <= MAX_EVENT_CHARS:
        return None
    # A long string's preview is its own first characters, as when it came as a value.
    values = {key: json.loads(carried[key]) if carried.get(key, "").startswith('"') else value
              for key, value in data.items()}
    return _long_event_data(values, texts)


def _field_texts(data: Mapping[str, Any], carried: Mapping[str, str]) -> dict[str, str] | None:
    """Each field's JSON text (``carried`` ones as given); None when a key is not a string
    or a field has no strict JSON text."""
    if not all(type(key) is str for key in data):
        return None
    try:
        return {key: carried[key] if key in carried else _dumps(value)
                for key, value in data.items()}
    except (TypeError, ValueError, RecursionError):
        return None


def _long_event_data(values: Mapping[str, Any], texts: dict[str, str],
                     lengths: Mapping[str, int] | None = None) -> tuple[dict[str, Any], int] | None:
    """:func:`_fit`'s answer for plain data too long for an event, from its fields' texts
    (``texts``); None when a key or a text is not strict (see :func:`_plain_event_data`).
    ``lengths``: the lengths of fields whose texts were not made (see :func:`_unwritten`)."""
    if not _strict("".join(map(_dumps, texts))) or not all(map(_strict, texts.values())):
        return None
    return _fitted_texts(values, texts, _joined_length(texts, lengths), lengths)


def _unwritten(data: Mapping[str, Any]) -> dict[str, int]:
    """The fields whose text need not be made, with their text's length: strings longer than
    an event (always cut to a preview of their own first characters) that JSON writes as
    themselves between quotes, with no ``$`` to start (so their text is strict). Writing a
    15 MB log line out and reading it through for a tag or a lone surrogate took about 60
    ms of the event loop; this check takes about 10."""
    return {key: len(value) + 2 for key, value in data.items()
            if type(value) is str and len(value) > MAX_EVENT_CHARS and not value.startswith("$")
            and writes_as_itself(value)}


def _plain_event_data(data: Mapping[str, Any]) -> tuple[dict[str, Any], int] | None:
    """What :func:`_displayed_event_data` would make of ``data`` when ``data`` is already
    plain JSON that no rule of the tagged form touches, without walking it in Python; None
    when that is not certain. Most events are such (a call's arguments came from JSON): the
    walk was about 0.04 ms of every webhook call's 0.8, on the event loop, between the
    answer and the next call.

    Certain when: its keys are strings and its fields serialise as strict JSON (no NaN, no
    bytes, no sets, no cycles; tuples and keys that are not strings are written as the walk
    writes them), with no ``"$`` anywhere (no key a tag could be mistaken for), no lone
    surrogate, and, in what is kept whole, fewer brackets than ``_MAX_DEPTH`` (so no nesting
    was cut; nodes are fewer than characters). The event holds a copy read back from the
    text. Data too long for an event is cut as :func:`_fit` cuts it, from the fields' texts
    (a field's ``chars`` is then its whole length, where the walk stops counting at its node
    bound): a result of megabytes walked in Python held the event loop for half a second."""
    if not all(type(key) is str for key in data):
        return None
    if any(type(value) is str and len(value) > MAX_EVENT_CHARS for value in data.values()):
        # Too long whatever else it holds (a log line of megabytes): its fields' texts only.
        unwritten = _unwritten(data)
        texts = _field_texts({key: "" if key in unwritten else value for key, value in data.items()}, {})
        return None if texts is None else _long_event_data(data, texts, unwritten)
    try:
        text = _dumps(data)
    except (TypeError, ValueError, RecursionError):
        return None
    if not _strict(text):
        return None
    if len(text) <= MAX_EVENT_CHARS:
        return (json.loads(text), len(text)) if _shallow(text) else None
    # Too long: each field's own text, to cut the largest (only the rare large event pays).
    texts = {key: _dumps(value) for key, value in data.items()}
    return _fitted_texts(data, texts, len(text))


def _strict(text: str) -> bool:
    """No ``"$`` (nothing a tag could be mistaken for) and no lone surrogate."""
    if '"$' in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _joined(texts: Mapping[str, str]) -> str:
    """The JSON text of an object whose fields' texts are ``texts`` (as ``_dumps`` writes it)."""
    return "{" + ",".join(f"{_dumps(key)}:{text}" for key, text in texts.items()) + "}"


def _joined_length(texts: Mapping[str, str], lengths: Mapping[str, int] | None = None) -> int:
    """``len(_joined(texts))``, without making the text; ``lengths`` stand for the lengths of
    the texts they name."""
    sizes = {key: len(text) for key, text in texts.items()}
    return _joined_size({**sizes, **lengths} if lengths else sizes)


def _joined_size(sizes: Mapping[str, int]) -> int:
    """The length of the JSON object whose fields' texts have these lengths."""
    return 1 + sum(len(_dumps(key)) + 1 + size + 1 for key, size in sizes.items()) + (not sizes)


def _shallow(text: str) -> bool:
    return text.count("[") + text.count("{") <= _MAX_DEPTH


def _fitted_texts(data: Mapping[str, Any], texts: dict[str, str], chars: int,
                  lengths: Mapping[str, int] | None = None) -> tuple[dict[str, Any], int] | None:
    """:func:`_fit`'s answer for plain ``data`` from its fields' texts, without a walk
    (``lengths``: as for :func:`_joined_length`; such fields are always cut)."""
    cut = _cut_to_fit(data, texts, lengths)
    if cut is None:
        whole = {"truncated": True, "chars": chars}
        return whole, len(_dumps(whole))
    if not all(_shallow(texts[key]) for key in texts if key not in cut):
        return None
    kept = {**texts, **{key: _dumps(value) for key, value in cut.items()}}
    return {key: cut[key] if key in cut else json.loads(kept[key]) for key in kept}, len(_joined(kept))


def _displayed_event_data(data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    try:
        safe = {str(display_value(k)): display_value(v, max_nodes=_MAX_NODES, max_depth=_MAX_DEPTH)
                for k, v in data.items()}
    except Exception as exc:  # a hostile Mapping; the event must still go out
        safe = {"note": f"event data could not be read: {type(exc).__name__}"}
    text = _dumps(safe)
    if len(text) <= MAX_EVENT_CHARS:
        return safe, len(text)
    fitted = _fit(safe, text)
    return fitted, len(_dumps(fitted))


def _fit(data: dict[str, Any], text: str) -> dict[str, Any]:
    cut = _cut_to_fit(data, {key: _dumps(value) for key, value in data.items()})
    return {"truncated": True, "chars": len(text)} if cut is None else {**data, **cut}


def _cut_to_fit(values: Mapping[str, Any], texts: dict[str, str],
                lengths: Mapping[str, int] | None = None) -> dict[str, Any] | None:
    """The largest fields cut to previews, largest first, until the object's text fits
    ``MAX_EVENT_CHARS``: the cut fields by key; None when cutting every large one is not
    enough. ``texts`` are the fields' JSON texts (``lengths``: as for :func:`_joined_length`)."""
    sizes = {key: len(text) for key, text in texts.items()}
    sizes.update(lengths or {})
    cut: dict[str, Any] = {}
    for size, key in sorted(((size, key) for key, size in sizes.items()), reverse=True):
        if size <= _PREVIEW_CHARS:
            break
        value = values[key]
        if isinstance(value, str):
            cut[key] = f"{value[:_PREVIEW_CHARS]}... [truncated {len(value) - _PREVIEW_CHARS} chars]"
        else:
            cut[key] = {"truncated": True, "chars": size, "preview": texts[key][:_PREVIEW_CHARS]}
        sizes[key] = len(_dumps(cut[key]))
        if _joined_size(sizes) <= MAX_EVENT_CHARS:
            return cut
    return None


def tool_call_data(entry: JournalEntry, *, replayed: bool | None = None) -> dict[str, Any]:
    """The data of a ``tool_call`` event for ``entry``.

    ``result`` is present once the call is ``applied`` (or ``reverted``) and ``error`` when the
    call failed; ``replayed`` is set when a resumed run answered the call from the journal.
    """
    try:
        args: Any = json.loads(entry.args)
    except (TypeError, ValueError):
        args = entry.args
    data: dict[str, Any] = {
        "seq": entry.seq,
        "namespace": entry.namespace,
        "method": entry.method,
        "args": args,
        "state": entry.state,
    }
    if entry.state in ("applied", "reverted"):
        data["result"] = entry.result
    if entry.error is not None:
        data["error"] = entry.error
    if replayed is not None:
        data["replayed"] = replayed
    return data


def outcome_type(data: Mapping[str, Any]) -> str:
    """The name of the event that says an execution stopped: its status (``completed`` for a
    status this module does not know)."""
    status = data.get("status")
    return status if isinstance(status, str) and status in OUTCOME_TYPES else "completed"


def is_outcome(event: ExecutionEvent) -> bool:
    """Whether ``event`` says the execution stopped (parked or finished)."""
    return event.type in OUTCOME_TYPES and event.data.get("status") == event.type


def completed_data(record: ExecutionRecord) -> dict[str, Any]:
    """The data of the ``completed`` event for the status ``record`` is in."""
    data: dict[str, Any] = {"status": record.status}
    if record.status == "completed":
        data["result"] = record.result
    if record.error is not None:
        data["error"] = record.error
    return data


def history_events(record: ExecutionRecord) -> list[ExecutionEvent]:
    """What a new watcher is sent first, from the stored record.

    A ``status`` event, one ``tool_call`` per journal entry in order, and, once the
    execution has stopped running (finished or parked), its log lines and its outcome (an
    event named after the status). The events carry id 0: :func:`sse_stream` stamps them
    with the bus position the snapshot corresponds to.
    """
    eid = record.id
    events = [ExecutionEvent(eid, "status", event_data({"status": record.status}))]
    for entry in sorted(record.journal, key=lambda e: e.seq):
        events.append(ExecutionEvent(eid, "tool_call", event_data(tool_call_data(entry))))
    if record.status != "running":
        for line in record.logs:
            events.append(ExecutionEvent(eid, "log", event_data({"line": line})))
        events.append(_outcome(record))
    return events


def _outcome(record: ExecutionRecord) -> ExecutionEvent:
    data = event_data(completed_data(record))
    return ExecutionEvent(record.id, outcome_type(data), data)


def _ends_stream(event: ExecutionEvent) -> bool:
    return is_outcome(event) and event.type not in PARKED_STATUSES


# --- subscriptions ------------------------------------------------------------------------


class Subscription:
    """One watcher's view of one execution: buffered events first, then live ones.

    Iterate with ``async for`` or call :meth:`next_event`; :meth:`close` when done. Made
    by :meth:`EventBus.subscribe`, on the event loop that will read it.
    """

    def __init__(
        self,
        bus: EventBus,
        execution_id: str,
        backlog: Iterable[ExecutionEvent],
        *,
        watermark: int,
        resumable: bool,
        max_queue: int,
        earlier: Iterable[ExecutionEvent] = (),
        intact: bool = False,
    ) -> None:
        self.execution_id = execution_id
        self.watermark = watermark
        """The bus position at subscription: backlog ids are <= it, live ids are > it."""
        self.resumable = resumable
        """True when the backlog holds every event after the ``after`` id asked for."""
        self.earlier = list(earlier)
        """When resumable: the buffered events up to ``after`` (the backlog holds the rest)."""
        self.intact = intact
        """True when the bus never dropped one of this execution's events, so ``earlier`` is
        all it held at ``after`` and a picture as of ``after`` can be drawn again."""
        self.overflowed = False
        self._bus = bus
        self._backlog: deque[ExecutionEvent] = deque(backlog)
        self._live: deque[ExecutionEvent] = deque()
        self._max_queue = max_queue
        self._closed = False
        self._lock = threading.Lock()
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._waiter: asyncio.Future[None] | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    def take_backlog(self) -> list[ExecutionEvent]:
        """The buffered events not yet read, removed from the subscription."""
        with self._lock:
            taken = list(self._backlog)
            self._backlog.clear()
        return taken

    async def next_event(self, timeout: float | None = None) -> ExecutionEvent | None:
        """The next event; None if ``timeout`` seconds pass first.

        Raises :class:`SubscriptionClosed` once the subscription is closed and drained.
        """
        while True:
            with self._lock:
                if self._backlog:
                    return self._backlog.popleft()
                if self._live:
                    return self._live.popleft()
                if self._closed:
                    raise SubscriptionClosed(self.execution_id)
                waiter = self._loop.create_future()
                self._waiter = waiter
            try:
                if timeout is None:
                    await waiter
                else:
                    async with asyncio.timeout(timeout):
                        await waiter
            except TimeoutError:
                return None
            finally:
                with self._lock:
                    if self._waiter is waiter:
                        self._waiter = None

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> ExecutionEvent:
        try:
            event = await self.next_event()
        except SubscriptionClosed:
            raise StopAsyncIteration from None
        assert event is not None  # no timeout was given
        return event

    def close(self) -> None:
        """Stop receiving; anything queued is discarded. Safe to call more than once."""
        with self._lock:
            self._closed = True
            self._backlog.clear()
            self._live.clear()
            self._wake_locked()
        self._bus._detach(self)

    def _offer(self, event: ExecutionEvent) -> bool:
        """Queue a live event (called by the bus, under its lock); False once closed."""
        with self._lock:
            if self._closed:
                return False
            if len(self._live) >= self._max_queue:
                self.overflowed = True
                self._closed = True
                self._live.append(
                    ExecutionEvent(
                        self.execution_id,
                        "overflow",
                        {
                            "message": (
                                f"this watcher fell more than {self._max_queue} events behind "
                                "and was disconnected; reconnect with Last-Event-ID to resume"
                            ),
                            "dropped_from": event.id,
                        },
                    )
                )
                self._wake_locked()
                return False
            self._live.append(event)
            self._wake_locked()
            return True

    def _wake_locked(self) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if threading.get_ident() == self._thread:
            waiter.set_result(None)
            return
        try:
            self._loop.call_soon_threadsafe(_resolve, waiter)
        except RuntimeError:  # the reader's loop is closed; nobody is left to wake
            self._closed = True


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


# --- the bus ------------------------------------------------------------------------------


@dataclass
class _Channel:
    """The bus's state for one execution: recent events and current watchers."""

    floor: int
    """Bus position when the channel was made: events of this execution up to it are unknown."""
    last_activity: float
    events: deque[tuple[ExecutionEvent, int]] = field(default_factory=deque)
    """Recent events with their estimated cost in bytes."""
    cost: int = 0
    dropped_up_to: int = 0
    """Highest id dropped from ``events``; a resume from before it has a gap."""
    subscribers: set[Subscription] = field(default_factory=set)


class EventBus:
    """In-process publish/subscribe of :class:`ExecutionEvent`, one channel per execution.

    Thread-safe: the runtime may publish from a worker thread while watchers read on the
    event loop. Memory is bounded: at most ``buffer_size`` events per execution, channels
    idle for ``idle_s`` dropped, and at most ``max_executions`` buffers and ``max_buffer_bytes``
    of buffered events in total (least recently active executions forgotten first). An event
    is counted as its JSON text plus ``EVENT_OVERHEAD_BYTES``, what it measurably costs in
    memory as Python objects (a channel's own ~1.2 KB is bounded by ``max_executions``).
    """

    def __init__(
        self,
        *,
        buffer_size: int = 200,
        idle_s: float = 600.0,
        max_executions: int = 10_000,
        max_buffer_bytes: int = 64 * 1024 * 1024,
        subscriber_queue: int = 1_000,
        first_id: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if buffer_size < 0 or subscriber_queue < 1 or max_executions < 1:
            raise ValueError("buffer_size must be >= 0, subscriber_queue and max_executions >= 1")
        self.buffer_size = buffer_size
        self.idle_s = idle_s
        self.max_executions = max_executions
        self.max_buffer_bytes = max_buffer_bytes
        self.subscriber_queue = subscriber_queue
        self._clock = clock
        # Microseconds since the epoch: ids keep increasing across restarts of the service.
        self._counter = int(time.time() * 1_000_000) if first_id is None else first_id - 1
        self._channels: OrderedDict[str, _Channel] = OrderedDict()
        self._cost = 0
        self._lock = threading.Lock()

    @property
    def last_id(self) -> int:
        """The id of the most recent event published to any execution."""
        return self._counter

    def publish(self, execution_id: str, type: str, data: Mapping[str, Any]) -> ExecutionEvent | None:
        """Record and fan out one event. Never blocks on watchers, never raises.

        An outcome is published as ``completed`` with the status in ``data``; the event is
        named after that status (``paused``, ``error``, ...). Returns the event as sent, or
        None if it could not be published (logged).
        """
        try:
            safe, chars = _sized_event_data(data)
            if type == "completed":
                type = outcome_type(safe)
            cost = chars + len(type) + EVENT_OVERHEAD_BYTES
            with self._lock:
                self._counter += 1
                event = ExecutionEvent(execution_id, type, safe, self._counter)
                now = self._clock()
                self._sweep_locked(now)
                channel = self._channel_locked(execution_id, now)
                channel.last_activity = now
                self._channels.move_to_end(execution_id)
                if self.buffer_size > 0:
                    if len(channel.events) >= self.buffer_size:
                        self._drop_oldest_locked(channel)
                    channel.events.append((event, cost))
                    channel.cost += cost
                    self._cost += cost
                else:
                    channel.dropped_up_to = event.id
                for subscriber in list(channel.subscribers):
                    if not subscriber._offer(event):
                        channel.subscribers.discard(subscriber)
                self._bound_locked()
            return event
        except Exception:
            _log.exception("could not publish a %s event for execution %s", type, execution_id)
            return None

    def subscribe(self, execution_id: str, *, after: int | None = None) -> Subscription:
        """Watch ``execution_id``: buffered events first, then everything published later.

        With ``after`` (a ``Last-Event-ID``), the backlog is the buffered events newer than
        it and ``resumable`` says whether that is all of them; otherwise the backlog is the
        whole buffer. Must be called on the event loop that will read the subscription.
        """
        with self._lock:
            now = self._clock()
            self._sweep_locked(now)
            known = self._channels.get(execution_id)
            resumable = (
                after is not None
                and known is not None
                and known.floor <= after <= self._counter
                and after >= known.dropped_up_to
            ) or (after is not None and after == self._counter)
            channel = known or self._channel_locked(execution_id, now)
            since = after if resumable and after is not None else 0
            backlog = [event for event, _ in channel.events if event.id > since]
            earlier = [event for event, _ in channel.events if event.id <= since]
            subscription = Subscription(
                self,
                execution_id,
                backlog,
                watermark=self._counter,
                resumable=resumable,
                max_queue=self.subscriber_queue,
                earlier=earlier,
                intact=channel.dropped_up_to == 0,
            )
            channel.subscribers.add(subscription)
            return subscription

    def buffered(self, execution_id: str) -> list[ExecutionEvent]:
        """The events currently kept for ``execution_id``, oldest first."""
        with self._lock:
            channel = self._channels.get(execution_id)
            return [] if channel is None else [event for event, _ in channel.events]

    def unwatched_tail(self, execution_id: str, count: int) -> int:
        """How many of the next ``count`` events of ``execution_id`` are worth publishing:
        all of them while anyone watches it, else only the last ``buffer_size``, since the
        earlier ones would leave its buffer unseen (a run's 20,000 printed lines cost the
        event loop a fifth of a second as events). Those left out count as dropped: a watcher
        resuming from before them is sent the history instead, as after any drop. The caller
        publishes the rest before it next lets the event loop go."""
        with self._lock:
            channel = self._channels.get(execution_id)
            if count <= self.buffer_size or (channel is not None and channel.subscribers):
                return count
            channel = self._channel_locked(execution_id, self._clock())
            self._counter += 1  # the skipped stretch takes an id, so no resume lands on it
            channel.dropped_up_to = self._counter
            return self.buffer_size

    def watcher_count(self, execution_id: str) -> int:
        with self._lock:
            channel = self._channels.get(execution_id)
            return 0 if channel is None else len(channel.subscribers)

    def _detach(self, subscription: Subscription) -> None:
        with self._lock:
            channel = self._channels.get(subscription.execution_id)
            if channel is None:
                return
            channel.subscribers.discard(subscription)
            if not channel.subscribers and not channel.events:
                del self._channels[subscription.execution_id]

    def _channel_locked(self, execution_id: str, now: float) -> _Channel:
        channel = self._channels.get(execution_id)
        if channel is None:
            channel = _Channel(floor=self._counter, last_activity=now)
            self._channels[execution_id] = channel
        return channel

    def _drop_oldest_locked(self, channel: _Channel) -> None:
        event, cost = channel.events.popleft()
        # (never lowered: a skipped stretch, ``unwatched_tail``, may lie past what is buffered)
        channel.dropped_up_to = max(channel.dropped_up_to, event.id)
        channel.cost -= cost
        self._cost -= cost

    def _clear_locked(self, channel: _Channel) -> None:
        if channel.events:
            channel.dropped_up_to = max(channel.dropped_up_to, channel.events[-1][0].id)
        channel.events.clear()
        self._cost -= channel.cost
        channel.cost = 0

    def _sweep_locked(self, now: float) -> None:
        """Forget executions idle for ``idle_s``; the channels are ordered by last activity."""
        for _ in range(len(self._channels)):
            execution_id, channel = next(iter(self._channels.items()))
            if now - channel.last_activity < self.idle_s:
                return
            self._clear_locked(channel)
            if channel.subscribers:
                # Still watched (say, a parked execution): keep the channel, not its events.
                channel.last_activity = now
                self._channels.move_to_end(execution_id)
            else:
                del self._channels[execution_id]

    def _bound_locked(self) -> None:
        """Forget the least recently active buffers until the totals are within bounds."""
        for _ in range(len(self._channels)):
            if self._cost <= self.max_buffer_bytes and len(self._channels) <= self.max_executions:
                return
            execution_id, channel = next(iter(self._channels.items()))
            self._clear_locked(channel)
            if channel.subscribers:
                self._channels.move_to_end(execution_id)
            else:
                del self._channels[execution_id]


# --- the SSE response ---------------------------------------------------------------------

_PING = b": ping\n\n"


def _parse_last_event_id(value: int | str | None) -> tuple[int, int] | None:
    """``(position, remaining)`` from a ``Last-Event-ID``: ``P`` or ``M-k`` (see the module)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (value, 0) if value >= 0 else None
    position, dash, remaining = value.strip().partition("-")
    # Clients echo back what we sent, which is always plain decimals; anything else is noise.
    if not (position.isascii() and position.isdigit() and len(position) <= 30):
        return None
    if not dash:
        return int(position), 0
    if remaining.isascii() and remaining.isdigit() and len(remaining) <= 12 and int(remaining) > 0:
        return int(position), int(remaining)
    return None


class _Sent:
    """What a stream has sent, so an event the snapshot already showed is not sent twice.

    Only the overlap right after the snapshot matters: a tool call in the state the
    snapshot showed, or the same status or ``completed`` again with nothing in between.
    A real repeat (a second pause after an approval) always has other events between.
    """

    def __init__(self) -> None:
        self.last_id = 0
        self.status: Any = None
        self.completed_for: Any = None
        self.snapshot_calls: set[tuple[Any, Any]] = set()

    def admit(self, event: ExecutionEvent) -> bool:
        """Record ``event`` as sent and say True, or say False if it would repeat itself."""
        if 0 < event.id <= self.last_id:
            return False
        data = event.data
        if event.type == "status" and data.get("status") == self.status:
            return False
        if is_outcome(event) and data.get("status") == self.completed_for:
            return False
        if (
            event.type == "tool_call"
            and not data.get("replayed")
            and (data.get("seq"), data.get("state")) in self.snapshot_calls
        ):
            return False
        self.note(event)
        return True

    def note(self, event: ExecutionEvent) -> None:
        """Record ``event`` as sent."""
        data = event.data
        if event.type == "status":
            if data.get("status") != self.status:
                self.completed_for = None
            self.status = data.get("status")
        elif is_outcome(event):
            self.status = self.completed_for = data.get("status")
        else:
            self.completed_for = None
        self.last_id = max(self.last_id, event.id)


def _error_event(execution_id: str, message: str) -> ExecutionEvent:
    return ExecutionEvent(execution_id, "error", event_data({"message": message}))


async def sse_stream(
    bus: EventBus,
    execution_id: str,
    load_record: Callable[[str], Awaitable[ExecutionRecord | None]],
    *,
    last_event_id: int | str | None = None,
    heartbeat_s: float = 15.0,
) -> AsyncGenerator[bytes, None]:
    """The body of ``GET /v1/executions/{id}/events`` (media type ``text/event-stream``).

    Subscribes first, then loads the record, so nothing published in between is missed.
    A new watcher gets the record's history (stamped with the bus position it reflects),
    plus buffered events the record does not show (approvals; log lines while running),
    then live events. A watcher resuming with ``Last-Event-ID`` gets only the buffered
    events after it when the buffer still covers the gap (first the rest of the picture it
    was reading, for an id ``M-k``), else the full history again.
    Sends ``: ping`` every ``heartbeat_s`` of silence and ends after the outcome event
    for a final status, after an ``overflow``, or after an ``error`` (unknown execution).
    """
    if not heartbeat_s > 0:
        raise ValueError(f"heartbeat_s must be a positive number of seconds, not {heartbeat_s!r}")
    resume = _parse_last_event_id(last_event_id)
    subscription = bus.subscribe(execution_id, after=None if resume is None else resume[0])
    try:
        try:
            record = await load_record(execution_id)
        except Exception as exc:
            _log.exception("could not load execution %s for its event stream", execution_id)
            yield _error_event(
                execution_id, f"could not load execution {execution_id}: {type(exc).__name__}"
            ).to_sse()
            return
        if record is None:
            yield _error_event(execution_id, f"execution {execution_id} not found").to_sse()
            return

        sent = _Sent()
        for event in _opening(record, subscription, sent, resume):
            yield event.to_sse()
            if _ends_stream(event):
                return
        while True:
            try:
                live = await subscription.next_event(timeout=heartbeat_s)
            except SubscriptionClosed:
                return
            if live is None:
                yield _PING
                continue
            if not sent.admit(live):
                continue
            yield live.to_sse()
            if _ends_stream(live) or live.type == "overflow":
                return
    finally:
        subscription.close()


def _opening(
    record: ExecutionRecord, subscription: Subscription, sent: _Sent,
    resume: tuple[int, int] | None = None,
) -> list[ExecutionEvent]:
    """The events a stream sends before it starts waiting for live ones.

    ``resume`` is the parsed ``Last-Event-ID``. One inside a picture (``M-k``) gets that
    picture's last k events when the picture can be drawn again exactly: nothing happened to
    the execution since ``M`` and the bus still holds what it held then. Otherwise it gets a
    new picture, as a new watcher does.
    """
    mark = subscription.watermark
    backlog = subscription.take_backlog()
    if subscription.resumable and resume is not None and resume[1] > 0:
        position, remaining = resume
        if not backlog and subscription.intact:
            return _picture(record, subscription.earlier, mark=position, sent=sent)[-remaining:]
        return _picture(record, [*subscription.earlier, *backlog], mark=mark, sent=sent)
    if subscription.resumable:
        out = [event for event in backlog if sent.admit(event)]
        if record.status != "running" and record.status not in PARKED_STATUSES:
            if not any(_ends_stream(event) for event in out):
                out.append(replace(_outcome(record), id=max(mark, sent.last_id)))
        return out
    return _picture(record, backlog, mark=mark, sent=sent)


def _picture(
    record: ExecutionRecord, buffered: list[ExecutionEvent], *, mark: int, sent: _Sent
) -> list[ExecutionEvent]:
    """The execution as of bus position ``mark``: its history plus what the record does not
    show, each event stamped ``mark`` and counting down to it, all noted as sent."""
    history = history_events(record)
    closing = history.pop() if history and is_outcome(history[-1]) else None
    # The record already reflects tool calls and status changes published before the
    # subscription; approvals are not in it at all, and log lines only once it stopped.
    extras = [
        event
        for event in buffered
        if event.type in ("approval_requested", "approval_decided")
        or (event.type == "log" and record.status == "running")
    ]
    events = [*history, *extras, *([closing] if closing else [])]
    out: list[ExecutionEvent] = []
    for index, event in enumerate(events):
        stamped = replace(event, id=mark, remaining=len(events) - 1 - index)
        if stamped.type == "tool_call":
            sent.snapshot_calls.add((stamped.data.get("seq"), stamped.data.get("state")))
        sent.note(stamped)
        out.append(stamped)
    return out

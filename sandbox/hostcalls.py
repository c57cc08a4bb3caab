"""Host calls: the small protocol between the isolate layer and whoever answers the guest.

The isolate core knows nothing of tools, journals or approvals. It hands every call the
guest makes to a ``HostCallHandler``: an async callable taking the call's name and decoded
JSON payload and returning a JSON-able value. To answer with an error the guest can catch,
raise ``HostCallError``; to stop the whole run (a park, a policy violation), raise
``HostAbort``, which the guest cannot catch.

``CallableTools`` is the handler the Python embedding API uses: plain Python callables,
sync or async, exposed to the guest as ``tools.<name>(...)``. Sync callables run on the
event loop (keep them quick, or pass an async function).

``uncharged_wait()`` marks time a handler spends waiting on something outside the run (a
human's approval) as not charged to the run's deadline; ``UnchargedClock`` is the per-run
record of that time, which ``WorkerPool`` reads to push its deadlines later.
"""

from __future__ import annotations

import contextvars
import inspect
import json
import time
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Callable, Mapping, Protocol


class HostCallError(Exception):
    """Answer the guest with a typed error: it is raised there as ``ToolError`` (``name``).

    ``details`` (JSON values by attribute name) become attributes of the guest's exception,
    so code can branch on ``e.status`` rather than parse the message.
    """

    def __init__(self, name: str, message: str, tool: str | None = None,
                 details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.message = message
        self.tool = tool
        self.details = dict(details) if details else None

    def to_json(self) -> str:
        error: dict[str, Any] = {"name": self.name, "message": self.message, "tool": self.tool}
        if self.details:
            error["details"] = self.details
        return json.dumps(error)


class HostAbort(BaseException):
    """Stop the run now. The guest is unwound from the host side and cannot catch this.

    A BaseException so that a stray ``except Exception`` in a tool adapter cannot swallow it.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message

    def to_trap(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}


class HostCallHandler(Protocol):
    async def __call__(self, name: str, payload: Any) -> Any: ...


@dataclass(frozen=True)
class ToolSpec:
    """What the guest is told about one tool: its name and its documentation."""

    name: str
    doc: str = ""
    keyword_only: bool = False
    """Schema-described tools take keyword arguments only; plain callables take both."""

    def to_guest(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "keyword_only": self.keyword_only}


class CallableTools:
    """A host-call handler over plain Python callables, keyed by tool name."""

    def __init__(self, tools: Mapping[str, Callable[..., Any]] | None = None) -> None:
        self.tools: dict[str, Callable[..., Any]] = dict(tools or {})
        for name in self.tools:
            if not name.isidentifier():
                raise ValueError(f"tool name {name!r} is not a Python identifier")

    def specs(self) -> list[ToolSpec]:
        return [ToolSpec(name, inspect.getdoc(fn) or "") for name, fn in sorted(self.tools.items())]

    async def __call__(self, name: str, payload: Any) -> Any:
        if name != "tool" or not isinstance(payload, dict):
            raise HostCallError("ToolError", f"unknown host call {name!r}")
        tool_name = payload.get("tool")
        function = self.tools.get(tool_name) if isinstance(tool_name, str) else None
        if function is None:
            raise HostCallError("ToolError", f"no tool named {tool_name!r}", tool_name)
        args = payload.get("args") or []
        kwargs = payload.get("kwargs") or {}
        try:
            value = function(*args, **kwargs)
            if inspect.isawaitable(value):
                value = await value
        except (HostAbort, HostCallError):  # a tool may answer with a typed error itself
            raise
        except Exception as exc:
            raise HostCallError(type(exc).__name__, str(exc), tool_name) from exc
        return value




class UnchargedClock:
    """How long one run's host calls spent in ``uncharged_wait()``, capped at ``cap`` seconds.

    Time counts only while a host call is being answered (``begin_call``/``end_call``) and at
    least one wait is open: overlapping waits count once, and a wait left open by a
    background task after its call was answered does not keep buying the guest time.
    ``on_change`` is called whenever the clock starts or stops running, so the supervisor can
    move its kill timer; ``take`` hands out the credit earned since the last ``take``.
    A clock created while another run's host call is being answered (a run started from a
    handler) also runs its parent: the outer run is waiting on the same thing.
    """

    def __init__(self, cap: float, on_change: Callable[[], None] | None = None,
                 parent: UnchargedClock | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.cap = cap
        self.on_change = on_change
        self.parent = parent
        self._now = now
        self._earned = 0.0
        self._taken = 0.0
        self._open = 0
        self._in_call = False
        self._since: float | None = None
        self._closed = False

    @property
    def running(self) -> bool:
        """True while time is being credited: in a host call, with a wait open."""
        return self._since is not None

    def credited(self) -> float:
        """Seconds credited so far, the running stretch included, never more than ``cap``."""
        total = self._earned
        if self._since is not None:
            total += self._now() - self._since
        return min(total, self.cap)

    def take(self) -> float:
        """Credit earned since the previous ``take`` (what the worker has not been told yet)."""
        total = self.credited()
        fresh, self._taken = total - self._taken, total
        return max(fresh, 0.0)

    def begin_call(self) -> None:
        self._in_call = True
        self._update()

    def end_call(self) -> None:
        self._in_call = False
        self._update()

    def close(self) -> None:
        """The run is over: stop counting; later waits on this clock change nothing."""
        if self._closed:
            return
        if self.parent is not None:
            for _ in range(self._open):  # waits still open here will never exit this clock
                self.parent.exit()
        self._in_call = False
        self._open = 0
        self._update()
        self._closed = True

    def enter(self) -> None:
        if self._closed:
            return
        self._open += 1
        if self.parent is not None:
            self.parent.enter()
        self._update()

    def exit(self) -> None:
        if self._closed or self._open == 0:
            return
        self._open -= 1
        if self.parent is not None:
            self.parent.exit()
        self._update()

    def _update(self) -> None:
        should_run = self._in_call and self._open > 0 and not self._closed
        if should_run == self.running:
            return
        if should_run:
            self._since = self._now()
        else:
            assert self._since is not None
            self._earned += self._now() - self._since
            self._since = None
        if self.on_change is not None:
            self.on_change()


current_uncharged_clock: contextvars.ContextVar[UnchargedClock | None] = contextvars.ContextVar(
    "sandbox_uncharged_clock", default=None)
"""The clock of the run whose host call is being answered; set by ``WorkerPool``."""


class uncharged_wait:
    """Context manager (``async with`` or ``with``): the time inside is not charged to the run.

    Use it around a wait on something outside the run, inside a ``HostCallHandler``::

        async with uncharged_wait():
            decision = await asyncio.wait_for(pending, timeout)

    The run's deadline (in the isolate and the supervisor's kill timer) moves later by the
    time spent, up to ``sandbox.workers.MAX_UNCHARGED_S`` per run. Outside a run (no host
    call being answered) it does nothing. Do not do work inside it: the guest's deadline
    exists to bound work, and this is only for waiting.
    """

    def __init__(self) -> None:
        self._clock: UnchargedClock | None = None
        self._entered = False

    def __enter__(self) -> "uncharged_wait":
        if self._entered:
            raise RuntimeError("uncharged_wait() is already entered; make a new one")
        self._entered = True
        self._clock = current_uncharged_clock.get()
        if self._clock is not None:
            self._clock.enter()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        clock, self._clock = self._clock, None
        self._entered = False
        if clock is not None:
            clock.exit()

    async def __aenter__(self) -> "uncharged_wait":
        return self.__enter__()

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        traceback: TracebackType | None) -> None:
        self.__exit__(exc_type, exc, traceback)

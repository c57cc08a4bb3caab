"""Guest-side containment: refuse the modules that cannot work, say so for threads, and
keep sleeps short.

None of this is the security boundary (WASI grants no sockets or processes, and the host
kills a worker that overruns its deadline); it makes the common case fail fast and clearly
instead of hanging or failing obscurely. The refused modules are dropped from the image,
and the C ones compiled into the interpreter (``_socket``, ``select``) are refused by the
builtin loader too, so removing the import blocker from ``sys.meta_path`` does not bring
them back. ``threading`` stays (``logging``, ``queue`` and ``concurrent.futures`` need its
locks); starting a thread says there are none, and ``ThreadPoolExecutor`` runs each task in
turn when it is submitted.
"""

from __future__ import annotations

import _imp
import _thread
import concurrent.futures
import importlib.abc
import operator
import sys
import threading
import time
from typing import Any, Callable, Sequence, SupportsIndex

from stdlib import unavailable_reason

SLEEP_SLICE_S = 0.02
"""Longest single WASI sleep: the host's epoch deadline can only fire between slices."""

_real_sleep = time.sleep


def _reason(name: str, only: frozenset[str] | None) -> str | None:
    """Why ``name`` is refused: ``stdlib.UNAVAILABLE`` says, or, for an engine that gives
    its own list (``only``), that list alone does."""
    if only is None:
        return unavailable_reason(name)
    if name in only or name.split(".")[0] in only:
        return "the sandbox has no network or processes"
    return None


class _BlockedModuleFinder(importlib.abc.MetaPathFinder):
    """Answers every import of an unavailable module with a ModuleNotFoundError saying why."""

    def __init__(self, only: frozenset[str] | None = None) -> None:
        self.extra = only

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        reason = _reason(fullname, self.extra)
        if reason is not None:
            raise ModuleNotFoundError(f"No module named {fullname!r}: {reason}", name=fullname)
        return None


def _refusing(original: Callable[..., Any], name_of: Callable[[Any], Any],
              extra: frozenset[str] | None) -> Callable[..., Any]:
    def refuse(arg: Any) -> Any:
        name = name_of(arg)
        reason = _reason(name, extra) if isinstance(name, str) else None
        if reason is not None:
            raise ModuleNotFoundError(f"No module named {name!r}: {reason}", name=name)
        return original(arg)
    return refuse


def block_modules(only: Sequence[str] | None = None) -> None:
    """Drop the unavailable modules (``stdlib.UNAVAILABLE``; or ``only`` these, for another
    engine with its own list) from the module cache and refuse any later import of them."""
    more = None if only is None else frozenset(only)
    for name in list(sys.modules):
        if _reason(name, more) is not None:
            del sys.modules[name]
    sys.meta_path.insert(0, _BlockedModuleFinder(more))
    _imp.create_builtin = _refusing(_imp.create_builtin, lambda spec: getattr(spec, "name", None), more)
    is_builtin = _imp.is_builtin
    _imp.is_builtin = lambda name: 0 if _reason(name, more) is not None else is_builtin(name)


NO_THREADS = ("the sandbox runs no threads: call the function directly "
              "(concurrent.futures.ThreadPoolExecutor here runs each task in turn)")


def _no_thread(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError(NO_THREADS)


class InlineExecutor(concurrent.futures.Executor):
    """``ThreadPoolExecutor`` without threads: ``submit`` runs the task at once and returns
    its finished future, so ``map``, ``as_completed`` and ``wait`` work as written."""

    def __init__(self, max_workers: int | None = None, thread_name_prefix: str = "",
                 initializer: Callable[..., Any] | None = None, initargs: tuple[Any, ...] = ()) -> None:
        if max_workers is not None and max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        self._initializer, self._initargs = initializer, initargs
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        if self._initializer is not None:
            initializer, self._initializer = self._initializer, None
            initializer(*self._initargs)
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the task's failure is its future's, as with threads
            if not isinstance(exc, Exception):
                raise
            future.set_exception(exc)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True


def _threads() -> None:
    threading.Thread.start = _no_thread  # type: ignore[method-assign]
    _thread.start_new_thread = _no_thread
    if hasattr(_thread, "start_joinable_thread"):
        _thread.start_joinable_thread = _no_thread
    import concurrent.futures.thread as pool
    pool.ThreadPoolExecutor = InlineExecutor  # type: ignore[misc,assignment]
    concurrent.futures.ThreadPoolExecutor = InlineExecutor  # type: ignore[misc,assignment]


def sliced_sleep(secs: float | SupportsIndex) -> None:
    """``time.sleep`` in short slices, so a deadline interrupts a long sleep promptly."""
    # time.sleep takes numbers only: a str is a TypeError there, so not float(secs).
    seconds = secs if isinstance(secs, (int, float)) else operator.index(secs)
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        _real_sleep(min(left, SLEEP_SLICE_S))


def install() -> None:
    time.sleep = sliced_sleep
    _threads()

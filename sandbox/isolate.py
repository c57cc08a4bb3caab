"""One isolate: a fresh wasmtime Store and guest instance per call, dropped afterwards.

``GuestRuntime`` owns what is shared by every call in a process: the engine, the compiled
component, the linker with WASI p2 and the one host import, and the deadline timer.
``Isolate`` owns one call's store and instance: limits are set before instantiation, the
guest sees only the directories preopened for it, and WASI grants no network (the default
``WasiConfig`` allows no socket address and no name lookup).

Every wasmtime error is translated here, in ``_translated_traps``, into ``sandbox.errors``.
A Python exception raised by the host-call handler (the park signal, a host-call limit)
unwinds the guest and leaves the export call unchanged, so the guest can never catch it.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Protocol, Sequence

import wasmtime
from wasmtime import component as wc

from .build import file_sha256
from .engine import CompiledGuest, load_compiled, make_engine
from .host_trampoline import add_string_call
from .errors import DeadlineExceeded, GuestBuildError, GuestTrap, MemoryLimitExceeded, SandboxError
from .memory_slots import MemorySlots
from .traps import ABORT, DEADLINE, MEMORY, TRAP_NAMES, abort_cause, trap_code
from .limits import Limits

HOST_INTERFACE = "sandbox:guest/host@0.1.0"


class _Unwinding(Exception):
    """Carries a BaseException raised by a host call out through wasmtime."""


class HostCallFailed(Exception):
    """Raised by a host-call handler to answer the guest with an error value (JSON)."""

    def __init__(self, error_json: str) -> None:
        super().__init__(error_json)
        self.error_json = error_json


HostCall = Callable[[str, str], str]
"""``(name, payload_json) -> result_json``; raise ``HostCallFailed`` to return an error to
the guest, or any other exception to abort the whole run."""


@dataclass(frozen=True)
class Preopen:
    """A host directory the guest may see, and where it sees it."""

    host_dir: str
    guest_dir: str


class _DeadlineTimer:
    """Bumps the engine epoch once when the current call's deadline passes.

    Stores run with ``set_epoch_deadline(1)``, so a single increment interrupts the running
    guest at its next epoch check. Arming, disarming and extending hold the lock, so a timer
    for a finished call can never fire into the next one, and an extension cannot race a
    fire: either the fire happened first and ``extend`` undoes it, or the fire sees the new
    deadline.

    The thread is woken only when a deadline comes before the time it already waits for.
    Calls take milliseconds and deadlines seconds, so one call after another never wakes it:
    it wakes at the first call's deadline, finds a later one armed (or none) and waits again.
    Waking it on every arm and disarm cost each call two handovers of the GIL, 0.5-1 ms on a
    busy machine.
    """

    def __init__(self, engine: wasmtime.Engine) -> None:
        self._engine = engine
        self._cond = threading.Condition()
        self._due: float | None = None
        self._fired = False
        self._wakes_at: float | None = None
        """When the thread will look again; None while it waits to be woken."""
        self._thread = threading.Thread(target=self._loop, name="epoch-deadline", daemon=True)
        self._thread.start()

    def _wake_for(self, due: float) -> None:
        # Under the lock.
        if self._wakes_at is None or due < self._wakes_at:
            self._cond.notify()

    def arm(self, seconds: float) -> None:
        with self._cond:
            self._due = time.monotonic() + seconds
            self._fired = False
            self._wake_for(self._due)

    def disarm(self) -> None:
        with self._cond:
            self._due = None  # the thread, when it looks, finds nothing to fire
            self._fired = False

    def extend(self, seconds: float, undo_fire: Callable[[], None]) -> bool:
        """Move the armed deadline ``seconds`` later; return whether it is still ahead.

        If the timer already fired (the guest was inside a host call, so the bump has not
        interrupted it yet) and the new deadline is still in the future, ``undo_fire`` is
        called under the lock to give the store a fresh epoch deadline, and the timer is
        armed again. If the new deadline has passed too, the fire stands.
        """
        with self._cond:
            if self._due is None:
                return False
            self._due += seconds
            if self._fired:
                if self._due <= time.monotonic():
                    return False
                undo_fire()
                self._fired = False
                self._wake_for(self._due)
            return True

    def _loop(self) -> None:
        with self._cond:
            while True:
                if self._due is None or self._fired:
                    self._wakes_at = None
                    self._cond.wait()
                    continue
                left = self._due - time.monotonic()
                if left > 0:
                    self._wakes_at = self._due
                    self._cond.wait(left)
                    continue
                self._engine.increment_epoch()
                self._fired = True


@dataclass
class _CallState:
    handler: HostCall | None = None
    error: BaseException | None = field(default=None)


class GuestRuntime:
    """Everything shared by the isolates of one process."""

    def __init__(self, guest: CompiledGuest, verify: bool = True) -> None:
        """The guest's memory lives in slots of ``sandbox.memory_slots`` mapped from its image
        (checked against its recorded SHA-256 first, as the artifact is by ``load_compiled``)."""
        if verify and file_sha256(guest.image) != guest.image_sha256:
            raise GuestBuildError(f"the guest's memory image {guest.image} changed on disk; "
                                  "refusing to map it")
        try:
            self.memories = MemorySlots(str(guest.image))
        except (OSError, ValueError) as exc:
            raise GuestBuildError(f"cannot map the guest's memory image {guest.image}: {exc}") from exc
        self.engine = make_engine(self.memories.install)
        self.component = load_compiled(self.engine, guest, verify=verify)
        self.linker = wc.Linker(self.engine)
        self.linker.add_wasip2()
        self._state = _CallState()
        self._timer = _DeadlineTimer(self.engine)
        self._exports: dict[str, wc.ExportIndex | None] = {}
        with self.linker.root() as root:
            with root.add_instance(HOST_INTERFACE) as interface:
                add_string_call(interface, "call", self._host_call)

    def _host_call(self, _store: object, name: str, payload: str) -> wc.Variant:
        handler = self._state.handler
        if handler is None:
            raise GuestTrap("host call outside of a run")
        try:
            return wc.Variant("ok", handler(name, payload))
        except HostCallFailed as failed:
            return wc.Variant("err", failed.error_json)
        except BaseException as abort:
            # Remember it: wasmtime may re-wrap the exception on its way out, and the run
            # ends with this very exception (see _translated_traps).
            self._state.error = abort
            if isinstance(abort, Exception):
                raise
            # A BaseException (KeyboardInterrupt, a handler's own signal) must not cross
            # wasmtime's callback, which unwinds only Exceptions: measured, one that did
            # crashed the process. An Exception carries the unwinding; the original is kept.
            raise _Unwinding() from None

    def isolate(self, limits: Limits, preopens: Sequence[Preopen] = ()) -> "Isolate":
        return Isolate(self, limits, preopens)

    def export_index(self, name: str) -> wc.ExportIndex | None:
        """The component's export ``name``, looked up once: by name, the lookup cost every
        call 0.02 ms; by index 0.004."""
        if name not in self._exports:
            self._exports[name] = self.component.get_export_index(name)
        return self._exports[name]


class Isolate:
    """One guest instance in one fresh store. Use as a context manager; call once."""

    def __init__(self, runtime: GuestRuntime, limits: Limits, preopens: Sequence[Preopen]) -> None:
        self._runtime = runtime
        self._limits = limits
        self._extended_s = 0.0
        self._stopped_by: SandboxError | None = None
        self.preopens = tuple(preopens)
        self._store: wasmtime.Store | None = wasmtime.Store(runtime.engine)
        self._store.set_limits(memory_size=limits.memory_bytes)
        self._store.set_epoch_deadline(1)
        self._called = False
        self._store.set_wasi(_wasi_config(self.preopens))
        with _translated_traps(runtime):
            self._instance = runtime.linker.instantiate(self._store, runtime.component)

    def grant(self, preopens: Sequence[Preopen]) -> None:
        """Give an isolate that has not run yet the directories of its run.

        The store's WASI context is replaced whole, so the guest sees exactly what an
        isolate made with these preopens would (measured: the guest's libc reads its
        preopens on first use, and instantiation makes none). A worker's spare is made
        before anyone knows which directory its run needs; this is how a bash run uses it.
        """
        if self._store is None or self._called:
            raise SandboxError("directories can be granted only before the isolate's one call")
        self.preopens = tuple(preopens)
        self._store.set_wasi(_wasi_config(self.preopens))

    def set_limits(self, limits: Limits) -> None:
        """Adopt new limits before the call (memory applies to growth from here on)."""
        if self._store is None:
            raise SandboxError("isolate already used and closed")
        self._store.set_limits(memory_size=limits.memory_bytes)
        self._limits = limits

    def extend_deadline(self, seconds: float) -> None:
        """Give the running call ``seconds`` more before its deadline (time it spent waiting,
        not running: see ``sandbox.hostcalls.uncharged_wait``). Call it from a host-call
        handler, while the guest is suspended in the host call."""
        store = self._store
        if store is None or seconds <= 0:
            return
        self._extended_s += seconds
        # The engine epoch has already been bumped once, so a fresh relative deadline of one
        # tick starts after that bump: the guest resumes without trapping.
        self._runtime._timer.extend(seconds, lambda: store.set_epoch_deadline(1))

    def stop(self, reason: SandboxError) -> None:
        """Stop the running call from another thread; it raises ``reason``. The engine's
        epoch is what stops it, as at a deadline (one call runs per runtime at a time)."""
        self._stopped_by = reason
        self._runtime.engine.increment_epoch()

    def __enter__(self) -> "Isolate":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            store.close()

    def call(self, export: str, request: str, on_host_call: HostCall) -> str:
        """Run ``export(request)`` in the guest, answering its host calls with ``on_host_call``."""
        store = self._store
        if store is None:
            raise SandboxError("isolate already used and closed")
        runtime = self._runtime
        self._called = True
        index = runtime.export_index(export)
        func = self._instance.get_func(store, index) if index is not None else None
        if func is None:
            raise SandboxError(f"guest has no export {export!r}")
        runtime._state.handler = on_host_call
        runtime._state.error = None
        store.set_epoch_deadline(1)
        self._extended_s = 0.0
        runtime._timer.arm(self._limits.deadline_s)
        try:
            with _translated_traps(runtime, self._limits, lambda: self._extended_s):
                result = func(store, request)
                func.post_return(store)
        except DeadlineExceeded:
            if self._stopped_by is not None:
                raise self._stopped_by from None
            raise
        finally:
            runtime._timer.disarm()
            runtime._state.handler = None
        if not isinstance(result, str):
            raise GuestTrap(f"guest export {export!r} returned {type(result).__name__}")
        return result


def _wasi_config(preopens: Sequence[Preopen]) -> wasmtime.WasiConfig:
    wasi = wasmtime.WasiConfig()
    for preopen in preopens:
        wasi.preopen_dir(preopen.host_dir, preopen.guest_dir)
    return wasi
class _Carrier(Protocol):
    """What ``_translated_traps`` reads of a runtime (the standard one or the science one)."""

    _state: _CallState


@contextmanager
def _translated_traps(runtime: _Carrier, limits: Limits | None = None,
                      extended_s: Callable[[], float] = lambda: 0.0) -> Iterator[None]:
    """The one boundary where wasmtime's errors become ``sandbox.errors``."""
    try:
        yield
    except _Unwinding:
        carried = runtime._state.error
        raise carried if carried is not None else SandboxError("host call unwound") from None
    except (wasmtime.Trap, wasmtime.WasmtimeError) as error:
        carried = runtime._state.error
        if carried is not None:
            raise carried from None
        message = error.message if isinstance(error, wasmtime.Trap) else str(error)
        code = trap_code(error)
        name = TRAP_NAMES.get(code) if code is not None else None
        first = message.strip().splitlines()[0] if message.strip() else "unknown error"
        if name == DEADLINE:
            seconds = limits.deadline_s if limits else 0
            waited = extended_s()
            uncharged = f" (not counting {waited:.2f} s spent waiting, uncharged)" if waited else ""
            raise DeadlineExceeded(f"execution exceeded its deadline of {seconds:g} s{uncharged}") from None
        if name == MEMORY or (code is None and _is_memory_limit(message)):
            raise MemoryLimitExceeded(f"the guest needs more memory than its limit: {first}") from None
        if name == "unreachable":
            cause = abort_cause(message)
            if cause is not None and cause[0] == MEMORY:
                raise MemoryLimitExceeded(f"the guest aborted {cause[1]}") from None
            if cause is not None:
                raise GuestTrap(f"the guest aborted {cause[1]}", code=ABORT) from None
        if name is not None:
            raise GuestTrap(f"guest trapped: {name}", code=name) from None
        raise GuestTrap(f"wasmtime error: {first}") from None


def _is_memory_limit(message: str) -> bool:
    # Not a trap: instantiation refused because the module's minimum memory is over the
    # store's limit. wasmtime reports it as an error with no code, so only its words say so.
    return "memory" in message and ("limit" in message or "minimum" in message)

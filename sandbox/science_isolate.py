"""One science isolate: a fresh instance of the compiled snapshot per run, dropped afterwards.

``ScienceRuntime`` is the science engine's ``GuestRuntime``: the engine, the compiled
snapshot (checked against its recorded SHA-256 before it is loaded), a linker with WASI
preview 1 and the one door ``host::call``, and the deadline timer. ``ScienceIsolate`` is its
``Isolate``, with the same surface (``call``, ``set_limits``, ``extend_deadline``, ``close``)
so a worker runs either the same way: limits are set before instantiation, the deadline is
the epoch, and every wasmtime error is translated by the standard isolate's
``_translated_traps``.

The door is the guest's only way out. Its frames are hostile input: each is bounded in size
before it is copied out of guest memory and parsed with ``bounded_loads``; a host call
(``{"call", "payload"}``) is answered ``{"ok"}`` or ``{"err"}`` through ``host_alloc``; the
run's envelope arrives once as ``{"done"}``. WASI grants no sockets (wasmtime's default
``WasiConfig`` allows no address and no name lookup) and the guest sees only the stdlib and
matplotlib's data, read-only, and a scratch ``/tmp`` made for this isolate and removed with it.
"""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
from pathlib import Path
from typing import Any, Sequence

import wasmtime

from .envelope import MAX_PAYLOAD_CHARS, bounded_loads
from .errors import (DeadlineExceeded, GuestBuildError, GuestProtocolError, GuestTrap,
                     MemoryLimitExceeded, SandboxError)
from .isolate import HostCall, HostCallFailed, Preopen, _CallState, _DeadlineTimer, _translated_traps
from .build import file_sha256
from .limits import Limits
from .science_engine import CompiledScience, guest_wasi, make_science_engine
from .memory_slots import MemorySlots

_MASK32 = 0xFFFFFFFF
_NO_HOST, _FAULT = -1, -2
_FRAME_SLACK = 1024
"""Room for a frame's own JSON around the largest payload or result it may carry."""


class ScienceRuntime:
    """Everything shared by the science isolates of one process: the engine, the module,
    the memory slots its instances live in (``sandbox.memory_slots``)."""

    def __init__(self, compiled: CompiledScience, verify: bool = True) -> None:
        if verify and file_sha256(compiled.path) != compiled.sha256:
            raise GuestBuildError(f"compiled science snapshot {compiled.path} changed on disk; "
                                  "refusing to load it")
        if verify and file_sha256(compiled.image) != compiled.image_sha256:
            raise GuestBuildError(f"the science memory image {compiled.image} changed on disk; "
                                  "refusing to load it")
        self.compiled = compiled
        try:
            self.memories = MemorySlots(str(compiled.image))
        except (OSError, ValueError) as exc:
            raise GuestBuildError(f"cannot map the science memory image {compiled.image}: {exc}") from exc
        self.engine = make_science_engine(self.memories.install)
        try:
            self.module = wasmtime.Module.deserialize_file(self.engine, str(compiled.path))
        except wasmtime.WasmtimeError as exc:
            raise GuestBuildError(f"cannot load the science snapshot {compiled.path}: {exc}") from exc
        self.linker = wasmtime.Linker(self.engine)
        self.linker.define_wasi()
        door = wasmtime.FuncType([wasmtime.ValType.i32()] * 4, [wasmtime.ValType.i32()])
        self.linker.define_func("host", "call", door, self._door, access_caller=True)
        self._state = _CallState()
        self._timer = _DeadlineTimer(self.engine)
        self._current: ScienceIsolate | None = None

    def isolate(self, limits: Limits, preopens: Sequence[Preopen] = ()) -> "ScienceIsolate":
        if preopens:
            raise SandboxError("the science engine mounts no directories (use state.*)")
        return ScienceIsolate(self, limits)

    def _door(self, caller: Any, ptr: int, length: int, out_ptr: int, out_len: int) -> int:
        isolate = self._current
        if isolate is None or self._state.handler is None:
            return _NO_HOST
        try:
            answer = isolate._answer(self._state.handler, caller, ptr & _MASK32, length & _MASK32)
        except BaseException as abort:
            self._state.error = abort  # the run ends with it (see _translated_traps)
            raise
        if answer is None:
            return _FAULT
        return _write_answer(caller, answer, out_ptr & _MASK32, out_len & _MASK32)


def _write_answer(caller: Any, answer: bytes, out_ptr: int, out_len: int) -> int:
    memory, alloc = caller.get("memory"), caller.get("host_alloc")
    if not isinstance(memory, wasmtime.Memory) or not isinstance(alloc, wasmtime.Func):
        return _FAULT
    size = memory.data_len(caller)
    if out_ptr + 4 > size or out_len + 4 > size:
        return _FAULT
    at = alloc(caller, len(answer))
    at = at & _MASK32 if isinstance(at, int) else 0
    if not at or at + len(answer) > memory.data_len(caller):
        return _FAULT
    memory.write(caller, answer, at)
    memory.write(caller, struct.pack("<I", at), out_ptr)
    memory.write(caller, struct.pack("<I", len(answer)), out_len)
    return 0


class ScienceIsolate:
    """One instance of the snapshot in one fresh store. Use as a context manager; call once."""

    def __init__(self, runtime: ScienceRuntime, limits: Limits) -> None:
        self._runtime = runtime
        self._limits = limits
        self._extended_s = 0.0
        self._response: str | None = None
        self._stopped_by: SandboxError | None = None
        self._scratch: str | None = tempfile.mkdtemp(prefix="sandbox-science-")
        self._store: wasmtime.Store | None = wasmtime.Store(runtime.engine)
        self._store.set_limits(memory_size=limits.memory_bytes)
        self._store.set_epoch_deadline(1)
        try:
            self._store.set_wasi(guest_wasi(runtime.compiled.stage, self._scratch))
            with _translated_traps(runtime):
                self._instance = runtime.linker.instantiate(self._store, runtime.module)
        except BaseException:
            self.close()
            raise

    def set_limits(self, limits: Limits) -> None:
        """Adopt new limits before the call; a memory limit below what the instance already
        holds (the snapshot's own memory) refuses the run, as instantiation would have."""
        if self._store is None:
            raise SandboxError("isolate already used and closed")
        memory = self._instance.exports(self._store)["memory"]
        held = memory.data_len(self._store) if isinstance(memory, wasmtime.Memory) else 0
        if held > limits.memory_bytes:
            self.close()  # nobody else will: the worker never got to enter it
            raise MemoryLimitExceeded(
                f"the science engine starts with {held / 2**20:.0f} MiB of memory; the limit is "
                f"{limits.memory_bytes / 2**20:.0f} MiB")
        self._store.set_limits(memory_size=limits.memory_bytes)
        self._limits = limits

    def grant(self, preopens: Sequence[Preopen]) -> None:
        """The standard isolate's way to give a spare its run's directories: the science
        engine mounts none (its snapshot fixed what the guest sees)."""
        if preopens:
            raise SandboxError("the science engine mounts no directories (use state.*)")

    @property
    def scratch(self) -> Path | None:
        """The host directory the guest sees as its ``/tmp`` (None once closed)."""
        return None if self._scratch is None else Path(self._scratch)

    def stop(self, reason: SandboxError) -> None:
        """Stop the running call from another thread; it raises ``reason`` (as
        :meth:`sandbox.isolate.Isolate.stop`: the engine's epoch stops it)."""
        self._stopped_by = reason
        self._runtime.engine.increment_epoch()

    def extend_deadline(self, seconds: float) -> None:
        store = self._store
        if store is None or seconds <= 0:
            return
        self._extended_s += seconds
        self._runtime._timer.extend(seconds, lambda: store.set_epoch_deadline(1))

    def __enter__(self) -> "ScienceIsolate":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            store.close()
        scratch, self._scratch = self._scratch, None
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

    def _answer(self, handler: HostCall, caller: Any, ptr: int, length: int) -> bytes | None:
        """The answer to one door frame; None when the frame itself is at fault."""
        memory = caller.get("memory")
        if not isinstance(memory, wasmtime.Memory) or ptr + length > memory.data_len(caller):
            return None
        if length > max(MAX_PAYLOAD_CHARS, self._limits.max_result_bytes) + _FRAME_SLACK:
            return None
        raw = bytes(memory.read(caller, ptr, ptr + length))
        try:
            frame = bounded_loads(raw.decode("utf-8", "surrogatepass"), max_depth=2,
                                  what="a door frame")
        except (GuestProtocolError, UnicodeDecodeError):
            return None
        if not isinstance(frame, dict):
            return None
        if "done" in frame and isinstance(frame["done"], str) and self._response is None:
            self._response = frame["done"]
            return b"null"
        name, payload = frame.get("call"), frame.get("payload")
        if not isinstance(name, str) or not isinstance(payload, str) or self._response is not None:
            return None
        try:
            answer = {"ok": handler(name, payload)}
        except HostCallFailed as failed:
            answer = {"err": failed.error_json}
        return json.dumps(answer).encode("utf-8", "surrogatepass")

    def call(self, export: str, request: str, on_host_call: HostCall) -> str:
        """Run the guest's ``export`` (only ``execute``) on ``request``."""
        store = self._store
        if store is None:
            raise SandboxError("isolate already used and closed")
        if export != "execute":
            raise SandboxError(f"the science engine has no export {export!r}")
        runtime = self._runtime
        exports = self._instance.exports(store)
        alloc, turn, memory = exports["host_alloc"], exports["turn"], exports["memory"]
        if not isinstance(alloc, wasmtime.Func) or not isinstance(turn, wasmtime.Func) \
                or not isinstance(memory, wasmtime.Memory):
            raise GuestBuildError("the science snapshot lacks turn, host_alloc or memory")
        code = f"import science_entry\nscience_entry.main({request!r})\n".encode("utf-8", "surrogatepass")
        runtime._state.handler = on_host_call
        runtime._state.error = None
        runtime._current = self
        store.set_epoch_deadline(1)
        self._extended_s = 0.0
        runtime._timer.arm(self._limits.deadline_s)
        try:
            with _translated_traps(runtime, self._limits,
                                   lambda: self._extended_s):
                at = alloc(store, len(code))
                at = at & _MASK32 if isinstance(at, int) else 0
                if not at:
                    raise GuestTrap("the guest could not take the request (out of memory)")
                memory.write(store, code, at)
                turn(store, at, len(code))
        except DeadlineExceeded:
            if self._stopped_by is not None:
                raise self._stopped_by from None
            raise
        finally:
            runtime._timer.disarm()
            runtime._state.handler = None
            runtime._current = None
        if self._response is None:
            raise GuestProtocolError("the science guest ended its run without an envelope")
        return self._response

"""The wasmtime engine and the compiled guest: configure once, compile once, cache on disk.

Compiling the guest with Cranelift takes about 5 s, loading a compiled artifact a few
milliseconds. Before it is compiled, the component's memory image (the main module's data
segments, ~126 MB of its ~131) is moved out into a file beside the artifact
(``IMAGE_LAYOUT``); then the image's long-lived objects are made immortal in it
(``sandbox.immortal_image``: fewer pages written per run). The compiled artifact and its
image are cached under a key made of the component's hash, the wasmtime version, the engine
configuration and the source of both image steps (an artifact compiled with other settings
does not load, so all must match). Next to each
artifact a small JSON file records its key and the SHA-256 of the artifact and of the image;
a file whose bytes or key do not match is never handed to wasmtime (deserialising is only
safe for trusted, intact artifacts) nor mapped, but rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Callable, TypeVar

import wasmtime
from wasmtime import component as wc

from . import wasm_snapshot
from .build import (BuiltComponent, Progress, Step, cache_lock, default_cache_dir, ensure_component, file_sha256,
                    no_step, stderr_progress)
from .errors import GuestBuildError

T = TypeVar("T")

MAX_WASM_STACK = 2 << 20
"""How much of the host thread's stack the guest's wasm code may use (wasmtime's
``max_wasm_stack``, 512 KiB by default); past it the call traps (``stack_overflow``). The
guest's CPython guards only its own shadow stack in linear memory, so this limit is what
decides whether a deep recursion ends as a ``RecursionError`` or as a trap. Measured in the
guest, 512 KiB against 2 MiB: freeing a nested tuple trapped at 1,900 levels against 7,700,
a traceback at 2,300 frames against 9,300; ``__getattr__``, ``__repr__``, ``__eq__``, ``map``
or ``sorted`` recursing into themselves trapped before the recursion limit of 1,000, and now
raise ``RecursionError``; the bash tool's interpreters unwind a ``RecursionError`` cleanly up
to a recursion limit of about 8,100 (``bash.RECURSION_LIMIT`` is 4,000). 2 MiB is the most
wasmtime-py 50 and 51 allow (more must not exceed wasmtime's ``async_stack_size``, 2 MiB, which
wasmtime-py cannot set: the engine's creation panics and aborts the process). It is stack
the host thread already has, nothing is allocated per store: fresh isolates, 500 runs of
each interleaved, took the same time (``print(1 + 1)`` median 1.97 ms at 512 KiB and at
2 MiB, a bash ``echo hi | wc -c`` 2.25 ms and 2.25). The thread must hold it: see
``HOST_STACK_BYTES``."""

HOST_STACK_BYTES = 8 << 20
"""The stack a host thread that runs wasm must have: ``MAX_WASM_STACK`` with room under it
for the host's frames and over it for host calls. A host-stack overflow is a segfault of the
whole process, not a trap. The worker's main thread gets it from ``RLIMIT_STACK`` (8 MiB by
default; ``sandbox.worker_main`` raises a lower soft limit); a thread started to run wasm
gets it explicitly (``on_wasm_thread``): glibc gives threads ``RLIMIT_STACK``, or 2 MiB when
that is unlimited, too little."""

ENGINE_SETTINGS: dict[str, object] = {
    "epoch_interruption": True,
    "max_wasm_stack": MAX_WASM_STACK,
}
"""Every engine setting, part of the cache key (wasmtime would load an artifact compiled with
another ``max_wasm_stack``, but the key names the whole configuration)."""


IMAGE_LAYOUT = "memory-image-file"
"""How the guest's memory reaches an instance (part of the cache key): the main module's data
segments moved out of the component at compile time into an image file beside the
artifact (``sandbox.wasm_snapshot.split_component_data``), mapped and kept resident by
``sandbox.memory_slots``. Measured, fresh ``print(1+1)`` in one process: the pooling allocator
with 24 MiB kept resident took 306 page faults in the call and 1.45 ms of CPU in the drop
(its reset copies the whole span); the slots 0 faults (the call 1.34 -> 0.78 ms) and a drop
of 0.77 ms. The component compiles in 5 s instead of 11, to 23 MB instead of 150."""


def make_engine(memories: Callable[[wasmtime.Config], None] | None = None) -> wasmtime.Engine:
    """An engine with ``ENGINE_SETTINGS``; ``memories`` may give it a memory creator
    (``sandbox.memory_slots``), which changes where memories live, not compiled code: an
    artifact compiled by an engine without one loads into an engine with one."""
    config = wasmtime.Config()
    config.epoch_interruption = True
    config.max_wasm_stack = MAX_WASM_STACK
    if memories is not None:
        memories(config)
    return wasmtime.Engine(config)


_STACK_SIZE_LOCK = threading.Lock()


def on_wasm_thread(run: Callable[[], T]) -> T:
    """``run()`` on a new thread with a stack of ``HOST_STACK_BYTES``, waited for; its result,
    or its exception raised here. For the few places that run wasm off the worker's main
    thread (making a compiled image, which runs the guest), whichever thread calls them: an
    executor's thread has whatever stack size the process left to it."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        try:
            outcome.append(run())
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    with _STACK_SIZE_LOCK:  # threading.stack_size is the process's, for threads started next
        previous = threading.stack_size(HOST_STACK_BYTES)
        try:
            thread = threading.Thread(target=body, name="wasm-host-stack", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def engine_fingerprint() -> str:
    settings = ",".join(f"{k}={v}" for k, v in sorted(ENGINE_SETTINGS.items()))
    made = hashlib.sha256(Path(wasm_snapshot.__file__).read_bytes()
                          + (Path(__file__).parent / "immortal_image.py").read_bytes()).hexdigest()[:12]
    return f"wasmtime-{metadata.version('wasmtime')};{settings};{IMAGE_LAYOUT}={made}"


@dataclass(frozen=True)
class CompiledGuest:
    """A compiled artifact on disk, its memory image (``IMAGE_LAYOUT``), their digests and
    what they were made from."""

    path: Path
    component_sha256: str
    fingerprint: str
    sha256: str
    image: Path
    image_sha256: str

    def worker_args(self) -> list[str]:
        """What a worker process is started with (``sandbox.worker_main``)."""
        return [str(self.path), self.sha256, str(self.image), self.image_sha256]


def _compiled_paths(cache_dir: Path, built: BuiltComponent) -> tuple[Path, Path, str]:
    fingerprint = engine_fingerprint()
    key = hashlib.sha256(f"{built.sha256}\n{fingerprint}".encode()).hexdigest()[:24]
    artifact = cache_dir / f"compiled-{key}.cwasm"
    return artifact, artifact.with_suffix(".json"), fingerprint


def _valid(artifact: Path, meta: Path, built: BuiltComponent, fingerprint: str) -> CompiledGuest | None:
    try:
        recorded = json.loads(meta.read_text())
    except (OSError, ValueError):
        return None
    image = artifact.with_suffix(".mem")
    if (not artifact.is_file() or not image.is_file() or recorded.get("component_sha256") != built.sha256
            or recorded.get("fingerprint") != fingerprint):
        return None
    if file_sha256(artifact) != recorded.get("sha256") or file_sha256(image) != recorded.get("image_sha256"):
        return None
    return CompiledGuest(artifact, built.sha256, fingerprint, recorded["sha256"], image,
                         recorded["image_sha256"])


def ensure_compiled(cache_dir: Path | None = None, progress: Progress = stderr_progress,
                    step: Step = no_step) -> CompiledGuest:
    """Build (if needed) and compile (if needed) the guest; return the cached artifact.

    ``progress`` is told what happens; ``step`` wraps the two long steps (see :data:`Step`).
    """
    cache_dir = cache_dir or default_cache_dir()
    built = ensure_component(cache_dir, progress, step)
    artifact, meta, fingerprint = _compiled_paths(cache_dir, built)
    found = _valid(artifact, meta, built, fingerprint)
    if found:
        return found
    with cache_lock(cache_dir):
        found = _valid(artifact, meta, built, fingerprint)
        if found:
            return found
        progress("compiling guest component (one-time, ~5 s)...")
        started = time.monotonic()
        try:
            stripped, image_bytes = wasm_snapshot.split_component_data(built.path.read_bytes())
        except wasm_snapshot.SnapshotError as exc:
            raise GuestBuildError(f"cannot move the guest's memory image out of it: {exc}") from exc
        try:
            with step("compiling the guest component", 5.0):
                data = wc.Component(make_engine(), stripped).serialize()
        except wasmtime.WasmtimeError as exc:
            raise GuestBuildError(f"compiling the guest component failed: {exc}") from exc
        image = artifact.with_suffix(".mem")
        _write_replacing(artifact, data)
        _write_replacing(image, image_bytes)
        guest = CompiledGuest(artifact, built.sha256, fingerprint, file_sha256(artifact), image,
                              hashlib.sha256(image_bytes).hexdigest())
        guest = _immortalised(guest, progress)
        meta.write_text(json.dumps({"component_sha256": built.sha256, "fingerprint": fingerprint,
                                    "sha256": guest.sha256, "image_sha256": guest.image_sha256}))
        progress(f"compiled in {time.monotonic() - started:.1f} s: {artifact}")
        return guest


def _write_replacing(target: Path, content: bytes | bytearray) -> None:
    tmp = target.with_suffix(target.suffix + ".tmp")
    tmp.write_bytes(content)
    os.replace(tmp, target)


def _immortalised(guest: CompiledGuest, progress: Progress) -> CompiledGuest:
    """``guest`` with its image's long-lived objects made immortal (``sandbox.immortal_image``)."""
    from .immortal_image import immortalise  # it runs the guest, so it imports the isolate

    image_bytes, done = on_wasm_thread(lambda: immortalise(guest))
    _write_replacing(guest.image, image_bytes)
    progress(f"made {done.patched} image objects immortal ({done.skipped} left as they were)")
    return replace(guest, image_sha256=hashlib.sha256(image_bytes).hexdigest())


def load_compiled(engine: wasmtime.Engine, guest: CompiledGuest, verify: bool = True) -> wc.Component:
    """Load a compiled artifact into ``engine``, re-checking its bytes first."""
    if verify and file_sha256(guest.path) != guest.sha256:
        raise GuestBuildError(f"compiled guest {guest.path} changed on disk; refusing to load it")
    try:
        return wc.Component.deserialize_file(engine, str(guest.path))
    except wasmtime.WasmtimeError as exc:
        raise GuestBuildError(f"cannot load compiled guest {guest.path}: {exc}") from exc


def cache_state(cache_dir: Path | None = None) -> dict[str, object]:
    """What ``sandbox doctor`` shows: versions, paths and whether the caches are warm."""
    from .build import _existing, source_hash

    cache_dir = cache_dir or default_cache_dir()
    key = source_hash()
    component = cache_dir / f"guest-{key[:20]}.wasm"
    built = _existing(component, component.with_suffix(".json"), key)
    state: dict[str, object] = {
        "wasmtime": metadata.version("wasmtime"),
        "componentize_py": metadata.version("componentize-py"),
        "engine": engine_fingerprint(),
        "cache_dir": str(cache_dir),
        "guest_source_hash": key,
        "component": str(component),
        "component_state": "built" if built else "missing (built on first use, ~15 s)",
    }
    if built:
        artifact, meta, fingerprint = _compiled_paths(cache_dir, built)
        valid = _valid(artifact, meta, built, fingerprint)
        state["compiled"] = str(artifact)
        state["compiled_state"] = ("ready" if valid else
                                   "damaged (will be rebuilt)" if artifact.exists() else
                                   "missing (compiled on first use, ~10 s)")
    return state

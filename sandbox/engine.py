"""The wasmtime engine and the compiled guest: configure once, compile once, cache on disk.

Compiling the ~20 MB guest with Cranelift takes about 10 s, loading a compiled artifact a
few milliseconds. The compiled artifact is cached under a key made of the component's
hash, the wasmtime version and the engine configuration (an artifact compiled with other
settings does not load, so all three must match). Next to each artifact a small JSON file
records its key and SHA-256; a file whose bytes or key do not match is never handed to
wasmtime (deserialising is only safe for trusted, intact artifacts) but rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import wasmtime
from wasmtime import component as wc

from .build import (BuiltComponent, Progress, Step, cache_lock, default_cache_dir, ensure_component, file_sha256,
                    no_step, stderr_progress)
from .errors import GuestBuildError

ENGINE_SETTINGS: dict[str, object] = {
    "epoch_interruption": True,
}
"""Every engine setting that changes compiled code; part of the cache key."""


POOL_COMPONENT_INSTANCES = 4
"""Guest instances one pooled engine holds at once. A worker holds at most two (the running
isolate and its spare, one closed before the next is made); the rest is headroom."""
POOL_LINEAR_MEMORY_KEEP_RESIDENT = 24 * 1024 * 1024
"""Bytes at the start of each linear memory that the pool resets in place (restored to the
guest's initial image) when a store closes, instead of handing them back to the kernel.
Measured: a fresh ``print(1+1)`` took 588 page faults and 1.9 ms without it (the run's first
writes copy pages of the snapshot image, spread over all of its ~20 MiB), 0 faults and 0.46
ms with 24 MiB (16 MiB still left 141). The reset copies the whole span (about 0.02 ms per
MiB, off the critical path: after the answer is sent), so it is no larger than the image
needs; a larger guest only faults again above it. What a run dirtied below it stays
resident in the slot."""
POOL_MAX_MEMORY_BYTES = 4 * 1024 * 1024 * 1024
"""A pool slot's largest memory: all a 32-bit guest can address, so ``Limits.memory_bytes``
(enforced per store) is the only bound a run meets."""
_POOL_SETTINGS: dict[str, int] = {
    "total_component_instances": POOL_COMPONENT_INSTANCES,
    # The guest (componentize-py) has 14 core instances, 1 memory and 2 tables (the largest
    # with 5,672 elements); each bound leaves room for a bigger guest.
    "max_core_instances_per_component": 64,
    "total_core_instances": 64 * POOL_COMPONENT_INSTANCES,
    "max_memories_per_component": 2,
    "total_memories": 2 * POOL_COMPONENT_INSTANCES,
    "max_tables_per_component": 8,
    "total_tables": 8 * POOL_COMPONENT_INSTANCES,
    "table_elements": 65_536,
    "max_memory_size": POOL_MAX_MEMORY_BYTES,
    "linear_memory_keep_resident": POOL_LINEAR_MEMORY_KEEP_RESIDENT,
    "table_keep_resident": 1024 * 1024,
}


def make_engine(pooled: bool = False) -> wasmtime.Engine:
    """An engine with ``ENGINE_SETTINGS``; ``pooled`` adds wasmtime's pooling allocator.

    Pooling changes no compiled code (artifacts load either way), only where instances live:
    pre-reserved slots reused by the same component, their memory reset in place (see
    ``POOL_LINEAR_MEMORY_KEEP_RESIDENT``) rather than mapped anew. wasmtime-py has no
    setter for it, so it is set through its bindings of wasmtime's C API.
    """
    config = wasmtime.Config()
    config.epoch_interruption = True
    if pooled:
        _set_pooling(config)
    return wasmtime.Engine(config)


def _set_pooling(config: wasmtime.Config) -> None:
    from wasmtime import _ffi as ffi

    pooling = ffi.wasmtime_pooling_allocation_config_new()
    try:
        for name, value in _POOL_SETTINGS.items():
            getattr(ffi, f"wasmtime_pooling_allocation_config_{name}_set")(pooling, value)
        ffi.wasmtime_pooling_allocation_strategy_set(config.ptr(), pooling)
    finally:
        ffi.wasmtime_pooling_allocation_config_delete(pooling)


def engine_fingerprint() -> str:
    settings = ",".join(f"{k}={v}" for k, v in sorted(ENGINE_SETTINGS.items()))
    return f"wasmtime-{metadata.version('wasmtime')};{settings}"


@dataclass(frozen=True)
class CompiledGuest:
    """A compiled artifact on disk and what it was made from."""

    path: Path
    component_sha256: str
    fingerprint: str
    sha256: str


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
    if (not artifact.is_file() or recorded.get("component_sha256") != built.sha256
            or recorded.get("fingerprint") != fingerprint):
        return None
    if file_sha256(artifact) != recorded.get("sha256"):
        return None
    return CompiledGuest(artifact, built.sha256, fingerprint, recorded["sha256"])


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
        progress("compiling guest component (one-time, ~10 s)...")
        started = time.monotonic()
        try:
            with step("compiling the guest component", 10.0):
                compiled = wc.Component.from_file(make_engine(), str(built.path))
                data = compiled.serialize()
        except wasmtime.WasmtimeError as exc:
            raise GuestBuildError(f"compiling the guest component failed: {exc}") from exc
        tmp = artifact.with_suffix(".cwasm.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, artifact)
        guest = CompiledGuest(artifact, built.sha256, fingerprint, file_sha256(artifact))
        meta.write_text(json.dumps({"component_sha256": built.sha256, "fingerprint": fingerprint,
                                    "sha256": guest.sha256}))
        progress(f"compiled in {time.monotonic() - started:.1f} s: {artifact}")
        return guest


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

"""The guest build (keyed by its sources) and the engine's compile cache: keyed correctly, never
loading a damaged artifact."""

from __future__ import annotations

import ctypes
import json
import shutil
import threading
from importlib import metadata
from pathlib import Path

import pytest

from sandbox import build, engine
from sandbox.engine import CompiledGuest, ensure_compiled, load_compiled, make_engine
from sandbox.errors import GuestBuildError
from sandbox.isolate import GuestRuntime


def _copy_cache(guest: CompiledGuest, target: Path) -> Path:
    """A private copy of the warm cache (component, compiled artifact and its memory image,
    with metadata)."""
    source = guest.path.parent
    wanted = [guest.path, guest.path.with_suffix(".json"), guest.image]
    for meta in source.glob("guest-*.json"):
        if json.loads(meta.read_text()).get("sha256") == guest.component_sha256:
            wanted += [meta, meta.with_suffix(".wasm")]
    for path in wanted:
        shutil.copy2(path, target / path.name)
    return target / guest.path.name


def test_source_hash_changes_when_a_guest_source_changes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    guest_dir = tmp_path / "guest"
    shutil.copytree(build.GUEST_DIR, guest_dir, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(build, "GUEST_DIR", guest_dir)
    monkeypatch.setattr(build, "WASM_DIR", tmp_path)
    shutil.copytree(build.WIT_DIR, tmp_path / "wit")
    monkeypatch.setattr(build, "WIT_DIR", tmp_path / "wit")
    before = build.source_hash()
    assert build.source_hash() == before
    (guest_dir / "pyexec.py").write_text((guest_dir / "pyexec.py").read_text() + "\n# changed\n")
    assert build.source_hash() != before


def test_engine_fingerprint_names_version_and_settings() -> None:
    fingerprint = engine.engine_fingerprint()
    assert fingerprint.startswith(f"wasmtime-{metadata.version('wasmtime')};") and "epoch_interruption=True" in fingerprint
    assert f"max_wasm_stack={2 << 20}" in fingerprint


def test_the_host_stack_holds_the_wasm_stack_with_room() -> None:
    assert engine.ENGINE_SETTINGS["max_wasm_stack"] == engine.MAX_WASM_STACK == 2 << 20
    assert engine.HOST_STACK_BYTES >= 4 * engine.MAX_WASM_STACK


def _thread_stack_bytes() -> int:
    libc = ctypes.CDLL(None)
    libc.pthread_self.restype = ctypes.c_ulong
    libc.pthread_getattr_np.argtypes = [ctypes.c_ulong, ctypes.c_void_p]
    libc.pthread_attr_getstack.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.POINTER(ctypes.c_size_t)]
    libc.pthread_attr_destroy.argtypes = [ctypes.c_void_p]
    attr = ctypes.create_string_buffer(256)  # pthread_attr_t is 56 bytes on x86-64 glibc
    assert libc.pthread_getattr_np(libc.pthread_self(), attr) == 0
    base, size = ctypes.c_void_p(), ctypes.c_size_t()
    libc.pthread_attr_getstack(attr, ctypes.byref(base), ctypes.byref(size))
    libc.pthread_attr_destroy(attr)
    return size.value


def test_wasm_off_the_main_thread_gets_a_thread_of_the_host_stack() -> None:
    before = threading.stack_size()
    assert engine.on_wasm_thread(_thread_stack_bytes) >= engine.HOST_STACK_BYTES
    assert threading.stack_size() == before  # the process's default is left as it was
    with pytest.raises(KeyError, match="handed over"):
        engine.on_wasm_thread(lambda: {}["handed over"])


def _pin_sources(monkeypatch: pytest.MonkeyPatch, compiled_guest: CompiledGuest) -> None:
    """Make the source hash the one the session's guest was built from (sources may be edited)."""
    for meta in compiled_guest.path.parent.glob("guest-*.json"):
        recorded = json.loads(meta.read_text())
        if recorded.get("sha256") == compiled_guest.component_sha256:
            monkeypatch.setattr(build, "source_hash", lambda: recorded["source_hash"])
            return
    raise AssertionError("the session guest's component metadata is missing")


def test_warm_cache_is_reused_without_rebuilding(compiled_guest: CompiledGuest, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _copy_cache(compiled_guest, tmp_path)
    _pin_sources(monkeypatch, compiled_guest)
    messages: list[str] = []
    again = ensure_compiled(tmp_path, progress=messages.append)
    assert messages == [] and again.sha256 == compiled_guest.sha256


def test_a_corrupt_compiled_artifact_is_detected_and_never_loaded(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    artifact = _copy_cache(compiled_guest, tmp_path)
    data = bytearray(artifact.read_bytes())
    data[len(data) // 2] ^= 0xFF
    artifact.write_bytes(bytes(data))
    damaged = CompiledGuest(artifact, compiled_guest.component_sha256, compiled_guest.fingerprint,
                            compiled_guest.sha256, compiled_guest.image, compiled_guest.image_sha256)
    with pytest.raises(GuestBuildError, match="changed on disk"):
        load_compiled(make_engine(), damaged)
    assert engine._valid(artifact, artifact.with_suffix(".json"),
                         build.BuiltComponent(tmp_path / "x.wasm", "", compiled_guest.component_sha256),
                         compiled_guest.fingerprint) is None


def test_a_changed_memory_image_is_detected_and_never_mapped(compiled_guest: CompiledGuest,
                                                             tmp_path: Path) -> None:
    artifact = _copy_cache(compiled_guest, tmp_path)
    image = artifact.with_suffix(".mem")
    with open(image, "r+b") as handle:  # one byte of the guest's initial memory, as an attacker would
        handle.seek(image.stat().st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0xFF]))
    damaged = CompiledGuest(artifact, compiled_guest.component_sha256, compiled_guest.fingerprint,
                            compiled_guest.sha256, image, compiled_guest.image_sha256)
    with pytest.raises(GuestBuildError, match="memory image .* changed on disk"):
        GuestRuntime(damaged)
    assert engine._valid(artifact, artifact.with_suffix(".json"),
                         build.BuiltComponent(tmp_path / "x.wasm", "", compiled_guest.component_sha256),
                         compiled_guest.fingerprint) is None


def test_the_compiled_guest_carries_no_data_segments_its_image_does(compiled_guest: CompiledGuest) -> None:
    recorded = json.loads(compiled_guest.path.with_suffix(".json").read_text())
    assert recorded["image_sha256"] == compiled_guest.image_sha256
    assert compiled_guest.image.stat().st_size % 65536 == 0
    # The artifact is the code; the ~126 MB of snapshot data live only in the image.
    assert compiled_guest.path.stat().st_size < compiled_guest.image.stat().st_size


def test_a_foreign_file_with_our_name_is_not_trusted(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    artifact = _copy_cache(compiled_guest, tmp_path)
    meta = artifact.with_suffix(".json")
    recorded = json.loads(meta.read_text())
    recorded["fingerprint"] = "wasmtime-1.0;other"
    meta.write_text(json.dumps(recorded))
    assert engine._valid(artifact, meta, build.BuiltComponent(tmp_path / "x.wasm", "",
                                                              compiled_guest.component_sha256),
                         compiled_guest.fingerprint) is None


@pytest.mark.slow
def test_a_corrupt_cache_is_rebuilt_on_next_use(compiled_guest: CompiledGuest, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    artifact = _copy_cache(compiled_guest, tmp_path)
    _pin_sources(monkeypatch, compiled_guest)
    artifact.write_bytes(b"not a compiled component")
    messages: list[str] = []
    rebuilt = ensure_compiled(tmp_path, progress=messages.append)
    assert any("compiling" in m for m in messages) and not any("building" in m for m in messages)
    assert rebuilt.path.read_bytes() != b"not a compiled component"
    load_compiled(make_engine(), rebuilt)

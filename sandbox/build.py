"""Builds the guest component from ``wasm/`` with componentize-py, cached by source hash.

The component is a pure function of the guest sources (``wasm/wit`` and ``wasm/guest``),
the vendored pure-Python dependencies (bashlex, PyYAML without its C extension) and the componentize-py version, so its
cache key is a hash of exactly those. A changed guest source means a new key and a rebuild;
an existing file is used only if its own recorded hash still matches its bytes.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterator

from .errors import GuestBuildError

REPO_ROOT = Path(__file__).resolve().parent.parent
WASM_DIR = REPO_ROOT / "wasm"
WIT_DIR = WASM_DIR / "wit"
GUEST_DIR = WASM_DIR / "guest"
WORLD = "sandbox"
GUEST_APP = "app"
VENDORED_PACKAGES = ("bashlex", "yaml")
"""Pure-Python packages copied into the guest image (imported there at build time)."""

Progress = Callable[[str], None]
"""Told what is happening, one message at a time (the default prints it on stderr)."""
Step = Callable[[str, float], AbstractContextManager[object]]
"""Wraps one long step: called with what it does and about how many seconds it takes, it
returns a context manager held for the step's duration (a progress display, say)."""


def no_step(_what: str, _expected_s: float) -> AbstractContextManager[object]:
    return nullcontext()


def default_cache_dir() -> Path:
    configured = os.environ.get("SANDBOX_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wasm-sandbox"


def stderr_progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _source_files() -> list[Path]:
    files: list[Path] = []
    for base, suffixes in ((WIT_DIR, (".wit",)), (GUEST_DIR, (".py",))):
        for path in sorted(base.rglob("*")):
            if path.is_file() and path.suffix in suffixes and "__pycache__" not in path.parts:
                files.append(path)
    return files


def _vendored_dirs() -> list[Path]:
    dirs = []
    for name in VENDORED_PACKAGES:
        module = __import__(name)
        dirs.append(Path(module.__file__).resolve().parent)  # type: ignore[arg-type]
    return dirs


def source_hash() -> str:
    """Hash of everything the component is built from."""
    digest = hashlib.sha256()
    digest.update(f"componentize-py {metadata.version('componentize-py')}\n".encode())
    for path in _source_files():
        digest.update(str(path.relative_to(WASM_DIR)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for vendored in _vendored_dirs():
        for path in sorted(vendored.rglob("*.py")):
            digest.update(str(path.relative_to(vendored.parent)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class BuiltComponent:
    path: Path
    source_hash: str
    sha256: str


@contextmanager
def cache_lock(cache_dir: Path) -> Iterator[None]:
    """One builder at a time per cache directory (across processes)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / ".lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _existing(component: Path, meta: Path, key: str) -> BuiltComponent | None:
    try:
        recorded = json.loads(meta.read_text())
    except (OSError, ValueError):
        return None
    if not component.is_file() or recorded.get("source_hash") != key:
        return None
    if file_sha256(component) != recorded.get("sha256"):
        return None
    return BuiltComponent(component, key, recorded["sha256"])


def ensure_component(cache_dir: Path | None = None, progress: Progress = stderr_progress,
                     step: Step = no_step) -> BuiltComponent:
    """Return the built guest component, building it first if the sources changed."""
    cache_dir = cache_dir or default_cache_dir()
    key = source_hash()
    component = cache_dir / f"guest-{key[:20]}.wasm"
    meta = component.with_suffix(".json")
    found = _existing(component, meta, key)
    if found:
        return found
    with cache_lock(cache_dir):
        found = _existing(component, meta, key)
        if found:
            return found
        progress("building guest component (componentize-py, ~15 s)...")
        started = time.monotonic()
        with step("building the guest component", 15.0):
            _componentize(component)
        built = BuiltComponent(component, key, file_sha256(component))
        meta.write_text(json.dumps({"source_hash": key, "sha256": built.sha256,
                                    "built_at": time.time()}))
        progress(f"guest component built in {time.monotonic() - started:.1f} s: {component}")
        return built


def _componentize(target: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="sandbox-guest-build-") as staging_root:
        staging = Path(staging_root) / "src"
        shutil.copytree(GUEST_DIR, staging, ignore=shutil.ignore_patterns("__pycache__"))
        for vendored in _vendored_dirs():
            # compiled extensions cannot load in the guest (PyYAML falls back to pure Python)
            shutil.copytree(vendored, staging / vendored.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        partial = Path(staging_root) / "guest.wasm"
        command = [
            sys.executable, "-c",
            "import sys; from componentize_py import script; sys.argv[0] = 'componentize-py'; "
            "sys.exit(script())",
            "-d", str(WIT_DIR), "-w", WORLD, "componentize", "-p", str(staging), GUEST_APP,
            "-o", str(partial),
        ]
        done = subprocess.run(command, capture_output=True, text=True, cwd=staging_root)
        if done.returncode != 0 or not partial.is_file():
            raise GuestBuildError(
                "componentize-py failed to build the guest:\n"
                + (done.stderr or done.stdout)[-4000:]
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp_target = target.with_suffix(".wasm.tmp")
        shutil.copyfile(partial, tmp_target)
        os.replace(tmp_target, target)

"""Builds the guest component from ``wasm/`` with componentize-py, cached by source hash.

The component is a pure function of the guest sources (``wasm/wit`` and ``wasm/guest``),
the bundled pure-Python packages pinned in ``wasm/packages.txt`` and the componentize-py
version, so its cache key is a hash of exactly those. A changed guest source or pin means
a new key and a rebuild; an existing file is used only if its own recorded hash still
matches its bytes.

The packages are fetched by pip as hash-pinned wheels for one fixed target, whatever the
build machine (``PACKAGE_TARGET``), into the cache, and only their Python sources and data
are copied next to the guest sources. componentize-py is told to look nowhere else: it
would otherwise add the build environment's own site-packages (``VIRTUAL_ENV``'s, or
``site``'s), so what the guest could import would depend on the machine that built it.
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
import zipfile
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
PACKAGES_FILE = WASM_DIR / "packages.txt"
"""The pinned pure-Python packages of the guest image (imported there at build time)."""
PACKAGE_TARGET = ("--only-binary", ":all:", "--platform", "manylinux2014_x86_64",
                  "--python-version", "3.14", "--implementation", "cp", "--abi", "cp314")
"""The one target pip fetches the pinned wheels for: the same files on any build machine
(a pure wheel fits it; a platform wheel's compiled speedups are dropped)."""
_DIST_INFO_KEPT = ("METADATA", "entry_points.txt", "top_level.txt", "WHEEL")
_DROPPED_SUFFIXES = (".so", ".pyd", ".dylib", ".c", ".h", ".pyx", ".pxd", ".pyi")

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


def pinned_packages() -> list[tuple[str, str, str]]:
    """``(name, version, sha256)`` of every package ``packages.txt`` pins."""
    pins = []
    for raw in PACKAGES_FILE.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, _, digest = line.partition(" --hash=sha256:")
        name, _, version = requirement.partition("==")
        if not (name and version and len(digest) == 64):
            raise GuestBuildError(f"{PACKAGES_FILE}: not a pinned, hashed requirement: {raw!r}")
        pins.append((name.strip(), version.strip(), digest.strip()))
    return pins


def source_hash() -> str:
    """Hash of everything the component is built from."""
    digest = hashlib.sha256()
    digest.update(f"componentize-py {metadata.version('componentize-py')}\n".encode())
    for path in _source_files():
        digest.update(str(path.relative_to(WASM_DIR)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(PACKAGES_FILE.name.encode() + b"\0" + PACKAGES_FILE.read_bytes() + b"\0")
    digest.update(" ".join(PACKAGE_TARGET).encode())
    return digest.hexdigest()


def fetch_wheels(cache_dir: Path) -> list[Path]:
    """The pinned wheels, fetched into ``cache_dir/wheels`` by pip when any is missing;
    each is checked against its pinned hash."""
    wheels_dir = cache_dir / "wheels"
    pins = pinned_packages()
    found = _pinned_wheels(wheels_dir, pins)
    if found is not None:
        return found
    wheels_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes",
               "--disable-pip-version-check", *PACKAGE_TARGET, "-d", str(wheels_dir),
               "-r", str(PACKAGES_FILE)]
    done = subprocess.run(command, capture_output=True, text=True)
    found = _pinned_wheels(wheels_dir, pins)
    if done.returncode != 0 or found is None:
        raise GuestBuildError("pip could not fetch the guest's pinned packages "
                              f"({PACKAGES_FILE.name}):\n" + (done.stderr or done.stdout)[-4000:])
    return found


def _pinned_wheels(wheels_dir: Path, pins: list[tuple[str, str, str]]) -> list[Path] | None:
    """The wheel of each pin in ``wheels_dir`` whose bytes match its hash, or None."""
    by_hash = {}
    for wheel in sorted(wheels_dir.glob("*.whl")) if wheels_dir.is_dir() else []:
        by_hash[file_sha256(wheel)] = wheel
    chosen = [by_hash.get(digest) for _name, _version, digest in pins]
    return [w for w in chosen if w is not None] if all(chosen) else None


def _unpack_wheel(wheel: Path, target: Path) -> list[str]:
    """Copy a wheel's Python sources and data into ``target``; return its top-level modules."""
    top: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            first = member.filename.split("/", 1)[0]
            if member.is_dir() or first.endswith(".data"):
                continue
            if first.endswith(".dist-info"):
                # Read at build time into the guest's memory (wasm/guest/distributions.py).
                if member.filename.rsplit("/", 1)[-1] in _DIST_INFO_KEPT:
                    archive.extract(member, target)
                continue
            if member.filename.endswith(_DROPPED_SUFFIXES) or ".." in member.filename.split("/"):
                continue
            archive.extract(member, target)
            if "/" in member.filename:
                top.add(first)
            elif member.filename.endswith(".py"):
                top.add(member.filename[:-3])
    return sorted(name for name in top if name.isidentifier() and not name.startswith("_"))


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
        wheels = fetch_wheels(cache_dir)
        with step("building the guest component", 15.0):
            _componentize(component, wheels)
        built = BuiltComponent(component, key, file_sha256(component))
        meta.write_text(json.dumps({"source_hash": key, "sha256": built.sha256,
                                    "built_at": time.time()}))
        progress(f"guest component built in {time.monotonic() - started:.1f} s: {component}")
        return built


HOSTCALL_FUEL_EXHAUSTED = "fuel allocated for hostcalls has been exhausted"


def _hint(said: str) -> str:
    """What a componentize-py failure means, where its own message does not say."""
    if HOSTCALL_FUEL_EXHAUSTED in said:
        # Measured: the standard guest's memory at the end of app.py is ~126 MiB, and
        # componentize-py copies it out through one host call that wasmtime caps at 128 MiB.
        return ("\nThe guest's linear memory at the end of its build-time initialisation (what "
                "app.py imports and keeps) grew past what componentize-py can copy out of it "
                "(128 MiB); import less at build time, or free what the build allocates.")
    return ""


def _componentize(target: Path, wheels: list[Path]) -> None:
    with tempfile.TemporaryDirectory(prefix="sandbox-guest-build-") as staging_root:
        staging = Path(staging_root) / "src"
        shutil.copytree(GUEST_DIR, staging, ignore=shutil.ignore_patterns("__pycache__"))
        top_level: list[str] = []
        for wheel in wheels:
            top_level += _unpack_wheel(wheel, staging)
        (staging / "bundled_packages.py").write_text(
            '"""The bundled packages\' top-level modules (written by sandbox/build.py)."""\n\n'
            f"TOP_LEVEL = {tuple(sorted(set(top_level)))!r}\n")
        # An empty virtual environment: componentize-py adds VIRTUAL_ENV's site-packages, or
        # failing that the site module's, and neither may reach into the guest.
        no_site = Path(staging_root) / "no-site" / "lib" / "site-packages"
        no_site.mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["VIRTUAL_ENV"] = str(no_site.parent.parent)
        partial = Path(staging_root) / "guest.wasm"
        command = [
            sys.executable, "-c",
            "import sys; from componentize_py import script; sys.argv[0] = 'componentize-py'; "
            "sys.exit(script())",
            "-d", str(WIT_DIR), "-w", WORLD, "componentize", "-p", str(staging), GUEST_APP,
            "-o", str(partial),
        ]
        done = subprocess.run(command, capture_output=True, text=True, cwd=staging_root, env=env)
        if done.returncode != 0 or not partial.is_file():
            said = done.stderr or done.stdout
            raise GuestBuildError(
                "componentize-py failed to build the guest:\n" + said[-4000:] + _hint(said))
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp_target = target.with_suffix(".wasm.tmp")
        shutil.copyfile(partial, tmp_target)
        os.replace(tmp_target, target)

"""An execute's scratch ``/tmp``: a fresh host directory per isolate, capped while it runs.

Model-written code reaches for ``tempfile`` and libraries write through it (openpyxl saves
a workbook through a temporary file), so every execute isolate sees a writable ``/tmp``:
a new, empty directory made for it before it runs (off the run's critical path, with the
spare isolate) and removed after it, or handed as it is to the next run when its run left
it empty (``sandbox.worker_main``). Nothing in it outlives the run.

WASI has no quotas, so the caps (``Limits.scratch_bytes`` and ``scratch_files``) are held by
``ScratchWatch``: while a run is going, one thread per worker measures the directory every
``CHECK_INTERVAL_S`` and stops the run with ``ScratchLimitExceeded`` once it holds more. A
run that writes faster than the watch looks can overshoot by what it writes in one interval
(about 10 ms); every entry counts at least ``MIN_ENTRY_BYTES``, so many empty files are
charged too. Measuring and removing walk the tree with an explicit stack, without
following symlinks, so no depth or link the guest makes can send them elsewhere or deeper
than Python's recursion allows.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

from .errors import SandboxError, ScratchLimitExceeded
from .limits import Limits

class Stoppable(Protocol):
    """An isolate whose running call another thread can stop (either engine's)."""

    def stop(self, reason: SandboxError) -> None: ...


CHECK_INTERVAL_S = 0.01
MIN_ENTRY_BYTES = 4096
GUEST_PATH = "/tmp"
ROOT_NAME = "sandbox-scratch"


@dataclass
class Usage:
    bytes: int = 0
    entries: int = 0


def scratch_root() -> Path:
    return Path(tempfile.gettempdir()) / ROOT_NAME


def worker_dir() -> Path:
    """This process's directory of scratch directories; those of dead workers are removed."""
    root = scratch_root()
    root.mkdir(mode=0o700, exist_ok=True)
    for child in root.iterdir():
        if child.name.isdigit() and child.name != str(os.getpid()) and not _alive(int(child.name)):
            remove_tree(child)
    mine = root / str(os.getpid())
    mine.mkdir(mode=0o700, exist_ok=True)
    return mine


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def new_scratch(parent: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=parent))


def measure(path: Path, limits: Limits) -> Usage:
    """What ``path`` holds, counted until it is over either cap (then the walk stops)."""
    usage = Usage()
    stack = [str(path)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            usage.entries += 1
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            usage.bytes += max(info.st_size, MIN_ENTRY_BYTES) if stat.S_ISREG(info.st_mode) \
                else MIN_ENTRY_BYTES
            if stat.S_ISDIR(info.st_mode):
                stack.append(entry.path)
            if usage.bytes > limits.scratch_bytes or usage.entries > limits.scratch_files:
                return usage
    return usage


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything under it, depth first, without recursion."""
    stack: list[tuple[str, bool]] = [(str(path), False)]
    while stack:
        current, emptied = stack.pop()
        if emptied:
            _quietly(os.rmdir, current)
            continue
        stack.append((current, True))
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, False))
            else:
                _quietly(os.unlink, entry.path)


def _quietly(remove: Callable[[str], None], path: str) -> None:
    try:
        remove(path)
    except FileNotFoundError:
        pass
    except OSError:
        shutil.rmtree(path, ignore_errors=True)


class ScratchWatch:
    """One thread that measures the running isolate's scratch directory and stops the run
    when it holds too much. ``watch`` arms it for a run, ``done`` disarms it.

    While runs keep coming the thread looks every ``CHECK_INTERVAL_S`` on its own; it goes
    to sleep only after ``IDLE_AFTER_S`` without a run, and only then does ``watch`` have to
    wake it. Waking it for every run (and it waking again 10 ms later) cost each run
    handovers of the GIL, 0.5-1 ms apiece on a busy machine.
    """

    IDLE_AFTER_S = 1.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._asleep = True
        self._last_run = 0.0
        self._target: tuple[Path, Limits, Stoppable] | None = None
        thread = threading.Thread(target=self._loop, name="scratch-watch", daemon=True)
        thread.start()

    def watch(self, path: Path, limits: Limits, isolate: Stoppable) -> None:
        with self._lock:
            self._target = (path, limits, isolate)
            self._last_run = time.monotonic()
            wake, self._asleep = self._asleep, False
        if wake:
            self._wake.set()

    def done(self) -> None:
        with self._lock:
            self._target = None
            self._last_run = time.monotonic()

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            time.sleep(CHECK_INTERVAL_S)
            with self._lock:
                target = self._target
                if target is None and time.monotonic() - self._last_run > self.IDLE_AFTER_S:
                    self._asleep = True
                    self._wake.clear()
            if target is None:
                continue
            path, limits, isolate = target
            usage = measure(path, limits)
            if usage.bytes > limits.scratch_bytes or usage.entries > limits.scratch_files:
                with self._lock:
                    if self._target is not target:
                        continue
                    self._target = None
                isolate.stop(ScratchLimitExceeded(
                    f"the run's {GUEST_PATH} held more than its limit of {limits.scratch_bytes} "
                    f"bytes or {limits.scratch_files} files; the run was stopped"))

"""Progress bars on long CLI work (sandbox.cli.progress): a row per step on a terminal,
nothing when stderr is not one."""

from __future__ import annotations

import io
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from sandbox.cli.progress import _bar, guest_ready, progress_step
from sandbox.engine import CompiledGuest


def test_a_step_is_a_row_that_ends_done() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    with _bar(console) as bar:
        with progress_step(bar)("compiling the guest component", 10.0):
            pass
    shown = screen.getvalue()
    assert "compiling the guest component" in shown and "done" in shown


def test_a_warm_cache_without_a_terminal_prints_nothing(
        compiled_guest: CompiledGuest, capsys: pytest.CaptureFixture[str]) -> None:
    assert guest_ready(compiled_guest.path.parent) == compiled_guest
    assert capsys.readouterr() == ("", "")


@pytest.mark.slow
def test_the_first_compile_shows_a_bar_on_a_terminal(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    # The built component, not yet compiled: only the compile step runs (about 10 s).
    meta = next(found for found in compiled_guest.path.parent.glob("guest-*.json")
                if json.loads(found.read_text())["sha256"] == compiled_guest.component_sha256)
    for source in (meta, meta.with_suffix(".wasm")):
        shutil.copy(source, tmp_path / source.name)
    controller, terminal = pty.openpty()
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(tmp_path), "COLUMNS": "120"}
    build = subprocess.Popen([sys.executable, "-m", "sandbox.cli", "build"], env=env,
                             stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    shown = b""
    while chunk := _read(controller):  # read as it comes: a full terminal would block the build
        shown += chunk
    os.close(controller)
    out, _ = build.communicate(timeout=300)
    assert build.returncode == 0 and out.decode().startswith(str(tmp_path / "compiled-"))
    assert b"compiling the guest component" in shown and b"done" in shown
    assert b"building the guest component" not in shown


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # EIO: the terminal side is closed and drained
        return b""

"""Real ``sandbox serve`` processes sharing one PostgreSQL database, as a deployment of N
processes behind a load balancer runs them (the README's recipe, tested).

Each process has a data directory of its own (what stays per process: its SQLite file for
the stores not yet on PostgreSQL, its workers' scratch) and shares with the others what
must match (:func:`shared_environment`): the database URL, the blob directory, the
operator token and the inline tools' signing secret. The compiled guest comes from the
shared ``SANDBOX_CACHE_DIR``, so a process starts without compiling.

Shared by the scale-out tests and ``benchmarks/scaleout.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from forked_serve import ForkedProcess, start_serve
from live_server import free_port

__all__ = ["ServiceProcess", "services", "shared_environment"]

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 90.0
OPERATOR = "operator-token-of-the-scale-out-tests"


def shared_environment(database_url: str, blob_dir: Path) -> dict[str, str]:
    """The settings every process on one database must agree on (see the README).

    The audit key is one file beside the blob directory: with a key per data directory,
    each process signs checkpoints the others' verify calls as ``bad signature`` (the
    chaos test found the recipe's tests missing it)."""
    return {
        "SANDBOX_DATABASE_URL": database_url,
        "SANDBOX_SHARED_BLOB_DIR": str(blob_dir),
        "SANDBOX_TOKEN": OPERATOR,
        "SANDBOX_INLINE_TOOL_SECRET": "inline-secret-of-the-scale-out-tests",
        "SANDBOX_AUDIT_KEY": str(blob_dir.parent / "shared-audit-key" / "ed25519.key"),
    }


class ServiceProcess:
    """One ``sandbox serve`` in its own process group on a free port (see ``forked``)."""

    def __init__(self, name: str, data_dir: Path, env: dict[str, str], *, workers: int = 1,
                 args: list[str] | None = None, forked: bool = True) -> None:
        self.name = name
        self.forked = forked
        """Forked from the tests' fork server (``forked_serve``: the same entry point, about
        1-2 s less to start); a fresh interpreter otherwise (the README's own command)."""
        self.args = list(args or [])
        """More ``serve`` options (``--port``, ``--data-dir`` and ``--host`` are set here)."""
        self.data_dir = data_dir
        self.env = env
        self.workers = workers
        self.port = 0
        self.process: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.log_path = data_dir.parent / f"{name}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        """Start it without waiting (several may start at once, racing their migrations)."""
        self.port = free_port()
        env = {**os.environ, **self.env}
        args = ["--data-dir", str(self.data_dir), "--port", str(self.port), "--workers", str(self.workers),
                "--log-level", "warning", *self.args, "--host", "127.0.0.1"]
        if self.forked:
            self.process = start_serve(args, env, self.log_path)
            return
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "sandbox.cli", "serve", *args],
                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} did not start in {START_TIMEOUT_S:g} s:\n{self.log()}")
            time.sleep(0.05)

    def client(self, token: str = OPERATOR) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60,
                            headers={"Authorization": f"Bearer {token}"})

    def kill(self) -> None:
        """SIGKILL the service and everything it started (its workers)."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, a graceful shutdown; SIGKILL if it takes more than 30 s."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(ProcessLookupError):  # workers it left, if any
            os.killpg(self.process.pid, signal.SIGKILL)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except FileNotFoundError:
            return ""


@contextlib.contextmanager
def services(count: int, database_url: str, root: Path, *, workers: int = 1,
             env: dict[str, str] | None = None, args: list[str] | None = None,
             forked: bool = True) -> Iterator[list[ServiceProcess]]:
    """``count`` processes on ``database_url``, each with its own data directory under
    ``root`` and one shared blob directory; all stopped when the block ends. ``env``
    replaces :func:`shared_environment` (the README's recipe brings its own)."""
    blob_dir = root / "shared-blobs"
    blob_dir.mkdir(parents=True, exist_ok=True)
    shared = env if env is not None else shared_environment(database_url, blob_dir)
    running = [ServiceProcess(f"service-{i}", root / f"data-{i}", shared, workers=workers, args=args,
                              forked=forked) for i in range(count)]
    try:
        for service in running:
            service.launch()
        for service in running:
            service.wait_ready()
        yield running
    finally:
        for service in running:
            service.stop()

"""The tests' fork server (``forked_serve``) starts ``sandbox serve`` as a process of its own:
the environment, arguments and log it is given, its own exit status, a signal's end."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from forked_serve import ForkedProcess, start_serve
from live_server import free_port

pytestmark = pytest.mark.slow


def test_a_start_runs_on_the_environment_it_is_given_and_reports_its_exit_status(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    process = start_serve(["--data-dir", str(tmp_path / "data"), "--port", str(free_port())],
                          {**os.environ, "SANDBOX_MAX_ATTEMPTS": "lots"}, log)
    assert process.wait(timeout=60) == 2
    assert "SANDBOX_MAX_ATTEMPTS='lots' is not an integer" in log.read_text()


def test_a_started_service_serves_until_a_signal_ends_it(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    env = {key: value for key, value in os.environ.items() if key != "SANDBOX_MAX_ATTEMPTS"}
    args = ["--data-dir", str(tmp_path / "data"), "--port", str(port), "--workers", "1"]
    started: list[ForkedProcess] = []
    try:
        started.append(first := start_serve(args, env, log))
        assert first.pid != os.getpid() and os.getpgid(first.pid) == first.pid  # its own session
        _wait_healthy(port)
        first.terminate()
        # As from a fresh interpreter: uvicorn shuts down, then ends by the signal it caught.
        assert first.wait(timeout=30) == -signal.SIGTERM
        assert "Application shutdown complete" in log.read_text()
        started.append(second := start_serve(args, env, log))
        _wait_healthy(port)
        os.killpg(second.pid, signal.SIGKILL)
        assert second.wait(timeout=30) == -signal.SIGKILL
        assert second.poll() == -signal.SIGKILL
    finally:  # a failed assertion leaves no service (nor its workers) running
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def _wait_healthy(port: int) -> None:
    for _ in range(1200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("the service did not answer /healthz in 60 s")

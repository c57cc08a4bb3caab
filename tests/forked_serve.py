"""``sandbox serve`` processes started by forking one that has already imported the service.

Why: a fresh ``python -m sandbox.cli serve`` spends most of its start importing (FastAPI, the
routes, Code Mode: 1.2-2.1 s on this machine) before its lifespan starts the workers, and
the tests that kill and restart services start dozens (``test_recovery.py``: two or more
starts in each of 42 tests). Here one helper process (the *fork server*) imports all of it
once; each start is then a ``fork`` of it that runs ``sandbox.cli.main(["serve", ...])``.

What a test sees is what it saw before: a real process of its own (its own pid, session,
environment, working directory and log file), running the same command-line entry point on
the same arguments, killed with SIGKILL or stopped with SIGTERM, its workers started afresh
by it. Nothing of a run is in the fork server: it never opens a database, starts a thread
or an event loop, so a child starts from imported modules only. Its exit status comes back
through the fork server, which is the child's parent (``ForkedProcess`` answers ``poll``,
``wait`` and ``terminate`` as ``subprocess.Popen`` does).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["ForkedProcess", "start_serve"]

REPO = Path(__file__).resolve().parent.parent
PRELOADED = ("sandbox.cli.main", "sandbox.cli.serve", "sandbox.service.app", "uvicorn",
             "uvicorn.protocols.http.httptools_impl", "uvicorn.protocols.http.h11_impl",
             "uvicorn.lifespan.on", "uvicorn.loops.uvloop", "asyncpg", "storage.postgres")
"""What ``serve`` imports before it serves; a name missing here is imported by the child."""


class _Server:
    """The fork server, seen from the test process: one request and one answer at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            start_new_session=True)
        self.lock = threading.Lock()
        ready = self._read()
        assert ready.get("ready"), ready

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server exited ({self.process.poll()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        with self.lock:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            answer = self._read()
        if "error" in answer:
            raise RuntimeError(f"the fork server: {answer['error']}")
        return answer


_server: _Server | None = None
_server_lock = threading.Lock()


def _the_server() -> _Server:
    global _server
    with _server_lock:
        if _server is None or _server.process.poll() is not None:
            _server = _Server()
        return _server


class ForkedProcess:
    """A child of the fork server, with the part of ``subprocess.Popen`` the tests use."""

    def __init__(self, server: _Server, pid: int) -> None:
        self.server = server
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.ask({"op": "poll", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"serve (pid {self.pid})", timeout or 0.0)
            time.sleep(0.01)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def start_serve(args: list[str], env: dict[str, str], log_path: Path,
                cwd: Path = REPO) -> ForkedProcess:
    """``sandbox serve ARGS`` in a new session, with exactly ``env`` as its environment and
    its output (stdout and stderr) appended to ``log_path``."""
    server = _the_server()
    answer = server.ask({"op": "start", "argv": ["serve", *args], "env": env,
                         "log": str(log_path), "cwd": str(cwd)})
    return ForkedProcess(server, int(answer["pid"]))


# --- the fork server's own side -------------------------------------------------------------


def _child(request: dict[str, Any], started: int) -> None:
    """In the forked child: become the command's own process, then run it; never returns to
    the server's loop (its SystemExit ends the interpreter, atexit handlers included).
    ``started`` is closed once the child leads a session of its own (the server waits for
    that before it answers, as ``subprocess.Popen(start_new_session=True)`` does)."""
    os.setsid()
    os.close(started)
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(devnull)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from sandbox.cli.main import main

    sys.argv = ["sandbox", *request["argv"]]
    raise SystemExit(main(request["argv"]))


def _serve_requests() -> None:
    import importlib

    control_in, control_out = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what an import prints must not reach the control pipe
    for name in PRELOADED:
        with contextlib.suppress(ImportError):  # an optional one (uvloop, httptools) may be absent
            importlib.import_module(name)
    if threading.active_count() != 1:  # a fork would copy a thread's locks, not the thread
        raise SystemExit(f"the fork server has {threading.active_count()} threads after its imports")

    def answer(value: dict[str, Any]) -> None:
        control_out.write(json.dumps(value).encode() + b"\n")
        control_out.flush()

    answer({"ready": True})
    for line in control_in:
        request = json.loads(line)
        if request["op"] == "start":
            sys.stdout.flush()
            sys.stderr.flush()
            started_read, started_write = os.pipe()
            pid = os.fork()
            if pid == 0:
                control_in.close()
                control_out.close()
                os.close(started_read)
                _child(request, started_write)
            os.close(started_write)
            os.read(started_read, 1)  # returns at the child's close (or its death)
            os.close(started_read)
            answer({"pid": pid})
        elif request["op"] == "poll":
            try:
                done, status = os.waitpid(request["pid"], os.WNOHANG)
            except ChildProcessError as error:
                answer({"error": f"pid {request['pid']}: {error}"})
                continue
            answer({"returncode": os.waitstatus_to_exitcode(status) if done else None})
        else:
            answer({"error": f"unknown op {request['op']!r}"})


if __name__ == "__main__":
    import ctypes

    # As ``python -m sandbox.cli`` run from the project's root has it: that directory first,
    # not this one (whose ``workspace/`` tests would hide the ``workspace`` package).
    sys.path[0] = str(REPO)

    with contextlib.suppress(OSError, AttributeError):  # die with the test process
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    _serve_requests()

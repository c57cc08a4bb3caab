"""The worker process: holds the compiled guest and runs one isolate at a time.

Started by ``sandbox.workers`` as ``python -m sandbox.worker_main ARTIFACT SHA256 IMAGE
IMAGE_SHA256`` (``CompiledGuest.worker_args``; the
science engine's: ``--science ARTIFACT SHA256 STAGE IMAGE IMAGE_SHA256``, see
``sandbox.science_isolate``). It talks to the service only through the frames of ``_wire`` on its private copies of stdin and
stdout (fds 0 and 1 then point at /dev/null and stderr, so a stray print cannot corrupt the
channel). It dies with its parent, and it carries cheap OS limits of its own.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable

from ._wire import WireError, encode, read_frame, tail_of, text_of, write_encoded, write_frame
from .engine import HOST_STACK_BYTES, CompiledGuest
from .envelope import MAX_PAYLOAD_CHARS
from .errors import HostCallLimitExceeded, SandboxError
from .file_contents import take_files
from .json_text import take_result
from .isolate import GuestRuntime, HostCallFailed, Isolate, Preopen
from .limits import Limits
from .scratch import GUEST_PATH, ScratchWatch, new_scratch, remove_tree, worker_dir
from .spare_signal import SpareCounter
from .science_engine import CompiledScience
from .science_isolate import ScienceIsolate, ScienceRuntime

WORKER_ADDRESS_SPACE_BYTES = 64 * 1024 ** 3
"""Address-space cap per worker. wasmtime reserves ~8 GiB of virtual space per linear
memory (reservation plus guard pages) but touches only what the guest uses, so the cap is
generous in virtual terms; it still stops a runaway host-side leak from eating the machine."""


class _Aborted(Exception):
    """The service told the worker to stop the run (park, cancel); carries the trap.

    An ``Exception``, not a ``BaseException``: wasmtime's host-call trampoline carries
    ``Exception`` subclasses back out of the guest, other exceptions would abort the worker.
    The guest cannot catch it either way: it unwinds the isolate from the host side."""

    def __init__(self, trap: dict[str, str]) -> None:
        super().__init__(trap.get("message", ""))
        self.trap = trap


def _uncharged_seconds(reply: dict[str, Any]) -> float:
    """The reply's ``uncharged_s``: time the service spent waiting, not running, on this call.

    The service is trusted and caps the total per run; this only refuses what is not a
    finite positive number, so a malformed frame cannot move the deadline backwards."""
    value = reply.get("uncharged_s")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value) if 0 < value < float("inf") else 0.0


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        sys.exit(0)


def _apply_os_limits() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = WORKER_ADDRESS_SPACE_BYTES if hard == resource.RLIM_INFINITY else min(hard, WORKER_ADDRESS_SPACE_BYTES)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    _ensure_main_stack()


def _ensure_main_stack() -> None:
    """Runs go on this process's main thread, whose stack may grow to ``RLIMIT_STACK``: it
    must hold the guest's wasm stack and the host's frames (``HOST_STACK_BYTES``), or a deep
    guest recursion would overflow the host's stack (a segfault) before wasmtime's limit
    stopped it (a trap). A lower soft limit is raised (the kernel checks it as the stack
    grows); a hard limit below it is refused."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if soft == resource.RLIM_INFINITY or soft >= HOST_STACK_BYTES:
        return
    if hard != resource.RLIM_INFINITY and hard < HOST_STACK_BYTES:
        raise SystemExit(f"worker: the stack limit ({hard} bytes, RLIMIT_STACK) is below the "
                         f"{HOST_STACK_BYTES} bytes the guest's wasm stack needs on the host")
    resource.setrlimit(resource.RLIMIT_STACK, (HOST_STACK_BYTES, hard))


def _private_channel() -> tuple[int, int]:
    """Move the channel off fds 0/1 so nothing else can write into it."""
    channel_in, channel_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return channel_in, channel_out


class Worker:
    """Serves runs one at a time. Between runs it instantiates the next isolate ahead of time
    (a spare that has never run any code), which takes instantiation off the critical path
    of every run; a bash run's directory is granted to the spare just before its call. The
    isolate a run used is closed after its answer is sent (dropping a store costs 0.5-0.9
    ms), and before the next spare is made, so at most two instances are ever alive."""

    def __init__(self, runtime: GuestRuntime | ScienceRuntime, channel_in: int, channel_out: int) -> None:
        self.runtime = runtime
        self.fd_in = channel_in
        self.fd_out = channel_out
        self.spare: Isolate | ScienceIsolate | None = None
        self.used: Isolate | ScienceIsolate | None = None
        """The isolate of the run just answered, closed once the answer is on the pipe."""
        self.scratch_parent = worker_dir()
        self.watch = ScratchWatch()
        self.spare_scratch: Path | None = None
        """The next execute's empty scratch ``/tmp``, made with the spare."""
        self.used_scratch: list[Path] = []
        self.spare_counter = SpareCounter()
        """Tells the pool when the spare is made (``sandbox.spare_signal``)."""

    def _prepare_spare(self) -> None:
        """The next run's isolate, made ahead, and an empty scratch ``/tmp`` for it (granted
        just before an execute's call); the scratch directories of earlier runs go.

        A directory its run left empty (most runs never touch ``/tmp``) is the next run's
        as it is: nothing of the run is left in it, and not removing and making one saves
        two directory operations of the worker's CPU per run."""
        reused: Path | None = None
        for used in self.used_scratch:
            if reused is None and _empty(used):
                reused = used
            else:
                remove_tree(used)
        self.used_scratch = []
        self.spare_scratch = reused or new_scratch(self.scratch_parent)
        try:
            self.spare = self.runtime.isolate(Limits.default)
        except SandboxError:
            self.spare = None

    def _isolate_for(self, limits: Limits, preopens: list[Preopen], export: str) -> Isolate | ScienceIsolate:
        spare, self.spare = self.spare, None
        scratch, self.spare_scratch = self.spare_scratch, None
        if not preopens and export == "execute" and isinstance(self.runtime, GuestRuntime):
            # (the science engine makes its own scratch /tmp: sandbox.science_isolate)
            scratch = scratch or new_scratch(self.scratch_parent)
            preopens = [Preopen(str(scratch), GUEST_PATH)]
        if scratch is not None:
            self.used_scratch.append(scratch)
        if spare is None:
            return self.runtime.isolate(limits, preopens)
        spare.set_limits(limits)
        if preopens:
            spare.grant(preopens)
        return spare

    def _call(self, isolate: Isolate | ScienceIsolate, message: dict[str, Any], limits: Limits,
              on_host_call: Callable[[str, str], str]) -> str:
        """One call; an execute's scratch directory is watched while it runs (the science
        engine's too: its ``/tmp`` is as capped as the standard guest's)."""
        if isinstance(isolate, Isolate):
            scratch = next((Path(p.host_dir) for p in isolate.preopens
                            if p.guest_dir == GUEST_PATH), None)
        else:
            scratch = isolate.scratch
        if message["export"] == "execute" and scratch is not None:
            self.watch.watch(scratch, limits, isolate)
        try:
            return isolate.call(message["export"], request_text(message), on_host_call)
        finally:
            self.watch.done()

    def serve(self) -> None:
        self._prepare_spare()
        self.spare_counter.finished()
        write_frame(self.fd_out, {"op": "ready", "pid": os.getpid()})
        while True:
            try:
                message = read_frame(self.fd_in)
            except WireError:
                return
            if message["op"] == "run":
                try:
                    answer, tail = self.run(message)
                    write_frame(self.fd_out, answer, tail)
                    # A pipe's reader is woken on the writer's CPU (Linux's synchronous
                    # wake-up): the service, whose reply to its caller waits on this answer,
                    # would queue behind the drop and the next spare (1.4 ms of CPU here).
                    # Yielding lets it run first. A/B in one run, two services alternating
                    # (n=1,500 each, twice): HTTP execute p50 2.72 vs 2.88 and 2.83 vs 2.99 ms,
                    # p90 3.9 vs 4.3-4.5 ms; an A/A run of the same two differed by 0.005 ms.
                    os.sched_yield()
                finally:
                    used, self.used = self.used, None
                    if used is not None:
                        used.close()
                if self.spare is None:
                    self._prepare_spare()
                self.spare_counter.finished()

    def run(self, message: dict[str, Any]) -> tuple[dict[str, Any], list[bytes] | None]:
        """One run: the answer to send, and its raw parts (a ``done``'s response and files)."""
        limits = Limits(**message["limits"])
        preopens = [Preopen(host, guest) for host, guest in message.get("preopens", [])]
        calls = 0
        isolate: Isolate | ScienceIsolate | None = None
        # How long getting the isolate took (the spare: ~0), for the service's trace.
        timing: dict[str, int] = {}

        def on_host_call(name: str, payload: str) -> str:
            nonlocal calls
            calls += 1
            if calls > limits.max_host_calls:
                raise HostCallLimitExceeded(
                    f"more than {limits.max_host_calls} host calls in one run")
            if len(payload) > MAX_PAYLOAD_CHARS:  # refused here: it never reaches the service
                raise HostCallFailed(json.dumps({"name": "ValueError", "message":
                                                 f"host call payload of {len(payload)} characters; "
                                                 f"the limit is {MAX_PAYLOAD_CHARS}"}))
            try:
                frame = encode({"op": "call", "name": name, "payload": payload})
            except WireError as error:  # too big for the pipe: the guest's error, not ours
                raise HostCallFailed(json.dumps({"name": "ValueError", "message":
                                                 f"host call payload too large ({error})"})) from None
            write_encoded(self.fd_out, frame)
            reply = read_frame(self.fd_in)
            uncharged = _uncharged_seconds(reply)
            if uncharged and isolate is not None:
                isolate.extend_deadline(uncharged)
            if reply["op"] == "abort":
                raise _Aborted(reply["trap"])
            if "err" in reply:
                raise HostCallFailed(reply["err"])
            return str(reply["ok"])

        began = time.perf_counter_ns()
        try:
            isolate = self.used = self._isolate_for(limits, preopens, message["export"])
            timing["instantiate_ns"] = time.perf_counter_ns() - began
            response = self._call(isolate, message, limits, on_host_call)
            isolate = None
        except _Aborted as aborted:
            return {"op": "failed", "trap": aborted.trap, **timing}, None
        except SandboxError as error:
            return {"op": "failed", "trap": error.to_trap(), **timing}, None
        except Exception as error:  # never let one run take the worker down silently
            return {"op": "failed", "trap": {"kind": "crash", "message": f"{type(error).__name__}: {error}"}}, None
        if len(response) > limits.max_result_bytes:
            return {"op": "failed", "trap": {"kind": "output", "message":
                    f"result of {len(response)} bytes exceeds the limit of {limits.max_result_bytes}"}}, None
        files: dict[str, bytes] = {}
        result: list[bytes] = []
        if message["export"] == "bash":
            response, files = take_files(response)
        else:
            response, result_text = take_result(response)
            if result_text is not None:
                result.append(result_text.encode("utf-8"))
        return ({"op": "done", "host_calls": calls, "files": list(files), "result": bool(result),
                 **timing},
                [response.encode("utf-8", "surrogatepass"), *result, *files.values()])


def request_text(message: dict[str, Any]) -> str:
    """A run's request, the first raw part of its message (``sandbox._wire``)."""
    parts = tail_of(message)
    if not parts:
        raise WireError("a run without its request")
    return text_of(parts[0], "the request")


def _empty(path: Path) -> bool:
    """Whether ``path`` is a directory with nothing in it (not followed if it is a link)."""
    try:
        if not path.is_dir() or path.is_symlink():
            return False
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def main(argv: list[str]) -> int:
    _die_with_parent()
    channel_in, channel_out = _private_channel()
    _apply_os_limits()
    runtime: GuestRuntime | ScienceRuntime
    if argv[1] == "--science":
        runtime = ScienceRuntime(CompiledScience(Path(argv[2]), argv[3], Path(argv[4]), Path(argv[5]),
                                                 argv[6]), verify=True)
    else:
        guest = CompiledGuest(Path(argv[1]), component_sha256="", fingerprint="", sha256=argv[2],
                              image=Path(argv[3]), image_sha256=argv[4])
        runtime = GuestRuntime(guest, verify=True)
    Worker(runtime, channel_in, channel_out).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

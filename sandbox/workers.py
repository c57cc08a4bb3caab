"""Supervised worker processes: where isolates actually run.

Why processes and not threads of the service: wasmtime's epoch deadline fires only while
wasm code runs. Measured on this design's machine: ``time.sleep(5)`` in the guest ran the
full 5 s past a 0.5 s deadline because the guest sat inside a WASI call, and guest-side
patches can be undone (``importlib.reload(time)``, ``select``). So deadlines are kept tight
cheaply in the guest (sleeps in short slices, so the epoch check fires) and made absolute
here: a worker still busy at its deadline plus ``GRACE_S`` is killed and replaced, and the
run reports ``deadline``. A crash or leak in the runtime costs one worker, never the
service, and the event loop never waits on an isolate: it waits on a pipe.

Each worker is pre-started, holds the compiled component, and takes one run at a time.
Host calls travel to the service over the worker's pipe and are answered by the run's
``HostCallHandler``.

Time a handler spends inside ``uncharged_wait()`` (waiting on a human's decision) is not
charged to the run: while such a wait is open the kill timer is pushed out, afterwards it is
set to the original kill time plus the credited time, and the reply tells the worker how
much to push the isolate's own epoch deadline (``"uncharged_s"``). ``MAX_UNCHARGED_S``
bounds the credit per run.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ._wire import HEADER, MAX_FRAME, Tail, WireError, decode, encode, encode_with_tail, part_size, tail_count, tail_of, text_of
from .cpu_priority import background_policy
from .engine import CompiledGuest
from .envelope import MAX_PAYLOAD_CHARS, MAX_PAYLOAD_DEPTH, bounded_loads
from .errors import (DeadlineExceeded, GuestProtocolError, RunAborted, SandboxError, WorkerCrashed,
                     from_trap)
from .hostcalls import HostAbort, HostCallError, HostCallHandler, UnchargedClock, current_uncharged_clock
from .isolate import Preopen
from .json_text import JSONText
from .limits import Limits
from .polling import POLLER
from .spans import tracing
from .spare_signal import ENV_VAR as SPARE_FD_VAR, SpareSignal

log = logging.getLogger("sandbox.workers")

GRACE_S = 0.5
"""How long past its deadline a run may take before its worker is killed."""
MAX_UNCHARGED_S = 3600.0
"""Most seconds of ``uncharged_wait()`` one run may be credited. Past it, waiting is charged
like running, so a handler that never stops waiting (a bug, a lost decision) cannot hold a
worker for ever: the run then hits its deadline as usual."""
START_TIMEOUT_S = 120.0
"""A worker that is not ready by then is considered broken."""


def default_pool_size() -> int:
    return max(2, min(8, (os.cpu_count() or 2) + 1))


Request = str | Sequence[bytes]
"""A run's request: its JSON text, or that text's UTF-8 bytes in pieces (written to the
worker one after another, never joined in the service)."""


@dataclass
class RunOutput:
    """What a finished run handed back: the guest's response and how many host calls it made."""

    response: str
    host_calls: int
    uncharged_s: float = 0.0
    """Seconds its host calls spent in ``uncharged_wait()`` (not charged to the deadline)."""
    files: dict[str, bytes] = field(default_factory=dict)
    """File contents the worker took out of a bash response, by path, already decoded
    (``sandbox.file_contents``); the caller puts them back."""
    result: str | None = None
    """An execute's large result, which the worker took out of the response, as its JSON
    text (``sandbox.json_text``)."""


def _done(message: dict[str, Any], uncharged_s: float) -> RunOutput:
    """A ``done`` message's output: the response, any result and files, from its raw parts."""
    parts = tail_of(message)
    paths = message.get("files", [])
    has_result = message.get("result", False)
    if not isinstance(has_result, bool) or not isinstance(paths, list) \
            or len(parts) != 1 + has_result + len(paths) \
            or not all(isinstance(path, str) for path in paths):
        raise WireError("a done message without its response, or with parts it does not carry")
    response = text_of(parts[0], "the response")
    result = text_of(parts[1], "the result") if has_result else None
    host_calls = message.get("host_calls", 0)
    return RunOutput(response, host_calls if isinstance(host_calls, int) else 0, uncharged_s,
                     dict(zip(paths, parts[1 + has_result:])), result)


def _json_default(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


class _WorkerProcess:
    def __init__(self, process: asyncio.subprocess.Process, spare: SpareSignal) -> None:
        self.process = process
        assert process.stdout is not None and process.stdin is not None
        self.reader = process.stdout
        self.writer = process.stdin
        self.runs = 0
        self.spare = spare

    @property
    def ready(self) -> bool:
        """Whether its next isolate is made (it has finished its work after its last run)."""
        return self.spare.finished() > self.runs

    @property
    def pid(self) -> int:
        return self.process.pid

    async def receive(self) -> dict[str, Any]:
        try:
            header = await self.reader.readexactly(HEADER.size)
            (size,) = HEADER.unpack(header)
            if size > MAX_FRAME:
                raise WireError(f"frame of {size} bytes exceeds {MAX_FRAME}")
            message = decode(await self.reader.readexactly(size))
            count = tail_count(message)
            if count:
                budget, parts = MAX_FRAME, []
                for _ in range(count):
                    part = await self.reader.readexactly(
                        part_size(await self.reader.readexactly(HEADER.size), budget))
                    budget -= len(part)
                    parts.append(part)
                message["tail"] = parts
            return message
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise WireError("worker pipe closed") from exc

    async def send(self, message: dict[str, Any], tail: Tail | None = None) -> None:
        try:
            # A big part waits for the pipe here, a piece at a time, instead of piling up in
            # the transport's buffer.
            for piece in [encode(message)] if tail is None else encode_with_tail(message, tail):
                self.writer.write(piece)
                await self.writer.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise WireError("worker pipe closed") from exc

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def shutdown(self) -> None:
        """Kill the process and wait until its pipes are closed.

        asyncio closes a subprocess transport only once the process has exited and its
        stdout has reached end of file; a transport left half-open is reported as a leak
        (ResourceWarning) when collected, possibly after its loop is gone.
        """
        with contextlib.suppress(Exception):
            self.writer.close()
        self.kill()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5.0):
                await self.process.wait()
                while await self.reader.read(1 << 16):
                    pass
        self.spare.close()
        await asyncio.sleep(0)  # let the protocol's pending close callbacks run

    @property
    def alive(self) -> bool:
        return self.process.returncode is None


class _IdleWorkers:
    """The workers waiting for a run, and which one gets the next.

    The one returned last whose next isolate is ready: of the idle workers its memory was
    touched last, so more of what the run touches is still in the CPU's caches. When none
    is ready, the one that has waited longest, the likeliest to be ready soonest. (Always
    the last one returned made back-to-back runs wait for its spare; always the longest
    waiting made every run start cold.) Callers waiting for a worker are served in turn."""

    def __init__(self) -> None:
        self._workers: list[_WorkerProcess] = []
        """Oldest first."""
        self._waiters: collections.deque[asyncio.Future[_WorkerProcess]] = collections.deque()

    def qsize(self) -> int:
        return len(self._workers)

    def put(self, worker: _WorkerProcess) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._workers.append(worker)

    async def get(self) -> _WorkerProcess:
        if self._workers:
            return self._pick()
        waiter: asyncio.Future[_WorkerProcess] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.put(waiter.result())  # handed over as the wait was cancelled: pass it on
            raise

    def _pick(self) -> _WorkerProcess:
        workers = self._workers
        for at in range(len(workers) - 1, -1, -1):
            if workers[at].ready:
                return workers.pop(at)
        return workers.pop(0)


class WorkerPool:
    """A fixed number of worker processes; ``run`` borrows one for one isolate run."""

    def __init__(self, guest: CompiledGuest | None, size: int | None = None,
                 worker_args: Sequence[str] | None = None, *, poll_s: float = 0.0) -> None:
        if guest is None and worker_args is None:
            raise ValueError("a worker pool needs a compiled guest or its workers' arguments")
        self.poll_s = poll_s
        """How long the loop polls for a guest's next host call after answering one, while
        the guest's last call came that quickly (0: never; see :mod:`sandbox.polling`)."""
        self.guest = guest
        self.worker_args = list(worker_args) if worker_args is not None else (
            guest.worker_args() if guest is not None else [])
        """What follows ``python -m sandbox.worker_main`` (the science engine passes its own)."""
        self.size = size or default_pool_size()
        self._idle = _IdleWorkers()
        self._all: set[_WorkerProcess] = set()
        self._spawning: set[asyncio.Task[None]] = set()
        self._reaping: set[asyncio.Task[None]] = set()
        self._closed = False
        self.restarts = 0
        self.priority = background_policy()
        """The class a worker waits in between runs (``sandbox.cpu_priority``)."""

    async def start(self) -> None:
        await asyncio.gather(*(self._spawn() for _ in range(self.size)))
        log.info("%d workers started; between runs they wait in scheduling class %s",
                 self.size, self.priority.name)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._spawning):
            task.cancel()
        await asyncio.gather(*self._spawning, *self._reaping, return_exceptions=True)
        workers = list(self._all)
        for worker in workers:
            worker.kill()
        await asyncio.gather(*(worker.shutdown() for worker in workers))
        self._all.clear()

    def stats(self) -> dict[str, int]:
        return {"size": self.size, "alive": sum(w.alive for w in self._all),
                "idle": self._idle.qsize(), "restarts": self.restarts}

    async def _spawn(self) -> None:
        spare = SpareSignal()
        passed = () if spare.fd is None else (spare.fd,)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "sandbox.worker_main", *self.worker_args,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
                close_fds=True, pass_fds=passed, limit=MAX_FRAME + HEADER.size,
                env={**os.environ, SPARE_FD_VAR: str(spare.fd)} if passed else None,
            )
        except BaseException:
            spare.close()
            raise
        spare.spawned()
        worker = _WorkerProcess(process, spare)
        self._all.add(worker)
        try:
            async with asyncio.timeout(START_TIMEOUT_S):
                ready = await worker.receive()
            if ready.get("op") != "ready":
                raise WireError(f"worker said {ready.get('op')!r} instead of ready")
        except (WireError, TimeoutError) as exc:
            worker.kill()
            worker.spare.close()
            self._all.discard(worker)
            raise WorkerCrashed(f"worker failed to start: {exc}") from exc
        if self._closed:
            worker.kill()
            return
        self._idle.put(worker)

    def _replace(self, worker: _WorkerProcess) -> None:
        worker.kill()
        self._all.discard(worker)
        self.restarts += 1
        loop = asyncio.get_running_loop()
        reaping = loop.create_task(worker.shutdown())
        self._reaping.add(reaping)
        reaping.add_done_callback(self._reaping.discard)
        if self._closed:
            return
        task = loop.create_task(self._respawn())
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    async def _respawn(self) -> None:
        for attempt in range(5):
            try:
                await self._spawn()
                return
            except (WorkerCrashed, OSError) as exc:
                log.error("respawning worker failed (attempt %d): %s", attempt + 1, exc)
                await asyncio.sleep(0.5 * (attempt + 1))

    async def run(self, export: str, request: Request, limits: Limits, handler: HostCallHandler,
                  preopens: Sequence[Preopen] = ()) -> RunOutput:
        """Run ``export(request)`` in a fresh isolate on a pooled worker."""
        if self._closed:
            raise SandboxError("the worker pool is closed")
        with tracing.span("sandbox.worker.wait", {"sandbox.export": export}):
            worker = await self._idle.get()
        self.priority.foreground(worker.pid)  # before the run is sent: see cpu_priority
        healthy = False
        try:
            with tracing.span("sandbox.guest.run", {"sandbox.export": export,
                                                    "sandbox.worker.pid": worker.pid}) as span:
                output = await self._drive(worker, export, request, limits, handler, preopens)
                span.set("sandbox.host_calls", output.host_calls)
            healthy = True
            return output
        except SandboxError as error:
            healthy = isinstance(error, _GuestReported)
            raise error.original if isinstance(error, _GuestReported) else error
        finally:
            if healthy and worker.alive:
                worker.runs += 1
                self.priority.background(worker.pid)  # its drop and next spare
                self._idle.put(worker)
            else:
                self._replace(worker)

    async def _drive(self, worker: _WorkerProcess, export: str, request: Request, limits: Limits,
                     handler: HostCallHandler, preopens: Sequence[Preopen]) -> RunOutput:
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        clock = UnchargedClock(MAX_UNCHARGED_S, parent=current_uncharged_clock.get())
        token = current_uncharged_clock.set(clock)
        try:
            async with asyncio.timeout(limits.deadline_s + GRACE_S) as kill_timer:
                clock.on_change = _kill_timer_follows(kill_timer, clock)
                sent_ns = time.time_ns()
                text = [request.encode("utf-8", "surrogatepass")] if isinstance(request, str) else request
                await worker.send({"op": "run", "export": export, "limits": limits.to_dict(),
                                   "preopens": [[p.host_dir, p.guest_dir] for p in preopens]}, [text])
                abort: dict[str, str] | None = None
                answered: float | None = None  # when the last call was answered, polled for
                quick = True  # whether the guest's last call came within the polling window
                while True:
                    try:
                        message = await worker.receive()
                    finally:
                        if answered is not None:
                            POLLER.close()
                            quick = loop.time() - answered <= self.poll_s
                            answered = None
                    op = message["op"]
                    if "instantiate_ns" in message:
                        _record_instantiate(sent_ns, message["instantiate_ns"])
                    if op == "call":
                        clock.begin_call()
                        try:
                            reply = await _answer(handler, message)
                        finally:
                            clock.end_call()
                        uncharged = clock.take()
                        if uncharged > 0:
                            reply["uncharged_s"] = uncharged
                        if reply["op"] == "abort":
                            abort = reply["trap"]
                        await worker.send(reply)
                        if self.poll_s > 0 and abort is None:
                            # The guest's next call is usually due within microseconds.
                            POLLER.open(self.poll_s if quick else 0.0)
                            answered = loop.time()
                    elif op == "done":
                        return _done(message, clock.credited())
                    elif op == "failed":
                        # After an abort the handler's own trap is the outcome: its kind
                        # (paused, rejected...) means something to the caller, and it comes
                        # from this process, not from the worker.
                        error = RunAborted(abort) if abort is not None else from_trap(message["trap"])
                        raise _GuestReported(error)
                    else:
                        raise WireError(f"unexpected message {op!r} from worker")
        except TimeoutError:
            waited = clock.credited()
            not_counted = f", {waited:.2f} s of it waiting, uncharged," if waited else ""
            raise DeadlineExceeded(
                f"execution exceeded its deadline of {limits.deadline_s:g} s "
                f"(worker stopped after {time.monotonic() - started:.2f} s{not_counted} "
                f"and replaced)") from None
        except WireError as exc:
            raise WorkerCrashed(f"the worker running this call died ({exc}); it was replaced") from None
        finally:
            clock.on_change = None  # the kill timer is gone: nothing left to move
            clock.close()
            current_uncharged_clock.reset(token)


def _record_instantiate(sent_ns: int, took: Any) -> None:
    """The worker's own time to get its isolate, as a span from when the run was sent."""
    if isinstance(took, int) and not isinstance(took, bool) and took >= 0:
        tracing.record("sandbox.isolate.instantiate", sent_ns, sent_ns + took)


def _kill_timer_follows(kill_timer: asyncio.Timeout, clock: UnchargedClock) -> Callable[[], None]:
    """Keep the supervisor's kill time at its original value plus the uncharged credit.

    While a wait is open, nothing is being charged, so the kill moves to the latest it could
    ever be (original + the whole cap): a wait that uses up the cap then leaves exactly the
    run's remaining charged time before the kill. When the wait closes, the kill comes back
    to original + credit, which may already be past: then it fires at once.
    """
    original = kill_timer.when()
    assert original is not None

    def follow() -> None:
        if kill_timer.expired():
            return
        if clock.running:
            kill_timer.reschedule(original + clock.cap)
        else:
            kill_timer.reschedule(original + clock.credited())

    return follow


class _GuestReported(SandboxError):
    """A limit or trap the worker reported cleanly: the worker itself is fine to reuse."""

    def __init__(self, original: SandboxError) -> None:
        super().__init__(str(original))
        self.original = original


async def _answer(handler: HostCallHandler, message: dict[str, Any]) -> dict[str, Any]:
    name, raw = message.get("name"), message.get("payload")
    if not isinstance(name, str) or not isinstance(raw, str):
        return {"op": "reply", "err": HostCallError("ValueError", "malformed host call").to_json()}
    try:
        # The payload is the guest's own string (any code can call the WIT import directly):
        # bounded, so a deep one is the guest's ValueError, not a RecursionError here.
        payload = bounded_loads(raw, max_depth=MAX_PAYLOAD_DEPTH, max_chars=MAX_PAYLOAD_CHARS,
                                what="host call payload")
    except GuestProtocolError as error:
        return {"op": "reply", "err": HostCallError("ValueError", str(error)).to_json()}
    try:
        value = await handler(name, payload)
    except HostCallError as error:
        return {"op": "reply", "err": error.to_json()}
    except HostAbort as abort:
        return {"op": "abort", "trap": abort.to_trap()}
    except Exception as error:  # a handler bug must not take the run's worker down
        log.exception("host call handler failed")
        return {"op": "reply", "err": HostCallError(type(error).__name__, str(error)).to_json()}
    if isinstance(value, JSONText):  # already its strict text
        return {"op": "reply", "ok": value.text}
    try:
        return {"op": "reply", "ok": json.dumps(value, default=_json_default)}
    except (TypeError, ValueError, RecursionError) as error:
        return {"op": "reply", "err": HostCallError("TypeError", f"tool result is not JSON: {error}").to_json()}

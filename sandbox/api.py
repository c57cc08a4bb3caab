"""The Python embedding API: ``AsyncSandbox`` and its blocking twin ``Sandbox``.

    from sandbox import Sandbox

    with Sandbox(tools={"add": lambda a, b: a + b}) as sb:
        result = sb.execute("tools.add(2, 3) * 10")
        assert result.result == 50

Each ``execute`` runs in a fresh WebAssembly isolate on a pooled worker process. The code
sees ``tools.<name>(...)`` for every tool; a tool's exception comes back into the guest as
a ``ToolError`` that also derives from the builtin of the same name (``ValueError``...).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Coroutine, Mapping, TypeVar

from .engine import CompiledGuest, ensure_compiled
from .engines import choose_engine
from .envelope import MAX_RESULT_DEPTH, bounded_loads, read_envelope
from .errors import CodeTooLarge, GuestProtocolError, SandboxError
from .file_contents import put_files
from .json_text import JSONText, value_of
from .hostcalls import CallableTools, HostCallError, HostCallHandler, ToolSpec
from .isolate import Preopen
from .limits import Limits
from .science_engine import CompiledScience, ensure_science
from .workers import WorkerPool

T = TypeVar("T")
SCIENCE_POOL_SIZE = 2
"""Science workers by default: each maps the ~300 MB compiled snapshot (shared page cache)."""
LET_GO_AROUND_CHARS = 1 << 20
"""A guest response this long is checked (``result_from_response``, a bash response's
``bounded_loads``) with a turn of the event loop before and after: its parsing and checks
are one stretch of the loop (about 55 ms for 15 MB of logs), which would otherwise run on
into the decoding before it and the record after it, while every other request waits."""


async def _checked_between_turns(response: str, check: Callable[[], T]) -> T:
    """``check()`` of a guest's answer, with a turn of the event loop before and after it
    when the answer is ``LET_GO_AROUND_CHARS`` or longer: the answer was read in one go,
    and the caller records and writes out what the check gives in another."""
    if len(response) < LET_GO_AROUND_CHARS:
        return check()
    await asyncio.sleep(0)
    checked = check()
    await asyncio.sleep(0)
    return checked


def new_execution_id() -> str:
    """``exec_<16-digit milliseconds>_<uuid4 hex>``: sortable by creation time."""
    return f"exec_{int(time.time() * 1000):016d}_{uuid.uuid4().hex}"


@dataclass
class ExecutionResult:
    """The outcome of one execute: what the HTTP API returns, as a value."""

    execution_id: str
    status: str
    """``completed`` or ``error``."""
    result: Any = None
    """The value the code ended with (a :class:`~sandbox.json_text.JSONText` only when
    ``AsyncSandbox.execute`` was asked for ``result_as_text``)."""
    logs: list[str] = field(default_factory=list)
    error: dict[str, Any] | None = None
    """``{name, message, traceback}`` when status is ``error``."""
    trap: dict[str, str] | None = None
    """``{kind, message, code?}`` when a limit or trap stopped the run (kind: deadline, memory,
    output, host_calls, code_size, trap, protocol, crash; code: which WebAssembly trap, for kind
    trap, or ``abort``). Kinds are what the host observed, never an exception's name."""
    duration_ms: float = 0.0
    host_calls: int = 0
    exit_code: int | None = None
    """The status the code exited with (``sys.exit(n)``, ``os._exit(n)``), when it exited."""
    engine: str = "standard"
    """Which interpreter ran the code: ``standard`` or ``science``."""
    attachments: list[dict[str, str]] = field(default_factory=list)
    """Images the run made: ``{"type": "image", "media_type": "image/png", "data": base64}``."""
    result_text: str | None = None
    """A readable rendering of the result (a DataFrame's table) for model-facing text."""

    @property
    def ok(self) -> bool:
        return self.status == "completed"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(replace(self, result=value_of(self.result)))
        for optional in ("error", "trap", "exit_code", "result_text"):
            if data[optional] is None:
                del data[optional]
        if not data["attachments"]:
            del data["attachments"]
        return data


def result_from_response(execution_id: str, response: str, duration_ms: float, host_calls: int,
                         limits: Limits = Limits.default, *,
                         taken: JSONText | None = None) -> ExecutionResult:
    """The result of the guest's response, checked on the host (see ``sandbox.envelope``);
    ``taken`` is the result the worker took out of it (``sandbox.json_text``).

    A response that is no envelope, or breaks its bounds, is the guest breaking the protocol:
    the result is an error of kind ``protocol``, never an exception for the caller."""
    try:
        envelope = read_envelope(response, output_bytes=limits.output_bytes,
                                 max_chars=limits.max_result_bytes)
    except GuestProtocolError as error:
        return result_from_error(execution_id, error, duration_ms)
    if taken is not None and envelope.status == "completed":
        envelope.result = taken
    return ExecutionResult(execution_id=execution_id, status=envelope.status,
                           result=envelope.result, logs=envelope.logs, error=envelope.error,
                           trap=envelope.trap, duration_ms=duration_ms, host_calls=host_calls,
                           exit_code=envelope.exit_code, attachments=envelope.attachments,
                           result_text=envelope.result_text)


def result_from_error(execution_id: str, error: SandboxError, duration_ms: float) -> ExecutionResult:
    trap = error.to_trap()
    return ExecutionResult(execution_id=execution_id, status="error",
                           error={"name": type(error).__name__, "message": str(error), "traceback": ""},
                           trap=trap, duration_ms=duration_ms)


class AsyncSandbox:
    """Runs code in isolates. Start it (``async with`` or ``await start()``) before use."""

    def __init__(self, tools: Mapping[str, Callable[..., Any]] | None = None, *,
                 limits: Limits = Limits.default, workers: int | None = None,
                 cache_dir: Path | None = None, guest: CompiledGuest | None = None,
                 science_workers: int | None = None, science: CompiledScience | None = None,
                 poll_s: float = 0.0) -> None:
        self.tools = CallableTools(tools)
        self.poll_s = poll_s
        """How long the loop polls for a guest's next host call after answering one (0:
        never; see :mod:`sandbox.polling`)."""
        self.limits = limits
        self._workers = workers
        self._cache_dir = cache_dir
        self._pool: WorkerPool | None = None
        self.guest = guest
        """The compiled guest to run; built and compiled on ``start`` when not given."""
        self.science = science
        """The science engine's snapshot; made on first use when not given."""
        self._science_workers = science_workers
        self._science_pool: WorkerPool | None = None
        self._science_lock = asyncio.Lock()

    async def start(self) -> None:
        if self._pool is not None:
            return
        if self.guest is None:
            loop = asyncio.get_running_loop()
            self.guest = await loop.run_in_executor(None, ensure_compiled, self._cache_dir)
        pool = WorkerPool(self.guest, self._workers, poll_s=self.poll_s)
        await pool.start()
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
        science, self._science_pool = self._science_pool, None
        if science is not None:
            await science.close()

    async def science_pool(self) -> WorkerPool:
        """The science engine's workers, started on first use (the first ever use makes the
        snapshot: about two minutes, with progress on stderr)."""
        async with self._science_lock:
            if self._science_pool is None:
                if self.science is None:
                    loop = asyncio.get_running_loop()
                    self.science = await loop.run_in_executor(None, ensure_science, self._cache_dir)
                pool = WorkerPool(None, self._science_workers or SCIENCE_POOL_SIZE,
                                  worker_args=self.science.worker_args(), poll_s=self.poll_s)
                await pool.start()
                self._science_pool = pool
            return self._science_pool

    async def __aenter__(self) -> "AsyncSandbox":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def pool(self) -> WorkerPool:
        if self._pool is None:
            raise SandboxError("the sandbox is not started; use 'async with' or await start()")
        return self._pool

    async def execute(self, code: str, *, limits: Limits | None = None,
                      handler: HostCallHandler | None = None,
                      namespaces: Mapping[str, list[ToolSpec]] | None = None,
                      execution_id: str | None = None,
                      guest_options: Mapping[str, Any] | None = None,
                      engine: str = "auto", result_as_text: bool = False) -> ExecutionResult:
        """Run model-written Python in a fresh isolate and describe the outcome.

        ``guest_options`` adds fields to the guest's request (Code Mode passes
        ``state_methods``, ``codemode`` and per-namespace ``docs``; see ``pyexec.py``).
        ``engine`` picks the interpreter (``auto``: by the code's imports; see
        ``sandbox.engines``). With ``result_as_text``, a large result the worker sent as its
        JSON text stays a :class:`~sandbox.json_text.JSONText` (the service writes it out
        without parsing it); otherwise ``result`` is always the value.
        """
        chosen = choose_engine(code, engine)
        limits = limits or self.limits
        execution_id = execution_id or new_execution_id()
        started = time.perf_counter()

        def elapsed() -> float:
            return round((time.perf_counter() - started) * 1000, 3)

        size = len(code.encode("utf-8", "surrogatepass"))
        if size > limits.max_code_bytes:
            return result_from_error(execution_id, CodeTooLarge(
                f"code is {size} bytes; the limit is {limits.max_code_bytes}"), elapsed())
        if namespaces is None:
            namespaces = {"tools": self.tools.specs()}
        request = json.dumps({
            **(guest_options or {}),
            "code": code, "max_output_bytes": limits.output_bytes,
            "namespaces": {label: [s.to_guest() for s in specs] for label, specs in namespaces.items()},
        })
        printed = _PrintedBeforeCalls(handler or self.tools, limits.output_bytes)
        try:
            pool = await self.science_pool() if chosen == "science" else self.pool
            output = await pool.run("execute", request, limits, printed)
        except SandboxError as error:
            stopped = result_from_error(execution_id, error, elapsed())
            stopped.logs = printed.lines
            stopped.engine = chosen
            return stopped
        taken = None if output.result is None else JSONText(output.result)
        result = await _checked_between_turns(output.response, lambda: result_from_response(
            execution_id, output.response, elapsed(), output.host_calls, limits, taken=taken))
        if not result_as_text:
            result.result = value_of(result.result)
        result.engine = chosen
        return result


    async def run_bash(self, request: Mapping[str, Any] | list[bytes], root: str | None, limits: Limits,
                       handler: HostCallHandler | None = None) -> dict[str, Any]:
        """Run the guest's bash interpreter over the directory ``root`` (seen as ``/``), or,
        with ``root=None``, over the in-memory tree the request's ``fs`` describes.
        ``request`` may also be its JSON text already encoded, in UTF-8 pieces (a large
        tree's, built without holding the event loop: ``sandbox.service.bash_tool``).

        ``request`` is the guest's bash request (``script``, ``cwd``, ``env``, ``stdin``,
        ``limits``...; see ``wasm/guest/bash_entry.py``). Raises ``SandboxError`` when the
        isolate itself fails; the script's own failures are in the returned result.
        """
        text = request if isinstance(request, list) else json.dumps(request)
        output = await self.pool.run("bash", text, limits, handler or _no_host_calls,
                                     [Preopen(root, "/")] if root is not None else [])
        result = await _checked_between_turns(output.response, lambda: bounded_loads(
            output.response, max_depth=MAX_RESULT_DEPTH, what="the guest's bash response"))
        if not isinstance(result, dict):
            raise GuestProtocolError("the guest's bash response is not an object")
        if output.files:
            put_files(result, output.files)
        return result


LOGS_KEY = "$logs"
"""The host-call payload field with the lines the code printed since its previous host call
(``wasm/guest/hostcall.py``): what a run that is parked or stopped mid-way still reports."""


class _PrintedBeforeCalls:
    """A host-call handler that takes the printed lines out of each payload, keeping them
    within the run's output budget, and hands the rest of the payload on."""

    def __init__(self, handler: HostCallHandler, budget: int) -> None:
        self.handler = handler
        self.budget = budget
        self.lines: list[str] = []
        self.used = 0

    async def __call__(self, name: str, payload: Any) -> Any:
        if isinstance(payload, dict) and LOGS_KEY in payload:
            self._keep(payload.pop(LOGS_KEY))
        return await self.handler(name, payload)

    def _keep(self, lines: Any) -> None:
        if not isinstance(lines, list):
            return
        for line in lines:
            if not isinstance(line, str):
                continue
            size = len(line.encode("utf-8", "surrogatepass")) + 1
            if self.used + size > self.budget:
                self.used = self.budget
                return
            self.used += size
            self.lines.append(line)


async def _no_host_calls(name: str, payload: Any) -> Any:
    raise HostCallError("PermissionError", "this guest entry point makes no host calls")


class Sandbox:
    """The blocking API: the same as ``AsyncSandbox``, driven from a private event loop."""

    def __init__(self, tools: Mapping[str, Callable[..., Any]] | None = None, *,
                 limits: Limits = Limits.default, workers: int | None = None,
                 cache_dir: Path | None = None, guest: CompiledGuest | None = None,
                 science_workers: int | None = None, science: CompiledScience | None = None) -> None:
        self._async = AsyncSandbox(tools, limits=limits, workers=workers, cache_dir=cache_dir,
                                   guest=guest, science_workers=science_workers, science=science)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sandbox-loop", daemon=True)
        self._thread.start()
        self._started = False

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result()

    def start(self) -> None:
        self._call(self._async.start())
        self._started = True

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._call(self._async.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> "Sandbox":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def execute(self, code: str, *, limits: Limits | None = None, engine: str = "auto") -> ExecutionResult:
        if not self._started:
            self.start()
        return self._call(self._async.execute(code, limits=limits, engine=engine))

    def run_bash(self, request: Mapping[str, Any], root: str | None, limits: Limits) -> dict[str, Any]:
        if not self._started:
            self.start()
        return self._call(self._async.run_bash(request, root, limits))


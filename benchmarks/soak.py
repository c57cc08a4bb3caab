"""Load and soak: many concurrent clients against the real service for a set time.

    PYTHONPATH=. .venv/bin/python benchmarks/soak.py [--seconds 600] [--clients 50]
        [--workers N] [--only KIND,...] [--json] [--seed 1]

Starts the service as a subprocess (``python -m sandbox.cli serve``) on a free port with a
temporary data directory, and a local agent host (an HTTP tool endpoint in a thread here,
verifying every call's HMAC signature) for a stored toolset ``soak``: ``soak.echo`` answers
at once, ``soak.charge`` needs a durable approval. Then ``--clients`` asyncio clients, each
in a closed loop until the time is up, does every kind of operation once, then picks one at
a time by weight (``WEIGHTS``):

well-formed (each must succeed, with the result checked):
  ``execute``   plain Python (arithmetic, a string, a dict); the result is checked.
  ``tools``     three ``soak.echo`` webhook calls in one execute.
  ``client_tool`` an inline tool without a URL: the execution parks ``awaiting_tool``, the
                client posts the result -> ``completed`` (a second post: 409).
  ``state``     ``state.*`` on the client's own workspace: read a file written earlier (by
                ``state`` or ``bash``), write one, list the directory.
  ``bash``      a script over the same workspace: read a file written earlier, write one,
                a pipeline; stdout and the exit status are checked.
  ``shared``    one workspace all clients write at once, each its own files, by ``state.*``
                or bash: each reads back what it wrote last (no write may be lost).
  ``approval``  ``soak.charge`` pauses; ``POST /v1/approvals/{id}/approve`` must answer
                ``completed`` with the charge (or, one in four, ``reject`` -> ``rejected``).
                The agent host must see each approved charge exactly once, a rejected never.

hostile (each must get its documented outcome; anything else counts as an error):
  ``deadline``       ``while True: pass`` with a 300 ms deadline -> trap kind ``deadline``.
  ``memory``         a growing list of 1 MB buffers in 32 MiB -> trap kind ``memory``.
  ``output``         a print flood with a 10,000-byte cap -> trap kind ``output``; or
                     bash ``yes | head -c 20000000`` -> stdout cut at the cap, ``truncated``.
  ``bash_deadline``  ``while true; do :; done`` with 300 ms -> ``timed_out``, exit 124.
  ``bad_request``    malformed JSON, wrong types, unknown fields, out-of-range limits, bad
                     workspace names, unknown approvals, a 100,000-deep JSON body, 17 MiB
                     bodies (with a Content-Length and chunked) -> a 4xx in the one error
                     shape.

Every few seconds the resident memory (``VmRSS``) of the service process and all its
descendants (the worker processes) is read from ``/proc``. It prints, per kind, operations,
HTTP requests, errors and p50/p99 latency, the throughput, and RSS first/last/max with a
flatness verdict, judged for runs of 60 s or more: for service + workers, the last third's
median against the middle third's (the first third is warm-up); for the service alone the
same over the samples after the run has made more executions than the service keeps the
recent events of in memory (10,000, a bounded buffer that grows the service by design until
full). Exit status: 0 when
every well-formed operation succeeded, every hostile one got its outcome and memory stayed
flat; 1 on errors (or a service that exited); 3 when memory kept rising; 4 when the service
did not start.

CI's smoke check is ``tests/benchmarks/test_soak.py`` (a short run, few clients; set
``SANDBOX_SOAK_SECONDS=60`` for the 60-second run). These machines are shared and noisy:
latencies are for comparing runs, the error counts and the memory verdict are the result.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here cannot hide the package of its name (codemode.py); what the scripts share imports
# as ``benchmarks.measuring``, from the project's root.
_HERE = str(Path(__file__).resolve().parent)
# The project's root goes first: its packages are found by an editable install's finder,
# which Python asks only after every sys.path entry, this directory's included.
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import importlib
import inspect
import json
import os
import random
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn

from benchmarks.measuring import free_port

# Looked up at run time: a type checker run on this file would take benchmarks/codemode.py
# for the package. The agent host checks each call as a real one would, with the
# service's own verifier.
verify_signature: Callable[..., None] = importlib.import_module("codemode").verify_signature

MIB = 1024 * 1024
WELL_FORMED = ("execute", "tools", "client_tool", "state", "bash", "approval", "shared")
HOSTILE = ("deadline", "memory", "output", "bash_deadline", "bad_request")
WEIGHTS: dict[str, int] = {
    "execute": 20, "tools": 14, "client_tool": 6, "state": 14, "bash": 12, "approval": 10,
    "shared": 8, "deadline": 2, "memory": 2, "output": 3, "bash_deadline": 1, "bad_request": 7,
}
"""How often each operation is picked (relative)."""
FILES_PER_CLIENT = 12
"""Files a client rotates through in its workspace, so the workspaces stay small."""
SHARED_WORKSPACE = "soak-shared"
MIN_JUDGED_SECONDS = 60.0
"""Shorter runs report memory but do not judge it (warm-up dominates)."""
GROWTH_TOLERANCE = 0.05
GROWTH_SLACK_MIB, SERVICE_SLACK_MIB = 16.0, 8.0
"""Memory is flat when the later half of the judged samples has a median at most
max(GROWTH_TOLERANCE of the earlier half's, the slack) above the earlier half's: judged for
service + workers (GROWTH_SLACK_MIB) and for the service process alone (SERVICE_SLACK_MIB),
where a leak would be hidden in the workers' noise (each holds a live isolate, or not, when
sampled). A leak of 5 MiB a minute fails a 10-minute run."""
EXIT_ERRORS, EXIT_MEMORY, EXIT_START = 1, 3, 4
OVERSIZED = b'{"code": "' + b"x" * (17 * MIB) + b'"}'
"""A body over the service's 16 MiB limit (sent with its Content-Length): 413."""


async def oversized_chunks() -> AsyncIterator[bytes]:
    """The same without a Content-Length (chunked): 413 too, however it is sent."""
    yield b'{"code": "'
    for _ in range(17):
        yield b"x" * MIB
    yield b'"}'


class Failed(Exception):
    """An operation did not get the outcome it should have; the message says what came."""


def check(condition: bool, what: str, response: Any) -> None:
    if not condition:
        raise Failed(f"{what}: {str(response)[:300]}")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- the agent host ---------------------------------------------------------------------


class AgentHost:
    """The soak's tool endpoint: ``echo`` returns its input, ``charge`` records an effect per
    idempotency key (a repeat is answered from what it recorded, and counted)."""

    def __init__(self) -> None:
        self.secret = ""
        self.url = ""
        self.calls = 0
        self.bad_signatures = 0
        self.charges: dict[str, int] = {}
        self._lock = threading.Lock()

    def charged(self, execution_id: str) -> int:
        """How many charge deliveries the host saw for this execution (any seq)."""
        with self._lock:
            return sum(n for key, n in self.charges.items() if key.startswith(execution_id + ":"))

    def repeated(self) -> int:
        with self._lock:
            return sum(n - 1 for n in self.charges.values() if n > 1)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        try:
            verify_signature(self.secret, headers.get("x-sandbox-timestamp", ""), body,
                             headers.get("x-sandbox-signature", ""))
        except Exception:
            with self._lock:
                self.bad_signatures += 1
            await self._send(send, 401, {"error": {"name": "Unauthorized", "message": "bad signature"}})
            return
        call = json.loads(body)
        with self._lock:
            self.calls += 1
            if call.get("tool") == "charge":
                key = str(call.get("idempotency_key"))
                self.charges[key] = self.charges.get(key, 0) + 1
        if call.get("tool") == "echo":
            answer: dict[str, Any] = {"output": {"echo": call.get("input")}}
        elif call.get("tool") == "charge":
            answer = {"output": {"charged": call.get("input", {}).get("amount")}}
        else:
            answer = {"error": {"name": "NotFound", "message": f"no tool {call.get('tool')!r}"}}
        await self._send(send, 200, answer)

    @staticmethod
    async def _send(send: Any, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})


def toolset(url: str) -> dict[str, Any]:
    obj: dict[str, Any] = {"type": "object"}
    return {"tools": [
        {"name": "echo", "description": "Echo the input.", "url": url,
         "input_schema": {**obj, "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
        {"name": "charge", "description": "Charge an amount (needs approval).", "url": url,
         "approval": {"mode": "durable", "risk": "high"},
         "input_schema": {**obj, "properties": {"amount": {"type": "integer"}},
                          "required": ["amount"]}},
    ]}


# --- memory -----------------------------------------------------------------------------


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def descendants(root: int) -> list[int]:
    """``root`` and every process below it, from the parent pids in ``/proc/*/stat``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                text = stat.read()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) > 1 and fields[1].isdigit():
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


@dataclass
class Sample:
    t: float
    service_mib: float
    workers_mib: float
    processes: int

    @property
    def total_mib(self) -> float:
        return self.service_mib + self.workers_mib


def sample(root: int, started: float) -> Sample:
    pids = descendants(root)
    service = _rss_kib(root) / 1024
    workers = sum(_rss_kib(pid) for pid in pids if pid != root) / 1024
    return Sample(time.monotonic() - started, service, workers, len(pids))


async def sample_memory(root: int, started: float, every: float, stop: asyncio.Event,
                        into: list[Sample]) -> None:
    while True:
        into.append(sample(root, started))
        try:
            await asyncio.wait_for(stop.wait(), timeout=every)
            into.append(sample(root, started))
            return
        except asyncio.TimeoutError:
            continue


def judge(samples: list[Sample], values: list[float], start: int,
          slack_mib: float) -> dict[str, Any]:
    """Whether ``values[start:]`` stayed flat: its later half's median against its earlier
    half's (with ``start`` a third of the way in, the last third against the middle third).

    Medians, not means: a sample taken while a 17 MiB body is being read, or while every
    worker holds a live isolate, is a spike, not a trend."""
    middle = start + (len(values) - start) // 2
    earlier = statistics.median(values[start:middle])
    later = statistics.median(values[middle:])
    allowed = max(earlier * GROWTH_TOLERANCE, slack_mib)
    flat = later - earlier <= allowed
    return {"flat": flat, "from_s": round(samples[start].t, 1),
            "earlier_median_mib": round(earlier, 1), "later_median_mib": round(later, 1),
            "verdict": (f"{'flat' if flat else 'RISING'}: {later:.0f} MiB from "
                        f"{samples[middle].t:.0f} s on vs {earlier:.0f} MiB from "
                        f"{samples[start].t:.0f} s (allowed +{allowed:.0f})")}


def event_buffer_capacity() -> int:
    """How many executions' recent events the service keeps in memory (its EventBus default).

    Until a run has made that many executions the service's RSS grows by design (a few KiB
    per execution), so the service alone is judged only from then on."""
    bus = importlib.import_module("codemode").EventBus
    return int(inspect.signature(bus).parameters["max_executions"].default)


def memory_verdict(samples: list[Sample], seconds: float,
                   execution_times: list[float]) -> dict[str, Any]:
    """First, last and max RSS, and whether the total and the service alone stayed flat.

    ``execution_times``: when each execution was made (seconds from the start, like the
    samples' ``t``)."""
    totals = [s.total_mib for s in samples]
    service = [s.service_mib for s in samples]
    summary: dict[str, Any] = {
        "samples": len(samples),
        "first_mib": round(totals[0], 1) if totals else None,
        "last_mib": round(totals[-1], 1) if totals else None,
        "max_mib": round(max(totals), 1) if totals else None,
        "service_first_mib": round(service[0], 1) if service else None,
        "service_last_mib": round(service[-1], 1) if service else None,
        "service_max_mib": round(max(service), 1) if service else None,
    }
    if len(samples) < 9 or seconds < MIN_JUDGED_SECONDS:
        summary.update(judged=False, flat=True,
                       verdict=f"not judged (under {MIN_JUDGED_SECONDS:.0f} s or 9 samples)")
        return summary
    third = len(samples) // 3
    total = judge(samples, totals, third, GROWTH_SLACK_MIB)
    summary.update(judged=True, flat=total["flat"], total=total,
                   verdict=f"total {total['verdict']}")
    # The service alone from when its event buffer was full (and no earlier than a third in).
    capacity = event_buffer_capacity()
    full_at = execution_times[capacity - 1] if len(execution_times) >= capacity else None
    start = next((i for i, s in enumerate(samples) if full_at is not None and s.t >= full_at),
                 len(samples))
    start = max(start, third)
    if len(samples) - start < 6:
        summary["verdict"] += (f"; service alone not judged (it keeps the events of its last "
                               f"{capacity:,} executions, a buffer that was full "
                               + ("too late in the run" if full_at is not None else
                                  f"only after {capacity:,} executions; this run made "
                                  f"{len(execution_times):,}") + ")")
        return summary
    service_judged = judge(samples, service, start, SERVICE_SLACK_MIB)
    summary.update(flat=total["flat"] and service_judged["flat"], service=service_judged,
                   verdict=f"total {total['verdict']}; service alone {service_judged['verdict']}")
    return summary


# --- the operations ---------------------------------------------------------------------


@dataclass
class Stats:
    """What one kind of operation did."""

    latencies_ms: list[float] = field(default_factory=list)
    requests: int = 0
    errors: int = 0
    samples: list[str] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    """Errors by what went wrong (a failure message up to its first colon)."""


class Client:
    """One simulated agent: its own workspace and random stream, one operation at a time."""

    def __init__(self, number: int, http: httpx.AsyncClient, host: AgentHost, seed: int,
                 weights: dict[str, int]) -> None:
        self.number = number
        self.http = http
        self.host = host
        self.rng = random.Random(seed * 1000 + number)
        self.workspace = f"soak-{number}"
        self.weights = weights
        self.written: dict[str, str] = {}  # path -> content, written by state or bash
        self.written_shared: dict[str, str] = {}  # the same, in SHARED_WORKSPACE
        self.execution_times: list[float] = []  # time.monotonic() of each execution made
        self.requests = 0
        self.ops: dict[str, Callable[[], Awaitable[None]]] = {
            "execute": self.execute, "tools": self.tools, "state": self.state, "bash": self.bash,
            "approval": self.approval, "shared": self.shared,
            "client_tool": self.client_tool, "deadline": self.deadline, "memory": self.memory,
            "output": self.output, "bash_deadline": self.bash_deadline,
            "bad_request": self.bad_request,
        }

    async def post(self, path: str, body: Any = None, *,
                   content: bytes | None = None) -> httpx.Response:
        self.requests += 1
        if content is not None:
            return await self.http.post(path, content=content,
                                        headers={"content-type": "application/json"})
        return await self.http.post(path, json=body)

    async def run_code(self, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.post("/v1/execute", body)
        check(response.status_code == 200, f"HTTP {response.status_code}", response.text)
        outcome: dict[str, Any] = response.json()
        if "execution_id" in outcome:
            self.execution_times.append(time.monotonic())
        return outcome

    async def completed(self, body: dict[str, Any]) -> Any:
        outcome = await self.run_code(body)
        check(outcome.get("status") == "completed", "not completed", outcome)
        return outcome.get("result")

    def token(self) -> str:
        return f"c{self.number}-{self.rng.getrandbits(48):012x}"

    def path(self) -> str:
        return f"/notes/f{self.rng.randrange(FILES_PER_CLIENT)}.txt"

    async def execute(self) -> None:
        n = self.rng.randrange(10, 2000)
        word = self.token()
        code = (f"import statistics\nvalues = [i * i for i in range({n})]\n"
                f"print('sum', sum(values))\n"
                f"{{'sum': sum(values), 'mean': statistics.mean(values), 'word': {word!r}.upper()}}")
        result = await self.completed({"code": code})
        expected = sum(i * i for i in range(n))
        check(isinstance(result, dict) and result.get("sum") == expected
              and abs(float(result.get("mean", -1)) - expected / n) < 1e-6 * max(1.0, expected / n)
              and result.get("word") == word.upper(), "wrong result", result)

    async def tools(self) -> None:
        base = self.rng.randrange(1000)
        code = f"[soak.echo(n={base} + i)['echo']['n'] for i in range(3)]"
        result = await self.completed({"code": code, "toolsets": ["soak"]})
        check(result == [base, base + 1, base + 2], "wrong echo", result)

    async def state(self) -> None:
        known = self.rng.choice(sorted(self.written)) if self.written else None
        path, text = self.path(), self.token()
        read = f"state.read_file({known!r})" if known else "None"
        code = (f"before = {read}\nstate.write_file({path!r}, {text!r})\n"
                f"names = [e['name'] for e in state.list_dir('/notes')]\n"
                f"{{'before': before, 'after': state.read_file({path!r}), 'names': names}}")
        result = await self.completed({"code": code, "workspace": self.workspace})
        check(isinstance(result, dict), "not a dict", result)
        if known:
            check(result["before"] == self.written[known], f"read {known} back wrong", result)
        check(result["after"] == text and path.rsplit("/", 1)[1] in result["names"]
              and len(result["names"]) <= FILES_PER_CLIENT, "write/list wrong", result)
        self.written[path] = text

    async def bash(self) -> None:
        known = self.rng.choice(sorted(self.written)) if self.written else None
        path, text = self.path(), self.token()
        script = "mkdir -p /notes\n" + (f"cat {known} || exit 9\n" if known else "printf -\n")
        script += (f"echo\nprintf %s {text} > {path}\nprintf '%s\\n' 3 1 2 | sort -n | tr '\\n' ' '\n"
                   f"echo\nls /notes | wc -l\n")
        response = await self.post("/v1/bash", {"script": script, "workspace": self.workspace})
        check(response.status_code == 200, f"HTTP {response.status_code}", response.text)
        body = response.json()
        check(body.get("exit_code") == 0, "exit status", body)
        lines = body.get("stdout", "").split("\n")
        check(lines[0] == (self.written[known] if known else "-"), "read back wrong", body)
        check(lines[1] == "1 2 3 " and 1 <= int(lines[2].strip() or 0) <= FILES_PER_CLIENT,
              "pipeline wrong", body)
        self.written[path] = text

    async def shared(self) -> None:
        """A workspace every client writes at once, each only its own files, by ``state.*``
        or bash: a write-back or transaction that lost another client's write shows here."""
        mine = sorted(p for p in self.written_shared)
        known = self.rng.choice(mine) if mine else None
        path, text = f"/shared/c{self.number}-{self.rng.randrange(4)}.txt", self.token()
        if self.rng.random() < 0.5:
            read = f"state.read_file({known!r})" if known else "None"
            result = await self.completed({"code": f"before = {read}\n"
                                           f"state.write_file({path!r}, {text!r})\nbefore",
                                           "workspace": SHARED_WORKSPACE})
            check(result == (self.written_shared[known] if known else None),
                  f"shared state: {known} read back wrong", result)
        else:
            script = ("mkdir -p /shared\n" + (f"cat {known} || exit 9\n" if known else "printf -\n")
                      + f"printf %s {text} > {path}\n")
            response = await self.post("/v1/bash", {"script": script, "workspace": SHARED_WORKSPACE})
            check(response.status_code == 200, f"HTTP {response.status_code}", response.text)
            body = response.json()
            check(body.get("exit_code") == 0
                  and body.get("stdout") == (self.written_shared[known] if known else "-"),
                  f"shared bash: {known} read back wrong", body)
        self.written_shared[path] = text

    async def client_tool(self) -> None:
        """An inline tool with no ``url``: the execution parks ``awaiting_tool`` and this
        client (the agent host) posts the result; a second post is a 409."""
        value = self.rng.randrange(1000)
        tool = {"name": "lookup", "description": "Resolved by the client.",
                "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}
        outcome = await self.run_code({"code": "tools.lookup(q='x')['value'] + 1", "tools": [tool]})
        check(outcome.get("status") == "awaiting_tool" and bool(outcome.get("pending")),
              "not awaiting_tool", outcome)
        where = f"/v1/executions/{outcome['execution_id']}/calls/{outcome['pending'][0]['seq']}/result"
        response = await self.post(where, {"output": {"value": value}})
        check(response.status_code == 200, f"result: HTTP {response.status_code}", response.text)
        body = response.json()
        check(body.get("status") == "completed" and body.get("result") == value + 1,
              "result did not complete", body)
        if self.rng.random() < 0.25:
            again = await self.post(where, {"output": {"value": value}})
            check(again.status_code == 409, f"a second result: HTTP {again.status_code}", again.text)

    async def approval(self) -> None:
        amount = self.rng.randrange(1, 10_000)
        outcome = await self.run_code({"code": f"soak.charge(amount={amount})['charged']",
                                       "toolsets": ["soak"]})
        check(outcome.get("status") == "paused" and bool(outcome.get("pending")), "not paused", outcome)
        approval_id = outcome["pending"][0]["approval_id"]
        execution_id = outcome["execution_id"]
        if self.rng.random() < 0.25:
            response = await self.post(f"/v1/approvals/{approval_id}/reject", {"reason": "soak"})
            check(response.status_code == 200 and response.json().get("status") == "rejected",
                  f"reject: HTTP {response.status_code}", response.text)
            check(self.host.charged(execution_id) == 0, "a rejected charge was delivered", execution_id)
            return
        response = await self.post(f"/v1/approvals/{approval_id}/approve", {"by": "soak"})
        check(response.status_code == 200, f"approve: HTTP {response.status_code}", response.text)
        body = response.json()
        check(body.get("status") == "completed" and body.get("result") == amount,
              "approve did not complete", body)
        check(self.host.charged(execution_id) == 1, "charge not delivered exactly once",
              (execution_id, self.host.charged(execution_id)))

    async def trapped(self, body: dict[str, Any], kind: str) -> None:
        outcome = await self.run_code(body)
        trap = outcome.get("trap") or {}
        check(outcome.get("status") == "error" and trap.get("kind") == kind,
              f"expected trap {kind}", {k: outcome.get(k) for k in ("status", "error", "trap")})

    async def deadline(self) -> None:
        await self.trapped({"code": "while True:\n    pass", "timeout_ms": 300}, "deadline")

    async def memory(self) -> None:
        code = "hoard = []\nwhile True:\n    hoard.append(bytearray(1_000_000))"
        await self.trapped({"code": code, "memory_mb": 32}, "memory")

    async def output(self) -> None:
        if self.rng.random() < 0.5:
            await self.trapped({"code": "while True:\n    print('x' * 1000)",
                                "max_output_bytes": 10_000}, "output")
            return
        response = await self.post("/v1/bash", {"script": "yes | head -c 20000000; echo end",
                                                "workspace": self.workspace,
                                                "max_output_bytes": 10_000})
        check(response.status_code == 200, f"HTTP {response.status_code}", response.text)
        body = response.json()
        check(body.get("truncated") is True and len(body.get("stdout", "")) <= 10_100
              and body.get("exit_code") == 0, "bash output not capped", body)

    async def bash_deadline(self) -> None:
        response = await self.post("/v1/bash", {"script": "while true; do :; done",
                                                "workspace": self.workspace, "timeout_ms": 300})
        check(response.status_code == 200, f"HTTP {response.status_code}", response.text)
        body = response.json()
        check(body.get("timed_out") is True and body.get("exit_code") == 124, "not timed out", body)

    async def bad_request(self) -> None:
        cases: list[tuple[str, str, Any, bytes | None]] = [
            ("truncated JSON", "/v1/execute", None, b'{"code": "1" '),
            ("code not a string", "/v1/execute", {"code": 5}, None),
            ("unknown field", "/v1/execute", {"code": "1", "bogus": True}, None),
            ("timeout_ms out of range", "/v1/execute", {"code": "1", "timeout_ms": 10**12}, None),
            ("memory_mb out of range", "/v1/execute", {"code": "1", "memory_mb": 10**9}, None),
            ("bad workspace name", "/v1/execute", {"code": "1", "workspace": "../etc"}, None),
            ("unknown toolset", "/v1/execute", {"code": "1", "toolsets": ["no-such"]}, None),
            ("bash without script", "/v1/bash", {"workspace": self.workspace}, None),
            ("negative bash timeout", "/v1/bash", {"script": "echo", "timeout_ms": -1}, None),
            ("unknown approval", "/v1/approvals/actpause_nonexistent/approve", {"by": "soak"}, None),
            ("100,000-deep JSON", "/v1/execute", None, b"[" * 100_000),
            ("17 MiB body", "/v1/execute", None, OVERSIZED),
            ("17 MiB bash body", "/v1/bash", None, OVERSIZED),
            ("17 MiB chunked body", "/v1/execute", None, None),
        ]
        label, path, body, raw = self.rng.choice(cases)
        if body is None and raw is None:  # no Content-Length: the limit must hold as it streams
            self.requests += 1
            response = await self.http.post(path, content=oversized_chunks(),
                                            headers={"content-type": "application/json"})
        else:
            response = await self.post(path, body, content=raw)
        try:
            shaped = isinstance(response.json().get("error", {}).get("code"), str)
        except (ValueError, AttributeError):
            shaped = False
        check(400 <= response.status_code < 500 and shaped,
              f"{label}: HTTP {response.status_code}", response.text)

    async def loop(self, until: float, stats: dict[str, Stats]) -> None:
        kinds, weights = list(self.weights), list(self.weights.values())
        first = self.rng.sample(kinds, len(kinds))  # every kind once, then by weight
        while time.monotonic() < until:
            kind = first.pop() if first else self.rng.choices(kinds, weights)[0]
            before = self.requests
            started = time.perf_counter()
            problem = None
            try:
                await self.ops[kind]()
            except Failed as exc:
                problem = str(exc)
            except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            kind_stats = stats[kind]
            kind_stats.requests += self.requests - before
            if problem is None:
                kind_stats.latencies_ms.append((time.perf_counter() - started) * 1000)
            else:
                kind_stats.errors += 1
                reason = problem.split(":", 1)[0]
                kind_stats.reasons[reason] = kind_stats.reasons.get(reason, 0) + 1
                if len(kind_stats.samples) < 5:
                    kind_stats.samples.append(problem)


# --- running it -------------------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    clients: int
    workers: int | None
    seed: int
    only: frozenset[str] = frozenset()


def start_service(port: int, data: Path, workers: int | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port),
               "--data-dir", str(data / "service"), "--log-level", "warning"]
    if workers:
        command += ["--workers", str(workers)]
    log = open(data / "service.log", "wb")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "SANDBOX_TOKEN": ""})


async def wait_healthy(http: httpx.AsyncClient, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and server.poll() is None:
        try:
            response = await http.get("/healthz")
            if response.status_code == 200:
                health: dict[str, Any] = response.json()
                return health
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.2)
    raise RuntimeError("the service did not become healthy")


async def drive(run: Run, base_url: str, host: AgentHost,
                server: subprocess.Popen[bytes]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=run.clients + 8, max_keepalive_connections=run.clients + 8)
    async with httpx.AsyncClient(base_url=base_url, timeout=180, limits=limits) as http:
        await wait_healthy(http, server)
        response = await http.put("/v1/toolsets/soak", json=toolset(host.url))
        if response.status_code != 201:
            raise RuntimeError(f"toolset: HTTP {response.status_code} {response.text}")
        host.secret = response.json()["secret"]
        weights = {k: w for k, w in WEIGHTS.items() if not run.only or k in run.only}
        stats = {kind: Stats() for kind in weights}
        samples: list[Sample] = []
        stop = asyncio.Event()
        started = time.monotonic()
        every = min(5.0, max(1.0, run.seconds / 30))
        sampler = asyncio.create_task(sample_memory(server.pid, started, every, stop, samples))
        clients = [Client(n, http, host, run.seed, weights) for n in range(run.clients)]
        await asyncio.gather(*(c.loop(started + run.seconds, stats) for c in clients))
        elapsed = time.monotonic() - started
        stop.set()
        await sampler
        try:
            health = (await http.get("/healthz")).json()
        except (httpx.HTTPError, ValueError) as exc:
            health = {"error": f"{type(exc).__name__}: {exc}"}
    times = sorted(t - started for c in clients for t in c.execution_times)
    return {"stats": stats, "samples": samples, "elapsed": elapsed, "health": health,
            "execution_times": times}


def serve_host(host: AgentHost) -> uvicorn.Server:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(host, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off", backlog=2048))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    host.url = f"http://127.0.0.1:{port}"
    return server


def summarise(run: Run, driven: dict[str, Any], host: AgentHost, log_text: str) -> dict[str, Any]:
    stats: dict[str, Stats] = driven["stats"]
    elapsed: float = driven["elapsed"]
    kinds: dict[str, dict[str, Any]] = {}
    for kind, s in stats.items():
        kinds[kind] = {"hostile": kind in HOSTILE, "ops": len(s.latencies_ms) + s.errors,
                       "requests": s.requests, "errors": s.errors,
                       "p50_ms": round(pct(s.latencies_ms, 50), 1),
                       "p99_ms": round(pct(s.latencies_ms, 99), 1), "error_samples": s.samples,
                       "errors_by_reason": s.reasons}
    memory = memory_verdict(driven["samples"], run.seconds, driven["execution_times"])
    memory["series"] = [[round(s.t, 1), round(s.service_mib, 1), round(s.workers_mib, 1),
                         s.processes] for s in driven["samples"]]
    requests = sum(s.requests for s in stats.values())
    errors = sum(s.errors for s in stats.values())
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "seconds": run.seconds, "elapsed_s": round(elapsed, 1), "clients": run.clients,
        "workers": driven["health"].get("workers", {}).get("size", run.workers),
        "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
        "kinds": kinds, "requests": requests, "errors": errors,
        "well_formed_errors": sum(s.errors for k, s in stats.items() if k in WELL_FORMED),
        "hostile_errors": sum(s.errors for k, s in stats.items() if k in HOSTILE),
        "requests_per_s": round(requests / elapsed, 1),
        "ops_per_s": round(sum(v["ops"] for v in kinds.values()) / elapsed, 1),
        "memory": memory, "health": driven["health"], "data_mib": driven["data_mib"],
        "agent_host": {"calls": host.calls, "bad_signatures": host.bad_signatures,
                       "repeated_charges": host.repeated()},
        "executions": len(driven["execution_times"]),
        "service_log_tracebacks": log_text.count("Traceback"),
        "service_exit": driven["service_exit"],
    }


def print_report(report: dict[str, Any]) -> None:
    print(f"soak: {report['elapsed_s']:.0f} s, {report['clients']} clients, "
          f"{report['workers']} workers, {report['cpus']} CPUs (load {report['load_average']}), "
          f"{report['date']}")
    print(f"| {'kind':<17} | {'ops':>7} | {'requests':>8} | {'errors':>6} | {'p50 ms':>8} "
          f"| {'p99 ms':>8} |")
    print(f"|{'-' * 19}|{'-' * 9}|{'-' * 10}|{'-' * 8}|{'-' * 10}|{'-' * 10}|")
    for kind, k in report["kinds"].items():
        label = f"{kind} (h)" if k["hostile"] else kind
        print(f"| {label:<17} | {k['ops']:>7} | {k['requests']:>8} | {k['errors']:>6} | "
              f"{k['p50_ms']:>8.1f} | {k['p99_ms']:>8.1f} |")
    print(f"total: {report['requests']} requests ({report['requests_per_s']}/s, "
          f"{report['ops_per_s']} operations/s, {report['executions']} executions); errors: "
          f"{report['well_formed_errors']} well-formed, "
          f"{report['hostile_errors']} hostile (h: hostile, must get their documented outcome)")
    host = report["agent_host"]
    print(f"agent host: {host['calls']} tool calls, {host['bad_signatures']} bad signatures, "
          f"{host['repeated_charges']} repeated charges; worker restarts "
          f"{report['health'].get('workers', {}).get('restarts')}; tracebacks in the service log "
          f"{report['service_log_tracebacks']}"
          + ("" if report["service_exit"] is None else
             f"; THE SERVICE EXITED (status {report['service_exit']})"))
    memory = report["memory"]
    print(f"RSS (service + workers), {memory['samples']} samples: first {memory['first_mib']} MiB, "
          f"last {memory['last_mib']} MiB, max {memory['max_mib']} MiB "
          f"(service alone {memory['service_first_mib']} -> {memory['service_last_mib']}, "
          f"max {memory['service_max_mib']}); {memory['verdict']}")
    series = memory["series"]
    step = max(1, len(series) // 12)
    print("RSS over time (s: total/service MiB): " + ", ".join(
        f"{t:.0f}: {svc + wrk:.0f}/{svc:.0f}" for t, svc, wrk, _ in series[::step]))
    print(f"data directory at the end: {report['data_mib']} MiB")
    for kind, k in report["kinds"].items():
        for problem in k["error_samples"]:
            print(f"  {kind} error: {problem}")


def soak(run: Run) -> dict[str, Any]:
    host = AgentHost()
    host_server = serve_host(host)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        data = Path(tmp)
        server = start_service(port, data, run.workers)
        try:
            driven = asyncio.run(drive(run, f"http://127.0.0.1:{port}", host, server))
            driven["service_exit"] = server.poll()  # None: still serving, as it should be
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            host_server.should_exit = True
        log_text = (data / "service.log").read_text(errors="replace")
        driven["data_mib"] = round(sum(f.stat().st_size for f in (data / "service").rglob("*")
                                       if f.is_file()) / MIB, 1)
    return summarise(run, driven, host, log_text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=600.0, help="how long to drive load")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=None,
                        help="the service's worker processes (default: its own, CPUs + 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--only", default="", metavar="KIND,...",
                        help=f"run only these kinds (of {', '.join(WEIGHTS)})")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    only = frozenset(k.strip() for k in args.only.split(",") if k.strip())
    if only - set(WEIGHTS):
        parser.error(f"unknown kinds: {', '.join(sorted(only - set(WEIGHTS)))}")
    run = Run(seconds=max(1.0, args.seconds), clients=max(1, args.clients), workers=args.workers,
              seed=args.seed, only=only)
    try:
        report = soak(run)
    except RuntimeError as exc:
        print(f"soak: {exc}", file=sys.stderr)
        return EXIT_START
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    host = report["agent_host"]
    if report["errors"] or host["repeated_charges"] or host["bad_signatures"] \
            or report["service_exit"] is not None:
        return EXIT_ERRORS
    return 0 if report["memory"]["flat"] else EXIT_MEMORY


if __name__ == "__main__":
    sys.exit(main())

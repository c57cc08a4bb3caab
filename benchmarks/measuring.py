"""What the benchmarks share: percentiles, a free local port, ways timed in rotating rounds
so the machine's noise falls on all of them alike, and a local echo tool for webhook calls.

Imported by the scripts in this directory as ``benchmarks.measuring`` (each puts the
project's root first on ``sys.path`` and this directory last: a script here, ``codemode.py``
say, must not hide the package of its name).
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


TOOL_OWN_MS: list[float] = []
"""The echo tool's own time of each call it answered, timed inside it (from the request's
head to the hand-over of its answer), so no client's cost is counted as the tool's."""


async def echo_tool(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI webhook tool answering ``{"output": {"echo": input}}`` (any request: a
    bodiless one, a readiness probe's, echoes None)."""
    if scope["type"] != "http":
        return
    started = time.perf_counter()
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    data = json.dumps({"output": {"echo": json.loads(body or b"{}").get("input")}}).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    TOOL_OWN_MS.append((time.perf_counter() - started) * 1000)
    await send({"type": "http.response.body", "body": data})


def serve_echo_tool(port: int) -> None:
    """Serve :func:`echo_tool` on 127.0.0.1:``port`` until stopped (a process of its own)."""
    import uvicorn

    uvicorn.run(echo_tool, host="127.0.0.1", port=port, log_level="warning", lifespan="off")


async def host_call_round_trip_ms(box: Any, calls: int) -> float:
    """Milliseconds per host call through a worker and back, with a handler that answers at
    once: a loop calling ``tools.add`` (``box``, an ``AsyncSandbox``, must have it) against
    the same loop calling a local function, ``calls`` times each."""
    from sandbox import Limits

    limits = Limits(max_host_calls=calls, deadline_s=120)
    baseline = await box.execute(f"for i in range({calls}):\n    (lambda a, b: a + b)(i, 1)",
                                 limits=limits)
    outcome = await box.execute(f"for i in range({calls}):\n    tools.add(i, 1)", limits=limits)
    assert outcome.status == "completed", outcome
    return float(outcome.duration_ms - baseline.duration_ms) / calls


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on (at the moment of asking)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def interleaved(ways: Mapping[str, Callable[[], Awaitable[None]]], runs: int, *,
                      warm_up: int = 20,
                      after: Callable[[str], None] | None = None) -> dict[str, list[float]]:
    """Milliseconds of each way, ``runs`` times each: every round runs every way once, each
    round starting one way further on, so no way always follows the same other one.
    ``after(name)``, when given, runs after every run of a way (warm-up rounds included),
    outside its time: to read what a peer noted of that run, say."""
    for _ in range(warm_up):
        for name, way in ways.items():
            await way()
            if after is not None:
                after(name)
    times: dict[str, list[float]] = {name: [] for name in ways}
    order = list(ways.items())
    for round_no in range(runs):
        shift = round_no % len(order)
        for name, way in order[shift:] + order[:shift]:
            started = time.perf_counter()
            await way()
            times[name].append((time.perf_counter() - started) * 1000)
            if after is not None:
                after(name)
    return times

"""Connector benchmark: what one connector call inside an execute costs beyond the peer's own
time, and an execute with a connector call through ``/mcp`` against ``/v1/execute``.

    .venv/bin/python benchmarks/connectors.py [--runs 200]

Starts three processes on 127.0.0.1: an MCP server built with the SDK (Streamable HTTP, one
tool ``ping`` that answers at once), a FastAPI service with one operation, and ``sandbox
serve`` (a fresh data directory) with both stored as connectors. Then, interleaved round by
round so the machine's noise falls on all alike:

- each peer called straight from here: ``ping`` through a warm SDK session (the SDK's own
  HTTP client, and again through the service's connector path: the SDK's session over the
  service's kept connections, ``codemode.connector_mcp.McpSessions``), ``GET /ping`` through
  httpx;
- ``POST /v1/execute`` of ``None`` with the connectors (an execute that calls nothing);
- ``POST /v1/execute`` of ``mcp_peer.ping()``, of ``mcp_peer.peek()`` (the same tool annotated
  ``readOnlyHint``: a read, journaled once) and of ``api_peer.ping()`` (a GET: a read);
- ``tools/call execute`` of ``mcp_peer.ping()`` to ``/mcp`` through the SDK's ClientSession.

The peer's own time is measured at the peer: each peer process wraps its app in
:class:`PeerClock`, which notes how long the app took over each call (from the request's
head to the last byte of its answer) in a file this process reads after every way. So a
client's own cost (the SDK's session here, or the service's) is never counted as the peer's.

Overhead of a call = (execute with the call) - (execute without) - (the peer's own time of
that call), paired within each round; the median and IQR are reported. Targets on this
2-core machine: overhead <= 1 ms; the ``/mcp`` execute within 1.5x of the ``/v1/execute`` one.

Wall time moves with whatever else the machine runs; CPU time far less. So each way also
notes the CPU the service process, the MCP peer and this process (the client) spent on it
(every thread, from ``/proc/<pid>/task/*/schedstat``, Linux only): a call's CPU in the
service beyond the call-less execute is what the service's own work on the call costs,
whatever the load; this process's CPU on the direct SDK call is what the SDK's own client
costs per ``tools/call``, the floor under the target for a service that must use it.
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
import contextlib
import os
import statistics
import struct
import subprocess
import time
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from codemode.connector_mcp import McpSessions
from codemode.peer_http import PeerHTTP
from benchmarks.measuring import free_port, interleaved, pct


CLOCK = struct.Struct("<Qd")
"""What a peer's clock file holds: how many calls it timed, and the last one's milliseconds."""


class PeerClock:
    """ASGI middleware in a peer process: the time its app spent on each timed request, from
    the call with the request's head to the hand-over of the last part of its answer that
    carries bytes, noted in the clock file as (calls so far, milliseconds of the last)."""

    def __init__(self, app: Any, path: str, timed: Callable[[dict[str, Any]], bool]) -> None:
        self.app = app
        self.timed = timed
        self.calls = 0
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.pwrite(self.fd, CLOCK.pack(0, 0.0), 0)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not self.timed(scope):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        counted = False

        async def timed_send(message: dict[str, Any]) -> None:
            # Noted before each part of the answer goes out, so the caller, woken by it,
            # never reads the clock before this call is on it. The last part with bytes is
            # what ends the call for its caller: an event stream's answer is one event, and
            # the stream's closing part may follow after the caller has moved on.
            nonlocal counted
            if message["type"] == "http.response.body" and (
                    message.get("body") or not message.get("more_body")):
                if not counted:
                    counted = True
                    self.calls += 1
                os.pwrite(self.fd, CLOCK.pack(self.calls, (time.perf_counter() - started) * 1000), 0)
            await send(message)

        await self.app(scope, receive, timed_send)


def read_clock(path: str) -> tuple[int, float]:
    with open(path, "rb") as clock:
        calls, ms = CLOCK.unpack(clock.read(CLOCK.size))
    return int(calls), float(ms)


def serve_mcp_peer(port: int, clock: str) -> None:
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    from mcp.types import ToolAnnotations

    server = MCPServer("bench-peer")

    @server.tool()
    def ping() -> str:
        """Answer at once."""
        return "pong"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def peek() -> str:
        """Answer at once; annotated read-only (journaled once, after it ran)."""
        return "pong"

    # Only the POSTs carry calls (a GET is the SDK's standing event stream).
    app = PeerClock(server.streamable_http_app(), clock, lambda scope: scope["method"] == "POST")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def serve_api_peer(port: int, clock: str) -> None:
    import uvicorn
    from fastapi import FastAPI

    app = FastAPI(title="bench-peer")

    @app.get("/ping", operation_id="ping")
    async def ping() -> dict[str, str]:
        return {"answer": "pong"}

    timed = PeerClock(app, clock, lambda scope: scope["path"] == "/ping")
    uvicorn.run(timed, host="127.0.0.1", port=port, log_level="warning")


async def wait_up(url: str) -> None:
    async with httpx.AsyncClient(timeout=5) as client:
        for _ in range(1200):
            try:
                await client.get(url)
                return
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not start")


def cpu_ms(pid: int) -> float | None:
    """CPU time (ms) a process's threads have used so far; None where /proc does not say.
    This process's own is its clock's (schedstat adds a running thread's time only at its
    next switch, so it would lag what this process just did)."""
    if pid == os.getpid():
        return time.process_time() * 1000
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{tid}/schedstat") as stat:
                total += int(stat.read().split()[0])
    except OSError:
        return None
    return total / 1e6


def with_cpu(ways: dict[str, Callable[[], Awaitable[None]]], pids: dict[str, int],
             spent: dict[str, dict[str, list[float]]]) -> dict[str, Callable[[], Awaitable[None]]]:
    """``ways``, each also noting in ``spent[way][process]`` the CPU each of ``pids`` used."""
    def noted(name: str, way: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            before = {who: cpu_ms(pid) for who, pid in pids.items()}
            await way()
            for who, pid in pids.items():
                was, now = before[who], cpu_ms(pid)
                if was is not None and now is not None:
                    spent.setdefault(name, {}).setdefault(who, []).append(now - was)
        return run
    return {name: noted(name, way) for name, way in ways.items()}


class PeerTimes:
    """Each way's peer-side times: after a way ran, the call its peer timed, if it made one."""

    def __init__(self, clocks: dict[str, str]) -> None:
        self.clocks = clocks
        self.seen = {peer: read_clock(path)[0] for peer, path in clocks.items()}
        self.own: dict[str, list[float]] = {}

    def after(self, way: str) -> None:
        for peer, path in self.clocks.items():
            calls, ms = read_clock(path)
            made = calls - self.seen[peer]
            self.seen[peer] = calls
            if made:
                # More than one call (a first call listing the tools, say) has no single
                # time: only a warm-up round may have that, which keep() drops.
                self.own.setdefault(way, []).append(ms if made == 1 else float("nan"))

    def keep(self, runs: int) -> None:
        """Only the measured rounds' times; each of them one call."""
        for way, values in self.own.items():
            self.own[way] = values[-runs:]
            if len(self.own[way]) != runs or any(v != v for v in self.own[way]):
                raise RuntimeError(f"{way} did not make one peer call in each measured round: "
                                   f"{len(self.own[way])} rounds, "
                                   f"{sum(v != v for v in self.own[way])} with more than one")


async def measure(service: str, mcp_url: str, api_url: str, runs: int, pids: dict[str, int],
                  spent: dict[str, dict[str, list[float]]],
                  peer_times: PeerTimes) -> dict[str, list[float]]:
    async with httpx.AsyncClient(base_url=service, timeout=120) as http, \
            httpx.AsyncClient(base_url=api_url, timeout=120) as api, \
            httpx2.AsyncClient(timeout=120) as peer_http, httpx2.AsyncClient(timeout=120) as svc_http:
        for url in (f"{service}/healthz", f"{api_url}/openapi.json"):
            await wait_up(url)
        (await http.put("/v1/connectors/mcp_peer", json={"type": "mcp", "url": mcp_url})).raise_for_status()
        (await http.put("/v1/connectors/api_peer", json={
            "type": "openapi", "spec_url": f"{api_url}/openapi.json"})).raise_for_status()
        connectors = ["mcp_peer", "api_peer"]
        # The SDK's session over the connections the service itself uses (its connector path).
        sessions = McpSessions(PeerHTTP())
        async with streamable_http_client(mcp_url, http_client=peer_http) as (pr, pw), \
                streamable_http_client(f"{service}/mcp", http_client=svc_http) as (sr, sw):
            async with ClientSession(pr, pw) as peer, ClientSession(sr, sw) as svc:
                await peer.initialize()
                await svc.initialize()

                async def execute(code: str, expected: Any) -> None:
                    body = (await http.post("/v1/execute", json={"code": code, "connectors": connectors})).json()
                    assert body["status"] == "completed" and body["result"] == expected, body

                async def peer_direct() -> None:
                    result = await peer.call_tool("ping", {})
                    assert result.structured_content == {"result": "pong"}, result

                async def nothing() -> None:
                    await asyncio.sleep(0)

                async def peer_over_ours() -> None:
                    result = await sessions.call("bench", mcp_url, {}, "ping", "ping", {},
                                                 idempotency_key="bench", timeout_s=30)
                    assert result == {"result": "pong"}, result

                async def api_direct() -> None:
                    assert (await api.get("/ping")).json() == {"answer": "pong"}

                async def via_mcp() -> None:
                    result = await svc.call_tool("execute", {"code": "mcp_peer.ping()", "connectors": connectors})
                    assert result.structured_content is not None
                    assert result.structured_content["result"] == {"result": "pong"}, result

                ways: dict[str, Callable[[], Awaitable[None]]] = {
                    "nothing (what measuring costs this client)": nothing,
                    "MCP peer direct (SDK session)": peer_direct,
                    "MCP peer direct (SDK over ours)": peer_over_ours,
                    "OpenAPI peer direct (httpx)": api_direct,
                    "/v1/execute, no call": lambda: execute("None", None),
                    "/v1/execute, mcp_peer.ping()": lambda: execute("mcp_peer.ping()", {"result": "pong"}),
                    "/v1/execute, mcp_peer.peek() (read-only)": lambda: execute("mcp_peer.peek()",
                                                                               {"result": "pong"}),
                    "/v1/execute, api_peer.ping()": lambda: execute("api_peer.ping()", {"answer": "pong"}),
                    "/mcp execute, mcp_peer.ping() (SDK)": via_mcp,
                }
                peer_times.seen = {peer: read_clock(path)[0] for peer, path in peer_times.clocks.items()}
                try:
                    times = await interleaved(with_cpu(ways, pids, spent), runs, after=peer_times.after)
                finally:
                    await sessions.close()
                # The warm-up rounds noted CPU and peer times too: keep only the measured rounds'.
                for by_process in spent.values():
                    for who, values in by_process.items():
                        by_process[who] = values[-runs:]
                peer_times.keep(runs)
                return times


def report(times: dict[str, list[float]], runs: int,
           spent: dict[str, dict[str, list[float]]], own: dict[str, list[float]]) -> None:
    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"n={runs} each, interleaved in one run")
    print(f"| {'way':<42} | {'median':>8} | {'p10-p90':>15} | {'IQR':>7} |")
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 17}|{'-' * 9}|")
    for name, values in times.items():
        spread = f"{pct(values, 10):.2f}-{pct(values, 90):.2f}"
        iqr = pct(values, 75) - pct(values, 25)
        print(f"| {name:<42} | {med[name]:>6.2f}ms | {spread:>13}ms | {iqr:>5.2f}ms |")
    ratio = med["/mcp execute, mcp_peer.ping() (SDK)"] / med["/v1/execute, mcp_peer.ping()"]
    print("the peer's own time of each call, timed at the peer (median, IQR):")
    for name, values in own.items():
        print(f"  {name:<42} {statistics.median(values):6.2f} ms "
              f"({pct(values, 25):.2f}-{pct(values, 75):.2f})")
    # Paired within each round (the same seconds of machine noise on every way), which a
    # busy machine moves far less than a difference of medians.
    print("overhead of one call = execute with it - execute without - the peer's own time "
          "(paired per round; target <= 1 ms):")
    for label, way in (("MCP", "/v1/execute, mcp_peer.ping()"),
                       ("MCP read-only", "/v1/execute, mcp_peer.peek() (read-only)"),
                       ("OpenAPI", "/v1/execute, api_peer.ping()")):
        paired = [c - b - p for c, b, p in zip(times[way], times["/v1/execute, no call"], own[way])]
        print(f"  {label:<14} median {statistics.median(paired):5.2f} ms, "
              f"IQR {pct(paired, 25):.2f} to {pct(paired, 75):.2f} ms")
    print("a client's own cost around the same peer, called straight from here (paired):")
    for label, way in (("the SDK's ClientSession", "MCP peer direct (SDK session)"),
                       ("the same over ours", "MCP peer direct (SDK over ours)"),
                       ("httpx", "OpenAPI peer direct (httpx)")):
        paired = [t - p for t, p in zip(times[way], own[way])]
        print(f"  {label:<24} median {statistics.median(paired):5.2f} ms, "
              f"IQR {pct(paired, 25):.2f} to {pct(paired, 75):.2f} ms")
    print(f"/mcp execute vs /v1/execute with one MCP connector call: {ratio:.2f}x (target <= 1.5x)")
    if not spent:
        return
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print("CPU per way (median ms, p25-p75): the service process | the MCP peer | this client")
    for name in times:
        cells = []
        for who in ("service", "mcp peer", "client"):
            values = spent.get(name, {}).get(who, [])
            cells.append(f"{statistics.median(values):6.2f} ({pct(values, 25):.2f}-{pct(values, 75):.2f})"
                         if values else "-")
        print(f"  {name:<42} {cells[0]:>20} | {cells[1]:>20} | {cells[2]:>20}")
    for label, way in (("the SDK's ClientSession", "MCP peer direct (SDK session)"),
                       ("the same over the service's connections", "MCP peer direct (SDK over ours)")):
        sdk = spent.get(way, {}).get("client")
        idle = spent.get("nothing (what measuring costs this client)", {}).get("client")
        if sdk and idle:
            # The floor under the ``<= 1 ms`` target: the issue requires this very client.
            # Paired with the way that does nothing, whose CPU is the reading of /proc.
            own_cpu = [c - n for c, n in zip(sdk, idle)]
            print(f"{label}: its own CPU per tools/call, in this process, beyond measuring: "
                  f"median {statistics.median(own_cpu):.2f} ms (IQR {pct(own_cpu, 25):.2f} to "
                  f"{pct(own_cpu, 75):.2f})")
    base_cpu = spent.get("/v1/execute, no call", {}).get("service")
    for label, way in (("MCP", "/v1/execute, mcp_peer.ping()"),
                       ("MCP read-only", "/v1/execute, mcp_peer.peek() (read-only)"),
                       ("OpenAPI", "/v1/execute, api_peer.ping()")):
        costs = spent.get(way, {}).get("service")
        if base_cpu and costs:
            paired = [c - b for c, b in zip(costs, base_cpu)]
            print(f"service CPU of one {label} call beyond the call-less execute: median "
                  f"{statistics.median(paired):.2f} ms (paired per round, IQR "
                  f"{pct(paired, 25):.2f} to {pct(paired, 75):.2f})")


def main(runs: int) -> None:
    ports = {"service": free_port(), "mcp": free_port(), "api": free_port()}
    me = str(Path(__file__).resolve())
    with tempfile.TemporaryDirectory() as data:
        clocks = {peer: os.path.join(data, f"{peer}.clock") for peer in ("mcp", "api")}
        for path in clocks.values():
            Path(path).write_bytes(CLOCK.pack(0, 0.0))
        procs = [
            subprocess.Popen([sys.executable, me, "--peer", "mcp", "--port", str(ports["mcp"]),
                              "--clock", clocks["mcp"]]),
            subprocess.Popen([sys.executable, me, "--peer", "api", "--port", str(ports["api"]),
                              "--clock", clocks["api"]]),
            subprocess.Popen([sys.executable, "-m", "sandbox.cli", "serve", "--port", str(ports["service"]),
                              "--data-dir", data, "--log-level", "warning"],
                             env={**os.environ, "SANDBOX_TOKEN": ""}),
        ]
        spent: dict[str, dict[str, list[float]]] = {}
        peer_times = PeerTimes(clocks)
        try:
            times = asyncio.run(measure(f"http://127.0.0.1:{ports['service']}",
                                        f"http://127.0.0.1:{ports['mcp']}/mcp",
                                        f"http://127.0.0.1:{ports['api']}", runs,
                                        {"service": procs[2].pid, "mcp peer": procs[0].pid,
                                         "client": os.getpid()}, spent,
                                        peer_times))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    report(times, runs, spent, peer_times.own)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--peer", choices=["mcp", "api"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--clock", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer == "mcp":
        serve_mcp_peer(args.port, args.clock)
    elif args.peer == "api":
        serve_api_peer(args.port, args.clock)
    else:
        main(args.runs)

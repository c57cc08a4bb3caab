"""Connector benchmark: what one connector call inside an execute costs beyond the peer's own
time, and an execute with a connector call through ``/mcp`` against ``/v1/execute``.

    .venv/bin/python benchmarks/connectors.py [--runs 200]

Starts three processes on 127.0.0.1: an MCP server built with the SDK (Streamable HTTP, one
tool ``ping`` that answers at once), a FastAPI service with one operation, and ``sandbox
serve`` (a fresh data directory) with both stored as connectors. Then, interleaved round by
round so the machine's noise falls on all alike:

- the peer's own time: ``ping`` through a warm SDK session straight to the MCP server, and
  ``GET /ping`` straight to the FastAPI service (httpx);
- ``POST /v1/execute`` of ``None`` with the connectors (an execute that calls nothing);
- ``POST /v1/execute`` of ``mcp_peer.ping()``, of ``mcp_peer.peek()`` (the same tool annotated
  ``readOnlyHint``: a read, journaled once) and of ``api_peer.ping()`` (a GET: a read);
- ``tools/call execute`` of ``mcp_peer.ping()`` to ``/mcp`` through the SDK's ClientSession.

Overhead of a call = median(execute with the call) - median(execute without) - median(the
peer's own time). Targets on this 2-core machine: overhead <= 1 ms; the ``/mcp`` execute
within 1.5x of the ``/v1/execute`` one.

Wall time moves with whatever else the machine runs; CPU time far less. So each way also
notes the CPU the service process and the MCP peer spent on it (every thread, from
``/proc/<pid>/task/*/schedstat``, Linux only): a call's CPU in the service beyond the
call-less execute is what the service's own work on the call costs, whatever the load.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path: put it last, so a script
# here cannot hide the package of its name (codemode.py) and ``measuring`` still imports.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from measuring import free_port, interleaved, pct


def serve_mcp_peer(port: int) -> None:
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

    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")


def serve_api_peer(port: int) -> None:
    import uvicorn
    from fastapi import FastAPI

    app = FastAPI(title="bench-peer")

    @app.get("/ping", operation_id="ping")
    async def ping() -> dict[str, str]:
        return {"answer": "pong"}

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


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
    """CPU time (ms) a process's threads have used so far; None where /proc does not say."""
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


async def measure(service: str, mcp_url: str, api_url: str, runs: int, pids: dict[str, int],
                  spent: dict[str, dict[str, list[float]]]) -> dict[str, list[float]]:
    async with httpx.AsyncClient(base_url=service, timeout=120) as http, \
            httpx.AsyncClient(base_url=api_url, timeout=120) as api, \
            httpx2.AsyncClient(timeout=120) as peer_http, httpx2.AsyncClient(timeout=120) as svc_http:
        for url in (f"{service}/healthz", f"{api_url}/openapi.json"):
            await wait_up(url)
        (await http.put("/v1/connectors/mcp_peer", json={"type": "mcp", "url": mcp_url})).raise_for_status()
        (await http.put("/v1/connectors/api_peer", json={
            "type": "openapi", "spec_url": f"{api_url}/openapi.json"})).raise_for_status()
        connectors = ["mcp_peer", "api_peer"]
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

                async def api_direct() -> None:
                    assert (await api.get("/ping")).json() == {"answer": "pong"}

                async def via_mcp() -> None:
                    result = await svc.call_tool("execute", {"code": "mcp_peer.ping()", "connectors": connectors})
                    assert result.structured_content is not None
                    assert result.structured_content["result"] == {"result": "pong"}, result

                ways: dict[str, Callable[[], Awaitable[None]]] = {
                    "MCP peer direct (SDK session)": peer_direct,
                    "OpenAPI peer direct (httpx)": api_direct,
                    "/v1/execute, no call": lambda: execute("None", None),
                    "/v1/execute, mcp_peer.ping()": lambda: execute("mcp_peer.ping()", {"result": "pong"}),
                    "/v1/execute, mcp_peer.peek() (read-only)": lambda: execute("mcp_peer.peek()",
                                                                               {"result": "pong"}),
                    "/v1/execute, api_peer.ping()": lambda: execute("api_peer.ping()", {"answer": "pong"}),
                    "/mcp execute, mcp_peer.ping() (SDK)": via_mcp,
                }
                times = await interleaved(with_cpu(ways, pids, spent), runs)
                # The warm-up rounds noted CPU too: keep only the measured rounds'.
                for by_process in spent.values():
                    for who, values in by_process.items():
                        by_process[who] = values[-runs:]
                return times


def report(times: dict[str, list[float]], runs: int,
           spent: dict[str, dict[str, list[float]]]) -> None:
    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"n={runs} each, interleaved in one run")
    print(f"| {'way':<42} | {'median':>8} | {'p10-p90':>15} | {'IQR':>7} |")
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 17}|{'-' * 9}|")
    for name, values in times.items():
        spread = f"{pct(values, 10):.2f}-{pct(values, 90):.2f}"
        iqr = pct(values, 75) - pct(values, 25)
        print(f"| {name:<42} | {med[name]:>6.2f}ms | {spread:>13}ms | {iqr:>5.2f}ms |")
    base = med["/v1/execute, no call"]
    mcp_over = med["/v1/execute, mcp_peer.ping()"] - base - med["MCP peer direct (SDK session)"]
    read_over = med["/v1/execute, mcp_peer.peek() (read-only)"] - base - med["MCP peer direct (SDK session)"]
    api_over = med["/v1/execute, api_peer.ping()"] - base - med["OpenAPI peer direct (httpx)"]
    ratio = med["/mcp execute, mcp_peer.ping() (SDK)"] / med["/v1/execute, mcp_peer.ping()"]
    print(f"overhead of one MCP connector call beyond the peer's own time: {mcp_over:.2f} ms (target <= 1 ms)")
    print(f"overhead of one read-only MCP connector call (readOnlyHint): {read_over:.2f} ms")
    print(f"overhead of one OpenAPI connector call beyond the peer's own time: {api_over:.2f} ms")
    # Paired within each round (the same seconds of machine noise on all three), which a
    # busy machine moves far less than a difference of medians.
    for label, way, peer in (("MCP", "/v1/execute, mcp_peer.ping()", "MCP peer direct (SDK session)"),
                             ("MCP read-only", "/v1/execute, mcp_peer.peek() (read-only)",
                              "MCP peer direct (SDK session)"),
                             ("OpenAPI", "/v1/execute, api_peer.ping()", "OpenAPI peer direct (httpx)")):
        paired = [c - b - p for c, b, p in zip(times[way], times["/v1/execute, no call"], times[peer])]
        print(f"  paired per round, {label}: median {statistics.median(paired):.2f} ms, "
              f"IQR {pct(paired, 25):.2f} to {pct(paired, 75):.2f} ms")
    print(f"/mcp execute vs /v1/execute with one MCP connector call: {ratio:.2f}x (target <= 1.5x)")
    if not spent:
        return
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print("CPU per way (median ms, p25-p75): the service process | the MCP peer")
    for name in times:
        cells = []
        for who in ("service", "mcp peer"):
            values = spent.get(name, {}).get(who, [])
            cells.append(f"{statistics.median(values):6.2f} ({pct(values, 25):.2f}-{pct(values, 75):.2f})"
                         if values else "-")
        print(f"  {name:<42} {cells[0]:>20} | {cells[1]:>20}")
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
        procs = [
            subprocess.Popen([sys.executable, me, "--peer", "mcp", "--port", str(ports["mcp"])]),
            subprocess.Popen([sys.executable, me, "--peer", "api", "--port", str(ports["api"])]),
            subprocess.Popen([sys.executable, "-m", "sandbox.cli", "serve", "--port", str(ports["service"]),
                              "--data-dir", data, "--log-level", "warning"],
                             env={**os.environ, "SANDBOX_TOKEN": ""}),
        ]
        spent: dict[str, dict[str, list[float]]] = {}
        try:
            times = asyncio.run(measure(f"http://127.0.0.1:{ports['service']}",
                                        f"http://127.0.0.1:{ports['mcp']}/mcp",
                                        f"http://127.0.0.1:{ports['api']}", runs,
                                        {"service": procs[2].pid, "mcp peer": procs[0].pid}, spent))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    report(times, runs, spent)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--peer", choices=["mcp", "api"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer == "mcp":
        serve_mcp_peer(args.port)
    elif args.peer == "api":
        serve_api_peer(args.port)
    else:
        main(args.runs)

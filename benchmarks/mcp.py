"""MCP benchmark: an execute through ``/mcp`` against the same execute through ``/v1/execute``.

    .venv/bin/python benchmarks/mcp.py [--runs 200]

Starts ``sandbox serve`` (127.0.0.1, a fresh data directory) and, in one event loop, sends
``1 + 1`` three ways, interleaved round by round so the machine's noise falls on all of
them alike: ``POST /v1/execute`` (httpx), ``tools/call execute`` to ``/mcp`` as one plain
JSON-RPC POST (httpx: the server's cost of MCP, no SDK client), and the same call through
the official SDK's ``ClientSession`` (what an agent host pays, client included). Prints the
median, p10-p90 and the interquartile range of each, and each median's ratio to
``/v1/execute``. Target on this 2-core machine: ``/mcp`` within 1.5x of ``/v1/execute``.
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

from benchmarks.measuring import free_port, interleaved, pct

CODE = "1 + 1"


async def wait_healthy(client: httpx.AsyncClient) -> None:
    for _ in range(1200):
        try:
            if (await client.get("/healthz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError("the service did not start")


async def measure(url: str, runs: int) -> dict[str, list[float]]:
    async with httpx.AsyncClient(base_url=url, timeout=120) as http, \
            httpx2.AsyncClient(timeout=120) as mcp_http:
        await wait_healthy(http)
        async with streamable_http_client(f"{url}/mcp", http_client=mcp_http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()

                async def v1() -> None:
                    body = (await http.post("/v1/execute", json={"code": CODE})).json()
                    assert body["status"] == "completed" and body["result"] == 2, body

                calls = iter(range(1, 10**9))

                async def mcp_raw() -> None:
                    response = await http.post("/mcp", headers={
                        "accept": "application/json, text/event-stream"}, json={
                        "jsonrpc": "2.0", "id": next(calls), "method": "tools/call",
                        "params": {"name": "execute", "arguments": {"code": CODE}}})
                    result = response.json()["result"]
                    assert result["structuredContent"]["result"] == 2, result

                async def mcp_sdk() -> None:
                    result = await session.call_tool("execute", {"code": CODE})
                    assert result.structured_content is not None
                    assert result.structured_content["result"] == 2, result

                ways: dict[str, Callable[[], Awaitable[None]]] = {
                    "POST /v1/execute (httpx)": v1,
                    "/mcp tools/call, plain JSON-RPC (httpx)": mcp_raw,
                    "/mcp tools/call, SDK ClientSession": mcp_sdk,
                }
                return await interleaved(ways, runs)


def report(times: dict[str, list[float]], runs: int) -> None:
    base = statistics.median(next(iter(times.values())))
    print(f"execute of `{CODE}`, n={runs} each, interleaved in one run")
    print(f"| {'way':<42} | {'median':>8} | {'p10-p90':>15} | {'IQR':>7} | {'ratio':>6} |")
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 17}|{'-' * 9}|{'-' * 8}|")
    for name, values in times.items():
        median = statistics.median(values)
        spread = f"{pct(values, 10):.2f}-{pct(values, 90):.2f}"
        iqr = pct(values, 75) - pct(values, 25)
        print(f"| {name:<42} | {median:>6.2f}ms | {spread:>13}ms | {iqr:>5.2f}ms | {median / base:>5.2f}x |")
    print("target: /mcp within 1.5x of /v1/execute")


def main(runs: int) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port),
                                   "--data-dir", data, "--log-level", "warning"],
                                  env={**os.environ, "SANDBOX_TOKEN": ""})
        try:
            times = asyncio.run(measure(f"http://127.0.0.1:{port}", runs))
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(times, runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    main(parser.parse_args().runs)

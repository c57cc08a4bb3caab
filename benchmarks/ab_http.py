"""Before/after over HTTP: this checkout's service and another checkout's, side by side, one
request to each in turn, so the machine's noise falls on both alike.

    .venv/bin/python benchmarks/ab_http.py --baseline /path/to/other/checkout [--runs 1500]
        [--kind execute|bash|state] [--same] [--callers 8 --blocks 6 --seconds 2]
        [--kind webhook --per-call 500 --runs 20]

``git worktree add /tmp/base <commit>`` makes the other checkout; it runs on this
checkout's virtual environment (``PYTHONPATH`` puts its packages first), so only the
project's own code differs. ``--same`` runs this checkout against itself: the A/A figure
that says how much two identical services differ by chance. Each service gets a fresh data
directory and a raw keep-alive socket client (``isolate.RawClient``), which costs the two
shared cores almost nothing. Prints each side's percentiles and the per-request difference
paired in time (this minus baseline: below 0, this checkout is faster). With
``--callers N``, throughput instead: requests per second with N callers at once, in blocks
of ``--seconds`` given to each service in turn (``--blocks`` each). With ``--per-call N``
(the webhook kind), one webhook call's time instead: each round, each service runs an
execute of N calls and one of the same loop calling a local lambda, and the difference per
call is taken (in microseconds, ``--runs`` rounds).

Kinds: ``execute`` is ``1 + 1``; ``bash`` is ``echo hi | wc -c`` over a fresh default
workspace; ``state`` is an execute of ten ``state.write_file`` + ``state.read_file`` pairs;
``webhook`` is an execute of ten signed webhook tool calls to one local echo tool server,
which both services call (``webhook_once``: one call); ``inline_tools`` is ``1 + 1`` with twenty inline tool definitions.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The project's root goes first (an editable install's finder is asked after every sys.path
# entry), this directory last, so a script here cannot hide the package of its name.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
from typing import Any

import httpx

from benchmarks.isolate import RawClient
from benchmarks.measuring import free_port, pct

HERE_ROOT = Path(_HERE).parent
STATE_CODE = ("for i in range(10):\n    state.write_file(f'/ab/{i}.txt', str(i))\n"
              "    state.read_file(f'/ab/{i}.txt')")
REQUESTS: dict[str, tuple[str, dict[str, Any]]] = {
    "execute": ("/v1/execute", {"code": "1 + 1"}),
    "bash": ("/v1/bash", {"script": "echo hi | wc -c"}),
    "state": ("/v1/execute", {"code": STATE_CODE}),
    "webhook": ("/v1/execute", {"code": "for i in range(10):\n    bench.echo(n=i)",
                                "toolsets": ["bench"]}),
    "webhook_once": ("/v1/execute", {"code": "bench.echo(n=1)", "toolsets": ["bench"]}),
    "inline_tools": ("/v1/execute", {"code": "1 + 1", "tools": [
        {"name": f"tool_{n}", "description": f"Tool number {n}.", "url": "http://127.0.0.1:9",
         "input_schema": {"type": "object", "required": ["id"], "properties": {
             "id": {"type": "integer"}, "mode": {"enum": ["a", "b", "c"]},
             "tags": {"type": "array", "items": {"type": "string"}}}}} for n in range(20)]}),
}


ECHO_TOOL = ("import sys; sys.path.append(sys.argv[1]); import measuring; "
             "measuring.serve_echo_tool(int(sys.argv[2]))")
"""The webhook kinds' tool (``measuring.echo_tool``), a process of its own: a thread here
would share this process's lock with the client."""


def start_tool_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", ECHO_TOOL, _HERE, str(port)])
    return process, f"http://127.0.0.1:{port}"


async def register_tool(port: int, url: str) -> None:
    tool = {"name": "echo", "url": url,
            "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(100):  # the tool server may still be starting: wait for its port
            try:
                await client.get(url)
                break
            except httpx.TransportError:
                await asyncio.sleep(0.1)
        answer = await client.put(f"http://127.0.0.1:{port}/v1/toolsets/bench", json={"tools": [tool]})
        if answer.status_code != 201:
            raise RuntimeError(f"registering the tool on port {port}: {answer.text}")


def start(root: Path, data: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir", data,
         "--log-level", "warning"],
        env={**os.environ, "SANDBOX_TOKEN": "", "PYTHONPATH": str(root)}, cwd=root)
    return process, port


async def wait_up(port: int) -> None:
    async with httpx.AsyncClient(timeout=5) as client:
        for _ in range(1200):
            try:
                if (await client.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the service on port {port} did not start")


async def measure(ports: dict[str, int], kind: str, runs: int, warm_up: int = 100) -> dict[str, list[float]]:
    path, payload = REQUESTS[kind]
    clients = {side: RawClient(port) for side, port in ports.items()}
    times: dict[str, list[float]] = {side: [] for side in ports}
    order = list(ports)
    loop = asyncio.get_running_loop()
    try:
        for round_no in range(warm_up + runs):
            for side in order if round_no % 2 else order[::-1]:
                started = loop.time()
                status, answer = await clients[side].post(path, payload)
                took = (loop.time() - started) * 1000
                if status != 200 or answer.get("status", "completed") != "completed" \
                        or answer.get("exit_code", 0) != 0:
                    raise RuntimeError(f"{side}: {status} {answer}")
                if round_no >= warm_up:
                    times[side].append(took)
    finally:
        for client in clients.values():
            await client.close()
    return times


async def throughput(ports: dict[str, int], kind: str, callers: int, blocks: int,
                     seconds: float) -> dict[str, list[float]]:
    """Requests per second with ``callers`` at once, in blocks of ``seconds`` given to each
    side in turn (the order flipped every block, after one unmeasured block each)."""
    path, payload = REQUESTS[kind]

    async def block(port: int) -> float:
        clients = [RawClient(port) for _ in range(callers)]
        loop = asyncio.get_running_loop()
        done, started = 0, loop.time()
        end = started + seconds

        async def caller(client: RawClient) -> None:
            nonlocal done
            while loop.time() < end:
                status, answer = await client.post(path, payload)
                if status != 200:
                    raise RuntimeError(f"{status} {answer}")
                done += 1
        try:
            await asyncio.gather(*(caller(client) for client in clients))
        finally:
            for client in clients:
                await client.close()
        return done / (loop.time() - started)

    rates: dict[str, list[float]] = {side: [] for side in ports}
    order = list(ports)
    for side in order:
        await block(ports[side])
    for number in range(blocks):
        for side in order if number % 2 else order[::-1]:
            rates[side].append(await block(ports[side]))
    return rates


async def per_call(ports: dict[str, int], calls: int, rounds: int) -> dict[str, list[float]]:
    """Microseconds of one webhook call on each side: a loop of ``calls`` less the same loop
    calling a local lambda, run back to back, ``rounds`` times (order flipped each round)."""
    codes = {"tool": f"for i in range({calls}):\n    bench.echo(n=i)",
             "plain": f"for i in range({calls}):\n    (lambda n: n)(i)"}
    clients = {side: RawClient(port) for side, port in ports.items()}
    per: dict[str, list[float]] = {side: [] for side in ports}
    order = list(ports)

    async def duration(side: str, code: str) -> float:
        status, answer = await clients[side].post("/v1/execute", {
            "code": code, "toolsets": ["bench"], "timeout_ms": 300_000})
        took = answer.get("duration_ms")
        if status != 200 or answer.get("status") != "completed" or not isinstance(took, (int, float)):
            raise RuntimeError(f"{side}: {status} {answer}")
        return float(took)
    try:
        for round_no in range(rounds + 1):  # the first round warms up
            for side in order if round_no % 2 else order[::-1]:
                took = await duration(side, codes["tool"]) - await duration(side, codes["plain"])
                if round_no:
                    per[side].append(took / calls * 1000)
    finally:
        for client in clients.values():
            await client.close()
    return per


def report_per_call(per: dict[str, list[float]], calls: int, baseline: str) -> None:
    print(f"one webhook call, loops of {calls}, {len(per['this'])} rounds, alternating; baseline {baseline}")
    for side, values in per.items():
        print(f"  {side:<8} median {statistics.median(values):.1f} us "
              f"(IQR {pct(values, 25):.1f}-{pct(values, 75):.1f})")
    print_paired(per, "us", 1)


def report_throughput(rates: dict[str, list[float]], kind: str, callers: int, baseline: str) -> None:
    print(f"{kind}, {callers} callers, {len(rates['this'])} blocks each, alternating; baseline {baseline}")
    for side, values in rates.items():
        print(f"  {side:<8} median {statistics.median(values):.0f} per s "
              f"(blocks: {', '.join(f'{value:.0f}' for value in values)})")
    print(f"  this / baseline: {statistics.median(rates['this']) / statistics.median(rates['baseline']):.2f}x")


def report(times: dict[str, list[float]], kind: str, baseline: str) -> None:
    print(f"{kind}, n={len(times['this'])} each, alternating; baseline {baseline}")
    for side, values in times.items():
        print(f"  {side:<8} p25 {pct(values, 25):.3f}  p50 {pct(values, 50):.3f}  "
              f"p75 {pct(values, 75):.3f}  p90 {pct(values, 90):.3f} ms")
    print_paired(times, "ms", 3)


def print_paired(values: dict[str, list[float]], unit: str, places: int) -> None:
    """The difference of each measurement from its baseline twin, taken in turn."""
    paired = [a - b for a, b in zip(values["this"], values["baseline"])]
    print(f"  this - baseline, paired: median {statistics.median(paired):+.{places}f} {unit} "
          f"(IQR {pct(paired, 25):+.{places}f} to {pct(paired, 75):+.{places}f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, help="another checkout of this project")
    parser.add_argument("--same", action="store_true", help="A/A: this checkout against itself")
    parser.add_argument("--runs", type=int, default=1500)
    parser.add_argument("--kind", choices=sorted(REQUESTS), default="execute")
    parser.add_argument("--callers", type=int, default=0,
                        help="throughput instead: requests per second with this many callers")
    parser.add_argument("--blocks", type=int, default=6, help="throughput blocks per side")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a throughput block")
    parser.add_argument("--per-call", type=int, default=0, metavar="N",
                        help="one webhook call's time instead, from loops of N calls")
    args = parser.parse_args()
    if args.same == (args.baseline is not None):
        parser.error("give --baseline DIR or --same")
    if args.per_call and args.kind != "webhook":
        parser.error("--per-call measures the webhook kind")
    roots = {"this": HERE_ROOT, "baseline": HERE_ROOT if args.same else args.baseline.resolve()}
    tool = start_tool_server() if args.kind.startswith("webhook") else None
    with tempfile.TemporaryDirectory() as data:
        started = {side: start(root, os.path.join(data, side)) for side, root in roots.items()}
        try:
            ports = {side: port for side, (_, port) in started.items()}
            for port in ports.values():
                asyncio.run(wait_up(port))
            if tool is not None:
                for port in ports.values():
                    asyncio.run(register_tool(port, tool[1]))
            if args.per_call:
                per = asyncio.run(per_call(ports, args.per_call, args.runs))
            elif args.callers:
                rates = asyncio.run(throughput(ports, args.kind, args.callers, args.blocks, args.seconds))
            else:
                times = asyncio.run(measure(ports, args.kind, args.runs))
        finally:
            for process, _ in started.values():
                process.terminate()
            for process, _ in started.values():
                process.wait(timeout=30)
            if tool is not None:
                tool[0].terminate()
    baseline = "this checkout (A/A)" if args.same else str(roots["baseline"])
    if args.per_call:
        report_per_call(per, args.per_call, baseline)
    elif args.callers:
        report_throughput(rates, args.kind, args.callers, baseline)
    else:
        report(times, args.kind, baseline)


if __name__ == "__main__":
    main()

"""Console benchmark: how long the console's pages take to show, from a local service with
many executions, in Debian's Chromium.

    .venv/bin/python benchmarks/console.py [--executions 1000] [--loads 20]

Starts the real service (real isolates, SQLite in a temporary data directory), runs
``--executions`` executions through ``POST /v1/execute`` (every tenth parked on a durable
approval), then loads each console page ``--loads`` times in a signed-in browser and times
navigation start -> the page's content rendered (the table rows, or the approval cards), as
the browser's own clock measures it. Also times the API call behind each page from a plain
HTTP client. Target (issue 13): a page in under 100 ms.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from playwright.sync_api import sync_playwright

from live_server import ServerThread
from sandbox.engine import ensure_compiled
from sandbox.service import Settings, create_app

TOKEN = "bench-console-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
GATED = {"name": "deploy", "description": "Deploy.", "input_schema": {"type": "object"},
         "approval": {"mode": "durable", "summary": "Deploy", "risk": "low"}}
PAGES = {"approvals": ("#/approvals", "[data-approval]"),
         "executions": ("#/executions", "[data-execution]"),
         "execution": ("#/executions/{id}", "#execution-status")}


def seed(url: str, count: int) -> str:
    def one(n: int) -> str:
        gated = n % 10 == 0
        body = {"code": "tools.deploy()" if gated else f"print({n})\n{n} * 2",
                "workspace": f"bench-{n % 20}", **({"tools": [GATED]} if gated else {})}
        return str(httpx.post(f"{url}/v1/execute", json=body, headers=AUTH,
                              timeout=120).json()["execution_id"])

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(count)))[-1]


def spread(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p90 {p90:6.1f} ms  (min {ordered[0]:.1f}, n={len(ordered)})"


def browser_loads(url: str, execution: str, loads: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {name: [] for name in PAGES}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page()
        page.goto(f"{url}/console/login")
        page.fill("input[name=token]", TOKEN)
        page.click("button[type=submit]")
        page.wait_for_selector("#whoami:not(:empty)")
        for _ in range(loads):
            for name, (fragment, ready) in PAGES.items():
                page.goto("about:blank")
                page.goto(f"{url}/console{fragment.format(id=execution)}")
                page.wait_for_selector(ready)
                timings[name].append(page.evaluate("performance.now()"))
        browser.close()
    return timings


def api_times(url: str, execution: str, loads: int) -> dict[str, list[float]]:
    paths = {"GET /v1/approvals?status=pending": "/v1/approvals",
             "GET /v1/executions?limit=200": "/v1/executions?limit=200",
             f"GET /v1/executions/{{id}}": f"/v1/executions/{execution}"}
    found: dict[str, list[float]] = {name: [] for name in paths}
    with httpx.Client(base_url=url, headers=AUTH) as client:
        for _ in range(loads):
            for name, path in paths.items():
                start = time.perf_counter()
                client.get(path).raise_for_status()
                found[name].append((time.perf_counter() - start) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--executions", type=int, default=1000)
    parser.add_argument("--loads", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), workers=2, guest=ensure_compiled(), token=TOKEN,
                            sweep_interval_s=0)
        with ServerThread(create_app(settings)) as live:
            started = time.perf_counter()
            last = seed(live.url, options.executions)
            print(f"seeded {options.executions} executions in {time.perf_counter() - started:.1f} s")
            print("page in the browser (navigation start -> content shown):")
            for name, samples in browser_loads(live.url, last, options.loads).items():
                print(f"  {name:<12} {spread(samples)}")
            print("the API call behind it (plain HTTP client):")
            for name, samples in api_times(live.url, last, options.loads).items():
                print(f"  {name:<34} {spread(samples)}")


if __name__ == "__main__":
    main()

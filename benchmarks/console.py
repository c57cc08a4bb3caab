"""Console benchmark: how long the console's pages take to show, from a local service with
many executions and audit entries, in Debian's Chromium.

    .venv/bin/python benchmarks/console.py [--executions 1000] [--audit-entries 10000] [--loads 20]

Starts the real service (real isolates, SQLite in a temporary data directory), runs
``--executions`` executions through ``POST /v1/execute`` (every tenth parked on a durable
approval), tops the audit log up to ``--audit-entries``, then loads each console page ``--loads`` times in a signed-in browser and times
navigation start -> the page's content rendered (the table rows, or the approval cards), as
the browser's own clock measures it, and the slowest API call inside that load (the
server's share, from the browser's resource timings). Also times the API call behind each page from a plain
HTTP client. Target (issue 13): a page in under 100 ms.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# The project's root first (its packages are found by an editable install's finder, which
# Python asks only after every sys.path entry: ``tests/audit`` would be taken for the audit
# package), this directory not at all, and the tests' helpers (``live_server``) last.
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE.parent / "tests"))

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from playwright.sync_api import sync_playwright

from audit import AuditEvent, AuditLog
from live_server import ServerThread
from sandbox.engine import ensure_compiled
from sandbox.service import Settings, create_app

TOKEN = "bench-console-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
GATED = {"name": "deploy", "description": "Deploy.", "input_schema": {"type": "object"},
         "approval": {"mode": "durable", "summary": "Deploy", "risk": "low"}}
PAGES = {"approvals": ("#/approvals", {"approvals": "[data-approval]"}),
         "executions": ("#/executions", {"executions": "[data-execution]"}),
         "execution": ("#/executions/{id}", {"execution": "#execution-status",
                                             "execution (trace)": "#trace [data-span]"}),
         "audit": ("#/audit", {"audit": "[data-seq]", "audit (verified)": "#verify.ok"})}
"""Each page: its address, and what must be on screen for it to count as shown."""
AUDIT_ENTRIES = 10_000


def seed(url: str, count: int) -> str:
    def one(n: int) -> str:
        gated = n % 10 == 0
        body = {"code": "tools.deploy()" if gated else f"print({n})\n{n} * 2",
                "workspace": f"bench-{n % 20}", **({"tools": [GATED]} if gated else {})}
        return str(httpx.post(f"{url}/v1/execute", json=body, headers=AUTH,
                              timeout=120).json()["execution_id"])

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(count)))[-1]


def seed_audit(db: Path, total: int) -> int:
    """Top the audit log up to ``total`` entries (tool-set changes, as an operator makes)."""
    async def top_up() -> int:
        log = await AuditLog.open(db)
        try:
            seq, _ = await log.head()
            for start in range(seq, total, 500):
                await log.record([AuditEvent("default", "bench", "toolset.put",
                                             {"toolset": f"t{n}"}, {"tools": n % 7})
                                  for n in range(start, min(total, start + 500))])
            return (await log.head())[0]
        finally:
            await log.close()
    return asyncio.run(top_up())


def spread(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p90 {p90:6.1f} ms  (min {ordered[0]:.1f}, n={len(ordered)})"


SLOWEST_CALL = """() => Math.max(0, ...performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("/v1/") || e.name.includes("/console/api/"))
    .map((e) => e.responseEnd - e.requestStart))"""
"""The slowest API call of the page as the browser saw it (request sent -> last byte)."""

DATA_IN = """() => (performance.getEntriesByName("console:data")[0] || {startTime: -1}).startTime"""
"""When the page's data arrived (its own mark): the rest, to shown, is the browser drawing it."""

WATCH = """(selectors) => {
  // In the page before its own scripts: the first frame in which each selector matches,
  // on the page's clock (so the driver's round trips do not count).
  window.__shown = {};
  const look = () => {
    for (const s of selectors) {
      if (!(s in window.__shown) && document.querySelector(s)) {
        window.__shown[s] = -1;
        requestAnimationFrame(() => { window.__shown[s] = performance.now(); });
      }
    }
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
}"""


def browser_loads(url: str, execution: str, loads: int) -> dict[str, list[float]]:
    """Per page: navigation start -> the first frame showing its content, and the slowest API
    call within it."""
    timings: dict[str, list[float]] = {}
    selectors = [ready for _, shown in PAGES.values() for ready in shown.values()]
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page()
        page.add_init_script(f"({WATCH})({json.dumps(selectors)})")
        page.goto(f"{url}/console/login")
        page.fill("input[name=token]", TOKEN)
        page.click("button[type=submit]")
        page.wait_for_selector("#whoami:not(:empty)")
        for _ in range(loads):
            for name, (fragment, shown) in PAGES.items():
                page.goto("about:blank")
                page.goto(f"{url}/console{fragment.format(id=execution)}")
                for label, ready in shown.items():
                    at = page.wait_for_function("(s) => window.__shown[s] > 0 && window.__shown[s]",
                                                arg=ready)
                    timings.setdefault(label, []).append(float(at.json_value()))
                timings.setdefault(f"{name} (slowest API call)", []).append(
                    page.evaluate(SLOWEST_CALL))
                timings.setdefault(f"{name} (data in)", []).append(page.evaluate(DATA_IN))
        browser.close()
    return timings


def api_times(url: str, execution: str, loads: int) -> dict[str, list[float]]:
    """The calls the pages make, from a plain client: with the bearer token, and with a
    console session's cookie as the page sends them (the session lookup included)."""
    paths = {"GET /v1/approvals?status=pending": "/v1/approvals",
             "GET /v1/executions?limit=50": "/v1/executions?limit=50",
             "GET /v1/executions/{id}": f"/v1/executions/{execution}",
             "GET /v1/executions/{id}/trace": f"/v1/executions/{execution}/trace",
             "GET /v1/audit?order=desc&limit=100": "/v1/audit?order=desc&limit=100",
             "GET /v1/audit/verify": "/v1/audit/verify"}
    found: dict[str, list[float]] = {}
    with httpx.Client(base_url=url, headers=AUTH) as bearer, httpx.Client(base_url=url) as cookie:
        form = cookie.get("/console/login").text
        nonce = form.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        cookie.post("/console/login", data={"token": TOKEN, "csrf": nonce})
        for _ in range(loads):
            for name, path in paths.items():
                for how, client in (("bearer", bearer), ("cookie", cookie)):
                    start = time.perf_counter()
                    client.get(path).raise_for_status()
                    found.setdefault(f"{name} ({how})", []).append(
                        (time.perf_counter() - start) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--executions", type=int, default=1000)
    parser.add_argument("--audit-entries", type=int, default=AUDIT_ENTRIES)
    parser.add_argument("--loads", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), workers=2, guest=ensure_compiled(), token=TOKEN,
                            sweep_interval_s=0)
        with ServerThread(create_app(settings)) as live:
            started = time.perf_counter()
            last = seed(live.url, options.executions)
            entries = seed_audit(settings.database_path, options.audit_entries)
            print(f"seeded {options.executions} executions and {entries} audit entries in "
                  f"{time.perf_counter() - started:.1f} s")
            print("page in the browser (navigation start -> content shown):")
            for name, samples in browser_loads(live.url, last, options.loads).items():
                print(f"  {name:<34} {spread(samples)}")
            print("the API calls behind them (plain HTTP client):")
            for name, samples in api_times(live.url, last, options.loads).items():
                print(f"  {name:<48} {spread(samples)}")


if __name__ == "__main__":
    main()

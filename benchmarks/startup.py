"""Start-up: how long ``sandbox serve`` takes to answer ``/healthz`` on a fresh data
directory (two workers, the guest already compiled), and how long a command-line call
that starts no service takes (``sandbox --version``), this checkout and another side by
side, in turn, so the machine's noise falls on both alike.

    .venv/bin/python benchmarks/startup.py --baseline /path/to/other/checkout [--runs 8]

``git worktree add /tmp/base <commit>`` makes the other checkout; it runs on this
checkout's virtual environment (``PYTHONPATH`` puts its packages first), so only the
project's own code differs. Both checkouts must build the same guest, or the first start
of one compiles it. Without ``--baseline`` only this checkout is measured.

Why it matters: a restart after a crash recovers no execution before the service is up,
and every command-line call pays its imports before it does anything.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(_HERE).parent)] + [
    p for p in sys.path if str(Path(p or ".").resolve()) != _HERE] + [_HERE]

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import httpx

from benchmarks.measuring import free_port, pct

HERE_ROOT = Path(_HERE).parent


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "SANDBOX_TOKEN": "", "PYTHONPATH": str(root)}


def serve_ready_s(root: Path) -> float:
    """Seconds from starting ``sandbox serve`` to its first ``200`` from ``/healthz``."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir", data,
             "--workers", "2", "--log-level", "warning"],
            env=_env(root), cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while time.perf_counter() - started < 120:
                if process.poll() is not None:
                    raise RuntimeError(f"sandbox serve in {root} exited with {process.returncode}")
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                        return time.perf_counter() - started
                except httpx.TransportError:
                    pass
                time.sleep(0.01)
            raise RuntimeError(f"sandbox serve in {root} did not start within 120 s")
        finally:
            process.terminate()
            process.wait(timeout=30)


def command_s(root: Path) -> float:
    """Seconds a ``sandbox --version`` takes, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sandbox.cli", "--version"], env=_env(root), cwd=root,
                   check=True, capture_output=True, timeout=120)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="another checkout, measured in turn")
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    sides = {"this": HERE_ROOT, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    for name, measure in (("sandbox serve, until /healthz answers", serve_ready_s),
                          ("sandbox --version", command_s)):
        times: dict[str, list[float]] = {side: [] for side in sides}
        order = list(sides)
        for run in range(args.runs):
            for side in order if run % 2 else order[::-1]:
                times[side].append(measure(sides[side]))
        print(f"{name}, n={args.runs} each, alternating")
        for side, values in times.items():
            print(f"  {side:<8} p25 {pct(values, 25):.2f}  p50 {pct(values, 50):.2f}  "
                  f"p75 {pct(values, 75):.2f} s")
        if "baseline" in times:
            paired = [a - b for a, b in zip(times["this"], times["baseline"])]
            print(f"  this - baseline, paired: median {statistics.median(paired):+.2f} s "
                  f"(IQR {pct(paired, 25):+.2f} to {pct(paired, 75):+.2f}); ratio of medians "
                  f"{statistics.median(times['this']) / statistics.median(times['baseline']):.2f}x")


if __name__ == "__main__":
    main()

"""Guest image benchmark: component size, build and first-compile time, fresh ``print(1+1)``.

    .venv/bin/python benchmarks/guest_image.py [--runs 300] [--rounds 5] [--skip-build]

"Fresh" means what a run pays: a new store and instance of the compiled guest, then the
``execute`` export with ``print(1+1)``, no worker hop. Each round measures ``--runs``
isolates and reports its median; the line printed is the median of the round medians with
their spread (min..max), because a shared 2-core machine drifts between rounds. Compare
two images by running this once on each, back to back.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from sandbox import Limits
from sandbox.build import ensure_component
from sandbox.engine import ensure_compiled
from sandbox.isolate import GuestRuntime

REQUEST = json.dumps({"code": "print(1+1)", "max_output_bytes": 1_000_000})


def measure_build() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        built = ensure_component(Path(tmp), progress=lambda _m: None)
        build_s = time.perf_counter() - started
        size_mb = built.path.stat().st_size / 1e6
        started = time.perf_counter()
        ensure_compiled(Path(tmp), progress=lambda _m: None)
        compile_s = time.perf_counter() - started
    print(f"component: {size_mb:.1f} MB, built in {build_s:.1f} s, first compile {compile_s:.1f} s")


def measure_fresh(runs: int, rounds: int) -> None:
    guest = ensure_compiled(progress=lambda _m: None)
    runtime = GuestRuntime(guest)
    component = ensure_component(progress=lambda _m: None)
    print(f"component: {component.path.stat().st_size / 1e6:.1f} MB ({component.path.name})")

    def one() -> float:
        started = time.perf_counter()
        with runtime.isolate(Limits.default) as isolate:
            response = isolate.call("execute", REQUEST, lambda _n, _p: "null")
        elapsed = (time.perf_counter() - started) * 1000
        assert json.loads(response)["logs"] == ["2"], response
        return elapsed

    for _ in range(30):
        one()
    medians = [statistics.median(one() for _ in range(runs)) for _ in range(rounds)]
    print(f"fresh print(1+1), instantiate + call: median {statistics.median(medians):.2f} ms "
          f"(round medians {min(medians):.2f}..{max(medians):.2f} ms, {rounds} x {runs} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-build", action="store_true",
                        help="do not rebuild and recompile in a scratch cache")
    args = parser.parse_args()
    if not args.skip_build:
        measure_build()
    measure_fresh(args.runs, args.rounds)


if __name__ == "__main__":
    main()

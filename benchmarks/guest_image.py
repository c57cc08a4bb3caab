"""Guest image benchmark: component size, build and first-compile time, fresh ``print(1+1)``.

    .venv/bin/python benchmarks/guest_image.py [--runs 300] [--rounds 5] [--skip-build]
        [--against ~/.cache/wasm-sandbox/compiled-<key>.cwasm]

"Fresh" means what a run pays: a new store and instance of the compiled guest, then the
``execute`` export with ``print(1+1)``, no worker hop. Each round measures ``--runs``
isolates and reports its median; the line printed is the median of the round medians with
their spread (min..max), because a shared 2-core machine drifts between rounds. To compare
two images, ``--against`` names another compiled artifact (an earlier build, from the
cache): the two are measured alternately, isolate by isolate, so the machine's load drifts
alike for both, and the difference of each round's medians is reported.
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
from sandbox.build import ensure_component, file_sha256
from sandbox.engine import CompiledGuest, ensure_compiled
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


def _fresh(runtime: GuestRuntime) -> float:
    started = time.perf_counter()
    with runtime.isolate(Limits.default) as isolate:
        response = isolate.call("execute", REQUEST, lambda _n, _p: "null")
    elapsed = (time.perf_counter() - started) * 1000
    assert json.loads(response)["logs"] == ["2"], response
    return elapsed


def _artifact(path: Path) -> CompiledGuest:
    recorded = json.loads(path.with_suffix(".json").read_text())
    return CompiledGuest(path, recorded["component_sha256"], recorded["fingerprint"], file_sha256(path),
                         path.with_suffix(".mem"), recorded["image_sha256"])


def measure_fresh(runs: int, rounds: int, against: Path | None) -> None:
    guest = ensure_compiled(progress=lambda _m: None)
    component = ensure_component(progress=lambda _m: None)
    print(f"component: {component.path.stat().st_size / 1e6:.1f} MB ({component.path.name})")
    runtimes = [GuestRuntime(guest)] + ([GuestRuntime(_artifact(against))] if against else [])
    for _ in range(30):
        for runtime in runtimes:
            _fresh(runtime)
    medians: list[list[float]] = [[] for _ in runtimes]
    for _ in range(rounds):
        times: list[list[float]] = [[] for _ in runtimes]
        for _ in range(runs):
            for index, runtime in enumerate(runtimes):
                times[index].append(_fresh(runtime))
        for index, values in enumerate(times):
            medians[index].append(statistics.median(values))
    names = ["this image", f"against {against.name if against else ''}"]
    for name, values in zip(names, medians):
        print(f"fresh print(1+1), instantiate + call, {name}: median {statistics.median(values):.2f} ms "
              f"(round medians {min(values):.2f}..{max(values):.2f} ms, {rounds} x {runs} runs)")
    if against:
        diffs = [a - b for a, b in zip(*medians)]
        print(f"difference per round (this - against): median {statistics.median(diffs):+.2f} ms "
              f"({min(diffs):+.2f}..{max(diffs):+.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-build", action="store_true",
                        help="do not rebuild and recompile in a scratch cache")
    parser.add_argument("--against", type=Path, help="another compiled artifact to compare with")
    args = parser.parse_args()
    if not args.skip_build:
        measure_build()
    measure_fresh(args.runs, args.rounds, args.against)


if __name__ == "__main__":
    main()

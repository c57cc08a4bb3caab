"""``python -m fuzz TARGET [--seconds N] [--replay FILE] [--crashes DIR] [--work DIR]`` (what
``scripts/fuzz`` calls for each target); ``python -m fuzz --list`` names the targets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._harness import ATHERIS_TARGETS, CACHE, TARGETS, fuzz, replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("target", nargs="?", choices=TARGETS)
    parser.add_argument("--list", action="store_true", help="print the targets, one a line")
    parser.add_argument("--seconds", type=int, default=60, help="time budget (default 60)")
    parser.add_argument("--replay", type=Path, help="re-run one saved input (or report)")
    parser.add_argument("--crashes", type=Path, help="findings go to CRASHES/<target> "
                        "(default .cache/fuzz/crashes/<target>)")
    parser.add_argument("--work", type=Path, help="where new inputs go "
                        "(default .cache/fuzz/corpus/<target>, kept between runs)")
    args = parser.parse_args(argv)
    if args.list or args.target is None:
        print("\n".join(TARGETS))
        return 0
    crashes = (args.crashes or CACHE / "crashes") / args.target
    if args.target in ATHERIS_TARGETS:
        if args.replay is not None:
            return replay(args.target, args.replay)
        fuzz(args.target, args.seconds, crashes.resolve(),
             args.work.resolve() if args.work else None)
        return 0  # not reached: libFuzzer exits
    from .schemathesis_api import rerun, run

    if args.replay is not None:
        return rerun(args.replay, args.seconds)
    return run(args.seconds, crashes.resolve())


if __name__ == "__main__":
    sys.exit(main())

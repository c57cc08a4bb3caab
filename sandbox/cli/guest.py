"""``sandbox build``: build and compile the guest now (else the first use does it), with a
progress bar on a terminal; prints the compiled artifact's path. ``--science`` also makes the
science engine's snapshot (numpy, pandas, scipy, matplotlib; about two minutes, once)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .progress import guest_ready, science_ready


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    build = commands.add_parser("build", help="build and compile the guest now (else on first use)",
                                description="Build and compile the guest component now (else the "
                                "first use does it, about 25 s); prints the compiled artifact's path.")
    build.add_argument("--cache-dir", help="the guest cache (default $SANDBOX_CACHE_DIR or "
                       "~/.cache/wasm-sandbox)")
    build.add_argument("--science", action="store_true",
                       help="also make the science engine's snapshot (needs the science extra)")
    build.set_defaults(func=cmd_build)


def cmd_build(args: argparse.Namespace) -> int:
    cache_dir = Path(args.cache_dir) if args.cache_dir else None
    guest = guest_ready(cache_dir)
    print(guest.path)
    if args.science:
        print(science_ready(cache_dir).path)
    return 0

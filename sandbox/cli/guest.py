"""``sandbox doctor`` (versions, cache paths and their state) and ``sandbox build`` (build
and compile the guest now, else it happens on first use)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .. import cache_state, ensure_compiled
from ..service import default_data_dir
from .output import print_json


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    doctor = commands.add_parser("doctor", help="versions, cache paths and their state")
    doctor.add_argument("--cache-dir")
    doctor.set_defaults(func=cmd_doctor)

    build = commands.add_parser("build", help="build and compile the guest now (else on first use)")
    build.add_argument("--cache-dir")
    build.set_defaults(func=cmd_build)


def cmd_doctor(args: argparse.Namespace) -> int:
    state = cache_state(Path(args.cache_dir) if args.cache_dir else None)
    state["python"] = sys.version.split()[0]
    state["data_dir"] = str(default_data_dir())
    state["token_configured"] = bool(os.environ.get("SANDBOX_TOKEN"))
    print_json(state)
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    guest = ensure_compiled(Path(args.cache_dir) if args.cache_dir else None)
    print(guest.path)
    return 0

"""The ``sandbox`` command: one module per command group, each with ``register(commands)``.

Commands: ``serve``, ``exec``, ``bash``, ``doctor``, ``build``, ``ws`` (workspaces) and
``approvals`` (an operator answering a running service's approval requests).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from . import approvals, bash, execute, guest, mcp, serve, workspaces

COMMAND_GROUPS = (serve, execute, bash, guest, workspaces, approvals, mcp)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sandbox", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

"""``sandbox mcp``: the service's tools as an MCP server over stdin/stdout, for local agent
hosts that start their MCP servers as subprocesses.

The process embeds its own service (isolates, the database under the data directory, the
same settings as ``sandbox serve``); nothing listens on a port. Stdout carries the protocol
only; logs go to stderr. It ends when stdin does.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from codemode import DurableSettings

from ..service import (
    TOOLS,
    ConfigError,
    Settings,
    create_app,
    durable_overrides_from_env,
    serve_mcp_stdio,
)

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``mcp`` command to an argparse subparsers object."""
    parser = commands.add_parser(
        "mcp", help="serve the tools over MCP on stdin/stdout",
        description="Serve execute, bash and the workspace tools over MCP on stdin/stdout, with "
                    "the service embedded in this process (no port). For an agent host's MCP "
                    "configuration: command 'sandbox', args ['mcp', '--data-dir', DIR]. "
                    "Over HTTP, the running service answers MCP at /mcp instead.")
    parser.add_argument("--data-dir", help="database and blobs (default $SANDBOX_DATA_DIR, "
                                           "$XDG_DATA_HOME/sandbox or ~/.local/share/sandbox)")
    parser.add_argument("--workers", type=int, help="worker processes (default: CPUs + 1)")
    parser.add_argument("--disable", action="append", choices=TOOLS, default=None,
                        help="turn a tool off (repeatable; also SANDBOX_DISABLED_TOOLS=bash,...)")
    parser.add_argument("--log-level", default="warning", help="on stderr (default warning)")
    parser.set_defaults(func=cmd_mcp)


def mcp_settings(args: argparse.Namespace) -> Settings:
    """The embedded service's settings: the arguments over the environment (ConfigError)."""
    durable, sweep_interval_s = durable_overrides_from_env()
    return Settings.from_env(data_dir=Path(args.data_dir) if args.data_dir else None,
                             workers=args.workers, sweep_interval_s=sweep_interval_s,
                             durable=DurableSettings.from_env(**durable),
                             disabled_tools=frozenset(args.disable) if args.disable else None)


def cmd_mcp(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=str(args.log_level).upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = mcp_settings(args)
    except ConfigError as exc:
        sys.stderr.write(f"sandbox mcp: {exc}\n")
        return 2
    try:
        asyncio.run(serve_mcp_stdio(create_app(settings)))
    except KeyboardInterrupt:
        return 130
    return 0

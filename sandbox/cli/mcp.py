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
from typing import Any

from ..service import ConfigError
from .serve import add_service_arguments, serve_settings

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``mcp`` command to an argparse subparsers object."""
    parser = commands.add_parser(
        "mcp", help="serve the tools over MCP on stdin/stdout",
        description="Serve execute, bash and the workspace tools over MCP on stdin/stdout, with "
                    "the service embedded in this process (no port). For an agent host's MCP "
                    "configuration: command 'sandbox', args ['mcp', '--data-dir', DIR]. "
                    "Over HTTP, the running service answers MCP at /mcp instead.")
    add_service_arguments(parser)
    parser.add_argument("--log-level", default="warning", help="on stderr (default warning)")
    parser.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..service import create_app, serve_mcp_stdio  # the HTTP layer: only for this command

    logging.basicConfig(stream=sys.stderr, level=str(args.log_level).upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = serve_settings(args)
    except ConfigError as exc:
        sys.stderr.write(f"sandbox mcp: {exc}\n")
        return 2
    try:
        asyncio.run(serve_mcp_stdio(create_app(settings)))
    except KeyboardInterrupt:
        return 130
    return 0

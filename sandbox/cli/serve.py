"""``sandbox serve``: start the HTTP service (settings from arguments and the environment)."""

from __future__ import annotations

import argparse
import logging.config
import socket
import sys
from dataclasses import replace
from pathlib import Path

from codemode import DurableSettings

from ..service import (
    TOOLS,
    ConfigError,
    Settings,
    durable_overrides_from_env,
    log_config,
)
from .progress import guest_ready, logged_step


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    serve = commands.add_parser("serve", help="start the HTTP service",
                                description="Start the HTTP service (settings from these options "
                                "and the SANDBOX_* environment variables).")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    add_service_arguments(serve)
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--log-format", choices=("text", "json"), default="text",
                       help="text for a terminal, json for one object a line (with request ids)")
    serve.set_defaults(func=cmd_serve)


def add_service_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a command that runs the service (``serve``, ``mcp``): see
    :func:`serve_settings`."""
    parser.add_argument("--data-dir", help="database and blobs (default $SANDBOX_DATA_DIR, "
                        "$XDG_DATA_HOME/sandbox or ~/.local/share/sandbox)")
    parser.add_argument("--database", metavar="URL",
                        help="a postgresql:// URL for the stores that can live there "
                        "(default $SANDBOX_DATABASE_URL; unset: SQLite in the data directory)")
    parser.add_argument("--workers", type=int, help="worker processes (default: CPUs + 1)")
    parser.add_argument("--disable", action="append", choices=TOOLS, default=None,
                        help="turn a tool off (repeatable; also SANDBOX_DISABLED_TOOLS=bash,...)")


def serve_settings(args: argparse.Namespace) -> Settings:
    """The service's settings from the arguments of :func:`add_service_arguments` and the
    environment (ConfigError); ``serve`` and ``mcp`` both run on them."""
    durable, sweep_interval_s = durable_overrides_from_env()
    return Settings.from_env(data_dir=Path(args.data_dir) if args.data_dir else None,
                             database_url=args.database, workers=args.workers, sweep_interval_s=sweep_interval_s,
                             durable=DurableSettings.from_env(**durable),
                             disabled_tools=frozenset(args.disable) if args.disable else None)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..service import create_app  # the HTTP layer: only for this command

    config = log_config(args.log_format, args.log_level)
    logging.config.dictConfig(config)  # so even the lines before uvicorn starts are in format
    log = logging.getLogger("sandbox.service")
    try:
        settings = serve_settings(args)
    except ConfigError as exc:
        log.error("sandbox serve: %s", exc)
        return 2
    refused = _cannot_listen(args.host, args.port)
    if refused:
        log.error("sandbox serve: cannot listen on %s:%s: %s (is another service running? "
                  "--port picks another)", args.host, args.port, refused)
        return 1
    # Made ready before start-up: bars on a terminal (text logs), else a log line per step.
    bars = args.log_format == "text" and sys.stderr.isatty()
    guest = guest_ready(settings.cache_dir, quietly=not bars, step=logged_step(log.info))
    settings = replace(settings, guest=guest)
    if args.host not in ("0.0.0.0", "::", "", "127.0.0.1", "localhost", "::1"):
        # The name it listens on is one /mcp answers to (besides SANDBOX_MCP_ALLOWED_HOSTS).
        named = f"[{args.host}]" if ":" in args.host else args.host
        settings = replace(settings, mcp_allowed_hosts=(*settings.mcp_allowed_hosts, named,
                                                        f"{named}:*"))
    log.info("data in %s; listening on http://%s:%s", settings.data_dir, args.host, args.port)
    if settings.token is None and args.host not in ("127.0.0.1", "localhost", "::1"):
        log.warning("listening beyond loopback without SANDBOX_TOKEN")
    try:
        uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
                    log_config=config)
    except SystemExit as exc:  # uvicorn's own start-up failure (it has logged why)
        return 0 if exc.code in (0, None) else 1
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (bound as uvicorn binds it), or None."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None

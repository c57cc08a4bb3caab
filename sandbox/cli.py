"""The ``sandbox`` command: serve, exec, bash, doctor, build, and workspace commands."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from .limits import Limits
from .settings import Settings, default_data_dir
from .approvals_cli import register as register_approval_commands
from .workspace_cli import register as register_workspace_commands


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


class ConfigError(Exception):
    """An environment variable holds a value the service cannot use."""


def _env_number(name: str, kind: type[float] | type[int], *, minimum: float) -> float | int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = kind(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not {'an integer' if kind is int else 'a number'}") from None
    if value != value or value in (float("inf"), float("-inf")) or value < minimum:
        raise ConfigError(f"{name}={raw!r} must be a finite number >= {minimum:g}")
    return value


def _env_flag(name: str) -> bool | None:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return None
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def durable_overrides_from_env() -> tuple[dict[str, Any], float | None]:
    """The durable runtime's knobs an operator (or a recovery test) sets in the environment.

    Returns overrides for :class:`codemode.DurableSettings` and the sweep interval:
    ``SANDBOX_SWEEP_INTERVAL_S`` (0: sweep only at start-up), ``SANDBOX_PAUSED_TTL_S``,
    ``SANDBOX_RECOVER_RUNNING`` (1/0), ``SANDBOX_LEASE_MARGIN_S``, ``SANDBOX_MAX_ATTEMPTS``,
    ``SANDBOX_LEDGER_LEASE_MS`` (``off`` or 0: a stale pending action is never reclaimed).
    Raises :class:`ConfigError` naming the variable for a value it cannot use.
    """
    durable: dict[str, Any] = {}
    numbers: tuple[tuple[str, str, type[float] | type[int], float], ...] = (
        ("SANDBOX_PAUSED_TTL_S", "paused_ttl_s", float, 0.0),
        ("SANDBOX_LEASE_MARGIN_S", "lease_margin_s", float, 0.0),
        ("SANDBOX_MAX_ATTEMPTS", "max_attempts", int, 1),
    )
    for env_name, field_name, kind, minimum in numbers:
        value = _env_number(env_name, kind, minimum=minimum)
        if value is not None:
            durable[field_name] = value
    recover = _env_flag("SANDBOX_RECOVER_RUNNING")
    if recover is not None:
        durable["recover_running"] = recover
    lease = os.environ.get("SANDBOX_LEDGER_LEASE_MS", "").strip().lower()
    if lease in ("off", "none"):
        durable["ledger_lease_ms"] = None
    elif lease:
        lease_ms = _env_number("SANDBOX_LEDGER_LEASE_MS", int, minimum=0)
        durable["ledger_lease_ms"] = None if lease_ms == 0 else lease_ms
    interval = _env_number("SANDBOX_SWEEP_INTERVAL_S", float, minimum=0.0)
    return durable, None if interval is None else float(interval)


def serve_settings(args: argparse.Namespace) -> Settings:
    """The service's settings from ``serve``'s arguments and the environment (ConfigError)."""
    from codemode import DurableSettings

    durable, sweep_interval_s = durable_overrides_from_env()
    return Settings.from_env(data_dir=Path(args.data_dir) if args.data_dir else None,
                             workers=args.workers, sweep_interval_s=sweep_interval_s,
                             durable=DurableSettings.from_env(**durable))


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app

    try:
        settings = serve_settings(args)
    except ConfigError as exc:
        print(f"sandbox serve: {exc}", file=sys.stderr)
        return 2
    print(f"sandbox: data in {settings.data_dir}; listening on http://{args.host}:{args.port}",
          file=sys.stderr)
    if settings.token is None and args.host not in ("127.0.0.1", "localhost", "::1"):
        print("sandbox: WARNING: listening beyond loopback without SANDBOX_TOKEN", file=sys.stderr)
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level)
    return 0


def cmd_exec(args: argparse.Namespace) -> int:
    from .api import AsyncSandbox

    if args.code is not None:
        code = args.code
    elif args.file == "-":
        code = sys.stdin.read()
    elif args.file:
        code = Path(args.file).read_text(encoding="utf-8")
    else:
        print("sandbox exec: give -c CODE or a FILE (- for stdin)", file=sys.stderr)
        return 2
    limits = Limits.default.replace(deadline_s=args.timeout_ms / 1000 if args.timeout_ms else None,
                                    memory_bytes=args.memory_mb * 1024 * 1024 if args.memory_mb else None)

    async def run() -> dict[str, Any]:
        async with AsyncSandbox(limits=limits, workers=1) as sandbox:
            return (await sandbox.execute(code)).to_dict()

    outcome = asyncio.run(run())
    if args.json:
        _print_json(outcome)
    else:
        for line in outcome["logs"]:
            print(line)
        if outcome["status"] == "completed":
            if outcome["result"] is not None:
                print(json.dumps(outcome["result"], indent=2, ensure_ascii=False))
        else:
            error = outcome.get("error") or {}
            if error.get("traceback"):
                print(error["traceback"].rstrip(), file=sys.stderr)
            else:
                print(f"{error.get('name')}: {error.get('message')}", file=sys.stderr)
            if outcome.get("trap"):
                print(f"[{outcome['trap']['kind']}] {outcome['trap']['message']}", file=sys.stderr)
    return 0 if outcome["status"] == "completed" else 1


def cmd_bash(args: argparse.Namespace) -> int:
    from workspace import WorkspaceStore

    from .api import AsyncSandbox
    from .bash_tool import BashOptions, run_bash

    if args.script is not None:
        script = args.script
    elif args.file == "-":
        script = sys.stdin.read()
    elif args.file:
        script = Path(args.file).read_text(encoding="utf-8")
    else:
        print("sandbox bash: give -c SCRIPT or a FILE (- for stdin)", file=sys.stderr)
        return 2
    settings = Settings.from_env(data_dir=Path(args.data_dir) if args.data_dir else None)
    options = BashOptions(cwd=args.cwd, timeout_ms=args.timeout_ms)

    async def run() -> dict[str, Any]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = await WorkspaceStore.open(settings.database_path, settings.blob_dir)
        try:
            async with AsyncSandbox(workers=1) as sandbox:
                return await run_bash(sandbox, store.workspace(args.workspace), script, options)
        finally:
            await store.close()

    outcome = asyncio.run(run())
    if args.json:
        _print_json(outcome)
    else:
        sys.stdout.write(outcome["stdout"])
        sys.stderr.write(outcome["stderr"])
        for error in outcome["errors"]:
            print(f"sandbox: {error}", file=sys.stderr)
    return int(outcome["exit_code"])


def cmd_doctor(args: argparse.Namespace) -> int:
    from .engine import cache_state

    state = cache_state(Path(args.cache_dir) if args.cache_dir else None)
    state["python"] = sys.version.split()[0]
    state["data_dir"] = str(default_data_dir())
    state["token_configured"] = bool(os.environ.get("SANDBOX_TOKEN"))
    _print_json(state)
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from .engine import ensure_compiled

    guest = ensure_compiled(Path(args.cache_dir) if args.cache_dir else None)
    print(guest.path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sandbox", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="start the HTTP service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", help="database and blobs (default $SANDBOX_DATA_DIR or ~/.local/share/sandbox)")
    serve.add_argument("--workers", type=int, help="worker processes (default: CPUs + 1)")
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(func=cmd_serve)

    run = commands.add_parser("exec", help="run Python in a fresh isolate")
    run.add_argument("file", nargs="?", help="a Python file, or - for stdin")
    run.add_argument("-c", dest="code", help="the code to run")
    run.add_argument("--timeout-ms", type=int)
    run.add_argument("--memory-mb", type=int)
    run.add_argument("--json", action="store_true", help="print the whole result as JSON")
    run.set_defaults(func=cmd_exec)

    shell = commands.add_parser("bash", help="run a bash script over a workspace (changes written back)")
    shell.add_argument("file", nargs="?", help="a script file, or - for stdin")
    shell.add_argument("-c", dest="script", help="the script to run")
    shell.add_argument("-w", "--workspace", default="default")
    shell.add_argument("--cwd", default="/")
    shell.add_argument("--timeout-ms", type=int, default=30_000)
    shell.add_argument("--data-dir")
    shell.add_argument("--json", action="store_true", help="print the whole result as JSON")
    shell.set_defaults(func=cmd_bash)

    doctor = commands.add_parser("doctor", help="versions, cache paths and their state")
    doctor.add_argument("--cache-dir")
    doctor.set_defaults(func=cmd_doctor)

    build = commands.add_parser("build", help="build and compile the guest now (else on first use)")
    build.add_argument("--cache-dir")
    build.set_defaults(func=cmd_build)

    register_workspace_commands(commands)
    register_approval_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

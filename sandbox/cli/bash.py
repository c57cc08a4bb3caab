"""``sandbox bash``: run a bash script over a workspace from a terminal (changes written back;
the exit status is the script's)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from workspace import WorkspaceStore

from .. import AsyncSandbox
from ..service import BashOptions, Settings, run_bash
from .output import print_json
from .progress import guest_ready
from .source import positive_int, program_text


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    shell = commands.add_parser("bash", help="run a bash script over a workspace (changes written back)",
                                description="Run a bash script over a workspace; its changes are "
                                "written back and the exit status is the script's.")
    shell.add_argument("file", nargs="?", help="a script file, or - for stdin")
    shell.add_argument("-c", dest="script", help="the script to run")
    shell.add_argument("-w", "--workspace", default="default")
    shell.add_argument("--cwd", default="/")
    shell.add_argument("--timeout-ms", type=positive_int, default=30_000)
    shell.add_argument("--data-dir", help="the service's data (default $SANDBOX_DATA_DIR, "
                       "$XDG_DATA_HOME/sandbox or ~/.local/share/sandbox)")
    shell.add_argument("--json", action="store_true", help="print the whole result as JSON")
    shell.set_defaults(func=cmd_bash)


def cmd_bash(args: argparse.Namespace) -> int:
    script = program_text(args.script, args.file, "SCRIPT")
    guest = guest_ready()
    settings = Settings.from_env(data_dir=Path(args.data_dir) if args.data_dir else None)
    options = BashOptions(cwd=args.cwd, timeout_ms=args.timeout_ms)

    async def run() -> dict[str, Any]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = await WorkspaceStore.open(settings.database, settings.workspace_blob_dir)
        try:
            async with AsyncSandbox(workers=1, guest=guest) as sandbox:
                return await run_bash(sandbox, store.workspace(args.workspace), script, options)
        finally:
            await store.close()

    outcome = asyncio.run(run())
    if args.json:
        print_json(outcome)
    else:
        sys.stdout.write(outcome["stdout"])
        sys.stderr.write(outcome["stderr"])
        for error in outcome["errors"]:
            print(f"sandbox: {error}", file=sys.stderr)
    return int(outcome["exit_code"])

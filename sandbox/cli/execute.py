"""``sandbox exec``: run Python in a fresh isolate from a terminal (exit 1 on error or trap)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from .. import ENGINES, AsyncSandbox, Limits
from .output import print_json
from .progress import guest_ready
from .source import positive_int, program_text


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    run = commands.add_parser("exec", help="run Python in a fresh isolate",
                              description="Run Python in a fresh isolate: logs on stdout, then the "
                              "result as JSON; exit 1 on an error or trap.")
    run.add_argument("file", nargs="?", help="a Python file, or - for stdin")
    run.add_argument("-c", dest="code", help="the code to run")
    run.add_argument("--timeout-ms", type=positive_int)
    run.add_argument("--memory-mb", type=positive_int)
    run.add_argument("--json", action="store_true", help="print the whole result as JSON")
    run.add_argument("--engine", choices=ENGINES, default="auto",
                     help="the interpreter (auto: science when the code imports numpy, pandas...)")
    run.set_defaults(func=cmd_exec)


def cmd_exec(args: argparse.Namespace) -> int:
    code = program_text(args.code, args.file, "CODE")
    guest = guest_ready()
    limits = Limits.default.replace(deadline_s=args.timeout_ms / 1000 if args.timeout_ms else None,
                                    memory_bytes=args.memory_mb * 1024 * 1024 if args.memory_mb else None)

    async def run() -> dict[str, Any]:
        async with AsyncSandbox(limits=limits, workers=1, guest=guest, science_workers=1) as sandbox:
            return (await sandbox.execute(code, engine=args.engine)).to_dict()

    outcome = asyncio.run(run())
    if args.json:
        print_json(outcome)
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

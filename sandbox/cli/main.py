"""The ``sandbox`` command: one module per command group, each with ``register(commands)``.

This module owns the top-level parser (its plain-text help lists every command with one
line each), ``--version``, and the one place expected failures become a line on stderr and
an exit status (:func:`main`).
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from typing import Sequence

from workspace import WorkspaceError

from .. import SandboxError
from . import approvals, audit, bash, doctor, execute, guest, identity, mcp, serve, workspaces
from .output import CommandError, os_error, say

COMMAND_GROUPS = (serve, mcp, execute, bash, workspaces, approvals, identity, audit, doctor, guest)

DESCRIPTION = """\
A sandboxed code-execution service for AI agents: Python and bash in fresh
WebAssembly isolates. Run 'sandbox COMMAND --help' for a command's options."""

EXIT_STATUSES = """\
exit status:
  0    done
  1    the command failed: an error or trap in the code, a missing file or
       workspace, a refused or unreachable request, a failed doctor check
  2    the command line is wrong (unknown option, missing argument)
  130  interrupted (Ctrl-C)
  'sandbox bash' exits with the script's own status; 'sandbox approvals'
  exits 2 when the service cannot be reached."""


def version() -> str:
    """This package's version and the versions that decide what a guest is built with."""
    def of(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "not installed"

    python = sys.version.split()[0]
    return (f"sandbox {of('wasm-sandbox')} (wasmtime {of('wasmtime')}, "
            f"componentize-py {of('componentize-py')}, Python {python})")


class _Help(argparse.RawDescriptionHelpFormatter):
    """Plain text as written; command names measured at their own indent, so a long one
    ("approvals") keeps its description on the same line."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            names = [len(self._format_action_invocation(sub)) for sub in action._get_subactions()]
            indent = self._current_indent + self._indent_increment
            self._action_max_length = max(self._action_max_length, max(names, default=0) + indent)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sandbox", description=DESCRIPTION, epilog=EXIT_STATUSES,
                                     formatter_class=_Help)
    parser.add_argument("--version", action="version", version=version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     title="commands")
    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; expected failures are one line on stderr and a documented status."""
    args = build_parser().parse_args(argv)
    command = str(args.command)
    try:
        return int(args.func(args))
    except CommandError as exc:
        say(command, str(exc))
        return exc.status
    except SandboxError as exc:  # the guest cannot be built, a worker cannot start
        say(command, str(exc) or type(exc).__name__)
        return 1
    except WorkspaceError as exc:  # a workspace name or path the store refuses
        say(command, str(exc))
        return 1
    except OSError as exc:
        say(command, os_error(exc))
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

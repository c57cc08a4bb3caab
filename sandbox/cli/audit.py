"""The ``sandbox audit`` command: verify, export and checkpoint the tamper-evident audit log.

Works on a data directory (``--data-dir``, default the service's, as ``sandbox ws`` does)
with or without the service running. The signing key and the checkpoints file are the
service's (``SANDBOX_AUDIT_KEY_DIR``, ``SANDBOX_AUDIT_KEY``, ``SANDBOX_AUDIT_CHECKPOINTS``;
default ``<data-dir>/audit/``). ``verify`` needs only the public key (``ed25519.key.pub``, or
``--public-key``), so it can run where the private key is not.

Exit status: 0 the log (or export) verifies / the command did what it says, 1 it does not
verify or the command failed, 2 a wrong command line.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from audit import AuditError, AuditLog, VerifyKey, VerifyReport, verify_database, verify_export

from ..service import Settings
from .output import CommandError, print_json

__all__ = ["register"]


def _settings(args: argparse.Namespace) -> Settings:
    data_dir = getattr(args, "data_dir", None)
    return Settings.from_env(data_dir=None if data_dir is None else Path(data_dir).expanduser())


def _verify_key(settings: Settings, given: str | None) -> VerifyKey | None:
    if given is not None:
        return VerifyKey.load(Path(given).expanduser())
    for candidate in (Path(f"{settings.audit_key_path}.pub"), settings.audit_key_path):
        if candidate.exists():
            return VerifyKey.load(candidate)
    return None


def _report(report: VerifyReport, as_json: bool) -> int:
    if as_json:
        print_json(report.to_dict())
    else:
        print(report.line())
        if not report.signatures_checked:
            print("sandbox audit: no audit key found: checkpoint signatures were not checked",
                  file=sys.stderr)
    return 0 if report.ok else 1


def _verify(args: argparse.Namespace) -> int:
    settings = _settings(args)
    key = _verify_key(settings, args.public_key)
    if args.export is not None:
        return _report(verify_export(Path(args.export).expanduser(), key), args.json)
    files = [Path(f).expanduser() for f in args.checkpoints] if args.checkpoints else \
        [f for f in (settings.audit_checkpoints_path,) if f.exists()]
    for path in files:
        if not path.is_file():
            raise CommandError(f"no checkpoints file at {path}")
    if settings.database_url is None:
        return _report(verify_database(settings.database_path, key=key, checkpoint_files=files),
                       args.json)

    async def through_the_seam() -> VerifyReport:
        log = await AuditLog.open(settings.database_url or "")
        try:
            return await log.verify_against(files, key)
        finally:
            await log.close()

    return _report(asyncio.run(through_the_seam()), args.json)


def _when(text: str) -> float:
    """Seconds since the epoch, or an ISO 8601 time (UTC unless it says otherwise)."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither seconds since the epoch nor an ISO 8601 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


async def _open(settings: Settings) -> AuditLog:
    if settings.database_url is None and not settings.database_path.is_file():
        raise CommandError(f"no database at {settings.database_path}")
    return await AuditLog.open(settings.database, key_file=settings.audit_key_path,
                               checkpoints_file=settings.audit_checkpoints_path)


async def _export(args: argparse.Namespace) -> int:
    log = await _open(_settings(args))
    try:
        manifest = await log.export(Path(args.out).expanduser(), tenant=args.tenant,
                                    since=args.since, until=args.until)
    finally:
        await log.close()
    print(f"exported {manifest['count']} entries (seq {manifest['first_seq']} to "
          f"{manifest['last_seq']}) to {args.out}")
    return 0


async def _checkpoint(args: argparse.Namespace) -> int:
    log = await _open(_settings(args))
    try:
        checkpoint = await log.checkpoint()
    finally:
        await log.close()
    print_json(checkpoint.to_dict())
    return 0


def _runner(command: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            outcome = command(args)
            return int(asyncio.run(outcome) if asyncio.iscoroutine(outcome) else outcome)
        except AuditError as exc:
            raise CommandError(str(exc)) from exc
    return run


def register(subparsers: Any) -> None:
    """Add the ``audit`` command (verify, export, checkpoint)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS,
                        help="data directory (default: $SANDBOX_DATA_DIR, $XDG_DATA_HOME/sandbox "
                             "or ~/.local/share/sandbox)")
    top = subparsers.add_parser(
        "audit", parents=[common], help="verify, export and checkpoint the audit log",
        description="Verify, export and sign checkpoints of the tamper-evident audit log. Exit "
                    "status: 0 verified or done, 1 not verified or failed, 2 a wrong command line.")
    sub = top.add_subparsers(dest="audit_command", metavar="COMMAND", required=True)
    p = sub.add_parser("verify", parents=[common], help="check the chain and its checkpoints",
                       description="Prints 'OK <n> entries, head <hash>' or the first bad seq "
                                   "and why.")
    p.add_argument("--checkpoints", action="append", metavar="FILE",
                   help="a checkpoints JSON Lines file (repeatable; default: the service's)")
    p.add_argument("--public-key", metavar="FILE",
                   help="the audit public (or private) key (default: the service's)")
    p.add_argument("--export", metavar="PATH", help="verify an export instead, offline (its "
                   "directory, or the tar the console downloads)")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.set_defaults(func=_runner(_verify))
    p = sub.add_parser("export", parents=[common],
                       help="write entries as JSON Lines with a signed manifest")
    p.add_argument("--tenant", help="only this tenant's entries")
    p.add_argument("--since", type=_when, help="from this time (epoch seconds or ISO 8601)")
    p.add_argument("--until", type=_when, help="before this time (epoch seconds or ISO 8601)")
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty directory")
    p.set_defaults(func=_runner(_export))
    p = sub.add_parser("checkpoint", parents=[common], help="sign a checkpoint of the head now")
    p.set_defaults(func=_runner(_checkpoint))

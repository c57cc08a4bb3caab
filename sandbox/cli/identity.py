"""``sandbox tenants`` and ``sandbox tokens``: bootstrap and manage who may use the service.

They work directly on a data directory (``--data-dir``, default the service's, as
``sandbox ws`` does), so an operator can make the first tenant and token before the service
runs; a token made here is valid at once in a running service on the same directory::

    sandbox tenants create acme
    sandbox tenants list
    sandbox tokens create --tenant acme --name ci-bot --scope execute --scope bash [--expires-in 30d]
    sandbox tokens list [--tenant acme]
    sandbox tokens revoke tok_0123456789abcdef

``tokens create`` prints the token once (only its hash is stored). What changes is written to
the audit log as ``cli:<user>`` (tenant and token created, token revoked). Exit status: 0 done,
1 refused (an unknown tenant, a name taken, an unknown token), 2 a wrong command line.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import re
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from audit import AuditEvent, AuditLog
from storage import StorageError

from ..service import SCOPES, ConfigError, Settings, default_data_dir

if TYPE_CHECKING:
    # The token store and its error come with the HTTP layer; they are imported by the
    # commands that run, so that the command line starts without it.
    from ..service import IdentityStore

__all__ = ["parse_duration", "register"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400}


def parse_duration(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``45s``, ``2w`` or plain seconds, as seconds."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*", text)
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (try 30d, 12h, 90m)")
    return float(found.group(1)) * _UNITS[found.group(2) or "s"]


Handler = Callable[["IdentityStore", "Recorder", argparse.Namespace], Awaitable[int]]


class Recorder:
    """Writes what a command changed to the audit log, as the shell user who ran it."""

    def __init__(self, log: AuditLog) -> None:
        self.log = log
        self.principal = f"cli:{getpass.getuser()}"

    async def __call__(self, tenant: str, event: str, subject: dict[str, str],
                       body: dict[str, Any] | None = None) -> None:
        await self.log.record([AuditEvent(tenant=tenant, principal=self.principal, event=event,
                                          subject=subject, body=body or {})])


def _print(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2) + "\n")


async def _tenant_create(store: IdentityStore, audit: Recorder, args: argparse.Namespace) -> int:
    _print(await store.create_tenant(args.name))
    await audit(args.name, "tenant.created", {"tenant": args.name})
    return 0


async def _tenant_list(store: IdentityStore, _audit: Recorder, args: argparse.Namespace) -> int:
    for tenant in await store.list_tenants():
        sys.stdout.write(tenant["name"] + "\n")
    return 0


async def _token_create(store: IdentityStore, audit: Recorder, args: argparse.Namespace) -> int:
    expires = None if args.expires_in is None else time.time() + args.expires_in
    token, info = await store.create_token(tenant=args.tenant, name=args.name,
                                           scopes=args.scope, expires_at=expires)
    await audit(info.tenant, "token.created", {"token_id": info.id},
                {"tenant": info.tenant, "name": info.name, "scopes": list(info.scopes),
                 "expires_at": info.expires_at})
    sys.stderr.write("The token is shown this once; only its hash is stored.\n")
    _print({**info.to_dict(), "token": token})
    return 0


async def _token_list(store: IdentityStore, _audit: Recorder, args: argparse.Namespace) -> int:
    tokens = await store.list_tokens(args.tenant)
    if args.json:
        _print([t.to_dict() for t in tokens])
        return 0
    for t in tokens:
        state = "revoked" if t.revoked_at else (
            "expired" if t.expires_at is not None and t.expires_at <= time.time() else "live")
        sys.stdout.write(f"{t.id}  {t.tenant:<16} {t.name:<24} {state:<8} {','.join(t.scopes)}\n")
    return 0


async def _token_revoke(store: IdentityStore, audit: Recorder, args: argparse.Namespace) -> int:
    from ..service import HTTPError

    revoked = await store.revoke_token(args.token_id)
    if revoked is None:
        found = await store.get_token(args.token_id)
        raise HTTPError(404 if found is None else 409, "refused",
                        f"no token {args.token_id}" if found is None
                        else f"token {args.token_id} is already revoked")
    await audit(revoked.tenant, "token.revoked", {"token_id": revoked.id},
                {"tenant": revoked.tenant, "name": revoked.name})
    _print(revoked.to_dict())
    return 0


def _runner(command: str, handler: Handler) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from ..service import HTTPError, IdentityStore

        data_dir = Path(getattr(args, "data_dir", None) or default_data_dir()).expanduser()

        async def go() -> int:
            data_dir.mkdir(parents=True, exist_ok=True)
            settings = Settings.from_env(data_dir=data_dir)
            # Tokens live where the service keeps them: on PostgreSQL when it has a URL.
            async with await IdentityStore.open(settings.database) as store:
                log = await AuditLog.open(settings.database)
                try:
                    return await handler(store, Recorder(log), args)
                finally:
                    await log.close()

        try:
            return asyncio.run(go())
        except (HTTPError, StorageError, ConfigError) as exc:
            sys.stderr.write(f"sandbox {command}: {exc}\n")
            return 1

    return run


def register(subparsers: Any) -> None:
    """Add the ``tenants`` and ``tokens`` commands to an argparse subparsers object."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS,
                        help="data directory (default: the service's)")

    tenants = subparsers.add_parser("tenants", help="create and list tenants")
    sub = tenants.add_subparsers(dest="tenants_command", metavar="COMMAND", required=True)
    p = sub.add_parser("create", parents=[common], help="a new tenant")
    p.add_argument("name")
    p.set_defaults(func=_runner("tenants", _tenant_create))
    p = sub.add_parser("list", parents=[common], help="every tenant")
    p.set_defaults(func=_runner("tenants", _tenant_list))

    tokens = subparsers.add_parser("tokens", help="create, list and revoke bearer tokens")
    sub = tokens.add_subparsers(dest="tokens_command", metavar="COMMAND", required=True)
    p = sub.add_parser("create", parents=[common], help="a new token, printed once")
    p.add_argument("--tenant", default="default")
    p.add_argument("--name", required=True, help="the principal recorded for what it does")
    p.add_argument("--scope", action="append", required=True, choices=SCOPES,
                   help="a scope it carries (repeat for more)")
    p.add_argument("--expires-in", type=parse_duration, help="e.g. 30d, 12h (default: never)")
    p.set_defaults(func=_runner("tokens", _token_create))
    p = sub.add_parser("list", parents=[common], help="tokens (never their secrets)")
    p.add_argument("--tenant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_runner("tokens", _token_list))
    p = sub.add_parser("revoke", parents=[common], help="revoke a token at once")
    p.add_argument("token_id")
    p.set_defaults(func=_runner("tokens", _token_revoke))

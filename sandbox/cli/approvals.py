"""``sandbox approvals``: the operator's side of durable executions, from a terminal.

Talks to a running service over HTTP (resuming an execution needs its isolates), so it
works the same against a local or a remote service::

    sandbox approvals list [-w WORKSPACE] [--status pending]
    sandbox approvals show APPROVAL_ID
    sandbox approvals approve APPROVAL_ID [--note TEXT]
    sandbox approvals reject APPROVAL_ID [--reason TEXT]

``--url`` (default ``$SANDBOX_URL`` or http://127.0.0.1:8000) and ``$SANDBOX_TOKEN`` say which
service and how to authenticate; the decision is recorded as the token's (its tenant and
name), with the note beside it. Exit status: 0 done, 1 refused (already decided, not found),
2 the service could not be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import httpx

__all__ = ["register"]

DEFAULT_URL = "http://127.0.0.1:8000"


def _client(args: argparse.Namespace) -> httpx.Client:
    token = os.environ.get("SANDBOX_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=args.url, headers=headers, timeout=args.timeout)


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def _refused(response: httpx.Response) -> int:
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = response.text
    sys.stderr.write(f"sandbox approvals: {message} (HTTP {response.status_code})\n")
    return 1


def _list(client: httpx.Client, args: argparse.Namespace) -> int:
    params = {"status": args.status, **({"workspace": args.workspace} if args.workspace else {})}
    response = client.get("/v1/approvals", params=params)
    if response.status_code != 200:
        return _refused(response)
    approvals = response.json()["approvals"]
    if args.json:
        _print_json(approvals)
        return 0
    for a in approvals:
        age = time.strftime("%Y-%m-%d %H:%M", time.localtime(a["created_at"]))
        descriptor = a.get("descriptor") or {}
        sys.stdout.write(f"{a['approval_id']}  {age}  {a['workspace']}  "
                         f"{descriptor.get('risk', '-')}  {descriptor.get('summary', '')}\n")
    if not approvals:
        sys.stderr.write(f"no {args.status} approvals\n")
    return 0


def _show(client: httpx.Client, args: argparse.Namespace) -> int:
    response = client.get(f"/v1/approvals/{args.approval_id}")
    if response.status_code != 200:
        return _refused(response)
    _print_json(response.json())
    return 0


def _decide(client: httpx.Client, args: argparse.Namespace) -> int:
    body: dict[str, Any] = {}
    if args.decision == "reject" and args.reason:
        body["reason"] = args.reason
    if args.decision == "approve" and args.note:
        body["note"] = args.note
    response = client.post(f"/v1/approvals/{args.approval_id}/{args.decision}", json=body)
    if response.status_code != 200:
        return _refused(response)
    _print_json(response.json())
    return 0


def _run(args: argparse.Namespace) -> int:
    try:
        with _client(args) as client:
            return int(args.handler(client, args))
    except httpx.TransportError as exc:
        sys.stderr.write(f"sandbox approvals: cannot reach {args.url}: {exc}\n")
        return 2


def register(subparsers: Any) -> None:
    """Add the ``approvals`` command to an argparse subparsers object."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=os.environ.get("SANDBOX_URL", DEFAULT_URL),
                        help="the service (default $SANDBOX_URL or %(default)s)")
    common.add_argument("--timeout", type=float, default=120.0,
                        help="seconds to wait (an approve waits for the resumed run)")
    parser = subparsers.add_parser("approvals", help="list and answer approval requests")
    sub = parser.add_subparsers(dest="approvals_command", metavar="COMMAND", required=True)

    listing = sub.add_parser("list", parents=[common], help="approvals (pending by default)")
    listing.add_argument("-w", "--workspace")
    listing.add_argument("--status", default="pending",
                         choices=["pending", "approved", "rejected", "expired", "cancelled"])
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(func=_run, handler=_list)

    show = sub.add_parser("show", parents=[common], help="one approval with its descriptor")
    show.add_argument("approval_id")
    show.set_defaults(func=_run, handler=_show)

    for decision, help_text in (("approve", "approve; prints the resumed execution's outcome"),
                                ("reject", "reject; the execution ends rejected")):
        p = sub.add_parser(decision, parents=[common], help=help_text)
        p.add_argument("approval_id")
        if decision == "reject":
            p.add_argument("--reason", help="why (recorded with the decision)")
        else:
            p.add_argument("--note", help="a note recorded with the decision")
        p.set_defaults(func=_run, handler=_decide, decision=decision)

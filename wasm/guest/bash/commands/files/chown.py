"""``chown`` and ``chgrp`` for a sandbox with one account.

Every file belongs to ``user`` (uid/gid 1000; see ``common``) and the script runs as
that user, so giving a file to ``user`` succeeds and changes nothing, while giving it to
anyone else fails as it does for an unprivileged user on Linux: "Operation not permitted".
``root`` (0) is the only other name known; any other name is an invalid user or group.
"""

from __future__ import annotations

import os
from typing import Callable, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    OWNER_ID,
    OWNER_NAME,
    host,
    missing_operand,
    quote_always,
    quote_locale,
    stat_or_none,
)
from ..base import CommandContext, CommandResult
from ... import fs

_KNOWN = {OWNER_NAME: OWNER_ID, str(OWNER_ID): OWNER_ID, "root": 0, "0": 0}


_SPEC = FlagSpec("RvcfhHLP", {
    "recursive": "R", "verbose": "v", "changes": "c", "silent": "f", "quiet": "f",
    "no-dereference": "h", "dereference": "L",
})


def chown(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _change(ctx, argv, "chown")


def chgrp(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _change(ctx, argv, "chgrp")


def _change(ctx: CommandContext, argv: list[str], name: str) -> CommandResult:
    try:
        opts, operands = parse_flags(_SPEC, argv[1:])
    except UsageError as err:
        usage_error(ctx, name, err)
        return 1
    flags = {key for key, _ in opts}
    if not operands:
        return missing_operand(ctx, name)
    spec, files = operands[0], operands[1:]
    if not files:
        return missing_operand(ctx, name, after=spec)
    user, _, group = spec.partition(":") if name == "chown" else ("", "", spec)
    for who, kind in ((user, "user"), (group, "group")):
        if who and who not in _KNOWN:
            ctx.error(f"{name}: invalid {kind}: {quote_locale(ctx, spec)}")
            return 1
    wanted = {_KNOWN[w] for w in (user, group) if w}
    status = 0
    for path in files:
        for shown, real in _targets(path, host(ctx, path), "R" in flags):
            if stat_or_none(real) is None and not fs.islink(real):
                if "f" not in flags:
                    ctx.error(f"{name}: cannot access {quote_always(shown)}: "
                              "No such file or directory")
                status = 1
                continue
            if wanted - {OWNER_ID}:
                if "f" not in flags:
                    what = "ownership" if name == "chown" else "group"
                    ctx.error(f"{name}: changing {what} of {quote_always(shown)}: "
                              "Operation not permitted")
                status = 1
                continue
            if "v" in flags:
                what = "ownership" if name == "chown" else "group"
                yield (f"{what} of {quote_always(shown)} retained as {OWNER_NAME}\n"
                       .encode("utf-8", "surrogateescape"))
    return status


def _targets(shown: str, real: str, recursive: bool) -> Iterator[tuple[str, str]]:
    yield shown, real
    if not recursive or fs.islink(real) or not fs.isdir(real):
        return
    for child in sorted(fs.listdir(real)):
        yield from _targets(shown.rstrip("/") + "/" + child, os.path.join(real, child), True)


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "chown": chown, "chgrp": chgrp,
}

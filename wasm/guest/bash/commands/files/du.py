"""``du``: disk usage, charged as the apparent size rounded up to 4 KiB blocks.

Each directory costs 4 KiB of its own (see ``common``); ``--apparent-size`` and
``-b`` count bytes instead. Anything reached twice is counted once, as GNU does.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
import stat as st
from typing import Callable, Generator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    c_sort_key,
    host,
    human,
    quote_always,
    quote_locale,
    strerror,
    usage_blocks,
)
from .glob import glob_regex
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _sorted_names(real: str) -> list[str]:
    with fs.scandir(real) as it:
        names = [e.name for e in it]
    names.sort(key=c_sort_key)
    return names


# --- du ----------------------------------------------------------------------------------


@dataclass
class _DuOptions:
    """What du's command line asks for."""

    show_all: bool = False
    summarize: bool = False
    human_sizes: bool = False
    total: bool = False
    apparent: bool = False
    separate: bool = False
    unit: int = 1024
    unit_suffix: str = ""
    max_depth: int | None = None
    excludes: list[re.Pattern[str]] = field(default_factory=list)
    dereference: str = "none"
    """Which symbolic links are followed: "none" (-P), "args" (-H, -D: the operands), "all" (-L)."""


def _parse_du(ctx: CommandContext, argv: list[str]) -> tuple[_DuOptions, list[str]] | int:
    """du's options and operands, or the exit status after a usage error (already reported)."""
    spec = FlagSpec(
        "ashckmbd:SxLPHDB:",
        {"all": "a", "summarize": "s", "human-readable": "h", "total": "c", "bytes": "b",
         "max-depth": "d=", "apparent-size": "apparent", "separate-dirs": "S",
         "dereference": "L", "no-dereference": "P", "dereference-args": "D",
         "one-file-system": "x", "block-size": "B=", "exclude": "exclude="},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "du", err)
        return 1
    o = _DuOptions()
    for key, value in opts:
        if key == "exclude":
            o.excludes.append(glob_regex(value or ""))
        elif key == "a":
            o.show_all = True
        elif key == "s":
            o.summarize = True
        elif key == "h":
            o.human_sizes = True
        elif key == "c":
            o.total = True
        elif key == "k":
            o.unit, o.human_sizes = 1024, False
        elif key == "m":
            o.unit, o.human_sizes = 1024 * 1024, False
        elif key == "b":
            o.apparent, o.unit, o.human_sizes = True, 1, False
        elif key == "apparent":
            o.apparent = True
        elif key == "S":
            o.separate = True
        elif key in ("L", "P", "H", "D"):
            o.dereference = {"L": "all", "P": "none"}.get(key, "args")  # the last one wins
        elif key == "d":
            if not ((value or "").isascii() and (value or "").isdigit()):
                ctx.error(f"du: invalid maximum depth {quote_locale(ctx, value or '')}")
                ctx.error("Try 'du --help' for more information.")
                return 1
            o.max_depth = int(value or "0")
        elif key == "B":
            sizes = {"1": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "k": 1024}
            if value not in sizes:
                ctx.error(f"du: invalid -B argument {q(value or '')}")
                return 1
            o.unit = sizes[value or "1"]
            # A unit letter is printed after each size, as GNU does for -BK, -BM.
            o.unit_suffix = (value or "").upper() if (value or "").isalpha() else ""
    if o.summarize and o.max_depth not in (None, 0):
        ctx.error(f"du: warning: summarizing conflicts with --max-depth={o.max_depth}")
        ctx.error("Try 'du --help' for more information.")
        return 1
    if o.summarize:
        o.max_depth = 0
    if o.show_all and o.summarize:
        ctx.error("du: cannot both summarize and show all entries")
        ctx.error("Try 'du --help' for more information.")
        return 1
    return o, names


def du(ctx: CommandContext, argv: list[str]) -> CommandResult:
    parsed = _parse_du(ctx, argv)
    if isinstance(parsed, int):
        return parsed
    o, names = parsed

    def show(size: int) -> str:
        if o.human_sizes:
            return human(size)
        return str(-(-size // o.unit)) + o.unit_suffix

    def charge(info: os.stat_result) -> int:
        if o.apparent:
            if st.S_ISDIR(info.st_mode):
                return 4096
            return info.st_size
        return usage_blocks(info) * 1024

    status = 0
    grand = 0
    seen: set[tuple[int, int]] = set()

    def walk(real: str, path: str, info: os.stat_result, depth: int) -> Generator[bytes, None, int]:
        nonlocal status
        # Like GNU, anything reached twice (a directory named twice, a hard link) counts once.
        ident = (info.st_dev, info.st_ino)
        if ident in seen and info.st_ino:
            return 0
        seen.add(ident)
        size = charge(info)
        if st.S_ISDIR(info.st_mode):
            try:
                names = _sorted_names(real)
            except OSError as exc:
                ctx.error(f"du: cannot read directory {q(path)}: {strerror(exc)}")
                status = 1
                names = []
            for name in names:
                child = os.path.join(real, name)
                child_path = path.rstrip("/") + "/" + name if path != "/" else "/" + name
                if any(rx.match(name) or rx.match(child_path) for rx in o.excludes):
                    continue
                try:
                    child_info = fs.stat(child) if o.dereference == "all" else fs.lstat(child)
                except OSError:
                    if o.dereference == "all":  # a link to nothing: GNU names no reason
                        ctx.error(f"du: cannot access {q(child_path)}")
                        status = 1
                    continue
                sub = yield from walk(child, child_path, child_info, depth + 1)
                if not (o.separate and st.S_ISDIR(child_info.st_mode)):
                    size += sub
            if o.max_depth is None or depth <= o.max_depth:
                yield _b(f"{show(size)}\t{path}\n")
        elif depth == 0 or (o.show_all and (o.max_depth is None or depth <= o.max_depth)):
            yield _b(f"{show(size)}\t{path}\n")
        return size

    for name in names or ["."]:
        real = host(ctx, name, follow=False)
        try:
            info = fs.lstat(real.rstrip("/") or "/")
            if st.S_ISLNK(info.st_mode) and name.endswith("/"):
                info = fs.stat(real)
            elif st.S_ISLNK(info.st_mode) and o.dereference != "none":
                try:
                    info = fs.stat(real)
                except OSError:
                    ctx.error(f"du: cannot access {q(name)}")  # a link to nothing: no reason named
                    status = 1
                    continue
        except OSError as exc:
            ctx.error(f"du: cannot access {q(name)}: {strerror(exc)}")
            status = 1
            continue
        grand += yield from walk(real.rstrip("/") or "/", name, info, 0)
    if o.total:
        yield _b(f"{show(grand)}\ttotal\n")
    return status


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"du": du}

"""``tree``: the tree program's drawing and "N directories, M files" summary.

Lines are drawn with Unicode box characters when the locale variables name UTF-8 and with
ASCII (``|--``, ``` `-- ```) otherwise, as tree does.
"""

from __future__ import annotations

import os
import re
import stat as st
from typing import Callable, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    c_sort_key,
    host,
    quote_always,
    utf8_locale,
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


# --- tree --------------------------------------------------------------------------------


def tree(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec("adfL:FI:P:", {"noreport": "noreport", "dirsfirst": "dirsfirst"})
    try:
        opts, roots = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "tree", err)
        return 2
    show_all = dirs_only = full = classify = noreport = dirs_first = False
    level: int | None = None
    ignore: list[re.Pattern[str]] = []
    only: list[re.Pattern[str]] = []
    for key, value in opts:
        if key in ("I", "P"):
            # tree patterns are wildcards joined with "|"; -I hides, -P keeps (files only).
            patterns = [glob_regex(p) for p in (value or "").split("|") if p]
            (ignore if key == "I" else only).extend(patterns)
        elif key == "a":
            show_all = True
        elif key == "d":
            dirs_only = True
        elif key == "f":
            full = True
        elif key == "F":
            classify = True
        elif key == "L":
            if not ((value or "").isascii() and (value or "").isdigit()) or int(value or "0") < 1:
                ctx.error("tree: Invalid level, must be greater than 0.")
                return 1
            level = int(value or "1")
        elif key == "noreport":
            noreport = True
        elif key == "dirsfirst":
            dirs_first = True
    utf8 = utf8_locale(ctx.env)
    branch, last, pipe, blank = (
        ("\u251c\u2500\u2500 ", "\u2514\u2500\u2500 ", "\u2502\u00a0\u00a0 ", "    ")
        if utf8 else ("|-- ", "`-- ", "|   ", "    ")
    )
    counts = [0, 0]  # directories, files
    status = 0

    def label(name: str, path: str, real: str, info: os.stat_result) -> str:
        text = path if full else name
        if st.S_ISLNK(info.st_mode):
            try:
                target = fs.readlink(real)
            except OSError:
                target = "?"
            return text + ("@" if classify else "") + " -> " + target
        if classify:
            if st.S_ISDIR(info.st_mode):
                text += "/"
            elif info.st_mode & 0o111:
                text += "*"
        return text

    def walk(real: str, path: str, prefix: str, depth: int) -> Iterator[bytes]:
        try:
            names = _sorted_names(real)
        except OSError:
            return
        if not show_all:
            names = [n for n in names if not n.startswith(".")]
        entries = []
        for name in names:
            child = os.path.join(real, name)
            try:
                info = fs.lstat(child)
            except OSError:
                continue
            is_dir = st.S_ISDIR(info.st_mode)
            if dirs_only and not is_dir:
                continue
            if any(rx.match(name) for rx in ignore):
                continue
            if only and not is_dir and not any(rx.match(name) for rx in only):
                continue
            entries.append((name, child, info, is_dir))
        if dirs_first:
            entries.sort(key=lambda e: 0 if e[3] else 1)
        for index, (name, child, info, is_dir) in enumerate(entries):
            final = index == len(entries) - 1
            child_path = path.rstrip("/") + "/" + name
            yield _b(prefix + (last if final else branch) + label(name, child_path, child, info)) + b"\n"
            if is_dir:
                counts[0] += 1
                if level is None or depth + 1 < level:
                    yield from walk(child, child_path, prefix + (blank if final else pipe), depth + 1)
            else:
                counts[1] += 1

    for root in roots or ["."]:
        real = host(ctx, root)
        if not fs.isdir(real):
            suffix = "[error opening dir]" if not fs.exists(real) else ""
            if suffix:
                yield _b(f"{root} {suffix}") + b"\n"
                status = 2
            else:
                yield _b(root) + b"\n"
                counts[1] += 1
            continue
        yield _b(root) + b"\n"
        yield from walk(real, root, "", 0)
    if not noreport:
        dirs = f"{counts[0]} director{'y' if counts[0] == 1 else 'ies'}"
        if dirs_only:
            yield _b(f"\n{dirs}\n")
        else:
            yield _b(f"\n{dirs}, {counts[1]} file{'' if counts[1] == 1 else 's'}\n")
    return status


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"tree": tree}

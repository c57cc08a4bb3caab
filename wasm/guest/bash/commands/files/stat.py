"""``stat``: the default report, ``-c``/``--printf`` formats and ``-t`` terse lines.

The sandbox owner is ``user`` (uid/gid 1000) and there is no birth time ("-"), since the
isolate's filesystem keeps none. Modes come from the permission overlay where the platform
has no modes of its own (see ``common``).
"""

from __future__ import annotations

import os
import stat as st
import time
from typing import Callable

from ...escapes import decode_at
from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    OWNER_ID,
    OWNER_NAME,
    effective_mode,
    file_type_name,
    host,
    link_count,
    mode_string,
    quote_always,
    shown_size,
    strerror,
    usage_blocks,
)
from ..base import CommandContext, CommandResult
from ... import fs
from ...tz import Zone, format_offset, zone_of

q = quote_always


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _missing(ctx: CommandContext, name: str) -> int:
    ctx.error(f"{name}: missing operand")
    ctx.error(f"Try '{name} --help' for more information.")
    return 1


_DEFAULT = (
    "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
)
_TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"


def stat(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "c:Lt",
        {"format": "c=", "printf": "printf=", "dereference": "L", "terse": "t"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "stat", err)
        return 1
    fmt: str | None = None
    deref = terse = False
    escapes = False
    for key, value in opts:
        if key == "c":
            fmt = (value or "") + "\n"
        elif key == "printf":
            fmt = value or ""
            escapes = True
        elif key == "L":
            deref = True
        elif key == "t":
            terse = True
    if not names:
        return _missing(ctx, "stat")
    status = 0
    for name in names:
        real = host(ctx, name, follow=deref)
        try:
            info = fs.stat(real) if deref else fs.lstat(real)
        except OSError as exc:
            ctx.error(f"stat: cannot statx {q(name)}: {strerror(exc)}")
            status = 1
            continue
        if fmt is not None:
            text = fmt
        elif terse:
            text = _TERSE
        else:
            text = _DEFAULT
        yield _b(format_stat(ctx, text, name, real, info, escapes, default=fmt is None))
    return status


def format_stat(
    ctx: CommandContext, fmt: str, name: str, real: str, info: os.stat_result,
    escapes: bool, default: bool = False,
) -> str:
    """Expand a stat(1) format string for one file."""
    out: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "\\" and escapes and i + 1 < len(fmt):
            text, i = _escape(fmt, i)
            out.append(text)
            continue
        if c != "%" or i + 1 >= len(fmt):
            out.append(c)
            i += 1
            continue
        j = i + 1
        while j < len(fmt) and fmt[j] in "-+ #0'":
            j += 1
        while j < len(fmt) and ((fmt[j].isascii() and fmt[j].isdigit()) or fmt[j] == "."):
            j += 1
        flags = fmt[i + 1 : j]
        if j < len(fmt) and fmt[j] in "HL" and j + 1 < len(fmt) and fmt[j + 1] in "dr":
            j += 1
        if j >= len(fmt):
            out.append(fmt[i:])
            break
        spec = fmt[j]
        if spec == "%":
            out.append("%")
            i = j + 1
            continue
        value = _stat_field(ctx, fmt[i + 1 : j + 1].lstrip("-+ #0'0123456789."), name, real,
                            info, default)
        # GNU prints "?" for a directive it does not know.
        out.append(_pad("?" if value is None else value, flags))
        i = j + 1
    return "".join(out)


def _pad(value: str | int, flags: str) -> str:
    text = str(value)
    width_part = flags.lstrip("-+ #0'")
    precision = None
    if "." in width_part:
        width_part, prec = width_part.split(".", 1)
        precision = int(prec or 0)
    if precision is not None and not isinstance(value, int):
        text = text[:precision]
    width = int(width_part) if width_part else 0
    lead = flags[: len(flags) - len(flags.lstrip("-+ #0'"))]
    if "-" in lead:
        return text.ljust(width)
    if "0" in lead and isinstance(value, int):
        return text.rjust(width, "0")
    if "0" in lead and (text.isascii() and text.isdigit()):
        return text.rjust(width, "0")
    return text.rjust(width)


def _when(seconds_ns: int, where: Zone) -> str:
    secs, frac = divmod(seconds_ns, 1_000_000_000)
    tm, local = where.localtime(secs)
    return time.strftime("%Y-%m-%d %H:%M:%S", tm) + f".{frac:09d} " + format_offset(local.offset)


def _stat_field(
    ctx: CommandContext, spec: str, name: str, real: str, info: os.stat_result, default: bool
) -> str | int | None:
    mode = effective_mode(ctx, real if st.S_ISLNK(info.st_mode) else fs.realpath(real), info)
    if spec == "n":
        return name
    if spec == "N":
        if st.S_ISLNK(info.st_mode):
            target = fs.readlink(real.rstrip("/"))
            if default:
                return f"{name} -> {target}"
            return f"{q(name)} -> {q(target)}"
        return name if default else q(name)
    if spec == "s":
        return shown_size(info) if not st.S_ISLNK(info.st_mode) else info.st_size
    if spec == "F":
        return file_type_name(info.st_mode, info.st_size)
    if spec == "a":
        return f"{st.S_IMODE(mode):o}"
    if spec == "A":
        return mode_string(mode)
    if spec == "f":
        return f"{mode:x}"
    if spec in ("U", "G"):
        return OWNER_NAME
    if spec in ("u", "g"):
        return OWNER_ID
    if spec == "h":
        return link_count(real, info)
    if spec == "i":
        return info.st_ino
    if spec == "b":
        return usage_blocks(info) * 2
    if spec == "B":
        return 512
    if spec == "o":
        return 4096
    if spec == "d":
        return info.st_dev
    if spec == "D":
        return f"{info.st_dev:x}"
    if spec == "Hd":
        return _major(info.st_dev)
    if spec == "Ld":
        return _minor(info.st_dev)
    if spec in ("t", "T"):
        return "0"
    if spec == "m":
        return "/"
    if spec == "x":
        return _when(info.st_atime_ns, zone_of(ctx.env))
    if spec == "y":
        return _when(info.st_mtime_ns, zone_of(ctx.env))
    if spec == "z":
        return _when(info.st_ctime_ns, zone_of(ctx.env))
    if spec == "w":
        return "-"
    if spec == "X":
        return int(info.st_atime)
    if spec == "Y":
        return int(info.st_mtime)
    if spec == "Z":
        return int(info.st_ctime)
    if spec == "W":
        return 0
    return None


def _major(dev: int) -> int:
    try:
        return os.major(dev)
    except (AttributeError, OSError):
        return 0


def _minor(dev: int) -> int:
    try:
        return os.minor(dev)
    except (AttributeError, OSError):
        return 0


# stat --printf's escapes: C's, ``\\e``, ``\\NNN`` and ``\\xHH`` (one byte each), no ``\\u``.
_STAT_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "a": "\a", "b": "\b", "f": "\f",
                 "r": "\r", "v": "\v", "e": "\x1b"}


def _escape(fmt: str, i: int) -> tuple[str, int]:
    """One backslash escape of stat --printf starting at ``fmt[i]``."""
    return decode_at(fmt, i, simple=_STAT_ESCAPES, unicode=False)


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"stat": stat}

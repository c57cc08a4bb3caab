"""``find -printf``: directives, widths and escapes, as GNU findutils formats them."""

from __future__ import annotations

import os
import stat as st
import time
from typing import TYPE_CHECKING

from ...escapes import decode_at
from .common import (
    OWNER_ID,
    OWNER_NAME,
    effective_mode,
    link_count,
    mode_string,
    shown_size,
    usage_blocks,
)
from ... import fs
from ...timefmt import c_strftime
from ...tz import Zone

if TYPE_CHECKING:
    from .find import _Item, _State


def type_char(mode: int) -> str:
    for test, char in ((st.S_ISREG, "f"), (st.S_ISDIR, "d"), (st.S_ISLNK, "l"),
                       (st.S_ISFIFO, "p"), (st.S_ISSOCK, "s"), (st.S_ISCHR, "c"),
                       (st.S_ISBLK, "b")):
        if test(mode):
            return char
    return "U"


# find -printf's escapes: C's (no ``\\e``), ``\\NNN`` octal (one byte), ``\\c`` (stop, handled
# by the caller); an unknown one is printed as written.
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "r": "\r",
            "v": "\v"}


def render_printf(s: _State, fmt: str, i: _Item) -> str:
    out: list[str] = []
    k = 0
    while k < len(fmt):
        c = fmt[k]
        if c == "\\" and k + 1 < len(fmt):
            if fmt[k + 1] == "c":
                # \c ends this -printf's output, like GNU.
                break
            piece, k = decode_at(fmt, k, simple=_ESCAPES, hex_digits=0, unicode=False)
            out.append(piece)
            continue
        if c != "%" or k + 1 >= len(fmt):
            out.append(c)
            k += 1
            continue
        j = k + 1
        while j < len(fmt) and fmt[j] in "-+ #0":
            j += 1
        while j < len(fmt) and ((fmt[j].isascii() and fmt[j].isdigit()) or fmt[j] == "."):
            j += 1
        flags = fmt[k + 1 : j]
        if j >= len(fmt):
            out.append(fmt[k:])
            break
        d = fmt[j]
        if d in "TAC" and j + 1 < len(fmt):
            value = _time_directive(i.info, d, fmt[j + 1], s.zone)
            j += 1
        else:
            value = _directive(s, d, i)
        if value is None:
            out.append(fmt[k : j + 1])
        else:
            out.append(_pad(value, flags))
        k = j + 1
    return "".join(out)


def _pad(value: str, flags: str) -> str:
    spec = flags.lstrip("-+ #0")
    lead = flags[: len(flags) - len(spec)]
    width_text, _, prec = spec.partition(".")
    if prec:
        value = value[: int(prec)]
    width = int(width_text) if width_text else 0
    if "-" in lead:
        return value.ljust(width)
    if "0" in lead and (value.isascii() and value.isdigit()):
        return value.rjust(width, "0")
    return value.rjust(width)


def _directive(s: _State, d: str, i: _Item) -> str | None:
    info = i.info
    if d == "%":
        return "%"
    if d == "p":
        return i.path
    if d == "f":
        # The last component keeps any trailing slashes, as gnulib's base_name does.
        stripped = i.path.rstrip("/")
        if not stripped:
            return "/"
        return i.path[stripped.rfind("/") + 1 :]
    if d == "h":
        # GNU cuts at the last slash, even a trailing one ("d/" -> "d").
        cut = i.path.rfind("/")
        if cut < 0:
            return "."
        return i.path[:cut] or "/"
    if d == "H":
        return i.start
    if d == "P":
        rel = i.path[len(i.start):]
        return rel.lstrip("/") if i.depth else ""
    if d == "d":
        return str(i.depth)
    if d == "s":
        return str(shown_size(info) if not st.S_ISLNK(info.st_mode) else info.st_size)
    if d == "y":
        return type_char(info.st_mode)
    if d == "Y":
        if st.S_ISLNK(info.st_mode):
            try:
                return type_char(fs.stat(i.real).st_mode)
            except OSError:
                return "N"
        return type_char(info.st_mode)
    if d == "m":
        return f"{st.S_IMODE(effective_mode(s.ctx, i.real, info)):o}"
    if d == "M":
        return mode_string(effective_mode(s.ctx, i.real, info))
    if d in ("u", "g"):
        return OWNER_NAME
    if d in ("U", "G"):
        return str(OWNER_ID)
    if d == "l":
        return fs.readlink(i.real) if st.S_ISLNK(info.st_mode) else ""
    if d == "i":
        return str(info.st_ino)
    if d == "n":
        return str(link_count(i.real, info))
    if d == "k":
        return str(usage_blocks(info))
    if d == "b":
        return str(usage_blocks(info) * 2)
    if d in ("t", "a", "c"):
        value = {"t": info.st_mtime_ns, "a": info.st_atime_ns, "c": info.st_ctime_ns}[d]
        secs, frac = divmod(value, 1_000_000_000)
        tm, _ = s.zone.localtime(secs)
        return time.strftime("%a %b ", tm) + f"{tm.tm_mday:2d}" + time.strftime(
            " %H:%M:%S", tm) + f".{frac:09d}0 " + str(tm.tm_year)
    return None


def _time_directive(info: os.stat_result, d: str, k: str, where: Zone) -> str | None:
    ns = {"T": info.st_mtime_ns, "A": info.st_atime_ns, "C": info.st_ctime_ns}[d]
    secs, frac = divmod(ns, 1_000_000_000)
    tm, local = where.localtime(secs)
    if k == "@":
        return f"{secs}.{frac:09d}0"
    if k == "+":
        return time.strftime("%Y-%m-%d+%H:%M:%S", tm) + f".{frac:09d}0"
    if k == "S":
        return time.strftime("%S", tm) + f".{frac:09d}0"
    if k == "T":
        return time.strftime("%H:%M:%S", tm) + f".{frac:09d}0"
    if k in "YmdHMyjbBaAhDFpIrRUWwZz":
        return c_strftime("%" + k, tm, local)
    if k == "k":
        return f"{tm.tm_hour:2d}"
    if k == "l":
        return f"{(tm.tm_hour % 12) or 12:2d}"
    if k == "e":
        return f"{tm.tm_mday:2d}"
    return None

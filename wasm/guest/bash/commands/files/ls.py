"""``ls``: GNU coreutils listing, one name per line (output is never a terminal here)."""

from __future__ import annotations

import os
import re
import stat as st
import time
from dataclasses import dataclass, field
from typing import Generator, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    OWNER_ID,
    OWNER_NAME,
    argmatch,
    c_sort_key,
    effective_mode,
    host,
    human,
    link_count,
    mode_string,
    quote_always,
    quote_locale,
    shown_size,
    strerror,
    usage_blocks,
)
from .glob import glob_regex
from ..base import CommandContext, CommandResult
from ... import fs
from ...timefmt import c_strftime
from ...tz import UTC, Local, Zone, format_offset, zone_of

_SPEC = FlagSpec(
    "aAdFlpRrSths1UCxiLGnogNqkvXcuQbmHI:w:B",
    {
        "all": "a", "almost-all": "A", "directory": "d", "classify": "F", "recursive": "R",
        "reverse": "r", "human-readable": "h", "size": "s", "color": "color?",
        "indicator-style": "indicator-style=", "group-directories-first": "gdf",
        "dereference": "L", "inode": "i", "no-group": "G", "full-time": "full-time",
        "sort": "sort=", "time-style": "time-style=", "ignore": "I=", "hide": "hide=",
        "width": "w=", "dereference-command-line": "H", "ignore-backups": "B",
        "literal": "N", "quote-name": "Q", "escape": "b", "numeric-uid-gid": "n",
        "human": "h", "time": "time=",
    },
)

_SIX_MONTHS = 31556952 // 2


@dataclass
class _Opts:
    show: str = ""  # "", "A" or "a"
    directory: bool = False
    classify: str = ""  # "", "F" or "p"
    long: bool = False
    recursive: bool = False
    reverse: bool = False
    sort: str = "name"  # name, size, time, none
    human: bool = False
    blocks: bool = False
    inode: bool = False
    deref: bool = False
    group: bool = True
    dirs_first: bool = False
    full_time: bool = False
    numeric: bool = False
    show_owner: bool = True
    time_field: str = "st_mtime"
    time_style: str = "locale"
    color: bool = False
    palette: dict[str, str] = field(default_factory=dict)
    painted: bool = False
    deref_args: bool = False
    width: int | None = None
    ignore: list[tuple[re.Pattern[str], bool]] = field(default_factory=list)
    layout: str = "1"  # "1" one per line, "C" columns, "x" across, "m" commas
    quoting: str = "literal"  # "literal", "c" (-Q) or "escape" (-b)
    ctx: CommandContext | None = None
    zone: Zone = UTC

    def mode(self, real: str, info: os.stat_result | None) -> int | None:
        if info is None or self.ctx is None:
            return None if info is None else info.st_mode
        if not st.S_ISLNK(info.st_mode):
            real = fs.realpath(real)
        return effective_mode(self.ctx, real, info)


@dataclass
class _Entry:
    name: str  # as displayed
    real: str
    info: os.stat_result | None  # lstat (or stat when following)
    target_info: os.stat_result | None = None  # for symlinks


def _options(argv: list[str], ctx: CommandContext) -> tuple[_Opts, list[str]]:
    opts, operands = parse_flags(_SPEC, argv[1:])
    o = _Opts()
    for key, value in opts:
        if key == "a":
            o.show = "a"
        elif key == "A":
            o.show = "A"
        elif key == "d":
            o.directory = True
        elif key == "F":
            o.classify = "F"
        elif key == "p":
            o.classify = "p"
        elif key == "l":
            o.long = True
            o.layout = "1"
        elif key == "R":
            o.recursive = True
        elif key == "r":
            o.reverse = True
        elif key == "S":
            o.sort = "size"
        elif key == "t":
            o.sort = "time"
        elif key == "U":
            o.sort = "none"
        elif key == "h":
            o.human = True
        elif key == "s":
            o.blocks = True
        elif key == "i":
            o.inode = True
        elif key == "L":
            o.deref = True
        elif key == "H":
            o.deref_args = True
        elif key in ("I", "hide"):
            # --hide patterns give way to -a/-A; -I patterns always apply.
            o.ignore.append((glob_regex(value or ""), key == "hide"))
        elif key == "B":
            o.ignore.append((glob_regex("*~"), False))
            o.ignore.append((glob_regex(".*~"), False))
        elif key == "w":
            if not ((value or "").isascii() and (value or "").isdigit()):
                raise UsageError(f"invalid line width: {quote_locale(ctx, value or '')}", hint=False)
            o.width = int(value or "0")
        elif key == "G":
            o.group = False
        elif key == "n":
            o.long = o.numeric = True
        elif key == "o":
            o.long, o.group = True, False
        elif key == "g":
            o.long, o.show_owner = True, False
        elif key == "v":
            o.sort = "version"
        elif key == "X":
            o.sort = "extension"
        elif key == "time":
            groups = [("atime", "access", "use"), ("ctime", "status"), ("birth", "creation")]
            o.time_field = ("st_atime", "st_ctime", "st_ctime")[argmatch(ctx, value or "", "--time", groups)]
        elif key == "c":
            o.time_field = "st_ctime"
        elif key == "u":
            o.time_field = "st_atime"
        elif key in ("N", "q", "k"):
            pass
        elif key == "gdf":
            o.dirs_first = True
        elif key == "full-time":
            o.long = True
            o.full_time = True
        elif key in ("1", "C", "x", "m"):
            o.layout = key
            if key != "1":
                o.long = False
        elif key == "Q":
            o.quoting = "c"
        elif key == "b":
            o.quoting = "escape"
        elif key == "color":
            # Output is never a terminal here, so "auto" means no colour, as it does for GNU.
            o.color = value in (None, "always", "yes", "force")
            if value not in (None, "never", "no", "none", "auto", "tty", "if-tty",
                             "always", "yes", "force"):
                raise UsageError(
                f"invalid argument {quote_locale(ctx, value or '')} for {quote_locale(ctx, '--color')}\n"
                "Valid arguments are:\n  - " + _choices(ctx, "always", "yes", "force") + "\n"
                "  - " + _choices(ctx, "never", "no", "none") + "\n"
                "  - " + _choices(ctx, "auto", "tty", "if-tty"), status=1)
        elif key == "indicator-style":
            styles = {"none": "", "slash": "p", "file-type": "F", "classify": "F"}
            if value not in styles:
                raise _bad_choice(ctx, value or "", "--indicator-style", list(styles))
            o.classify = styles[value or "none"]
        elif key == "sort":
            sorts = ["none", "time", "size", "extension", "version", "width"]
            if value not in sorts:
                raise _bad_choice(ctx, value or "", "--sort", sorts)
            o.sort = value or "none"
        elif key == "time-style":
            # Checked only for long listings, as GNU does.
            o.time_style = value or ""
    if o.long:
        _check_time_style(o, ctx)
    return o, operands


def run(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        o, operands = _options(argv, ctx)
    except UsageError as err:
        usage_error(ctx, "ls", err)
        return err.status or 2
    o.ctx = ctx
    o.zone = zone_of(ctx.env)
    if o.color:
        spec = ctx.env.get("LS_COLORS", "")
        # Without LS_COLORS, GNU colours only for terminal types its database lists (the
        # sandbox's TERM=dumb is not one of them).
        o.color = bool(spec) or _colour_term(ctx.env.get("TERM", ""))
        o.palette = _palette(spec)
    status = 0
    if not operands:
        operands = ["."]
    files: list[_Entry] = []
    dirs: list[_Entry] = []
    for name in operands:
        real = host(ctx, name, follow=False)
        try:
            info = fs.lstat(real)
        except OSError as exc:
            ctx.error(f"ls: cannot access {quote_always(name)}: {strerror(exc)}")
            status = 2
            continue
        entry = _Entry(name, real, info)
        if st.S_ISLNK(info.st_mode):
            try:
                entry.target_info = fs.stat(real)
            except OSError:
                entry.target_info = None
            follow = o.deref or o.deref_args or not (o.long or o.directory or o.classify == "F")
            if follow and entry.target_info is not None:
                entry.info = entry.target_info
                # Read the target through the workspace's view of the link, not the host's.
                entry.real = host(ctx, name)
        if not o.directory and entry.info is not None and st.S_ISDIR(entry.info.st_mode):
            dirs.append(entry)
        else:
            files.append(entry)
    printed = False
    if files:
        yield from _emit(o, _sorted(o, files), ctx, files + dirs)
        printed = True
    show_header = len(operands) > 1 or o.recursive
    for entry in _sorted(o, dirs):
        gen = _list_dir(ctx, o, entry.name, entry.real, show_header, printed)
        status = max(status, (yield from gen))
        printed = True
    return status


def _list_dir(
    ctx: CommandContext, o: _Opts, name: str, real: str, header: bool, printed: bool,
    nested: bool = False,
) -> Generator[bytes, None, int]:
    status = 0
    if header:
        yield (b"\n" if printed else b"") + _b(name) + b":\n"
    try:
        with fs.scandir(real) as it:
            raw = [e.name for e in it]
    except OSError as exc:
        ctx.error(f"ls: cannot open directory {quote_always(name)}: {strerror(exc)}")
        # A directory named on the command line is serious trouble (2); one met while
        # recursing is a minor problem (1), as GNU grades them.
        return 1 if nested else 2
    _note_skipped(ctx, name)
    if o.show == "a":
        raw += [".", ".."]
    elif o.show == "":
        raw = [n for n in raw if not n.startswith(".")]
    if o.ignore:
        raw = [n for n in raw
               if not any(rx.match(n) and not (soft and o.show) for rx, soft in o.ignore)]
    entries: list[_Entry] = []
    for child in raw:
        child_real = os.path.join(real, child)
        if child == "..":
            # WASI refuses to step above a preopen; the workspace root is its own parent.
            child_real = real if ctx.resolve(name) == "/" else os.path.normpath(child_real)
        try:
            info = fs.lstat(child_real)
        except OSError as exc:
            ctx.error(f"ls: cannot access {quote_always(_join(name, child))}: {strerror(exc)}")
            status = 1
            continue
        entry = _Entry(child, child_real, info)
        if st.S_ISLNK(info.st_mode):
            try:
                entry.target_info = fs.stat(child_real)
            except OSError:
                entry.target_info = None
            if o.deref and entry.target_info is not None:
                entry.info = entry.target_info
        entries.append(entry)
    entries = _sorted(o, entries)
    if o.long or o.blocks:
        total = sum(usage_blocks(e.info) for e in entries if e.info is not None)
        yield b"total " + (human(total * 1024) if o.human else str(total)).encode("utf-8", "surrogateescape") + b"\n"
    yield from _emit(o, entries, ctx)
    if o.recursive:
        for entry in entries:
            if entry.name in (".", "..") or entry.info is None:
                continue
            if st.S_ISDIR(entry.info.st_mode) and not st.S_ISLNK(entry.info.st_mode):
                sub = _list_dir(ctx, o, _join(name, entry.name), entry.real, True, True, True)
                status = max(status, (yield from sub))
    return status


def _note_skipped(ctx: CommandContext, name: str) -> None:
    """Files of this directory that the workspace snapshot left out are not listed (they are
    not here); say so on stderr, once per file per run, so their absence is not a mystery."""
    shell = ctx.extras.get("shell")
    counters = getattr(getattr(shell, "state", None), "counters", None)
    notes: dict[str, str] = getattr(counters, "skipped_notes", None) or {}
    if not notes or counters is None:
        return
    directory = ctx.resolve(name)
    for path, note in sorted(notes.items()):
        if path.rsplit("/", 1)[0] in (directory.rstrip("/"),) and path not in counters.noted:
            counters.noted.add(path)
            ctx.stderr.write(note.encode("utf-8", "surrogateescape"))


def _join(parent: str, child: str) -> str:
    return parent + child if parent.endswith("/") else parent + "/" + child


def _sorted(o: _Opts, entries: list[_Entry]) -> list[_Entry]:
    if o.sort == "none":
        return entries

    def name_key(e: _Entry) -> bytes:
        return c_sort_key(e.name)

    result = sorted(entries, key=name_key)
    if o.sort == "version":
        result.sort(key=lambda e: _version_key(e.name))
    elif o.sort == "width":
        result.sort(key=lambda e: len(e.name))
    elif o.sort == "extension":
        result.sort(key=lambda e: c_sort_key(e.name.rsplit(".", 1)[1]) if "." in e.name.lstrip(".") else b"")
    if o.sort == "size":
        result.sort(key=lambda e: -(shown_size(e.info) if e.info else 0))
    elif o.sort == "time":
        result.sort(key=lambda e: -(getattr(e.info, o.time_field + "_ns") if e.info else 0))
    if o.reverse:
        result.reverse()
    if o.dirs_first:
        result.sort(key=lambda e: 0 if e.info and st.S_ISDIR(e.info.st_mode) else 1)
    return result


def _check_time_style(o: _Opts, ctx: CommandContext) -> None:
    value = o.time_style
    style = value.removeprefix("posix-")
    if style not in ("full-iso", "long-iso", "iso", "locale") and not style.startswith("+"):
        raise UsageError(
            f"invalid argument {quote_locale(ctx, value)} for {quote_locale(ctx, 'time style')}\n"
            "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n"
            "  - [posix-]iso\n  - [posix-]locale\n"
            "  - +FORMAT (e.g., +%H:%M) for a 'date'-style format")
    # posix-STYLE means the locale's style in the C locale, which is the only one here.
    o.time_style = "locale" if value.startswith("posix-") else style
    if o.time_style == "full-iso":
        o.full_time = True


def _choices(ctx: CommandContext, *names: str) -> str:
    return ", ".join(quote_locale(ctx, n) for n in names)


def _bad_choice(ctx: CommandContext, value: str, option: str, choices: list[str]) -> UsageError:
    listing = "".join(f"\n  - {quote_locale(ctx, c)}" for c in choices)
    return UsageError(f"invalid argument {quote_locale(ctx, value)} for {quote_locale(ctx, option)}\n"
                      f"Valid arguments are:{listing}", status=1)


def _version_key(name: str) -> list[tuple[int, int | bytes]]:
    """``ls -v``: digit runs compare as numbers, everything else bytewise."""
    import re

    return [(1, int(part)) if (part.isascii() and part.isdigit()) else (0, c_sort_key(part))
            for part in re.findall(r"\d+|\D+", name)]


def _indicator(o: _Opts, mode: int | None) -> str:
    if not o.classify or mode is None:
        return ""
    if st.S_ISDIR(mode):
        return "/"
    if o.classify == "p":
        return ""
    if st.S_ISLNK(mode):
        return "@"
    if st.S_ISFIFO(mode):
        return "|"
    if st.S_ISSOCK(mode):
        return "="
    if st.S_ISREG(mode) and mode & 0o111:
        return "*"
    return ""


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _emit(
    o: _Opts, entries: list[_Entry], ctx: CommandContext, measure: list[_Entry] | None = None
) -> Iterator[bytes]:
    """Print entries; column widths span ``measure`` (GNU sizes them over all operands)."""
    if not o.long:
        width = 0
        if o.blocks:
            width = max((len(_blocks_text(o, e)) for e in entries), default=0)
        cells: list[str] = []
        for e in entries:
            prefix = ""
            if o.inode:
                prefix += f"{e.info.st_ino if e.info else '?'} "
            if o.blocks:
                prefix += _blocks_text(o, e).rjust(width) + " "
            cells.append(prefix + _paint(o, e, _quote_name(o, e.name))
                         + _indicator(o, o.mode(e.real, e.info)))
        if o.layout == "1" or not cells:
            for cell in cells:
                yield _b(cell) + b"\n"
        elif o.width == 0:
            # -w 0: no width limit, so everything on one line (and no tab stops).
            yield _b((", " if o.layout == "m" else "  ").join(cells) + "\n")
        elif o.layout == "m":
            yield _b(_commas(cells, _line_length(ctx, o)))
        else:
            yield _b(_columns(cells, _line_length(ctx, o), o.layout == "C", not o.color))
        return
    now = time.time()
    rows = [_long_row(o, e, now) for e in entries]
    if not rows:
        return
    sized = rows if measure is None else [_long_row(o, e, now) for e in measure]
    ncols = len(rows[0])
    widths = [max(len(r[i]) for r in sized) for i in range(ncols)]
    lead = ncols - 7
    for r in rows:
        parts: list[str] = []
        for i in range(lead):
            parts.append(r[i].rjust(widths[i]))
        mode, links, owner, group, size, date, name = r[lead:]
        parts.append(mode)
        parts.append(links.rjust(widths[lead + 1]))
        if o.show_owner:
            parts.append(owner.ljust(widths[lead + 2]))
        if o.group:
            parts.append(group.ljust(widths[lead + 3]))
        parts.append(size.rjust(widths[lead + 4]))
        parts.append(date)
        parts.append(name)
        yield _b(" ".join(parts)) + b"\n"


def _long_row(o: _Opts, e: _Entry, now: float) -> list[str]:
    info = e.info
    assert info is not None
    size = shown_size(info)
    row = [
        mode_string(o.mode(e.real, info) or 0),
        str(link_count(e.real, info)),
        str(OWNER_ID) if o.numeric else OWNER_NAME,
        str(OWNER_ID) if o.numeric else OWNER_NAME,
        human(size) if o.human else str(size),
        _date(getattr(info, o.time_field), getattr(info, o.time_field + "_ns"), now,
              o.full_time, o.time_style, o.zone),
    ]
    name = _paint(o, e, _quote_name(o, e.name))
    if st.S_ISLNK(info.st_mode):
        try:
            target = fs.readlink(e.real)
        except OSError:
            target = "?"
        shown = _paint_target(o, e, target)
        name += " -> " + shown + (_indicator(o, o.mode(e.real, e.target_info)) if o.classify == "F" else "")
    else:
        name += _indicator(o, o.mode(e.real, info))
    row.append(name)
    prefix: list[str] = []
    if o.inode:
        prefix.append(str(info.st_ino))
    if o.blocks:
        prefix.append(_blocks_text(o, e))
    return prefix + row


_C_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
              "\f": "\\f", "\v": "\\v", "\\": "\\\\"}


def _quote_name(o: _Opts, name: str) -> str:
    """-Q wraps C-escaped names in double quotes; -b escapes without quoting."""
    if o.quoting == "literal":
        return name
    out: list[str] = []
    for c in name:
        if c in _C_ESCAPES:
            out.append(_C_ESCAPES[c])
        elif ord(c) < 32 or ord(c) == 127:
            out.append("\\%03o" % ord(c))
        elif c == '"' and o.quoting == "c":
            out.append('\\"')
        elif c == " " and o.quoting == "escape":
            out.append("\\ ")
        else:
            out.append(c)
    text = "".join(out)
    return '"' + text + '"' if o.quoting == "c" else text


# GNU ls's built-in colours, used for any type LS_COLORS does not mention.
_DEFAULT_PALETTE = {
    "di": "01;34", "ln": "01;36", "pi": "33", "so": "01;35", "bd": "01;33", "cd": "01;33",
    "ex": "01;32", "do": "01;35", "su": "37;41", "sg": "30;43", "st": "37;44", "ow": "34;42",
    "tw": "30;42",
}
_SGR = re.compile("\x1b\\[[0-9;]*m")


_COLOUR_TERMS = [glob_regex(p) for p in (
    "Eterm", "ansi", "*color*", "con[0-9]*x[0-9]*", "cons25", "console", "cygwin", "*direct*",
    "dtterm", "gnome", "hurd", "jfbterm", "konsole", "kterm", "linux", "linux-c", "mlterm",
    "putty", "rxvt*", "screen*", "st", "terminator", "tmux*", "vt100", "xterm*")]


def _colour_term(term: str) -> bool:
    return any(rx.match(term) for rx in _COLOUR_TERMS)


def _palette(spec: str) -> dict[str, str]:
    palette = dict(_DEFAULT_PALETTE)
    for item in spec.split(":"):
        key, eq, value = item.partition("=")
        if eq and key:
            palette[key] = value
    return palette


def _paint(o: _Opts, e: _Entry, text: str) -> str:
    """Wrap a name in its colour; GNU resets once before the first coloured name."""
    if not o.color or e.info is None:
        return text
    code = _colour_of(o, e)
    if not code or code in ("0", "00"):
        return text
    lead = "" if o.painted else "\x1b[0m"
    o.painted = True
    return f"{lead}\x1b[{code}m{text}\x1b[0m"


def _paint_target(o: _Opts, e: _Entry, target: str) -> str:
    """In long listings GNU colours a link's target by what it points at.

    It looks at targets only when the palette needs to (ln=target, or an orphan/missing
    colour); with the built-in palette targets stay plain.
    """
    p = o.palette
    if not o.color or not (p.get("ln") == "target" or p.get("or") or p.get("mi")):
        return target
    if e.target_info is None:
        code = o.palette.get("mi") or o.palette.get("or") or ""
    else:
        code = _colour_for(o, target.rsplit("/", 1)[-1], o.mode(e.real, e.target_info) or 0)
    if not code or code in ("0", "00"):
        return target
    return f"\x1b[{code}m{target}\x1b[0m"


def _colour_of(o: _Opts, e: _Entry) -> str:
    assert e.info is not None
    p = o.palette
    mode = o.mode(e.real, e.info) or e.info.st_mode
    if st.S_ISLNK(mode):
        if e.target_info is None:
            return p.get("or") or ("" if p.get("ln") == "target" else p.get("ln", ""))
        if p.get("ln") == "target":
            return _colour_for(o, e.name, o.mode(e.real, e.target_info) or 0)
        return p.get("ln", "")
    return _colour_for(o, e.name, mode)


def _colour_for(o: _Opts, name: str, mode: int) -> str:
    p = o.palette
    if st.S_ISDIR(mode):
        sticky, writable = bool(mode & st.S_ISVTX), bool(mode & st.S_IWOTH)
        if sticky and writable and p.get("tw"):
            return p["tw"]
        if writable and p.get("ow"):
            return p["ow"]
        if sticky and p.get("st"):
            return p["st"]
        return p.get("di", "")
    for test, key in ((st.S_ISFIFO, "pi"), (st.S_ISSOCK, "so"), (st.S_ISBLK, "bd"),
                      (st.S_ISCHR, "cd")):
        if test(mode):
            return p.get(key, "")
    if mode & st.S_ISUID and p.get("su"):
        return p["su"]
    if mode & st.S_ISGID and p.get("sg"):
        return p["sg"]
    if mode & 0o111 and p.get("ex"):
        return p["ex"]
    for key, value in p.items():
        if key.startswith("*") and name.endswith(key[1:]):
            return value
    return p.get("fi", "")


def _visible(cell: str) -> int:
    return len(_SGR.sub("", cell))


def _line_length(ctx: CommandContext, o: _Opts | None = None) -> int:
    if o is not None and o.width:
        return o.width
    value = ctx.env.get("COLUMNS", "")
    return int(value) if (value.isascii() and value.isdigit()) and int(value) > 0 else 80


def _indent(start: int, stop: int, tabs: bool = True) -> str:
    """GNU pads columns with tabs (tab stops every 8) where a tab fits, then spaces.

    With colours on it uses spaces only, since escapes would make tab stops land wrongly.
    """
    out: list[str] = []
    while start < stop:
        if tabs and stop // 8 > (start + 1) // 8:
            out.append("\t")
            start += 8 - start % 8
        else:
            out.append(" ")
            start += 1
    return "".join(out)


def _columns(cells: list[str], line_length: int, by_columns: bool, tabs: bool = True) -> str:
    """``ls -C`` / ``ls -x``: as many columns as fit, chosen the way GNU ls chooses."""
    n = len(cells)
    max_cols = max(1, min(line_length // 3, n))
    widths = [[3] * (j + 1) for j in range(max_cols)]
    line_len = [3 * (j + 1) for j in range(max_cols)]
    valid = [True] * max_cols
    for index, cell in enumerate(cells):
        for j in range(max_cols):
            if not valid[j]:
                continue
            rows = (n + j) // (j + 1)
            col = index // rows if by_columns else index % (j + 1)
            real = _visible(cell) + (0 if col == j else 2)
            if widths[j][col] < real:
                line_len[j] += real - widths[j][col]
                widths[j][col] = real
                valid[j] = line_len[j] < line_length
    cols = max_cols
    while cols > 1 and not valid[cols - 1]:
        cols -= 1
    col_widths = widths[cols - 1]
    rows = (n + cols - 1) // cols
    lines: list[str] = []
    if by_columns:
        for row in range(rows):
            parts: list[str] = []
            pos = 0
            index = row
            col = 0
            while True:
                cell = cells[index]
                parts.append(cell)
                index += rows
                if index >= n:
                    break
                parts.append(_indent(pos + _visible(cell), pos + col_widths[col], tabs))
                pos += col_widths[col]
                col += 1
            lines.append("".join(parts))
    else:
        parts = [cells[0]]
        pos = 0
        for index in range(1, n):
            col = index % cols
            if col == 0:
                lines.append("".join(parts))
                parts = []
                pos = 0
            else:
                prev = col - 1
                parts.append(_indent(pos + _visible(cells[index - 1]), pos + col_widths[prev], tabs))
                pos += col_widths[prev]
            parts.append(cells[index])
        lines.append("".join(parts))
    return "".join(line + "\n" for line in lines)


def _commas(cells: list[str], line_length: int) -> str:
    """``ls -m``: names joined by ", ", wrapped before a line would overflow."""
    out: list[str] = []
    pos = 0
    for index, cell in enumerate(cells):
        if index:
            if pos + _visible(cell) + 2 < line_length:
                out.append(", ")
                pos += 2
            else:
                out.append(",\n")
                pos = 0
        out.append(cell)
        pos += _visible(cell)
    return "".join(out) + "\n"


def _strftime(fmt: str, tm: time.struct_time, ns: int, local: Local) -> str:
    """strftime plus GNU's %N (nanoseconds)."""
    return c_strftime(fmt.replace("%N", f"{ns % 1_000_000_000:09d}"), tm, local)


def _blocks_text(o: _Opts, e: _Entry) -> str:
    blocks = usage_blocks(e.info) if e.info else 0
    return human(blocks * 1024) if o.human else str(blocks)


def _date(mtime: float, mtime_ns: int, now: float, full: bool, style: str = "locale",
          where: Zone = UTC) -> str:
    tm, local = where.localtime(mtime_ns // 1_000_000_000)
    if full:
        return (time.strftime("%Y-%m-%d %H:%M:%S", tm) + f".{mtime_ns % 1_000_000_000:09d} "
                + format_offset(local.offset))
    recent = now - _SIX_MONTHS < mtime <= now + 1
    if style == "long-iso":
        return time.strftime("%Y-%m-%d %H:%M", tm)
    if style == "iso":
        return time.strftime("%m-%d %H:%M" if recent else "%Y-%m-%d ", tm)
    if style.startswith("+"):
        # "+RECENT\nOLD" gives two formats; otherwise one format for every file.
        formats = style[1:].split("\n", 1)
        fmt = formats[0] if recent or len(formats) == 1 else formats[1]
        return _strftime(fmt, tm, mtime_ns, local)
    month = time.strftime("%b", tm)
    day = f"{tm.tm_mday:2d}"
    if recent:
        return f"{month} {day} {tm.tm_hour:02d}:{tm.tm_min:02d}"
    return f"{month} {day}  {tm.tm_year}"


COMMANDS = {"ls": run}

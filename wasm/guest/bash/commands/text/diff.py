"""diff: GNU diffutils output formats (normal, unified, context, side by side) over ``diffcore``.

Supports ``-u/-U N``, ``-c/-C N``, ``-q``, ``-s``, ``-i``, ``-w``, ``-b``, ``-B``, ``-E``,
``--strip-trailing-cr``, ``-N``, ``--unidirectional-new-file``, ``-r``, ``-x``, ``-S``,
``-T``, ``-a``, ``--label`` and ``-``; ``--color`` only as ``never`` or ``auto`` (never a
terminal here), ``always`` is refused. Exit status: 0 same,
1 different, 2 trouble. Unified/context headers carry the file's modification time in GNU's
format (``%Y-%m-%d %H:%M:%S.%N %z``, local time in the ``TZ`` diff runs with); stdin gets
the current time.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import time
from dataclasses import dataclass

from ..base import CommandContext, CommandResult
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import describe_oserror, special_device, stdin_chunks
from ..files.common import quote_always, quote_if_needed
from ..files.glob import glob_regex
from .diffcore import changed_lines
from ... import fs
from ...tz import format_offset, zone_of

DIFF_SPEC = FlagSpec(
    "abBcC:dEiNqrsS:tTuU:wx:yW:Z",
    {
        "text": "a",
        "ignore-space-change": "b",
        "ignore-blank-lines": "B",
        "context": "C?",
        "unified": "U?",
        "minimal": "d",
        "ignore-tab-expansion": "E",
        "ignore-case": "i",
        "new-file": "N",
        "brief": "q",
        "recursive": "r",
        "report-identical-files": "s",
        "ignore-all-space": "w",
        "ignore-trailing-space": "Z",
        "strip-trailing-cr": "strip-trailing-cr",
        "label": "label=",
        "normal": "normal",
        "color": "color?",
        "no-dereference": "no-dereference",
        "speed-large-files": "speed-large-files",
        "exclude": "x=",
        "starting-file": "S=",
        "unidirectional-new-file": "unidirectional-new-file",
        "expand-tabs": "t",
        "initial-tab": "T",
        "side-by-side": "y",
        "width": "W=",
        "suppress-common-lines": "suppress-common-lines",
        "left-column": "left-column",
    },
)


@dataclass
class DiffOptions:
    style: str = "normal"
    context: int = 3
    brief: bool = False
    report_same: bool = False
    ignore_case: bool = False
    ignore_all_space: bool = False
    ignore_space_change: bool = False
    ignore_trailing_space: bool = False
    ignore_blank_lines: bool = False
    ignore_tab_expansion: bool = False
    strip_cr: bool = False
    new_file: bool = False
    recursive: bool = False
    text: bool = False
    labels: list[str] | None = None
    width: int = 130
    suppress_common: bool = False
    left_column: bool = False
    expand_tabs: bool = False
    initial_tab: bool = False
    excludes: list[re.Pattern[str]] | None = None
    starting_file: str | None = None
    unidirectional: bool = False
    switches: str = ""
    """The options as given, quoted, for the ``diff ...`` line before each pair of files."""


def _context_arg(value: str | None, default: int) -> int:
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit()):
        raise UsageError(f"invalid context length '{value}'")
    return int(value)


def diff(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        opts, operands = parse_flags(DIFF_SPEC, argv[1:], numeric_short=True)
        o = DiffOptions(labels=[], excludes=[], switches=_switches(argv[1:], operands))
        for key, value in opts:
            _more_options(o, key, value)
            if key == "u":
                o.style = "unified"
            elif key == "U":
                o.style = "unified"
                o.context = _context_arg(value, 3)
            elif key == "c":
                o.style = "context"
            elif key == "C":
                o.style = "context"
                o.context = _context_arg(value, 3)
            elif key == "#":
                o.context = int(value or "3")
            elif key == "normal":
                o.style = "normal"
            elif key == "q":
                o.brief = True
            elif key == "s":
                o.report_same = True
            elif key == "i":
                o.ignore_case = True
            elif key == "w":
                o.ignore_all_space = True
            elif key == "b":
                o.ignore_space_change = True
            elif key == "Z":
                o.ignore_trailing_space = True
            elif key == "B":
                o.ignore_blank_lines = True
            elif key == "E":
                o.ignore_tab_expansion = True
            elif key == "strip-trailing-cr":
                o.strip_cr = True
            elif key == "N":
                o.new_file = True
            elif key == "r":
                o.recursive = True
            elif key == "a":
                o.text = True
            elif key == "label":
                assert o.labels is not None
                o.labels.append(value or "")
            elif key == "y":
                o.style = "side"
            elif key == "W":
                if not ((value or "").isascii() and (value or "").isdigit()) or int(value or "0") == 0:
                    raise UsageError(f"invalid width '{value}'")
                o.width = int(value or "130")
            elif key == "suppress-common-lines":
                o.suppress_common = True
            elif key == "left-column":
                o.left_column = True
            elif key == "t":
                o.expand_tabs = True
        if len(operands) < 2:
            raise UsageError(f"missing operand after '{operands[-1]}'" if operands else "missing operand")
        if len(operands) > 2:
            raise UsageError(f"extra operand '{operands[2]}'")
    except UsageError as err:
        # diffutils puts its name before the --help line too.
        ctx.error(f"diff: {err.message}")
        if err.hint:
            ctx.error("diff: Try 'diff --help' for more information.")
        return 2
    runner = _Differ(ctx, o)
    status = yield from runner.compare_paths(operands[0], operands[1], top=True)
    return status


def _more_options(o: DiffOptions, key: str, value: str | None) -> None:
    """The options ``diff``'s own loop leaves: -T, -x, -S, --unidirectional-new-file, --color."""
    if key == "T":
        o.initial_tab = True
    elif key == "x":
        assert o.excludes is not None
        o.excludes.append(glob_regex(value or ""))
    elif key == "S":
        o.starting_file = value
    elif key == "unidirectional-new-file":
        o.unidirectional = True
    elif key == "color":
        if value not in (None, "never", "auto"):
            if value == "always":
                # The colours are not drawn: refused as GNU refuses an option it lacks.
                raise UsageError("unrecognized option '--color=always'")
            raise UsageError(f"invalid color '{value}'")


def _switches(args: list[str], operands: list[str]) -> str:
    """``args`` without the operands (GNU repeats its options as given), each quoted for the
    shell when it needs it: an argument is an operand where the operands, in order, match."""
    kept: list[str] = []
    pending = list(operands)
    for index, arg in enumerate(args):
        if arg == "--" and args[index + 1:] == pending:
            kept.append(arg)
            break
        if pending and arg == pending[0] and not _is_value(args, index):
            pending.pop(0)
            continue
        kept.append(quote_always(arg) if "=" in arg else quote_if_needed(arg))
    return "".join(k + " " for k in kept)


def _is_value(args: list[str], index: int) -> bool:
    """Whether ``args[index]`` is the separate argument of the option before it."""
    if index == 0:
        return False
    before = args[index - 1]
    if before.startswith("--"):
        name = before[2:]
        keys = [k for n, k in DIFF_SPEC.long.items() if n.startswith(name)] if "=" not in name else []
        return bool(keys) and all(k.endswith("=") for k in keys)
    if before.startswith("-") and len(before) > 1 and not _is_value(args, index - 1):
        for at, letter in enumerate(before[1:], 1):
            takes = DIFF_SPEC.short_takes(letter)
            if takes == ":":
                return at == len(before) - 1
            if takes is None:
                return False
    return False


class _Differ:
    def __init__(self, ctx: CommandContext, o: DiffOptions) -> None:
        self.ctx = ctx
        self.o = o

    def _kind(self, name: str) -> str | None:
        if name == "-" or special_device(self.ctx, self.ctx.resolve(name)) is not None:
            return "file"
        try:
            st = fs.stat(self.ctx.host_path(name))
        except OSError:
            return None
        return "dir" if stat.S_ISDIR(st.st_mode) else "file"

    def compare_paths(self, left: str, right: str, top: bool = False) -> CommandResult:
        kl, kr = self._kind(left), self._kind(right)
        if top and kl == "dir" and kr == "file" and right != "-":
            left = left.rstrip("/") + "/" + os.path.basename(right)
            kl = self._kind(left)
        elif top and kr == "dir" and kl == "file" and left != "-":
            right = right.rstrip("/") + "/" + os.path.basename(left)
            kr = self._kind(right)
        if kl is None and kr is None:
            self.ctx.error(f"diff: {left}: No such file or directory")
            self.ctx.error(f"diff: {right}: No such file or directory")
            return 2
        if kl is None or kr is None:
            if (self.o.new_file or (self.o.unidirectional and kl is None)) and (kl or kr) == "file":
                return (yield from self.compare_files(left, right, kl is None, kr is None))
            missing = left if kl is None else right
            self.ctx.error(f"diff: {missing}: No such file or directory")
            return 2
        if kl == "dir" and kr == "dir":
            if self.ctx.resolve(left) == self.ctx.resolve(right):
                return 0
            return (yield from self.compare_dirs(left, right, top))
        if kl != kr:
            which = "directory" if kl == "dir" else "regular file"
            other = "directory" if kr == "dir" else "regular file"
            yield f"File {left} is a {which} while file {right} is a {other}\n".encode("utf-8", "surrogateescape")
            return 1
        return (yield from self.compare_files(left, right, False, False))

    def compare_dirs(self, left: str, right: str, top: bool = False) -> CommandResult:
        try:
            names_l = set(fs.listdir(self.ctx.host_path(left)))
            names_r = set(fs.listdir(self.ctx.host_path(right)))
        except OSError as err:
            self.ctx.error(f"diff: {describe_oserror(err)}")
            return 2
        status = 0
        start = self.o.starting_file if top else None
        for name in sorted(names_l | names_r):
            if any(rx.match(name) for rx in self.o.excludes or []) or (start is not None and name < start):
                continue
            pl = left.rstrip("/") + "/" + name
            pr = right.rstrip("/") + "/" + name
            if name not in names_r or name not in names_l:
                if self.o.new_file or (self.o.unidirectional and name not in names_l):
                    kl, kr = self._kind(pl), self._kind(pr)
                    if (kl or kr) == "file":
                        if not self.o.brief:
                            yield self._command_line(pl, pr)
                        result = yield from self.compare_files(pl, pr, kl is None, kr is None, announce=False)
                        status = max(status, result)
                        continue
                where, what = (left, name) if name in names_l else (right, name)
                yield f"Only in {where.rstrip('/') if where != '/' else where}: {what}\n".encode("utf-8", "surrogateescape")
                status = max(status, 1)
                continue
            kl, kr = self._kind(pl), self._kind(pr)
            if kl == "dir" and kr == "dir":
                if self.o.recursive:
                    result = yield from self.compare_dirs(pl, pr)
                else:
                    yield f"Common subdirectories: {pl} and {pr}\n".encode("utf-8", "surrogateescape")
                    result = 0
            elif kl != kr:
                which = "directory" if kl == "dir" else "regular file"
                other = "directory" if kr == "dir" else "regular file"
                yield f"File {pl} is a {which} while file {pr} is a {other}\n".encode("utf-8", "surrogateescape")
                result = 1
            else:
                result = yield from self.compare_files(pl, pr, False, False, announce=True)
            status = max(status, result)
        return status

    def _command_line(self, left: str, right: str) -> bytes:
        return f"diff {self.o.switches}{left} {right}\n".encode("utf-8", "surrogateescape")

    def _read(self, name: str, absent: bool) -> bytes:
        if absent:
            return b""
        if name == "-":
            return b"".join(stdin_chunks(self.ctx))
        device = special_device(self.ctx, self.ctx.resolve(name))
        if device is not None:
            return b"".join(itertools.islice(device, 1024))
        with fs.open(self.ctx.host_path(name), "rb") as handle:
            return handle.read()

    def _stamp(self, name: str, absent: bool) -> str:
        if self.o.style == "context":
            return self._ctime(name, absent)
        return self._iso_stamp(name, absent)

    def _ctime(self, name: str, absent: bool) -> str:
        if absent:
            seconds = 0
        elif name == "-" or special_device(self.ctx, self.ctx.resolve(name)) is not None:
            seconds = time.time_ns() // 10**9
        else:
            seconds = fs.stat(self.ctx.host_path(name)).st_mtime_ns // 10**9
        moment, _ = zone_of(self.ctx.env).localtime(seconds)
        return time.strftime("%a %b ", moment) + f"{moment.tm_mday:2d}" + time.strftime(" %H:%M:%S %Y", moment)

    def _iso_stamp(self, name: str, absent: bool) -> str:
        if absent:
            seconds, nanos = 0, 0
        elif name == "-" or special_device(self.ctx, self.ctx.resolve(name)) is not None:
            now = time.time_ns()
            seconds, nanos = now // 10**9, now % 10**9
        else:
            st = fs.stat(self.ctx.host_path(name))
            seconds, nanos = st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9
        moment, local = zone_of(self.ctx.env).localtime(seconds)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", moment)
        return f"{stamp}.{nanos:09d} {format_offset(local.offset)}"

    def _key(self, line: bytes) -> tuple[bytes, bool]:
        # An unterminated last line never equals a terminated one, as in GNU diff.
        terminated = line.endswith(b"\n")
        return self._normalise(line[:-1] if terminated else line), terminated

    def _normalise(self, line: bytes) -> bytes:
        o = self.o
        if o.strip_cr and line.endswith(b"\r"):
            line = line[:-1]
        if o.ignore_tab_expansion:
            line = line.expandtabs(8)
        if o.ignore_all_space:
            line = re.sub(rb"[ \t\v\f\r]+", b"", line)
        elif o.ignore_space_change:
            line = re.sub(rb"[ \t\v\f\r]+", b" ", line).rstrip(b" ")
        elif o.ignore_trailing_space:
            line = line.rstrip(b" \t\v\f\r")
        if o.ignore_case:
            line = line.lower()
        return line

    def compare_files(self, left: str, right: str, absent_l: bool, absent_r: bool,
                      announce: bool = False) -> CommandResult:
        try:
            data_l = self._read(left, absent_l)
        except OSError as err:
            self.ctx.error(f"diff: {left}: {describe_oserror(err)}")
            return 2
        try:
            data_r = self._read(right, absent_r)
        except OSError as err:
            self.ctx.error(f"diff: {right}: {describe_oserror(err)}")
            return 2
        if data_l == data_r:
            if self.o.style == "side" and not self.o.brief:
                # Side by side shows the whole files even when nothing differs.
                lines = data_l.splitlines(keepends=True)
                yield _SideBySide(self.o).render([], lines, lines)
            if self.o.report_same:
                yield f"Files {left} and {right} are identical\n".encode("utf-8", "surrogateescape")
            return 0
        if not self.o.text and (b"\0" in data_l[:65536] or b"\0" in data_r[:65536]):
            if announce and not self.o.brief:
                pass
            yield f"Binary files {left} and {right} differ\n".encode("utf-8", "surrogateescape")
            return 1
        lines_l = data_l.splitlines(keepends=True)
        lines_r = data_r.splitlines(keepends=True)
        keys_l: list[object] = [self._key(x) for x in lines_l]
        keys_r: list[object] = [self._key(x) for x in lines_r]
        # GNU widens the region it analyses to the context size so shifts can use it.
        horizon = self.o.context if self.o.style != "normal" else 0
        check_time = self.ctx.extras.get("check_time")
        tick = check_time if callable(check_time) else None
        flags_l, flags_r = changed_lines(keys_l, keys_r, lines_l, lines_r, horizon, tick)
        hunks = _hunks(flags_l, flags_r)
        ignorable: set[Hunk] = set()
        if self.o.ignore_blank_lines:
            # GNU marks blank-only changes ignorable; they are printed only inside a hunk
            # that also holds a real change.
            skip_space = self.o.ignore_trailing_space or self.o.ignore_space_change or self.o.ignore_all_space
            ignorable = {h for h in hunks if _all_blank(h, lines_l, lines_r, skip_space)}
        if all(h in ignorable for h in hunks):
            if self.o.style == "side" and not self.o.brief:
                yield _SideBySide(self.o).render([], lines_l, lines_r)
            return 0
        if self.o.brief:
            yield f"Files {left} and {right} differ\n".encode("utf-8", "surrogateescape")
            return 1
        if announce:
            yield self._command_line(left, right)
        if self.o.style == "normal":
            yield _normal([h for h in hunks if h not in ignorable], lines_l, lines_r, self.o.initial_tab)
        elif self.o.style == "side":
            yield _SideBySide(self.o).render([h for h in hunks if h not in ignorable], lines_l, lines_r)
        else:
            labels = self.o.labels or []
            name_l = labels[0] if len(labels) > 0 else f"{left}\t{self._stamp(left, absent_l)}"
            name_r = labels[1] if len(labels) > 1 else f"{right}\t{self._stamp(right, absent_r)}"
            if self.o.style == "unified":
                yield _unified(hunks, lines_l, lines_r, self.o.context, name_l, name_r, ignorable,
                               self.o.initial_tab)
            else:
                yield _context(hunks, lines_l, lines_r, self.o.context, name_l, name_r, ignorable,
                               self.o.initial_tab)
        return 1


Hunk = tuple[int, int, int, int]  # (start_l, end_l, start_r, end_r), half-open, 0-based

TAB_WIDTH = 8
GUTTER = 3


class _SideBySide:
    """GNU's ``-y`` layout: two half-width columns padded with tabs and a one-character gutter
    (``|`` changed, ``<`` only left, ``>`` only right, ``(`` / ``)`` with ``--left-column``)."""

    def __init__(self, o: DiffOptions) -> None:
        self.o = o
        step = 1 if o.expand_tabs else TAB_WIDTH
        offset = (o.width + step + GUTTER) // (2 * step) * step
        self.half = max(0, min(offset - GUTTER, o.width - offset))
        self.column2 = offset if self.half else o.width

    def _tab_from_to(self, out: list[bytes], start: int, end: int) -> int:
        if not self.o.expand_tabs:
            while True:
                tab = start + TAB_WIDTH - start % TAB_WIDTH
                if tab > end:
                    break
                out.append(b"\t")
                start = tab
        if start < end:
            out.append(b" " * (end - start))
        return end

    def _half_line(self, out: list[bytes], line: bytes, indent: int, bound: int) -> int:
        in_pos = out_pos = indent
        for byte in line:
            if byte == 10:
                break
            if byte == 9:
                spaces = TAB_WIDTH - in_pos % TAB_WIDTH
                if in_pos == out_pos:
                    tabstop = out_pos + spaces
                    if self.o.expand_tabs:
                        tabstop = min(tabstop, bound)
                        if out_pos < tabstop:
                            out.append(b" " * (tabstop - out_pos))
                            out_pos = tabstop
                    elif tabstop < bound:
                        out_pos = tabstop
                        out.append(b"\t")
                in_pos += spaces
            elif byte == 13:
                out.append(b"\r")
                in_pos = out_pos = 0
            elif byte == 8:
                if in_pos != 0:
                    in_pos -= 1
                    if in_pos < bound:
                        out.append(b"\b")
                        out_pos = in_pos
            elif 32 <= byte < 127:
                if in_pos < bound:
                    out.append(bytes([byte]))
                    out_pos = in_pos + 1
                in_pos += 1
            else:
                if in_pos < bound:
                    out.append(bytes([byte]))
        return out_pos

    def _row(self, left: bytes | None, sep: str, right: bytes | None) -> bytes:
        out: list[bytes] = []
        col = 0
        newline = False
        if left is not None:
            newline = newline or left.endswith(b"\n")
            col = self._half_line(out, left, 0, self.half)
        if sep != " ":
            col = self._tab_from_to(out, col, (self.half + self.column2 - 1) // 2) + 1
            if sep == "|" and right is not None and newline != right.endswith(b"\n"):
                sep = "/" if newline else "\\"
            out.append(sep.encode())
        if right is not None:
            newline = newline or right.endswith(b"\n")
            if right[:1] != b"\n":
                col = self._tab_from_to(out, col, self.column2)
                # Positions inside a column count from the column's own start.
                self._half_line(out, right, 0, self.half)
        if newline:
            out.append(b"\n")
        return b"".join(out)

    def render(self, hunks: list[Hunk], a: list[bytes], b: list[bytes]) -> bytes:
        out: list[bytes] = []
        i = j = 0
        for sl, el, sr, er in hunks + [(len(a), len(a), len(b), len(b))]:
            while i < sl:
                if not self.o.suppress_common:
                    out.append(self._row(a[i], "(" if self.o.left_column else " ", None if self.o.left_column else b[j]))
                i += 1
                j += 1
            paired = min(el - sl, er - sr)
            for k in range(paired):
                out.append(self._row(a[sl + k], "|", b[sr + k]))
            for k in range(sl + paired, el):
                out.append(self._row(a[k], "<", None))
            for k in range(sr + paired, er):
                out.append(self._row(None, ">", b[k]))
            i, j = el, er
        return b"".join(out)


def _hunks(flags_l: list[bool], flags_r: list[bool]) -> list[Hunk]:
    hunks: list[Hunk] = []
    i = j = 0
    nl, nr = len(flags_l), len(flags_r)
    while i < nl or j < nr:
        if (i < nl and flags_l[i]) or (j < nr and flags_r[j]):
            si, sj = i, j
            while i < nl and flags_l[i]:
                i += 1
            while j < nr and flags_r[j]:
                j += 1
            hunks.append((si, i, sj, j))
            continue
        i += 1
        j += 1
    return hunks


def _all_blank(h: Hunk, a: list[bytes], b: list[bytes], skip_space: bool) -> bool:
    """GNU -B: every changed line is empty (or only whitespace, with -Z, -b or -w)."""
    def blank(line: bytes) -> bool:
        body = line.rstrip(b"\n")
        return not (body.strip(b" \t\v\f\r") if skip_space else body)

    return all(blank(x) for x in a[h[0] : h[1]]) and all(blank(x) for x in b[h[2] : h[3]])


_NO_NEWLINE = b"\\ No newline at end of file\n"


_TABBED = {b" ": b"\t", b"-": b"-\t", b"+": b"+\t", b"  ": b" \t", b"! ": b"!\t", b"- ": b"-\t",
           b"+ ": b"+\t", b"< ": b"<\t", b"> ": b">\t"}
"""Each line's mark with -T: a tab after its sign (a unified context line, the tab alone)."""


def _emit_tab(prefix: bytes, line: bytes) -> bytes:
    return _emit(_TABBED[prefix], line)


def _emit(prefix: bytes, line: bytes) -> bytes:
    if line.endswith(b"\n"):
        return prefix + line
    return prefix + line + b"\n" + _NO_NEWLINE


def _range(start: int, end: int) -> str:
    """Normal-format range of 0-based half-open [start, end) as 1-based text."""
    if end - start <= 1:
        return str(end if end > start else start)
    return f"{start + 1},{end}"


def _normal(hunks: list[Hunk], a: list[bytes], b: list[bytes], tab: bool = False) -> bytes:
    emit = _emit_tab if tab else _emit
    out: list[bytes] = []
    for sl, el, sr, er in hunks:
        if el == sl:
            out.append(f"{sl}a{_range(sr, er)}\n".encode())
        elif er == sr:
            out.append(f"{_range(sl, el)}d{sr}\n".encode())
        else:
            out.append(f"{_range(sl, el)}c{_range(sr, er)}\n".encode())
        for line in a[sl:el]:
            out.append(emit(b"< ", line))
        if el > sl and er > sr:
            out.append(b"---\n")
        for line in b[sr:er]:
            out.append(emit(b"> ", line))
    return b"".join(out)


def _group(hunks: list[Hunk], context: int, ignorable: set[Hunk]) -> list[list[Hunk]]:
    """Hunks close enough to share context; blank-only groups (-B) are dropped, like GNU's
    find_hunk: an ignorable change joins only when nearer than ``context`` lines."""
    groups: list[list[Hunk]] = []
    for hunk in hunks:
        threshold = context if hunk in ignorable else 2 * context + 1
        if groups and hunk[0] - groups[-1][-1][1] < threshold:
            groups[-1].append(hunk)
        else:
            groups.append([hunk])
    return [g for g in groups if not all(h in ignorable for h in g)]


def _unified_range(start: int, count: int) -> str:
    if count == 0:
        return f"{start},0"
    if count == 1:
        return str(start + 1)
    return f"{start + 1},{count}"


def _unified(hunks: list[Hunk], a: list[bytes], b: list[bytes], context: int, name_l: str, name_r: str,
             ignorable: set[Hunk], tab: bool = False) -> bytes:
    emit = _emit_tab if tab else _emit
    out = [f"--- {name_l}\n".encode("utf-8", "surrogateescape"), f"+++ {name_r}\n".encode("utf-8", "surrogateescape")]
    for group in _group(hunks, context, ignorable):
        first, last = group[0], group[-1]
        lo_l = max(first[0] - context, 0)
        lo_r = first[2] - (first[0] - lo_l)
        hi_l = min(last[1] + context, len(a))
        hi_r = last[3] + (hi_l - last[1])
        out.append(f"@@ -{_unified_range(lo_l, hi_l - lo_l)} +{_unified_range(lo_r, hi_r - lo_r)} @@\n".encode())
        pos_l = lo_l
        for sl, el, sr, er in group:
            for line in a[pos_l:sl]:
                out.append(emit(b" ", line))
            for line in a[sl:el]:
                out.append(emit(b"-", line))
            for line in b[sr:er]:
                out.append(emit(b"+", line))
            pos_l = el
        for line in a[pos_l:hi_l]:
            out.append(emit(b" ", line))
    return b"".join(out)


def _context_range(start: int, end: int) -> str:
    if end - start == 0:
        return str(start)
    if end - start == 1:
        return str(end)
    return f"{start + 1},{end}"


def _context(hunks: list[Hunk], a: list[bytes], b: list[bytes], context: int, name_l: str, name_r: str,
             ignorable: set[Hunk], tab: bool = False) -> bytes:
    emit = _emit_tab if tab else _emit
    out = [f"*** {name_l}\n".encode("utf-8", "surrogateescape"), f"--- {name_r}\n".encode("utf-8", "surrogateescape")]
    for group in _group(hunks, context, ignorable):
        first, last = group[0], group[-1]
        lo_l = max(first[0] - context, 0)
        lo_r = first[2] - (first[0] - lo_l)
        hi_l = min(last[1] + context, len(a))
        hi_r = last[3] + (hi_l - last[1])
        out.append(b"***************\n")
        out.append(f"*** {_context_range(lo_l, hi_l)} ****\n".encode())
        if any(h[1] > h[0] for h in group):
            pos = lo_l
            for sl, el, sr, er in group:
                for line in a[pos:sl]:
                    out.append(emit(b"  ", line))
                mark = b"! " if er > sr else b"- "
                for line in a[sl:el]:
                    out.append(emit(mark, line))
                pos = el
            for line in a[pos:hi_l]:
                out.append(emit(b"  ", line))
        out.append(f"--- {_context_range(lo_r, hi_r)} ----\n".encode())
        if any(h[3] > h[2] for h in group):
            pos = lo_r
            for sl, el, sr, er in group:
                for line in b[pos:sr]:
                    out.append(emit(b"  ", line))
                mark = b"! " if el > sl else b"+ "
                for line in b[sr:er]:
                    out.append(emit(mark, line))
                pos = er
            for line in b[pos:hi_r]:
                out.append(emit(b"  ", line))
    return b"".join(out)


COMMANDS = {"diff": diff}

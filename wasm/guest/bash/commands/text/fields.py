"""Field commands: cut, paste, uniq, comm, join.

GNU coreutils semantics in the C locale. ``cut`` and ``uniq`` stream line by line; ``paste``,
``comm`` and ``join`` read their inputs in lockstep.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable, Iterable, Iterator

from ..base import CommandContext, CommandResult
from .basic import file_error, with_usage
from ...escapes import decode_at
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import (
    Batcher,
    arg_bytes,
    UNTERMINATED,
    line_batches,
    open_input,
    split_lines,
    stdin_chunks,
)
from ... import fs
from ..files.common import argmatch

# --- cut -----------------------------------------------------------------------------------

CUT_SPEC = FlagSpec(
    "b:c:d:f:nsz",
    {
        "bytes": "b=",
        "characters": "c=",
        "delimiter": "d=",
        "fields": "f=",
        "only-delimited": "s",
        "zero-terminated": "z",
        "complement": "complement",
        "output-delimiter": "output-delimiter=",
    },
)


def parse_list(text: str, kind: str) -> list[tuple[int, int]]:
    """GNU list syntax ``N,N-M,-M,N-`` into sorted, merged 1-based inclusive ranges."""
    ranges: list[tuple[int, int]] = []
    what = "field" if kind == "f" else "byte/character"
    for part in re.split(r"[, \t]", text):
        if part == "":
            raise UsageError("fields and positions are numbered from 1")
        if part == "-":
            raise UsageError("invalid range with no endpoint: -")
        match = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if not match:
            raise UsageError(f"invalid {what} value {_q(part)}" if kind == "f" else f"invalid byte/character position {_q(part)}")
        low_text, dash, high_text = match.groups()
        low = int(low_text) if low_text else 1
        high = int(high_text) if high_text else (2**62 if dash else low)
        if (low_text and int(low_text) == 0) or (high_text and int(high_text) == 0 and dash):
            raise UsageError("fields and positions are numbered from 1")
        if high < low:
            raise UsageError("invalid decreasing range")
        ranges.append((low, high))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for low, high in ranges:
        # Overlapping ranges merge; merely adjacent ones stay apart (--output-delimiter shows it).
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _q(text: str) -> str:
    return "'" + text + "'"


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    nxt = 1
    for low, high in ranges:
        if low > nxt:
            result.append((nxt, low - 1))
        nxt = high + 1
    result.append((nxt, 2**62))
    return result


@with_usage("cut")
def cut(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(CUT_SPEC, argv[1:])
    mode = ""
    spec = ""
    delim: bytes | None = None
    only_delimited = complement = False
    out_delim: bytes | None = None
    eol = b"\n"
    for key, value in opts:
        if key in ("b", "c", "f"):
            if mode:
                raise UsageError("only one type of list may be specified")
            mode, spec = key, value or ""
        elif key == "d":
            raw = arg_bytes(value or "")
            if len(raw) > 1:
                raise UsageError("the delimiter must be a single character")
            delim = raw or b"\0"
        elif key == "s":
            only_delimited = True
        elif key == "complement":
            complement = True
        elif key == "output-delimiter":
            # GNU quirk: an empty output delimiter is a NUL byte.
            out_delim = arg_bytes(value or "") or b"\0"
        elif key == "z":
            eol = b"\0"
    if not mode:
        raise UsageError("you must specify a list of bytes, characters, or fields")
    if mode != "f" and delim is not None:
        raise UsageError("an input delimiter may be specified only when operating on fields")
    if mode != "f" and only_delimited:
        raise UsageError("suppressing non-delimited lines makes sense\n\tonly when operating on fields")
    ranges = parse_list(spec, mode)
    if complement:
        ranges = _complement(ranges)
    tab = delim if delim is not None else b"\t"
    joiner = out_delim if out_delim is not None else (tab if mode == "f" else None)
    status = 0
    for name in files or ["-"]:
        try:
            for batch in line_batches(open_input(ctx, name), eol):
                if batch[-1] is UNTERMINATED:
                    batch = batch[:-1]
                pieces: list[bytes] = []
                for body in batch:
                    if mode == "f":
                        if tab not in body:
                            if only_delimited:
                                continue
                            pieces.append(body)
                            continue
                        fields = body.split(tab)
                        count = len(fields)
                        pieces.append((joiner if joiner is not None else tab).join(
                            [fields[i - 1] for low, high in ranges for i in range(low, min(high, count) + 1)]
                        ))
                    else:
                        pieces.append((joiner if joiner is not None else b"").join(
                            [body[low - 1 : high] for low, high in ranges if low <= len(body)]
                        ))
                if pieces:
                    pieces.append(b"")
                    yield eol.join(pieces)
        except OSError as err:
            file_error(ctx, "cut", name, err)
            status = 1
    return status


# --- paste ---------------------------------------------------------------------------------

PASTE_SPEC = FlagSpec("d:sz", {"delimiters": "d=", "serial": "s", "zero-terminated": "z"})


# paste -d's escapes: each stands for one delimiter, ``\\0`` for the empty one; any other
# character after a backslash stands for itself.
_PASTE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "0": "", "b": "\b", "f": "\f", "r": "\r",
                  "v": "\v"}


def _paste_delims(text: str) -> list[bytes]:
    raw = arg_bytes(text).decode("latin-1")
    out: list[bytes] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            piece, i = decode_at(raw, i, simple=_PASTE_ESCAPES, octal="none", hex_digits=0,
                                 unicode=False, unknown="drop")
            out.append(piece.encode("latin-1"))
            continue
        if c == "\\":
            raise UsageError(f"delimiter list ends with an unescaped backslash: {text}", hint=False)
        out.append(c.encode("latin-1"))
        i += 1
    return out


@with_usage("paste")
def paste(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(PASTE_SPEC, argv[1:])
    delims = [b"\t"]
    serial = False
    eol = b"\n"
    for key, value in opts:
        if key == "d":
            delims = _paste_delims(value or "")
        elif key == "s":
            serial = True
        elif key == "z":
            eol = b"\0"
    files = files or ["-"]
    if not delims:
        delims = [b""]
    stdin: Iterator[bytes] | None = None
    sources: list[Iterator[bytes]] = []
    for name in files:
        try:
            if name == "-":
                if stdin is None:
                    stdin = stdin_chunks(ctx)
                sources.append(stdin)  # every "-" reads on from the same input
            else:
                sources.append(open_input(ctx, name))
        except OSError as err:
            file_error(ctx, "paste", name, err)
            return 1
    if serial:
        for source in sources:
            yield _serial_line(b"".join(source), delims, eol)
        return 0
    stdin_lines = split_lines(stdin, eol) if stdin is not None else None
    readers: list[Iterator[bytes] | None] = [
        stdin_lines if source is stdin else split_lines(source, eol) for source in sources]
    live = len(readers)
    out = Batcher()
    while True:
        pieces: list[bytes] = []
        got_any = False
        for index, reader in enumerate(readers):
            line = b""
            if reader is not None:
                nxt = next(reader, None)
                if nxt is None:
                    readers[index] = None
                    live -= 1
                else:
                    got_any = True
                    line = nxt[:-1] if nxt.endswith(eol) else nxt
            pieces.append(line)
            if index < len(readers) - 1:
                pieces.append(delims[index % len(delims)])
        if not got_any:
            break
        ready = out.add(b"".join(pieces) + eol)
        if ready:
            yield ready
    if out.parts:
        yield out.take()
    return 0


def _serial_line(data: bytes, delims: list[bytes], eol: bytes) -> bytes:
    """``paste -s`` of one input: its lines joined by the delimiters in turn, then ``eol``.
    Split and joined whole: a line at a time, 200,000 lines took the guest over a second."""
    lines = (data[:-len(eol)] if data.endswith(eol) else data).split(eol)
    if len(delims) == 1:
        return delims[0].join(lines) + eol
    parts = [b""] * (2 * len(lines) - 1)
    parts[0::2] = lines
    parts[1::2] = (delims * (len(lines) // len(delims) + 1))[:len(lines) - 1]
    return b"".join(parts) + eol


# --- uniq ----------------------------------------------------------------------------------

UNIQ_SPEC = FlagSpec(
    "cdDf:is:uw:z",
    {
        "count": "c",
        "repeated": "d",
        "all-repeated": "all-repeated?",
        "skip-fields": "f=",
        "ignore-case": "i",
        "skip-chars": "s=",
        "unique": "u",
        "check-chars": "w=",
        "zero-terminated": "z",
        "group": "group?",
    },
)


def _uniq_number(value: str, what: str) -> int:
    if not re.fullmatch(r"\d+", value):
        raise UsageError(f"{value}: invalid number of {what}", hint=False)
    return int(value)


@with_usage("uniq")
def uniq(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(UNIQ_SPEC, argv[1:], numeric_short=True)
    count = repeated = unique_only = ignore_case = False
    all_repeated: str | None = None
    """``-D``: the lines of each repeated group, separated as its method says."""
    group: str | None = None
    """``--group``: every line, each group separated as its method says."""
    skip_fields = skip_chars = 0
    check_chars: int | None = None
    eol = b"\n"
    for key, value in opts:
        v = value or ""
        if key == "c":
            count = True
        elif key == "d":
            repeated = True
        elif key == "D":
            all_repeated = "none"
        elif key == "all-repeated":
            all_repeated = _argument(ctx, value, "none", "--all-repeated", ("none", "prepend", "separate"))
        elif key == "group":
            group = _argument(ctx, value, "separate", "--group", ("prepend", "append", "separate", "both"))
        elif key == "u":
            unique_only = True
        elif key == "i":
            ignore_case = True
        elif key == "f":
            skip_fields = _uniq_number(v, "fields to skip")
        elif key == "#":
            skip_fields = int(v)
        elif key == "s":
            skip_chars = _uniq_number(v, "bytes to skip")
        elif key == "w":
            check_chars = _uniq_number(v, "bytes to compare")
        elif key == "z":
            eol = b"\0"
    if group is not None and (count or repeated or all_repeated or unique_only):
        raise UsageError("--group is mutually exclusive with -c/-d/-D/-u")
    if count and all_repeated:
        raise UsageError("printing all duplicated lines and repeat counts is meaningless")
    if len(files) > 2:
        raise UsageError(f"extra operand '{files[2]}'")
    source = files[0] if files else "-"
    try:
        chunks = open_input(ctx, source)
    except OSError as err:
        file_error(ctx, "uniq", source, err)
        return 1

    def key_of(line: bytes) -> bytes:
        body = line[:-1] if line.endswith(eol) else line
        pos = 0
        for _ in range(skip_fields):
            while pos < len(body) and body[pos] in b" \t":
                pos += 1
            while pos < len(body) and body[pos] not in b" \t":
                pos += 1
        body = body[pos + skip_chars :]
        if check_chars is not None:
            body = body[:check_chars]
        return body.lower() if ignore_case else body

    if not (skip_fields or skip_chars or check_chars is not None or ignore_case):
        def key_of(line: bytes) -> bytes:
            # the whole line (the common case): key_of is called for every line
            return line[:-1] if line.endswith(eol) else line

    def emit(group_line: bytes, group_size: int, first_group: bool) -> bytes:
        if repeated and group_size < 2:
            return b""
        if unique_only and group_size > 1:
            return b""
        text = group_line if group_line.endswith(eol) else group_line + eol
        if count:
            return b"%7d " % group_size + text
        return text

    plain = not (skip_fields or skip_chars or check_chars is not None or ignore_case or all_repeated
                 or group)
    pieces: Iterator[bytes]
    if plain:
        pieces = _plain_uniq(chunks, eol, emit)
    else:
        groups = _groups(chunks, eol, key_of)
        if group is not None:
            pieces = _every_group(groups, eol, group)
        elif all_repeated is not None:
            pieces = _repeated_groups(groups, eol, all_repeated, unique_only)
        else:
            pieces = (piece for lines in groups if (piece := emit(lines[0], len(lines), False)))
    if len(files) == 2:  # the output file gets all of it (over 16 KiB, stdout once got the start)
        try:
            with fs.open(ctx.host_path(files[1]), "wb") as handle:
                handle.write(b"".join(pieces))
        except OSError as err:
            file_error(ctx, "uniq", files[1], err)
            return 1
        return 0
    out = Batcher()
    for piece in pieces:
        ready = out.add(piece)
        if ready:
            yield ready
    data = out.take()
    if data:
        yield data
    return 0


def _plain_uniq(chunks: Iterable[bytes], eol: bytes,
                emit: Callable[[bytes, int, bool], bytes]) -> Iterator[bytes]:
    """uniq comparing whole lines: runs of equal lines found by ``itertools.groupby`` over
    the lines of each chunk, split in C (a line at a time in Python was most of its time)."""
    def lines() -> Iterator[bytes]:
        for batch in line_batches(chunks, eol):
            yield from (batch[:-1] if batch[-1] is UNTERMINATED else batch)
    for line, run in itertools.groupby(lines()):
        piece = emit(line, sum(1 for _ in run), False)
        if piece:
            yield piece


def _groups(chunks: Iterable[bytes], eol: bytes, key_of: Callable[[bytes], bytes]) -> Iterator[list[bytes]]:
    """The runs of lines whose keys are equal (fields or characters skipped, case ignored)."""
    lines: list[bytes] = []
    current_key = b""
    for line in split_lines(chunks, eol):
        line_key = key_of(line)
        if lines and line_key == current_key:
            lines.append(line)
            continue
        if lines:
            yield lines
        lines, current_key = [line], line_key
    if lines:
        yield lines


def _terminated(lines: list[bytes], eol: bytes) -> bytes:
    return b"".join(x if x.endswith(eol) else x + eol for x in lines)


def _repeated_groups(groups: Iterator[list[bytes]], eol: bytes, method: str, unique_only: bool) -> Iterator[bytes]:
    """``-D``/``--all-repeated=METHOD``: each repeated group's lines (with ``-u`` all but the
    first, as GNU does), an empty line before each (prepend) or between them (separate)."""
    first = True
    for lines in groups:
        if len(lines) < 2:
            continue
        shown = lines[1:] if unique_only else lines
        before = eol if method == "prepend" or (method == "separate" and not first) else b""
        first = False
        yield before + _terminated(shown, eol)


def _every_group(groups: Iterator[list[bytes]], eol: bytes, method: str) -> Iterator[bytes]:
    """``--group=METHOD``: every line, an empty line between groups (separate), before each
    (prepend), after each (append), or before each and after the last (both)."""
    first = True
    for lines in groups:
        before = eol if method in ("prepend", "both") or (method != "append" and not first) else b""
        first = False
        yield before + _terminated(lines, eol) + (eol if method == "append" else b"")
    if method == "both" and not first:
        yield eol


def _argument(ctx: CommandContext, value: str | None, default: str, option: str,
              choices: tuple[str, ...]) -> str:
    """The method an option's argument names (``default`` when it has none)."""
    if value is None:
        return default
    return choices[argmatch(ctx, value, option, [(choice,) for choice in choices])]


# --- comm ----------------------------------------------------------------------------------

COMM_SPEC = FlagSpec(
    "123z",
    {
        "check-order": "check-order",
        "nocheck-order": "nocheck-order",
        "output-delimiter": "output-delimiter=",
        "total": "total",
        "zero-terminated": "z",
    },
)


@with_usage("comm")
def comm(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(COMM_SPEC, argv[1:])
    hide = set()
    delim = b"\t"
    check: bool | None = None
    total = False
    eol = b"\n"
    for key, value in opts:
        if key in "123" and len(key) == 1:
            hide.add(key)
        elif key == "output-delimiter":
            delim = arg_bytes(value or "")
        elif key == "check-order":
            check = True
        elif key == "nocheck-order":
            check = False
        elif key == "total":
            total = True
        elif key == "z":
            eol = b"\0"
    if len(files) < 2:
        raise UsageError("missing operand" if not files else f"missing operand after '{files[0]}'")
    if len(files) > 2:
        raise UsageError(f"extra operand '{files[2]}'")
    readers = []
    for name in files:
        try:
            readers.append(split_lines(open_input(ctx, name), eol))
        except OSError as err:
            file_error(ctx, "comm", name, err)
            return 1
    prefix = {"1": b"", "2": b"", "3": b""}
    if "1" not in hide:
        prefix["2"] += delim
        prefix["3"] += delim
    if "2" not in hide:
        prefix["3"] += delim
    counts = {"1": 0, "2": 0, "3": 0}
    previous: list[bytes | None] = [None, None]
    disorder = False
    reported = [False, False]

    def pull(index: int) -> bytes | None:
        nonlocal disorder
        line = next(readers[index], None)
        if line is None:
            return None
        body = line[:-1] if line.endswith(eol) else line
        prev = previous[index]
        if prev is not None and body < prev and check is not False and not reported[index]:
            reported[index] = True
            disorder = True
            ctx.error(f"comm: file {index + 1} is not in sorted order")
        previous[index] = body
        return body

    out = Batcher()
    a, b = pull(0), pull(1)
    while a is not None or b is not None:
        if b is None or (a is not None and a < b):
            column, text = "1", a
            a = pull(0)
        elif a is None or b < a:
            column, text = "2", b
            b = pull(1)
        else:
            column, text = "3", a
            a, b = pull(0), pull(1)
        counts[column] += 1
        if column not in hide:
            assert text is not None
            ready = out.add(prefix[column] + text + eol)
            if ready:
                yield ready
    if total:
        out.add(b"%d%s%d%s%d%stotal%s" % (counts["1"], delim, counts["2"], delim, counts["3"], delim, eol))
    if out.parts:
        yield out.take()
    if disorder:
        ctx.error("comm: input is not in sorted order")
        return 1
    return 0


# --- join ----------------------------------------------------------------------------------

JOIN_SPEC = FlagSpec(
    "a:e:i1:2:j:o:t:v:z",
    {
        "ignore-case": "i",
        "check-order": "check-order",
        "nocheck-order": "nocheck-order",
        "header": "header",
        "zero-terminated": "z",
    },
)


def _join_fields(line: bytes, tab: bytes | None) -> list[bytes]:
    if tab is not None:
        return line.split(tab)
    return line.split()


@with_usage("join")
def join(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(JOIN_SPEC, argv[1:])
    unpaired: set[int] = set()
    only_unpaired: set[int] = set()
    empty: bytes | None = None
    ignore_case = header = False
    fields = [1, 1]
    out_format: list[tuple[int, int]] | None = None
    auto_format = False
    tab: bytes | None = None
    check_order: bool | None = None
    eol = b"\n"
    for key, value in opts:
        v = value or ""
        if key in ("a", "v"):
            if v not in ("1", "2"):
                raise UsageError(f"invalid file number: {_q(v)}", hint=False)
            (unpaired if key == "a" else only_unpaired).add(int(v))
        elif key == "e":
            empty = arg_bytes(v)
        elif key == "i":
            ignore_case = True
        elif key in ("1", "2", "j"):
            if not (v.isascii() and v.isdigit()) or int(v) == 0:
                raise UsageError(f"invalid field number: {_q(v)}", hint=False)
            if key in ("1", "j"):
                fields[0] = int(v)
            if key in ("2", "j"):
                fields[1] = int(v)
        elif key == "o":
            if v == "auto":
                auto_format = True
                continue
            out_format = out_format or []
            for item in re.split(r"[, ]+", v.strip()):
                if item == "0":
                    out_format.append((0, 0))
                    continue
                match = re.fullmatch(r"([12])\.(\d+)", item)
                if not match or int(match.group(2)) == 0:
                    raise UsageError(f"invalid field specifier: {_q(item)}", hint=False)
                out_format.append((int(match.group(1)), int(match.group(2))))
        elif key == "t":
            raw = arg_bytes(v)
            if len(raw) > 1:
                raise UsageError(f"multi-character tab {_q(v)}", hint=False)
            tab = raw if raw else b"\n"
        elif key == "header":
            header = True
        elif key == "check-order":
            check_order = True
        elif key == "nocheck-order":
            check_order = False
        elif key == "z":
            eol = b"\0"
    if len(files) != 2:
        if len(files) < 2:
            raise UsageError("missing operand" if not files else f"missing operand after {_q(files[0])}")
        raise UsageError(f"extra operand {_q(files[2])}")
    tables: list[list[bytes]] = []
    for name in files:
        try:
            tables.append([ln[:-1] if ln.endswith(eol) else ln for ln in split_lines(open_input(ctx, name), eol)])
        except OSError as err:
            file_error(ctx, "join", name, err)
            return 1
    sep = tab if tab is not None else b" "
    parsed = [[_join_fields(line, tab) for line in table] for table in tables]

    def key_of(side: int, row: list[bytes]) -> bytes:
        index = fields[side] - 1
        value = row[index] if index < len(row) else b""
        return value.upper() if ignore_case else value

    if auto_format and out_format is None:
        counts = [len(parsed[0][0]) if parsed[0] else 0, len(parsed[1][0]) if parsed[1] else 0]
        out_format = [(0, 0)] + [(1, i) for i in range(1, counts[0] + 1) if i != fields[0]] + [
            (2, i) for i in range(1, counts[1] + 1) if i != fields[1]
        ]
    fill = empty if empty is not None else b""

    def render(left: list[bytes] | None, right: list[bytes] | None) -> bytes:
        if out_format is not None:
            parts = []
            for side, index in out_format:
                if side == 0:
                    src = left if left is not None else right
                    which = 0 if left is not None else 1
                    value = key_of(which, src) if src is not None and not ignore_case else (
                        src[fields[which] - 1] if src is not None and fields[which] - 1 < len(src) else None
                    )
                else:
                    row = left if side == 1 else right
                    value = row[index - 1] if row is not None and index - 1 < len(row) else None
                parts.append(fill if value is None else value)
            return sep.join(parts) + eol
        src, which = (left, 0) if left is not None else (right, 1)
        assert src is not None
        key_index = fields[which] - 1
        join_value = src[key_index] if key_index < len(src) else fill
        parts = [join_value]
        if left is not None:
            parts += [f for i, f in enumerate(left) if i != fields[0] - 1]
        if right is not None:
            parts += [f for i, f in enumerate(right) if i != fields[1] - 1]
        return sep.join(parts) + eol

    show = {1: 1 in unpaired or 1 in only_unpaired, 2: 2 in unpaired or 2 in only_unpaired}
    merger = _JoinMerge(ctx, files, tables, parsed, key_of, render, check_order, header)
    status = merger.run(show, paired_output=not only_unpaired)
    data = b"".join(merger.out)
    if data:
        yield data
    return status


class _JoinMerge:
    """GNU join's merge loop, including when it reads lines and so when it notices disorder.

    Disorder is reported (once per file) only after an unpairable line has been seen, or
    always with --check-order, where it is fatal; GNU then still prints what came before.
    """

    def __init__(self, ctx: CommandContext, names: list[str], tables: list[list[bytes]],
                 parsed: list[list[list[bytes]]], key_of: Callable[[int, list[bytes]], bytes],
                 render: Callable[[list[bytes] | None, list[bytes] | None], bytes],
                 check_order: bool | None, header: bool) -> None:
        self.ctx = ctx
        self.names = names
        self.tables = tables
        self.parsed = parsed
        self.key_of = key_of
        self.render = render
        self.check_order = check_order
        self.header = header
        self.out: list[bytes] = []
        self.next_index = [0, 0]
        self.prev: list[int | None] = [None, None]
        self.warned = [False, False]
        self.seen_unpairable = False

    def get_line(self, side: int) -> int | None:
        index = self.next_index[side]
        if index >= len(self.parsed[side]):
            return None
        self.next_index[side] += 1
        prev = self.prev[side]
        if prev is not None:
            self._check(side, prev, index)
        self.prev[side] = index
        return index

    def _check(self, side: int, prev: int, index: int) -> None:
        if self.check_order is False or self.warned[side]:
            return
        if not (self.check_order or self.seen_unpairable):
            return
        rows = self.parsed[side]
        if self.key_of(side, rows[prev]) > self.key_of(side, rows[index]):
            shown = self.tables[side][index].decode("latin-1")
            self.ctx.error(f"join: {self.names[side]}:{index + 1}: is not sorted: {shown}")
            self.warned[side] = True
            if self.check_order:
                raise _JoinFatal()

    def row(self, side: int, index: int) -> list[bytes]:
        return self.parsed[side][index]

    def run(self, show: dict[int, bool], paired_output: bool) -> int:
        try:
            self._merge(show, paired_output)
        except _JoinFatal:
            return 1
        if self.warned[0] or self.warned[1]:
            self.ctx.error("join: input is not in sorted order")
            return 1
        return 0

    def _merge(self, show: dict[int, bool], paired_output: bool) -> None:
        if self.header:
            h1, h2 = self.get_line(0), self.get_line(1)
            if h1 is not None or h2 is not None:
                self.out.append(self.render(None if h1 is None else self.row(0, h1), None if h2 is None else self.row(1, h2)))
            self.prev = [None, None]
        seq1: list[int] = []
        seq2: list[int] = []
        first = self.get_line(0)
        if first is not None:
            seq1.append(first)
        first = self.get_line(1)
        if first is not None:
            seq2.append(first)
        key = self.key_of
        while seq1 and seq2:
            k1, k2 = key(0, self.row(0, seq1[0])), key(1, self.row(1, seq2[0]))
            if k1 < k2:
                if show[1]:
                    self.out.append(self.render(self.row(0, seq1[0]), None))
                nxt = self.get_line(0)
                seq1 = [] if nxt is None else [nxt]
                self.seen_unpairable = True
                continue
            if k1 > k2:
                if show[2]:
                    self.out.append(self.render(None, self.row(1, seq2[0])))
                nxt = self.get_line(1)
                seq2 = [] if nxt is None else [nxt]
                self.seen_unpairable = True
                continue
            eof1 = eof2 = False
            while True:
                nxt = self.get_line(0)
                if nxt is None:
                    eof1 = True
                    break
                seq1.append(nxt)
                if key(0, self.row(0, nxt)) != k2:
                    break
            while True:
                nxt = self.get_line(1)
                if nxt is None:
                    eof2 = True
                    break
                seq2.append(nxt)
                if key(0, self.row(0, seq1[0])) != key(1, self.row(1, nxt)):
                    break
            group1 = seq1 if eof1 else seq1[:-1]
            group2 = seq2 if eof2 else seq2[:-1]
            if paired_output:
                for left in group1:
                    for right in group2:
                        self.out.append(self.render(self.row(0, left), self.row(1, right)))
            seq1 = [] if eof1 else [seq1[-1]]
            seq2 = [] if eof2 else [seq2[-1]]
        check_tail = self.check_order is not False and not (self.warned[0] and self.warned[1])
        for side, seq, other in ((0, seq1, seq2), (1, seq2, seq1)):
            if not seq or not (show[side + 1] or check_tail):
                continue
            if show[side + 1]:
                self.out.append(self._render_side(side, seq[0]))
            if other:
                self.seen_unpairable = True
            while True:
                nxt = self.get_line(side)
                if nxt is None:
                    break
                if show[side + 1]:
                    self.out.append(self._render_side(side, nxt))
                if self.warned[side] and not show[side + 1]:
                    break

    def _render_side(self, side: int, index: int) -> bytes:
        row = self.row(side, index)
        return self.render(row, None) if side == 0 else self.render(None, row)


class _JoinFatal(Exception):
    """--check-order found disorder: stop, keeping the output produced so far."""


COMMANDS = {"cut": cut, "paste": paste, "uniq": uniq, "comm": comm, "join": join}

"""Whole-stream text commands: cat, head, tail, wc, tac, rev, yes, seq.

These behave like GNU coreutils in the C locale (bytes are characters). Each streams where
the real tool streams: ``cat``, ``head``, ``tail -n +N``, ``rev`` and ``yes`` produce output
while they read; ``tail -n N`` keeps only a bounded window.
"""

from __future__ import annotations

import re
import stat
from collections import deque
from decimal import Decimal, InvalidOperation
from typing import Callable, Generator, Iterator

from ..base import CommandContext, CommandResult
from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    Batcher,
    describe_oserror,
    files0_names,
    give_back_stdin,
    is_device,
    open_input,
    stdin_regular_file,
    split_lines,
    stdin_chunks,
)
from ... import fs

TextMain = Callable[[CommandContext, list[str]], CommandResult]


def with_usage(prog: str, status: int = 1) -> Callable[[TextMain], TextMain]:
    """Turn a UsageError raised by a command body into GNU's message and exit status."""

    def wrap(body: TextMain) -> TextMain:
        def run(ctx: CommandContext, argv: list[str]) -> CommandResult:
            try:
                return (yield from body(ctx, argv))
            except UsageError as err:
                usage_error(ctx, prog, err)
                return status

        run.__name__ = body.__name__
        run.__doc__ = body.__doc__
        return run

    return wrap


def file_error(ctx: CommandContext, prog: str, name: str, err: OSError) -> None:
    ctx.error(f"{prog}: {name}: {describe_oserror(err)}")


# --- cat -----------------------------------------------------------------------------------

_NONPRINT = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f-\xff]")


def _visible(byte: int, show_tabs: bool) -> bytes:
    prefix = b""
    if byte >= 128:
        prefix = b"M-"
        byte -= 128
    if byte == 9 and not prefix:
        return b"^I" if show_tabs else b"\t"
    if byte < 32:
        return prefix + b"^" + bytes([byte + 64])
    if byte == 127:
        return prefix + b"^?"
    return prefix + bytes([byte])


_VISIBLE = [_visible(b, False) for b in range(256)]
_VISIBLE_TABS = [_visible(b, True) for b in range(256)]

CAT_SPEC = FlagSpec(
    "AbeEnstTuv",
    {
        "show-all": "A",
        "number-nonblank": "b",
        "show-ends": "E",
        "number": "n",
        "squeeze-blank": "s",
        "show-tabs": "T",
        "show-nonprinting": "v",
    },
)


@with_usage("cat")
def cat(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(CAT_SPEC, argv[1:])
    flags = set()
    for key, _ in opts:
        if key == "A":
            flags |= {"v", "E", "T"}
        elif key == "e":
            flags |= {"v", "E"}
        elif key == "t":
            flags |= {"v", "T"}
        elif key != "u":
            flags.add(key)
    if "b" in flags:
        flags.discard("n")
    files = files or ["-"]
    status = 0
    plain = not flags
    state = _CatState()
    for name in files:
        try:
            chunks = open_input(ctx, name)
            if plain:
                for chunk in chunks:
                    yield chunk
                continue
            out = Batcher()
            for line in split_lines(chunks):
                piece = state.format(line, flags)
                if piece:
                    ready = out.add(piece)
                    if ready:
                        yield ready
            if out.parts:
                yield out.take()
        except OSError as err:
            file_error(ctx, "cat", name, err)
            status = 1
    return status


class _CatState:
    """Numbering and squeezing state carried across files, as GNU cat does."""

    def __init__(self) -> None:
        self.number = 0
        self.blank_run = 0
        self.at_line_start = True

    def format(self, line: bytes, flags: set[str]) -> bytes:
        ends = line.endswith(b"\n")
        body = line[:-1] if ends else line
        starts = self.at_line_start
        self.at_line_start = ends
        if starts and ends and not body:
            self.blank_run += 1
            if "s" in flags and self.blank_run > 1:
                return b""
        elif starts:
            self.blank_run = 0
        prefix = b""
        if starts:
            if "n" in flags or ("b" in flags and body):
                self.number += 1
                prefix = b"%6d\t" % self.number
        if "v" in flags:
            table = _VISIBLE_TABS if "T" in flags else _VISIBLE
            body = _NONPRINT.sub(lambda m: table[m.group()[0]], body)
        if "T" in flags:
            body = body.replace(b"\t", b"^I")
        if ends:
            return prefix + body + (b"$\n" if "E" in flags else b"\n")
        return prefix + body


# --- head / tail ---------------------------------------------------------------------------

_SUFFIXES = {
    "": 1,
    "b": 512,
    "kB": 1000,
    "K": 1024,
    "k": 1024,
    "KiB": 1024,
    "MB": 1000**2,
    "M": 1024**2,
    "MiB": 1024**2,
    "GB": 1000**3,
    "G": 1024**3,
    "GiB": 1024**3,
    "TB": 1000**4,
    "T": 1024**4,
    "TiB": 1024**4,
}


def parse_count(text: str, what: str) -> int:
    match = re.fullmatch(r"(\d+)([A-Za-z]*)", text)
    if not match or match.group(2) not in _SUFFIXES:
        raise UsageError(f"invalid number of {what}: '{text}'", hint=False)
    return int(match.group(1)) * _SUFFIXES[match.group(2)]


HEAD_SPEC = FlagSpec(
    "n:c:qvz",
    {
        "lines": "n=",
        "bytes": "c=",
        "quiet": "q",
        "silent": "q",
        "verbose": "v",
        "zero-terminated": "z",
    },
)


def _header_policy(opts: list[tuple[str, str | None]], nfiles: int) -> bool:
    show = nfiles > 1
    for key, _ in opts:
        if key == "q":
            show = False
        elif key == "v":
            show = True
    return show


@with_usage("head")
def head(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(HEAD_SPEC, argv[1:], numeric_short=True)
    mode, count, all_but = "lines", 10, False
    sep = b"\n"
    for key, value in opts:
        if key in ("n", "c", "#"):
            assert value is not None
            mode = "bytes" if key == "c" else "lines"
            all_but = value.startswith("-")
            count = parse_count(value.lstrip("-+") if value[:1] in "-+" else value, mode)
        elif key == "z":
            sep = b"\0"
    files = files or ["-"]
    headers = _header_policy(opts, len(files))
    status = 0
    first = True
    for name in files:
        try:
            chunks = open_input(ctx, name)
        except OSError as err:
            ctx.error(f"head: cannot open '{name}' for reading: {describe_oserror(err)}")
            status = 1
            continue
        if headers:
            shown = "standard input" if name == "-" else name
            yield (b"" if first else b"\n") + f"==> {shown} <==\n".encode("utf-8", "surrogateescape")
        first = False
        unread: list[bytes] = []
        try:
            if mode == "bytes":
                yield from _head_bytes(chunks, count, all_but, unread)
            else:
                yield from _head_lines(chunks, count, all_but, sep, unread)
        except OSError as err:
            ctx.error(f"head: error reading '{name}': {describe_oserror(err)}")
            status = 1
        if name == "-":
            give_back_stdin(ctx, b"".join(unread))
    return status


def _head_bytes(chunks: Iterator[bytes], count: int, all_but: bool, unread: list[bytes]) -> Iterator[bytes]:
    if not all_but:
        left = count
        if left == 0:
            return
        for chunk in chunks:
            if len(chunk) >= left:
                yield chunk[:left]
                unread.append(chunk[left:])
                return
            left -= len(chunk)
            yield chunk
        return
    held = b""
    for chunk in chunks:
        held += chunk
        if len(held) > count:
            cut = len(held) - count
            yield held[:cut]
            held = held[cut:]


def _head_lines(chunks: Iterator[bytes], count: int, all_but: bool, sep: bytes,
                unread: list[bytes]) -> Iterator[bytes]:
    if not all_but:
        if count == 0:
            return
        for chunk in chunks:
            found = chunk.count(sep)
            if found < count:
                count -= found
                yield chunk
                continue
            cut = -1
            for _ in range(count):
                cut = chunk.index(sep, cut + 1)
            yield chunk[: cut + 1]
            unread.append(chunk[cut + 1 :])
            return
        return
    window: deque[bytes] = deque()
    for line in split_lines(chunks, sep):
        window.append(line)
        if len(window) > count:
            yield window.popleft()


TAIL_SPEC = FlagSpec(
    "n:c:qvzfF",
    {
        "lines": "n=",
        "bytes": "c=",
        "quiet": "q",
        "silent": "q",
        "verbose": "v",
        "zero-terminated": "z",
        "follow": "f?",
        "retry": "r",
        "pid": "p=",
        "sleep-interval": "s=",
    },
)


@with_usage("tail")
def tail(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(TAIL_SPEC, argv[1:], numeric_short=True)
    mode, count, from_start = "lines", 10, False
    sep = b"\n"
    for key, value in opts:
        if key in ("n", "c", "#"):
            assert value is not None
            mode = "bytes" if key == "c" else "lines"
            from_start = value.startswith("+")
            count = parse_count(value[1:] if value[:1] in "+-" else value, mode)
        elif key == "z":
            sep = b"\0"
    obsolete = [value or "" for key, value in opts if key == "#"]
    if obsolete and len(files) > 1:
        # The historical "tail -N" form is only accepted with a single file.
        raise UsageError(f"option used in invalid context -- {obsolete[-1][:1]}", hint=False)
    if count == 0 and not from_start:
        # GNU tail has nothing to print and does not even open the files.
        return 0
    files = files or ["-"]
    headers = _header_policy(opts, len(files))
    status = 0
    first = True
    for name in files:
        try:
            chunks = open_input(ctx, name)
        except OSError as err:
            ctx.error(f"tail: cannot open '{name}' for reading: {describe_oserror(err)}")
            status = 1
            continue
        if headers:
            shown = "standard input" if name == "-" else name
            yield (b"" if first else b"\n") + f"==> {shown} <==\n".encode("utf-8", "surrogateescape")
        first = False
        try:
            if mode == "bytes":
                yield from _tail_bytes(chunks, count, from_start)
            else:
                yield from _tail_lines(chunks, count, from_start, sep)
        except OSError as err:
            ctx.error(f"tail: error reading '{name}': {describe_oserror(err)}")
            status = 1
    return status


def _tail_bytes(chunks: Iterator[bytes], count: int, from_start: bool) -> Iterator[bytes]:
    if from_start:
        skip = max(count - 1, 0)
        for chunk in chunks:
            if skip >= len(chunk):
                skip -= len(chunk)
                continue
            yield chunk[skip:]
            skip = 0
        return
    held = b""
    for chunk in chunks:
        held = (held + chunk)[-count:] if count else b""
    if held:
        yield held


def _tail_lines(chunks: Iterator[bytes], count: int, from_start: bool, sep: bytes) -> Iterator[bytes]:
    if from_start:
        skip = max(count - 1, 0)
        out = Batcher()
        for line in split_lines(chunks, sep):
            if skip:
                skip -= 1
                continue
            ready = out.add(line)
            if ready:
                yield ready
        if out.parts:
            yield out.take()
        return
    if count == 0:
        for _ in chunks:
            pass
        return
    yield _last_lines(chunks, count, sep)


def _last_lines(chunks: Iterator[bytes], count: int, sep: bytes) -> bytes:
    """The last ``count`` lines, terminators kept, found in the newest chunks that hold them
    (a chunk is let go once the newer ones hold ``count + 1`` separators: the line before
    the first one kept ends in one). A line at a time, 200,000 lines took the guest over a
    second."""
    held: deque[tuple[bytes, int]] = deque()
    seps = 0
    for chunk in chunks:
        if not chunk:
            continue
        found = chunk.count(sep)
        held.append((chunk, found))
        seps += found
        while seps - held[0][1] > count:
            seps -= held.popleft()[1]
    data = b"".join(chunk for chunk, _ in held)
    start = len(data) - 1 if data.endswith(sep) else len(data)
    for _ in range(count):
        start = data.rfind(sep, 0, start)
        if start < 0:
            return data
    return data[start + 1:]


# --- wc ------------------------------------------------------------------------------------

WC_SPEC = FlagSpec(
    "clLmw",
    {
        "bytes": "c",
        "chars": "m",
        "lines": "l",
        "words": "w",
        "max-line-length": "L",
        "files0-from": "files0-from=",
        "total": "total=",
    },
)

_SPACE = frozenset(b" \t\n\v\f\r")
_PRINTABLE = frozenset(range(32, 127))
_WORD_SPLIT = re.compile(rb"[ \t\n\v\f\r]+")
_TEXT_BYTES = bytes(range(32, 127)) + b" \t\n\v\f\r"
_HAS_PRINTABLE = re.compile(rb"[\x20-\x7e]")


class _WcCounts:
    def __init__(self) -> None:
        self.lines = 0
        self.words = 0
        self.bytes = 0
        self.longest = 0
        self.in_word = False
        self.column = 0

    def feed(self, chunk: bytes, want_words: bool, want_longest: bool) -> None:
        self.lines += chunk.count(b"\n")
        self.bytes += len(chunk)
        if want_words:
            self._words(chunk)
        if want_longest:
            self._longest(chunk)

    def _words(self, chunk: bytes) -> None:
        # A word is a maximal run of non-space bytes containing a printable byte: GNU wc
        # (C locale) starts a word only on a printable byte and ends it on a space.
        if not chunk:
            return
        if not chunk.translate(None, _TEXT_BYTES):
            # Plain text (printable and spaces only): bytes.split() counts the runs in C.
            count = len(chunk.split())
            if self.in_word and chunk[0] not in _SPACE:
                count -= 1
            self.words += count
            self.in_word = chunk[-1] not in _SPACE
            return
        pieces = _WORD_SPLIT.split(chunk)
        for index, piece in enumerate(pieces):
            if index > 0:
                self.in_word = False
            if piece and not self.in_word and _HAS_PRINTABLE.search(piece):
                self.words += 1
                self.in_word = True

    def _longest(self, chunk: bytes) -> None:
        for byte in chunk:
            if byte == 10 or byte == 12 or byte == 13:
                self.longest = max(self.longest, self.column)
                self.column = 0
            elif byte == 9:
                self.column += 8 - self.column % 8
            elif 32 <= byte < 127:
                self.column += 1
        self.longest = max(self.longest, self.column)


@with_usage("wc")
def wc(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(WC_SPEC, argv[1:])
    wanted = [key for key, _ in opts if key in "lwmcL"]
    total_mode = "auto"
    files0: str | None = None
    for key, value in opts:
        if key == "files0-from":
            files0 = value
        elif key == "total":
            assert value is not None
            choices = ("auto", "always", "only", "never")
            matches = [c for c in choices if c.startswith(value)]
            if len(matches) != 1:
                raise UsageError(f"invalid argument '{value}' for '--total'")
            total_mode = matches[0]
    order = [k for k in "lwmcL" if k in wanted] or ["l", "w", "c"]
    no_operands = not files and files0 is None
    sized = True
    if files0 is not None:
        listed = _wc_files0(ctx, files0, files)
        if listed is None:
            return 1
        files, sized = listed
    files = files or (["-"] if files0 is None else [])
    results: list[tuple[list[int], str | None]] = []
    status = 0
    total = _WcCounts()
    min_width = 1
    size_sum = 0
    for index, name in enumerate(files, 1):
        counts = _WcCounts()
        if files0 is not None and (not name or name == "-" == files0):
            ctx.error(f"wc: {files0}:{index}: invalid zero-length file name" if not name else
                      "wc: when reading file names from stdin, no file name of '-' allowed")
            status = 1
            continue
        try:
            if name == "-":
                # GNU sizes columns from fstat(stdin): a redirected regular file counts by size.
                stdin_size = _stdin_file_size(ctx)
                if stdin_size is None:
                    min_width = 7
                else:
                    size_sum += stdin_size
            elif is_device(ctx.resolve(name)):
                min_width = 7
            else:
                host = ctx.host_path(name)
                st = fs.stat(host)
                if stat.S_ISREG(st.st_mode):
                    size_sum += st.st_size
                else:
                    min_width = 7
            for chunk in open_input(ctx, name):
                counts.feed(chunk, "w" in order, "L" in order)
        except OSError as err:
            ctx.error(f"wc: {name}: {describe_oserror(err)}")
            status = 1
            if name == "-" or not fs.isdir(ctx.host_path(name)):
                results.append(([], None))
                continue
        values = {"l": counts.lines, "w": counts.words, "m": counts.bytes, "c": counts.bytes, "L": counts.longest}
        results.append(([values[k] for k in order], None if no_operands else name))
        total.lines += counts.lines
        total.words += counts.words
        total.bytes += counts.bytes
        total.longest = max(total.longest, counts.longest)
    totals = {"l": total.lines, "w": total.words, "m": total.bytes, "c": total.bytes, "L": total.longest}
    total_row = [totals[k] for k in order]
    if (len(files) == 1 and len(order) == 1) or not sized:
        width = 1
    else:
        width = max(len(str(size_sum)), min_width)
    show_total = total_mode == "always" or (total_mode == "auto" and len(files) > 1)
    if total_mode == "only":
        width = 1
    out = []
    if total_mode != "only":
        for row, label in results:
            if not row:
                continue
            out.append(_wc_row(row, width, label))
    if show_total:
        out.append(_wc_row(total_row, width, "total"))
    elif total_mode == "only":
        out.append(_wc_row(total_row, width, None))
    yield b"".join(out)
    return status


def _wc_files0(ctx: CommandContext, source: str, operands: list[str]) -> tuple[list[str], bool] | None:
    """``--files0-from``'s names and whether the columns are sized from them; None after an
    error reported (the list unreadable). Operands beside the list are a usage error."""
    if operands:
        raise UsageError(f"extra operand '{operands[0]}'\nfile operands cannot be combined with --files0-from")
    try:
        return files0_names(ctx, source)
    except OSError as err:
        ctx.error(f"wc: cannot open '{source}' for reading: {describe_oserror(err)}")
        return None


def _stdin_file_size(ctx: CommandContext) -> int | None:
    """Size of stdin when it is a redirected regular file, else None (pipe, heredoc...)."""
    st = stdin_regular_file(ctx)
    return st.st_size if st is not None else None


def _wc_row(values: list[int], width: int, label: str | None) -> bytes:
    text = " ".join(str(v).rjust(width) for v in values)
    if label is not None:
        text += " " + label
    return text.encode("utf-8", "surrogateescape") + b"\n"


# --- tac / rev -----------------------------------------------------------------------------

TAC_SPEC = FlagSpec("brs:", {"before": "b", "regex": "r", "separator": "s="})


@with_usage("tac")
def tac(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(TAC_SPEC, argv[1:])
    sep = b"\n"
    before = False
    for key, value in opts:
        if key == "s":
            assert value is not None
            sep = value.encode("utf-8", "surrogateescape")
        elif key == "b":
            before = True
    status = 0
    for name in files or ["-"]:
        try:
            data = b"".join(open_input(ctx, name))
        except OSError as err:
            file_error(ctx, "tac", name, err)
            status = 1
            continue
        if not data:
            continue
        if before:
            parts = data.split(sep)
            records = [parts[0]] if parts[0] else []
            records += [sep + p for p in parts[1:]]
            yield b"".join(reversed(records))
            continue
        records = data.split(sep)
        last = records.pop()
        body = [r + sep for r in records]
        body.reverse()
        yield last.encode() if isinstance(last, str) else last
        yield b"".join(body)
    return status


@with_usage("rev")
def rev(ctx: CommandContext, argv: list[str]) -> CommandResult:
    _, files = parse_flags(FlagSpec(""), argv[1:])
    status = 0
    for name in files or ["-"]:
        try:
            out = Batcher()
            # util-linux rev reads stdin only without operands: "-" is an ordinary file name.
            chunks = open_input(ctx, name) if files else stdin_chunks(ctx)
            if files and name == "-":
                chunks = _open_named(ctx, name)
            for line in split_lines(chunks):
                if line.endswith(b"\n"):
                    piece = line[-2::-1] + b"\n"
                else:
                    piece = line[::-1]
                ready = out.add(piece)
                if ready:
                    yield ready
            if out.parts:
                yield out.take()
        except OSError as err:
            ctx.error(f"rev: cannot open {name}: {describe_oserror(err)}")
            status = 1
    return status


def _open_named(ctx: CommandContext, name: str) -> Iterator[bytes]:
    with fs.open(ctx.host_path(name), "rb") as handle:
        data = handle.read()
    return iter([data])


# --- yes -----------------------------------------------------------------------------------


def yes(ctx: CommandContext, argv: list[str]) -> CommandResult:
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    line = (" ".join(args) if args else "y").encode("utf-8", "surrogateescape") + b"\n"
    block = line * max(1, 8192 // len(line))
    while True:
        yield block


# --- seq -----------------------------------------------------------------------------------

SEQ_SPEC = FlagSpec(
    "f:s:w",
    {"format": "f=", "separator": "s=", "equal-width": "w"},
)


def _seq_number(text: str) -> Decimal:
    stripped = text.strip()
    if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+", stripped):
        # strtold accepts hexadecimal integers too.
        return Decimal(int(stripped, 16))
    try:
        value = Decimal(stripped)
    except InvalidOperation:
        raise UsageError(f"invalid floating point argument: '{text}'") from None
    if not value.is_finite() and not value.is_infinite():
        raise UsageError(f"invalid floating point argument: '{text}'")
    return value


def _precision(text: str) -> int:
    text = text.strip()
    if "x" in text.lower():
        return 0
    if "e" in text.lower() or "x" in text.lower():
        mantissa, _, exponent = text.lower().partition("e")
        frac = mantissa.partition(".")[2]
        try:
            return max(len(frac) - int(exponent or 0), 0)
        except ValueError:
            return 0
    return len(text.partition(".")[2])


def _seq_width(text: str, prec: int) -> int:
    whole = text.strip().lstrip("+").partition(".")[0]
    if "e" in text.lower():
        return 0
    return len(whole) + (prec + 1 if prec else 0)


@with_usage("seq")
def seq(ctx: CommandContext, argv: list[str]) -> CommandResult:
    # Negative numbers are operands, not options: stop option parsing at the first one.
    args = argv[1:]
    cut = len(args)
    for index, arg in enumerate(args):
        if re.fullmatch(r"-\.?\d.*", arg):
            cut = index
            break
    opts, operands = parse_flags(SEQ_SPEC, args[:cut])
    operands += args[cut:]
    fmt: str | None = None
    sep = "\n"
    equal = False
    for key, value in opts:
        assert value is not None or key == "w"
        if key == "f":
            fmt = value
        elif key == "s":
            sep = value or ""
        elif key == "w":
            equal = True
    if not operands:
        raise UsageError("missing operand")
    if len(operands) > 3:
        raise UsageError(f"extra operand '{operands[3]}'")
    texts = ["1", "1", operands[0]] if len(operands) == 1 else (
        [operands[0], "1", operands[1]] if len(operands) == 2 else list(operands)
    )
    first, step, last = (_seq_number(t) for t in texts)
    if step == 0:
        raise UsageError(f"invalid Zero increment value: '{texts[1]}'")
    if fmt is not None and equal:
        raise UsageError("format string may not be specified when printing equal width strings")
    prec = max(_precision(texts[0]), _precision(texts[1]))
    if fmt is not None:
        _check_seq_format(fmt)

        def render(value: Decimal) -> str:
            return _apply_float_format(fmt or "%g", value)

    else:

        def render(value: Decimal) -> str:
            if prec == 0 and value == value.to_integral_value():
                return str(int(value))
            return f"{value:.{prec}f}"

    if fmt is None and not equal and prec == 0 and all(
            v.is_finite() and v == v.to_integral_value() for v in (first, step, last)):
        return (yield from _seq_integers(int(first), int(step), int(last), sep))
    width = 0
    if equal:
        width = max(_seq_width(texts[0], prec), _seq_width(texts[2], prec))
    out = Batcher()
    index = 0
    first_item = True
    while True:
        current = first + step * index
        if (step > 0 and current > last) or (step < 0 and current < last):
            break
        text = render(current)
        if equal:
            negative = text.startswith("-")
            digits = text[1:] if negative else text
            text = ("-" if negative else "") + digits.rjust(width - (1 if negative else 0), "0")
        piece = (text if first_item else sep + text).encode("utf-8", "surrogateescape")
        first_item = False
        ready = out.add(piece)
        if ready:
            yield ready
        index += 1
    if not first_item:
        out.add(b"\n")
    if out.parts:
        yield out.take()
    return 0


_SEQ_CHUNK = 8192
"""Numbers written per chunk by ``_seq_integers``."""


def _seq_integers(first: int, step: int, last: int, sep: str) -> Generator[bytes, None, int]:
    """What the general loop writes for whole numbers without a format or equal widths, made
    a chunk of numbers at a time with ``int`` instead of one ``Decimal`` each: ``seq 1
    2000000`` took 8 s in the guest. (No ``len`` of the whole range: past ``sys.maxsize``,
    2**31 - 1 in the guest, it raises.)"""
    joint = sep.encode("utf-8", "surrogateescape")
    start = first
    while (start <= last) if step > 0 else (start >= last):
        end = start + step * _SEQ_CHUNK
        numbers = range(start, min(end, last + 1) if step > 0 else max(end, last - 1), step)
        text = sep.join(map(str, numbers)).encode("utf-8", "surrogateescape")
        yield joint + text if start != first else text
        start = end
    if (first <= last) if step > 0 else (first >= last):
        yield b"\n"
    return 0


_FLOAT_DIRECTIVE = re.compile(r"%([-+ #0']*)(\d*)(?:\.(\d*))?([aAeEfFgG])")


def _check_seq_format(fmt: str) -> None:
    stripped = fmt.replace("%%", "")
    found = _FLOAT_DIRECTIVE.findall(stripped)
    if stripped.count("%") != 1 or len(found) != 1:
        if stripped.count("%") == 0:
            raise UsageError(f"format '{fmt}' has no % directive", hint=False)
        raise UsageError(f"format '{fmt}' has too many % directives", hint=False)


def _apply_float_format(fmt: str, value: Decimal) -> str:
    def one(match: re.Match[str]) -> str:
        flags, width, precision, conv = match.groups()
        spec = "%" + flags.replace("'", "") + width + ("." + precision if precision is not None else "") + conv
        return spec % float(value)

    parts = fmt.split("%%")
    return "%".join(_FLOAT_DIRECTIVE.sub(one, part) for part in parts)


COMMANDS = {"cat": cat, "head": head, "tail": tail, "wc": wc, "tac": tac, "rev": rev, "yes": yes, "seq": seq}

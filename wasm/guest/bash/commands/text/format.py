"""Character-level reshaping commands: tr, nl, fold, expand, unexpand, strings.

GNU coreutils (and binutils ``strings``) in the C locale. All of them stream: ``tr`` works
chunk by chunk, the others line by line.
"""

from __future__ import annotations

import re
from ..base import CommandContext, CommandResult
from .basic import file_error, with_usage
from ...escapes import decode_at
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import (
    Batcher,
    arg_bytes,
    open_input,
    split_lines,
    stdin_chunks,
)
from .regex import RegexError, compile_posix

# --- tr ------------------------------------------------------------------------------------

TR_SPEC = FlagSpec(
    "cCdst",
    {
        "complement": "c",
        "delete": "d",
        "squeeze-repeats": "s",
        "truncate-set1": "t",
    },
)

_TR_CLASSES: dict[str, bytes] = {
    "alpha": bytes(c for c in range(256) if chr(c).isalpha() and c < 128),
    "digit": b"0123456789",
    "alnum": bytes(c for c in range(128) if chr(c).isalnum()),
    "upper": bytes(range(65, 91)),
    "lower": bytes(range(97, 123)),
    "space": b"\t\n\v\f\r ",
    "blank": b"\t ",
    "punct": bytes(c for c in range(33, 127) if not chr(c).isalnum()),
    "print": bytes(range(32, 127)),
    "graph": bytes(range(33, 127)),
    "cntrl": bytes(list(range(0, 32)) + [127]),
    "xdigit": b"0123456789ABCDEFabcdef",
}

# tr's escapes: C's (no ``\\e``), ``\\NNN`` octal up to 255 (``\\777`` is ``\\77`` then ``7``);
# any other character after a backslash stands for itself.
_TR_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
               "\\": "\\"}


def _unescape_tr(raw: bytes) -> list[tuple[str, int]]:
    """Tokens: ('c', byte) for a literal byte, ('s', byte) for structural characters."""
    text = raw.decode("latin-1")
    tokens: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            piece, i = decode_at(text, i, simple=_TR_ESCAPES, hex_digits=0, unicode=False,
                                 byte_values="codepoint", unknown="drop", octal_overflow="stop")
            tokens.append(("c", ord(piece)))
            continue
        tokens.append(("s", raw[i]))
        i += 1
    return tokens


class TrSet:
    """An expanded SET operand: the byte sequence plus where case classes sit (for pairing)."""

    def __init__(self, text: str, is_set2: bool) -> None:
        self.text = text
        self.bytes: list[int] = []
        self.classes: list[tuple[int, str]] = []
        self.repeat_at: int | None = None
        self._parse(_unescape_tr(arg_bytes(text)), is_set2)

    def _parse(self, tokens: list[tuple[str, int]], is_set2: bool) -> None:
        i = 0
        n = len(tokens)
        while i < n:
            kind, value = tokens[i]
            if kind == "s" and value == ord("[") and i + 1 < n:
                # [:class:], [=c=] or [c*n]
                rest = bytes(v for _, v in tokens[i + 1 :])
                m = re.match(rb":([a-z]+):\]", rest)
                if m and all(k == "s" for k, _ in tokens[i + 1 : i + 1 + m.end()]):
                    name = m.group(1).decode()
                    if name not in _TR_CLASSES:
                        raise UsageError(f"invalid character class '{name}'", hint=False)
                    if is_set2 and name not in ("upper", "lower"):
                        raise UsageError("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'", hint=False)
                    self.classes.append((len(self.bytes), name))
                    self.bytes.extend(_TR_CLASSES[name])
                    i += 1 + m.end()
                    continue
                if i + 3 < n and tokens[i + 1][1] == ord("=") and tokens[i + 3][1] == ord("=") and i + 4 < n and tokens[i + 4][1] == ord("]"):
                    self.bytes.append(tokens[i + 2][1])
                    i += 5
                    continue
                if i + 2 < n and tokens[i + 2] == ("s", ord("*")):
                    j = i + 3
                    digits = ""
                    while j < n and tokens[j][0] == "s" and 48 <= tokens[j][1] <= 57:  # an ASCII digit
                        digits += chr(tokens[j][1])
                        j += 1
                    if j < n and tokens[j] == ("s", ord("]")):
                        if not is_set2:
                            raise UsageError("the [c*] repeat construct may not appear in string1", hint=False)
                        char = tokens[i + 1][1]
                        count = int(digits, 8 if digits.startswith("0") else 10) if digits else 0
                        if count == 0:
                            self.repeat_at = len(self.bytes)
                            self.bytes.append(char)
                        else:
                            self.bytes.extend([char] * count)
                        i = j + 1
                        continue
            if i + 2 < n and tokens[i + 1] == ("s", ord("-")):
                low, high = value, tokens[i + 2][1]
                if high < low:
                    raise UsageError(
                        f"range-endpoints of '{chr(low)}-{chr(high)}' are in reverse collating sequence order",
                        hint=False,
                    )
                self.bytes.extend(range(low, high + 1))
                i += 3
                continue
            self.bytes.append(value)
            i += 1


def _build_translation(set1: TrSet, set2: TrSet, complement: bool, truncate: bool) -> bytes:
    source = set1.bytes
    if complement:
        present = set(source)
        source = [c for c in range(256) if c not in present]
    target = list(set2.bytes)
    if set2.repeat_at is not None:
        fill = max(len(source) - (len(target) - 1), 0)
        target[set2.repeat_at : set2.repeat_at + 1] = [target[set2.repeat_at]] * fill
    if truncate:
        source = source[: len(target)]
    elif not target:
        raise UsageError("when not truncating set1, string2 must be non-empty", hint=False)
    elif len(target) < len(source):
        target = target + [target[-1]] * (len(source) - len(target))
    # Case classes pair up: [:lower:] in SET1 against [:upper:] in SET2 maps case.
    table = list(range(256))
    for index, byte in enumerate(source):
        table[byte] = target[index]
    return bytes(table)


@with_usage("tr")
def tr(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, operands = parse_flags(TR_SPEC, argv[1:])
    flags = {key for key, _ in opts}
    complement = bool(flags & {"c", "C"})
    delete = "d" in flags
    squeeze = "s" in flags
    truncate = "t" in flags
    needed = 2 if (delete and squeeze) or (not delete and not squeeze) else 1
    allowed = 1 if delete and not squeeze else 2
    if not operands:
        raise UsageError("missing operand")
    if len(operands) < needed:
        if delete and squeeze:
            raise UsageError(f"missing operand after '{operands[0]}'\nTwo strings must be given when both deleting and squeezing repeats.")
        raise UsageError(f"missing operand after '{operands[0]}'\nTwo strings must be given when translating.")
    if len(operands) > allowed:
        if delete and not squeeze:
            raise UsageError(f"extra operand '{operands[1]}'\nOnly one string may be given when deleting without squeezing repeats.")
        raise UsageError(f"extra operand '{operands[allowed]}'")
    set1 = TrSet(operands[0], is_set2=False)
    set2 = TrSet(operands[1], is_set2=True) if len(operands) > 1 else None
    table: bytes | None = None
    deletions = b""
    squeeze_set: set[int] = set()
    members1 = set(set1.bytes)
    if complement:
        members1 = set(range(256)) - members1
    if delete:
        deletions = bytes(sorted(members1))
        if squeeze and set2 is not None:
            squeeze_set = set(set2.bytes)
    elif set2 is not None:
        if set1.classes and set2.classes:
            _check_case_pairing(set1, set2)
        table = _build_translation(set1, set2, complement, truncate)
        if squeeze:
            squeeze_set = set(set2.bytes)
    elif squeeze:
        squeeze_set = members1
    squeeze_re = re.compile(b"([" + b"".join(re.escape(bytes([c])) for c in sorted(squeeze_set)) + b"])\\1+") if squeeze_set else None
    last = -1
    for chunk in stdin_chunks(ctx):
        if table is not None or deletions:
            chunk = chunk.translate(table, deletions)
        if squeeze_re is not None and chunk:
            if last >= 0 and last in squeeze_set:
                chunk = chunk.lstrip(bytes([last]))
                if not chunk:
                    continue
            chunk = squeeze_re.sub(rb"\1", chunk)
        if chunk:
            last = chunk[-1]
            yield chunk
    return 0


def _check_case_pairing(set1: TrSet, set2: TrSet) -> None:
    for (pos1, name1), (pos2, name2) in zip(set1.classes, set2.classes):
        if name2 in ("upper", "lower") and name1 not in ("upper", "lower"):
            raise UsageError("misaligned [:upper:] and/or [:lower:] construct", hint=False)


# --- nl ------------------------------------------------------------------------------------

NL_SPEC = FlagSpec(
    "b:d:f:h:i:l:n:ps:v:w:",
    {
        "body-numbering": "b=",
        "section-delimiter": "d=",
        "footer-numbering": "f=",
        "header-numbering": "h=",
        "line-increment": "i=",
        "join-blank-lines": "l=",
        "number-format": "n=",
        "no-renumber": "p",
        "number-separator": "s=",
        "starting-line-number": "v=",
        "number-width": "w=",
    },
)


def _nl_style(value: str, what: str) -> tuple[str, object]:
    if value in ("a", "t", "n"):
        return value, None
    if value.startswith("p"):
        try:
            return "p", compile_posix(value[1:], extended=False)
        except RegexError as err:
            raise UsageError(str(err), hint=False) from None
    raise UsageError(f"invalid {what} numbering style: '{value}'")


def _nl_int(value: str, what: str) -> int:
    if not re.fullmatch(r"[-+]?\d+", value):
        raise UsageError(f"invalid {what}: '{value}'", hint=False)
    return int(value)


@with_usage("nl")
def nl(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(NL_SPEC, argv[1:])
    styles: dict[str, tuple[str, object]] = {"header": ("n", None), "body": ("t", None), "footer": ("n", None)}
    fmt = "rn"
    width = 6
    sep = b"\t"
    start = 1
    step = 1
    renumber = True
    delim = b"\\:"
    join_blank = 1
    for key, value in opts:
        v = value or ""
        if key == "b":
            styles["body"] = _nl_style(v, "body")
        elif key == "h":
            styles["header"] = _nl_style(v, "header")
        elif key == "f":
            styles["footer"] = _nl_style(v, "footer")
        elif key == "n":
            if v not in ("ln", "rn", "rz"):
                raise UsageError(f"invalid line numbering format: '{v}'")
            fmt = v
        elif key == "w":
            width = _nl_int(v, "line number field width")
            if width < 1:
                raise UsageError(f"invalid line number field width: '{v}'", hint=False)
        elif key == "s":
            sep = arg_bytes(v)
        elif key == "v":
            start = _nl_int(v, "starting line number")
        elif key == "i":
            step = _nl_int(v, "line number increment")
        elif key == "p":
            renumber = False
        elif key == "d":
            raw = arg_bytes(v)
            delim = raw if len(raw) >= 2 else raw + b":"
        elif key == "l":
            join_blank = _nl_int(v, "line number of blank lines")
    number = start
    section = "body"
    blank_run = 0
    status = 0

    def render(n: int) -> bytes:
        text = str(n)
        if fmt == "ln":
            return text.ljust(width).encode()
        if fmt == "rz":
            if n < 0:
                return ("-" + text[1:].rjust(width - 1, "0")).encode()
            return text.rjust(width, "0").encode()
        return text.rjust(width).encode()

    out = Batcher()
    for name in files or ["-"]:
        try:
            for line in split_lines(open_input(ctx, name)):
                body = line[:-1] if line.endswith(b"\n") else line
                if body in (delim * 3, delim * 2, delim):
                    section = {3: "header", 2: "body", 1: "footer"}[len(body) // len(delim)]
                    if renumber:
                        number = start
                    piece = b"\n"
                else:
                    style, regex = styles[section]
                    if style == "a":
                        if body:
                            blank_run = 0
                            numbered = True
                        else:
                            blank_run += 1
                            numbered = blank_run >= join_blank
                            if numbered:
                                blank_run = 0
                    elif style == "t":
                        numbered = bool(body)
                    elif style == "p":
                        assert regex is not None
                        numbered = regex.search(body.decode("latin-1")) is not None  # type: ignore[attr-defined]
                    else:
                        numbered = False
                    if numbered:
                        piece = render(number) + sep + line
                        number += step
                    else:
                        piece = b" " * (width + len(sep)) + line
                    if not line.endswith(b"\n"):
                        piece += b"\n"
                ready = out.add(piece)
                if ready:
                    yield ready
        except OSError as err:
            file_error(ctx, "nl", name, err)
            status = 1
    if out.parts:
        yield out.take()
    return status


# --- fold ----------------------------------------------------------------------------------

FOLD_SPEC = FlagSpec("bsw:", {"bytes": "b", "spaces": "s", "width": "w="})


def _advance(column: int, byte: int, count_bytes: bool) -> int:
    if count_bytes:
        return column + 1
    if byte == 8:
        return column - 1 if column > 0 else 0
    if byte == 13:
        return 0
    if byte == 9:
        return column + 8 - column % 8
    return column + 1


def fold_line(line: bytes, width: int, count_bytes: bool, at_spaces: bool) -> bytes:
    """Fold one input line (with its newline, if any) as GNU fold does."""
    out: list[bytes] = []
    buf = bytearray()
    column = 0
    for byte in line:
        if byte == 10:
            buf.append(byte)
            out.append(bytes(buf))
            buf.clear()
            column = 0
            continue
        while True:
            column = _advance(column, byte, count_bytes)
            if column <= width:
                buf.append(byte)
                break
            if at_spaces:
                cut = max(buf.rfind(b" "), buf.rfind(b"\t"))
                if cut >= 0:
                    out.append(bytes(buf[: cut + 1]) + b"\n")
                    del buf[: cut + 1]
                    column = 0
                    for old in buf:
                        column = _advance(column, old, count_bytes)
                    continue
            if not buf:
                buf.append(byte)
                break
            out.append(bytes(buf) + b"\n")
            buf.clear()
            column = 0
    out.append(bytes(buf))
    return b"".join(out)


@with_usage("fold")
def fold(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(FOLD_SPEC, argv[1:], numeric_short=True)
    width = 80
    count_bytes = at_spaces = False
    for key, value in opts:
        if key in ("w", "#"):
            v = value or ""
            if not (v.isascii() and v.isdigit()) or int(v) == 0:
                raise UsageError(f"invalid number of columns: '{v}'", hint=False)
            width = int(v)
        elif key == "b":
            count_bytes = True
        elif key == "s":
            at_spaces = True
    status = 0
    for name in files or ["-"]:
        try:
            out = Batcher()
            for line in split_lines(open_input(ctx, name)):
                ready = out.add(fold_line(line, width, count_bytes, at_spaces))
                if ready:
                    yield ready
            if out.parts:
                yield out.take()
        except OSError as err:
            file_error(ctx, "fold", name, err)
            status = 1
    return status


# --- expand / unexpand ---------------------------------------------------------------------


def _parse_tabs(values: list[str], prog: str) -> tuple[list[int], int]:
    """Tab stops from ``-t`` arguments: (explicit stops, repeat width or 0)."""
    stops: list[int] = []
    for value in values:
        for part in re.split(r"[, ]", value):
            if not part:
                continue
            if not (part.isascii() and part.isdigit()):
                raise UsageError(f"tab size contains invalid character(s): '{part}'", hint=False)
            stop = int(part)
            if stop == 0:
                raise UsageError("tab size cannot be 0", hint=False)
            if stops and stop <= stops[-1]:
                raise UsageError("tab sizes must be ascending", hint=False)
            stops.append(stop)
    if not stops:
        return [], 8
    if len(stops) == 1:
        return [], stops[0]
    return stops, 0


def _next_stop(column: int, stops: list[int], every: int) -> int | None:
    if every:
        return column + every - column % every
    for stop in stops:
        if stop > column:
            return stop
    return None


EXPAND_SPEC = FlagSpec("it:", {"initial": "i", "tabs": "t="})


@with_usage("expand")
def expand(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(EXPAND_SPEC, argv[1:], numeric_short=True)
    initial = False
    tab_args: list[str] = []
    for key, value in opts:
        if key == "i":
            initial = True
        elif key in ("t", "#"):
            tab_args.append(value or "")
    stops, every = _parse_tabs(tab_args, "expand")
    status = 0
    for name in files or ["-"]:
        try:
            out = Batcher()
            for line in split_lines(open_input(ctx, name)):
                ready = out.add(_expand_line(line, stops, every, initial))
                if ready:
                    yield ready
            if out.parts:
                yield out.take()
        except OSError as err:
            file_error(ctx, "expand", name, err)
            status = 1
    return status


def _expand_line(line: bytes, stops: list[int], every: int, initial: bool) -> bytes:
    if b"\t" not in line:
        return line
    out = bytearray()
    column = 0
    leading = True
    for byte in line:
        if byte == 9 and (leading or not initial):
            stop = _next_stop(column, stops, every)
            width = (stop - column) if stop is not None else 1
            out += b" " * width
            column += width
            continue
        if byte == 8:
            column = max(column - 1, 0)
        else:
            column += 1
        if byte not in (32, 9):
            leading = False
        out.append(byte)
    return bytes(out)


UNEXPAND_SPEC = FlagSpec("at:", {"all": "a", "tabs": "t=", "first-only": "first-only"})


@with_usage("unexpand")
def unexpand(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(UNEXPAND_SPEC, argv[1:], numeric_short=True)
    convert_all = False
    first_only = False
    tab_args: list[str] = []
    for key, value in opts:
        if key == "a":
            convert_all = True
        elif key == "first-only":
            first_only = True
        elif key in ("t", "#"):
            tab_args.append(value or "")
            convert_all = True
    if first_only:
        convert_all = False
    stops, every = _parse_tabs(tab_args, "unexpand")
    status = 0
    for name in files or ["-"]:
        try:
            out = Batcher()
            for line in split_lines(open_input(ctx, name)):
                ready = out.add(_unexpand_line(line, stops, every, convert_all))
                if ready:
                    yield ready
            if out.parts:
                yield out.take()
        except OSError as err:
            file_error(ctx, "unexpand", name, err)
            status = 1
    return status


def _unexpand_line(line: bytes, stops: list[int], every: int, convert_all: bool) -> bytes:
    """One line through GNU unexpand's state machine (pending blanks become tabs only when
    they reach a tab stop; a lone space before a stop stays a space unless more blanks follow)."""
    out = bytearray()
    column = 0
    pending = bytearray()
    one_blank_before_stop = False
    prev_blank = True
    convert = True
    for byte in line:
        if convert:
            blank = byte in (32, 9)
            if blank:
                nxt = _next_stop(column, stops, every)
                if nxt is None:
                    convert = False
                else:
                    if byte == 9:
                        column = nxt
                        if pending:
                            pending[0] = 9
                    else:
                        column += 1
                        if not (prev_blank and column == nxt):
                            if column == nxt:
                                one_blank_before_stop = True
                            pending.append(byte)
                            prev_blank = True
                            continue
                        pending[:1] = b"\t"
                        byte = 9
                    del pending[1 if one_blank_before_stop else 0 :]
            elif byte == 8:
                column = max(column - 1, 0)
            else:
                column += 1
            if pending:
                if len(pending) > 1 and one_blank_before_stop:
                    pending[0] = 9
                out += pending
                pending.clear()
                one_blank_before_stop = False
            prev_blank = blank
            convert = convert and (convert_all or blank)
        out.append(byte)
    if pending:
        if len(pending) > 1 and one_blank_before_stop:
            pending[0] = 9
        out += pending
    return bytes(out)


# --- strings -------------------------------------------------------------------------------

STRINGS_SPEC = FlagSpec(
    "an:t:fo",
    {
        "all": "a",
        "bytes": "n=",
        "radix": "t=",
        "print-file-name": "f",
    },
)


@with_usage("strings")
def strings(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(STRINGS_SPEC, argv[1:], numeric_short=True)
    minimum = 4
    radix = ""
    show_name = False
    for key, value in opts:
        if key in ("n", "#"):
            v = value or ""
            if not (v.isascii() and v.isdigit()) or int(v) == 0:
                ctx.error(f"strings: invalid minimum string length {v}")
                return 1
            minimum = int(v)
        elif key == "t":
            if value not in ("o", "d", "x"):
                ctx.error("strings: invalid radix")
                return 1
            radix = value
        elif key == "o":
            radix = "o"
        elif key == "f":
            show_name = True
    # binutils strings reads stdin only without operands; a lone "-" is a usage error and
    # a "-" among other operands is skipped.
    if files == ["-"]:
        ctx.error("Usage: strings [option(s)] [file(s)]")
        return 1
    files = [name for name in files if name != "-"] if files else []
    pattern = re.compile(rb"[\t\x20-\x7e]{%d,}" % minimum)
    status = 0
    for name in files or ["-"]:
        try:
            data = b"".join(open_input(ctx, name))
        except OSError as err:
            ctx.error(f"strings: '{name}': No such file" if isinstance(err, FileNotFoundError) else f"strings: {name}: {err.strerror}")
            status = 1
            continue
        prefix = (("{standard input}" if name == "-" else name) + ": ").encode() if show_name else b""
        out = []
        for match in pattern.finditer(data):
            where = b""
            if radix:
                where = ("%7" + radix + " ").encode() % match.start()
            out.append(prefix + where + match.group() + b"\n")
        if out:
            yield b"".join(out)
    return status


COMMANDS = {"tr": tr, "nl": nl, "fold": fold, "expand": expand, "unexpand": unexpand, "strings": strings}

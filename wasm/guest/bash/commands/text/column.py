"""column (util-linux 2.38 in the C locale): fills columns or, with ``-t``/``-J``, builds a table.

It must see every line before it can size the columns. A byte above 0x7f is not a character
in the C locale: util-linux shows it as ``\\xHH`` and so do we. Table columns are picked by
number (``0`` is all of them), by name (``-N``, any case) or, for ``-H``, ``-`` for those
without a name. Refused (a usage error, as an unknown option): ``-E``, ``-W``, ``-T`` (they
act only when libsmartcols shrinks a table to the width) and the tree ``-r``/``-i``/``-p``.
Known differences: ``-l`` on whitespace-separated input takes the rest of the line from the
start of the last column's word, as util-linux does from 2.39 (2.38.1 misplaces it when
words are separated by more than one blank, util-linux issue #2098); a column named twice
in ``-O`` moves once (2.38 loses a column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import CommandContext, CommandResult
from .basic import with_usage
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import arg_bytes, describe_oserror, open_input, split_lines

COLUMN_SPEC = FlagSpec(
    "c:s:o:txJn:l:R:N:H:O:dLe",
    {
        "columns": "c=",
        "output-width": "c=",
        "separator": "s=",
        "output-separator": "o=",
        "table": "t",
        "fillrows": "x",
        "json": "J",
        "table-name": "n=",
        "table-columns-limit": "l=",
        "table-right": "R=",
        "table-columns": "N=",
        "table-hide": "H=",
        "table-order": "O=",
        "table-noheadings": "d",
        "keep-empty-lines": "L",
        "table-empty-lines": "L",
        "table-header-repeat": "e",
    },
)

_LONG_NAMES = {"t": "table", "J": "json", "x": "fillrows"}
_BLANKS = re.compile(rb"[ \t]+")
_HIGH = re.compile(rb"[\x80-\xff]")
_SPACE = b" \t\n\v\f\r"


@dataclass
class _Options:
    width: int = 80
    seps: bytes | None = None
    out_sep: bytes = b"  "
    mode: str = "fill"
    """``fill`` (columns first), ``rows`` (-x) or ``table`` (-t, -J)."""
    json: bool = False
    keep_empty: bool = False
    limit: int = 0
    names: list[bytes] | None = None
    table_name: bytes = b"table"
    lists: dict[str, str] = field(default_factory=dict)
    """The column lists of -R, -H, -O and -n's presence, by option letter."""
    no_headings: bool = False
    header_repeat: bool = False


def _env_size(ctx: CommandContext, name: str, default: int) -> int:
    value = ctx.env.get(name, "")
    return int(value) if (value.isascii() and value.isdigit()) and int(value) > 0 else default


def _exclusive(excl: dict[str, str], key: str) -> None:
    """util-linux's err_exclusive_options: --table or --json beside --fillrows, as parsed."""
    for pair in excl:
        if key in pair:
            if excl[pair] and excl[pair] != key:
                raise UsageError("mutually exclusive arguments: "
                                 + " ".join(f"--{_LONG_NAMES[k]}" for k in pair), hint=False)
            excl[pair] = excl[pair] or key


def _parse(ctx: CommandContext, argv: list[str]) -> tuple[_Options, list[str]]:
    opts, files = parse_flags(COLUMN_SPEC, argv[1:])
    o = _Options(width=_env_size(ctx, "COLUMNS", 80))
    excl = {"Jx": "", "tx": ""}
    for key, value in opts:
        v = value or ""
        if key in ("t", "J", "x"):
            _exclusive(excl, key)
            o.mode = "rows" if key == "x" else "table"
            o.json = o.json or key == "J"
        elif key == "c":
            if not (v.isascii() and v.isdigit()):
                raise UsageError(f"invalid columns argument: '{v}'", hint=False)
            o.width = int(v)
        elif key == "l":
            if not (v.isascii() and v.isdigit()):
                raise UsageError(f"invalid columns limit argument: '{v}'", hint=False)
            if int(v) == 0:
                raise UsageError("columns limit must be greater than zero", hint=False)
            o.limit = int(v)
        elif key == "s":
            o.seps = arg_bytes(v)
        elif key == "o":
            o.out_sep = arg_bytes(v)
        elif key == "n":
            o.table_name = arg_bytes(v)
            o.lists["n"] = v
        elif key == "N":
            o.names = [arg_bytes(x) for x in v.split(",") if x]
        elif key in ("R", "H", "O"):
            o.lists[key] = v
        else:
            setattr(o, {"L": "keep_empty", "d": "no_headings", "e": "header_repeat"}[key], True)
    if o.mode != "table" and (o.lists or o.names is not None):
        raise UsageError("option --table required for all --table-*", hint=False)
    if o.json and o.names is None:
        raise UsageError("option --table-columns required for --json", hint=False)
    return o, files


def _cells(line: bytes, o: _Options) -> list[bytes]:
    """Split a table line as util-linux does: runs of blanks, or each separator byte with -s;
    with -l the last column takes the rest of the line."""
    if o.seps is not None:
        return [line] if o.limit == 1 else re.split(
            b"[" + re.escape(o.seps) + b"]", line, maxsplit=max(o.limit - 1, 0))
    line = line.lstrip(b" \t")
    cells = [line] if o.limit == 1 else _BLANKS.split(line, maxsplit=max(o.limit - 1, 0))
    return cells[:-1] if cells and not cells[-1] else cells


def _read(ctx: CommandContext, files: list[str], o: _Options) -> tuple[list[list[bytes]], int]:
    """Each line, split into cells for a table (one cell, the line, otherwise)."""
    rows: list[list[bytes]] = []
    status = 0
    named = len(o.names or [])
    for name in files or ["-"]:
        try:
            lines = split_lines(open_input(ctx, name))
            for raw in lines:
                line = raw.split(b"\n", 1)[0]
                if not line.strip(_SPACE):
                    if o.keep_empty:
                        rows.append([])
                    continue
                line = _HIGH.sub(lambda m: b"\\x%02x" % m[0][0], line)
                if o.mode != "table":
                    rows.append([line])
                    continue
                cells = _cells(line, o)
                rows.append(cells)
                if o.json and len(cells) > named:
                    raise UsageError(f"line {len(rows) + 1}: for JSON the name of the column "
                                     f"{named + 1} is required", hint=False)
        except OSError as err:
            ctx.error(f"column: cannot open {name}: {describe_oserror(err)}")
            status = 1
    return rows, status


@with_usage("column")
def column(ctx: CommandContext, argv: list[str]) -> CommandResult:
    o, files = _parse(ctx, argv)
    rows, status = _read(ctx, files, o)
    if o.mode == "table":
        if rows:
            yield _table(ctx, rows, o)
        return status
    entries = [row[0] if row else b"" for row in rows]
    if not entries:
        return status
    longest = max(_width(e) for e in entries)
    col_width = (longest + 8) & ~7
    if longest >= o.width:
        yield b"".join(e + b"\n" for e in entries)
        return status
    numcols = max(1, o.width // col_width)
    out = []
    numrows = (len(entries) + numcols - 1) // numcols
    for row_index in range(numrows):
        if o.mode == "rows":
            chunk = entries[row_index * numcols : (row_index + 1) * numcols]
        else:
            chunk = entries[row_index::numrows]
        out.append(_pad_tabs(chunk, col_width) + b"\n")
    yield b"".join(out)
    return status


def _pick(spec: str, count: int, names: list[bytes], key: str) -> list[int]:
    """The columns a -R/-H/-O list names: numbers from 1, names in any case; a whole list
    of 0 is all of them (not for -O), ``-`` (-H only) those without a name."""
    items = [x for x in spec.split(",") if x]
    unnamed = key == "H"
    if spec == "0" and key != "O":
        return list(range(count))
    picked: list[int] = []
    lowered = [n.lower() for n in names]
    for item in items:
        if item == "-" and unnamed:
            picked.extend(range(len(names), count))
        elif item.isascii() and item.isdigit():
            if 0 < int(item) <= count:
                picked.append(int(item) - 1)
        elif arg_bytes(item).lower() in lowered:
            picked.append(lowered.index(arg_bytes(item).lower()))
        else:
            raise UsageError(f"undefined column name '{item}'", hint=False)
    return picked


def _layout(rows: list[list[bytes]], o: _Options) -> tuple[list[int], set[int]]:
    """The visible columns in output order, and those right-aligned."""
    names = o.names or []
    count = max([len(names)] + [len(row) for row in rows])
    hidden = set(_pick(o.lists["H"], count, names, "H")) if "H" in o.lists else set()
    right = set(_pick(o.lists["R"], count, names, "R")) if "R" in o.lists else set()
    order = list(range(count))
    if "O" in o.lists:
        wanted = list(dict.fromkeys(_pick(o.lists["O"], count, names, "O")))
        order = wanted + [c for c in order if c not in wanted]
    return [c for c in order if c not in hidden], right


def _table(ctx: CommandContext, rows: list[list[bytes]], o: _Options) -> bytes:
    visible, right = _layout(rows, o)
    names = o.names or []
    if o.json:
        return _json(rows, visible, names, o.table_name)
    header: list[bytes] | None = names if o.names is not None else None
    widths = {c: 0 for c in visible}
    for row in rows + ([header] if header is not None else []):
        for c in visible:
            if c < len(row):
                widths[c] = max(widths[c], _width(row[c]))

    def render(row: list[bytes]) -> bytes:
        parts = []
        for index, c in enumerate(visible):
            cell = row[c] if c < len(row) else None
            if index == len(visible) - 1:
                if cell is not None:
                    pad = b" " * (widths[c] - _width(cell))
                    parts.append(pad + cell if c in right else cell)
                break
            cell = cell or b""
            pad = b" " * (widths[c] - _width(cell))
            parts.append((pad + cell if c in right else cell + pad) + o.out_sep)
        return b"".join(parts) + b"\n"

    out = []
    show_header = header is not None and not o.no_headings
    page = _env_size(ctx, "LINES", 24) if o.header_repeat else 0
    for index, row in enumerate(rows):
        if show_header and header is not None and (index == 0 or (page and index % page == 0)):
            out.append(render(header))
        out.append(render(row))
    return b"".join(out)


def _json_text(text: bytes) -> bytes:
    out = bytearray(b'"')
    for byte in text:
        char = bytes([byte])
        if char in b'"\\':
            out += b"\\" + char
        elif char in _JSON_ESCAPES:
            out += _JSON_ESCAPES[char]
        elif byte < 0x20:
            out += b"\\u%04x" % byte
        else:
            out += char
    return bytes(out + b'"')


_JSON_ESCAPES = {b"\b": b"\\b", b"\f": b"\\f", b"\n": b"\\n", b"\r": b"\\r", b"\t": b"\\t"}


def _json(rows: list[list[bytes]], visible: list[int], names: list[bytes], table: bytes) -> bytes:
    """libsmartcols' JSON: names in lower case, every value a string, an empty one null."""
    keys = [_json_text(names[c].lower() if c < len(names) else b"") for c in visible]
    records = []
    for row in rows:
        fields = []
        for key, c in zip(keys, visible):
            value = row[c] if c < len(row) else b""
            fields.append(b"         " + key + b": " + (_json_text(value) if value else b"null"))
        records.append(b",\n".join(fields))
    return (b"{\n   " + _json_text(table.lower()) + b": [\n      {\n"
            + b"\n      },{\n".join(records) + b"\n      }\n   ]\n}\n")


def _width(cell: bytes) -> int:
    """Display width as util-linux computes it in the C locale: control characters take none."""
    return sum(1 for byte in cell if 32 <= byte < 127 or byte >= 128)


def _pad_tabs(cells: list[bytes], col_width: int) -> bytes:
    parts: list[bytes] = []
    column_end = col_width
    position = 0
    for index, cell in enumerate(cells):
        parts.append(cell)
        position += _width(cell)
        if index == len(cells) - 1:
            break
        while True:
            nxt = (position + 8) & ~7
            if nxt > column_end:
                break
            parts.append(b"\t")
            position = nxt
        column_end += col_width
    return b"".join(parts)


COMMANDS = {"column": column}

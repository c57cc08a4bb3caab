"""column (util-linux 2.38 in the C locale): fills columns or, with ``-t``, builds a table.

It must see every line before it can size the columns.
"""

from __future__ import annotations

import re

from ..base import CommandContext, CommandResult
from .basic import with_usage
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import arg_bytes, describe_oserror, open_input, split_lines


COLUMN_SPEC = FlagSpec(
    "c:s:o:txnR:N:eJLlr:dH:O:W:E:",
    {
        "columns": "c=",
        "separator": "s=",
        "output-separator": "o=",
        "table": "t",
        "fillrows": "x",
        "table-noextreme": "table-noextreme=",
        "table-right": "R=",
        "table-columns": "N=",
        "keep-empty-lines": "L",
        "table-header-repeat": "e",
    },
)


@with_usage("column")
def column(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(COLUMN_SPEC, argv[1:])
    width = 80
    seps: bytes | None = None
    out_sep = b"  "
    table = fill_rows = keep_empty = False
    right: set[int] = set()
    headers: list[bytes] | None = None
    for key, value in opts:
        v = value or ""
        if key == "c":
            if not v.isdigit():
                raise UsageError(f"invalid columns argument: '{v}'", hint=False)
            width = int(v)
        elif key == "s":
            seps = arg_bytes(v)
        elif key == "o":
            out_sep = arg_bytes(v)
        elif key == "t":
            table = True
        elif key == "x":
            fill_rows = True
        elif key == "L":
            keep_empty = True
        elif key == "R":
            right |= {int(x) for x in v.split(",") if x.isdigit()}
        elif key == "N":
            headers = [arg_bytes(x) for x in v.split(",")]
    lines: list[bytes] = []
    status = 0
    for name in files or ["-"]:
        try:
            for line in split_lines(open_input(ctx, name)):
                lines.append(line.rstrip(b"\n"))
        except OSError as err:
            ctx.error(f"column: cannot open {name}: {describe_oserror(err)}")
            status = 1
    if table:
        rows: list[list[bytes]] = []
        for line in lines:
            if not line.strip(b" \t"):
                if keep_empty:
                    rows.append([b""])
                continue
            if seps is None:
                rows.append(line.split())
            else:
                rows.append(re.split(b"[" + re.escape(seps) + b"]", line))
        if headers:
            rows.insert(0, headers)
        ncols = max((len(r) for r in rows), default=0)
        widths = [0] * ncols
        for row in rows:
            for index, cell in enumerate(row):
                widths[index] = max(widths[index], _width(cell))
        out = []
        for row in rows:
            cells = row + [b""] * (ncols - len(row))
            parts = []
            for index, cell in enumerate(cells):
                pad = b" " * (widths[index] - _width(cell))
                if index == ncols - 1:
                    # A missing last cell stays empty even when right-aligned.
                    parts.append(pad + cell if index + 1 in right and index < len(row) else cell)
                elif index + 1 in right:
                    parts.append(pad + cell + out_sep)
                else:
                    parts.append(cell + pad + out_sep)
            out.append(b"".join(parts) + b"\n")
        data = b"".join(out)
        if data:
            yield data
        return status
    entries = [line for line in lines if keep_empty or line.strip(b" \t")]
    if not entries:
        return status
    longest = max(_width(e) for e in entries)
    col_width = (longest + 8) & ~7
    if longest >= width:
        yield b"".join(e + b"\n" for e in entries)
        return status
    numcols = max(1, width // col_width)
    out = []
    if fill_rows:
        numrows = (len(entries) + numcols - 1) // numcols
        for row_index in range(numrows):
            chunk = entries[row_index * numcols : (row_index + 1) * numcols]
            out.append(_pad_tabs(chunk, col_width) + b"\n")
    else:
        numrows = (len(entries) + numcols - 1) // numcols
        for row_index in range(numrows):
            chunk = entries[row_index::numrows]
            out.append(_pad_tabs(chunk, col_width) + b"\n")
    yield b"".join(out)
    return status


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

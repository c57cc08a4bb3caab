"""``xan``: a CSV toolkit in the manner of xan (and csvkit): every subcommand reads CSV (a
file or standard input, first row the header) and writes CSV.

    xan headers|count FILE
    xan select COLS FILE               COLS: names or 0-based indices, a,b / a:c ranges, !a to drop
    xan search [-s COLS] [-i] [-v] PATTERN FILE     rows where a column matches the regex
    xan sort [-s COLS] [-N] [-R] FILE               -N numeric, -R reverse (stable)
    xan slice [-s START] [-e END] [-l LEN] FILE     rows START..END (0-based, END exclusive)
    xan stats [-s COLS] FILE           field,count,count_empty,type,sum,mean,min,max
    xan frequency [-s COLS] [-l N] FILE             field,value,count, most frequent first
    xan head [-l N] FILE / xan view FILE            first rows / an aligned table

``-d SEP`` sets the input delimiter. Bad usage is status 1 with a message, like xan.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import Counter
from typing import Iterator

from ..base import CommandContext, CommandResult
from ..text.common import describe_oserror, open_input

USAGE = ("usage: xan <command> [options] [file]\n"
         "commands: count frequency head headers search select slice sort stats view")


class XanError(Exception):
    pass


def _read(ctx: CommandContext, name: str, delimiter: str) -> tuple[list[str], list[list[str]]]:
    data = b"".join(open_input(ctx, name)).decode("utf-8", "surrogateescape")
    rows = list(csv.reader(io.StringIO(data), delimiter=delimiter))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def _write(header: list[str], rows: list[list[str]]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if header:
        writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue().encode("utf-8", "surrogateescape")


def select_columns(header: list[str], spec: str) -> list[int]:
    """Column indices for ``a,b``, ``0,2``, ``a:c`` (inclusive) and ``!a`` (all but)."""
    if spec.startswith("!"):
        dropped = set(select_columns(header, spec[1:]))
        return [k for k in range(len(header)) if k not in dropped]
    chosen: list[int] = []
    for part in next(csv.reader([spec])):
        if ":" in part and part not in header:
            lo, _, hi = part.partition(":")
            start = _index(header, lo) if lo else 0
            end = _index(header, hi) if hi else len(header) - 1
            step = 1 if end >= start else -1
            chosen += list(range(start, end + step, step))
        else:
            chosen.append(_index(header, part))
    return chosen


def _index(header: list[str], name: str) -> int:
    if name in header:
        return header.index(name)
    if (name.isascii() and name.isdigit()) and int(name) < len(header):
        return int(name)
    raise XanError(f'Selector "{name}" does not match any column')


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _format(value: float) -> str:
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(round(value, 10))


def _parse(args: list[str], flags: str, valued: str) -> tuple[dict[str, str], list[str]]:
    """Short options: ``flags`` take no value, ``valued`` take one (``-s a`` / ``-sa``)."""
    opts: dict[str, str] = {}
    rest: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        long_names = {"--select": "s", "--delimiter": "d", "--limit": "l", "--numeric": "N", "--reverse": "R",
                      "--ignore-case": "i", "--invert-match": "v", "--start": "s", "--end": "e", "--len": "l"}
        if arg in long_names:
            arg = "-" + long_names[arg]
        if len(arg) >= 2 and arg[0] == "-" and arg[1] in valued:
            if len(arg) > 2:
                opts[arg[1]] = arg[2:]
            elif k + 1 < len(args):
                k += 1
                opts[arg[1]] = args[k]
            else:
                raise XanError(f"option -{arg[1]} needs a value")
        elif len(arg) >= 2 and arg[0] == "-" and all(c in flags for c in arg[1:]):
            for c in arg[1:]:
                opts[c] = ""
        elif arg.startswith("-") and arg != "-":
            raise XanError(f"unknown option {arg}")
        else:
            rest.append(arg)
        k += 1
    return opts, rest


def _stats(header: list[str], rows: list[list[str]], cols: list[int]) -> list[list[str]]:
    out = []
    for k in cols:
        values = [r[k] if k < len(r) else "" for r in rows]
        filled = [v for v in values if v != ""]
        numbers = [n for n in (_number(v) for v in filled) if n is not None]
        if filled and len(numbers) == len(filled):
            kind = "int" if all(n == int(n) and "." not in v for n, v in zip(numbers, filled)) else "float"
            total = sum(numbers)
            out.append([header[k], str(len(values)), str(len(values) - len(filled)), kind, _format(total),
                        _format(total / len(numbers)), _format(min(numbers)), _format(max(numbers))])
        else:
            kind = "string" if filled else "empty"
            out.append([header[k], str(len(values)), str(len(values) - len(filled)), kind, "", "",
                        min(filled) if filled else "", max(filled) if filled else ""])
    return out


def _frequency(header: list[str], rows: list[list[str]], cols: list[int], limit: int) -> list[list[str]]:
    out = []
    for k in cols:
        counts = Counter(r[k] if k < len(r) else "" for r in rows)
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        for value, count in ranked[:limit] if limit > 0 else ranked:
            out.append([header[k], value, str(count)])
    return out


def _view(header: list[str], rows: list[list[str]]) -> bytes:
    table = [header] + rows
    widths = [max(len(r[k]) if k < len(r) else 0 for r in table) for k in range(len(header))]
    lines = [" | ".join((r[k] if k < len(r) else "").ljust(w) for k, w in enumerate(widths)).rstrip() for r in table]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def _run(ctx: CommandContext, sub: str, args: list[str]) -> Iterator[bytes]:
    opts, rest = _parse(args, "NRivn", "sdlek")
    delimiter = _unescape(opts.get("d", ","))
    if sub == "select":
        if not rest:
            raise XanError("usage: xan select COLUMNS [FILE]")
        spec, rest = rest[0], rest[1:]
        opts["s"] = spec
    if sub == "search":
        if not rest:
            raise XanError("usage: xan search [-s COLS] PATTERN [FILE]")
        pattern, rest = rest[0], rest[1:]
    header, rows = _read(ctx, rest[0] if rest else "-", delimiter)
    cols = select_columns(header, opts["s"]) if "s" in opts and sub != "slice" else list(range(len(header)))
    if sub == "headers":
        yield "".join(f"{k:<3}{h}\n" if "n" not in opts else f"{h}\n" for k, h in enumerate(header)).encode()
    elif sub == "count":
        yield f"{len(rows)}\n".encode()
    elif sub == "select":
        yield _write([header[k] for k in cols], [[r[k] if k < len(r) else "" for k in cols] for r in rows])
    elif sub == "search":
        try:
            rx = re.compile(pattern, re.IGNORECASE if "i" in opts else 0)
        except re.error as exc:
            raise XanError(f"invalid regex: {exc}") from None
        invert = "v" in opts
        kept = [r for r in rows if any(rx.search(r[k]) for k in cols if k < len(r)) != invert]
        yield _write(header, kept)
    elif sub == "sort":
        def key(row: list[str]) -> tuple[object, ...]:
            values = [row[k] if k < len(row) else "" for k in cols]
            if "N" in opts:
                return tuple((n is None, n if n is not None else 0.0) for n in (_number(v) for v in values))
            return tuple(values)
        yield _write(header, sorted(rows, key=key, reverse="R" in opts))
    elif sub in ("slice", "head"):
        start = int(opts.get("s", "0")) if sub == "slice" else 0
        end = int(opts["e"]) if "e" in opts else None
        if "l" in opts:
            end = start + int(opts["l"])
        elif sub == "head":
            end = 10
        yield _write(header, rows[start:end])
    elif sub == "stats":
        yield _write(["field", "count", "count_empty", "type", "sum", "mean", "min", "max"], _stats(header, rows, cols))
    elif sub in ("frequency", "freq"):
        yield _write(["field", "value", "count"], _frequency(header, rows, cols, int(opts.get("l", "10"))))
    elif sub == "view":
        yield _view(header, rows)
    else:
        raise XanError(f"unknown command {sub!r}\n{USAGE}")


def _unescape(text: str) -> str:
    return "\t" if text in ("\\t", "tab") else text


def run_xan(ctx: CommandContext, argv: list[str]) -> CommandResult:
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        if len(argv) < 2:
            ctx.error(USAGE)
            return 1
        yield (USAGE + "\n").encode()
        return 0
    try:
        yield from _run(ctx, argv[1], argv[2:])
    except XanError as exc:
        ctx.error(f"xan {argv[1]}: {exc}")
        return 1
    except OSError as exc:
        ctx.error(f"xan {argv[1]}: {describe_oserror(exc)}")
        return 1
    except ValueError as exc:
        ctx.error(f"xan {argv[1]}: {exc}")
        return 1
    return 0


COMMANDS = {"xan": run_xan}

"""``sqlite3``: the SQLite shell over the guest's ``sqlite3`` module, on workspace files.

Follows the sqlite3 3.40 command-line shell: SQL from the arguments (stops at the first
error) or from standard input (goes on after an error; the status is 1 if any failed), the
output modes ``list csv tabs json line column table markdown box quote``, ``-header``,
``-separator``, ``-cmd``, and the dot commands ``.tables .schema .indexes .mode .headers
.separator .nullvalue .import .read .dump .quit``. Numbers print as the shell prints them
(``%!.15g``; JSON and quote mode keep 20 digits).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Iterator

from ..base import CommandContext, CommandResult
from ... import fs, fs_os

_MODES = ("list", "csv", "tabs", "json", "line", "column", "table", "markdown", "box", "quote")


class DotError(Exception):
    pass


@dataclass
class _Shell:
    ctx: CommandContext
    db: sqlite3.Connection
    mode: str = "list"
    headers: bool = False
    separator: str = "|"
    null: str = ""
    failed: bool = False
    out: list[bytes] = field(default_factory=list)
    quit: bool = False
    row_end: str = "\n"
    """``.mode csv`` ends rows with CRLF (RFC 4180); the ``-csv`` option keeps LF."""

    def emit(self, text: str) -> None:
        self.out.append(text.encode("utf-8", "surrogateescape"))

    def set_mode(self, mode: str) -> None:
        if mode not in _MODES:
            raise DotError(f'Error: mode should be one of: {" ".join(_MODES)}')
        self.mode = mode
        if mode == "csv":
            self.separator = ","
        elif mode == "tabs":
            self.separator = "\t"
        elif mode == "list" and self.separator in (",", "\t"):
            self.separator = "|"
        if mode in ("table", "markdown", "box") and not self._explicit_headers:
            self.headers = True

    _explicit_headers: bool = False


def _number(value: float, digits: int) -> str:
    text = format(value, f".{digits}g")
    if text in ("inf", "-inf"):
        return "Inf" if text == "inf" else "-Inf"
    if "e" in text:
        mantissa, exp = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exp}"
    return text if "." in text or "n" in text else text + ".0"


def _text(value: object, null: str) -> str:
    if value is None:
        return null
    if isinstance(value, float):
        return _number(value, 15)
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def _json_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return _number(value, 20)
    if isinstance(value, int):
        return str(value)
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return json.dumps(text, ensure_ascii=False)


def _quote_value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return _number(value, 20)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, bytes):
        return "X'" + value.hex().upper() + "'"
    return "'" + str(value).replace("'", "''") + "'"


def _csv_field(text: str, sep: str) -> str:
    if text == "" or not any(c in text for c in (sep, '"', "\n", "\r", " ")):
        return text if text else ""
    if any(c in text for c in (sep, '"', "\n", "\r", " ")):
        return '"' + text.replace('"', '""') + '"'
    return text


def render(sh: _Shell, names: list[str], rows: list[tuple[object, ...]]) -> str:
    """One statement's result in the current mode."""
    mode = sh.mode
    if mode == "json":
        if not rows:
            return ""
        body = ",\n".join("{" + ",".join(f"{json.dumps(n)}:{_json_value(v)}" for n, v in zip(names, row)) + "}"
                          for row in rows)
        return "[" + body + "]\n"
    if mode == "line":
        width = max([5] + [len(n) for n in names])
        blocks = ["\n".join(f"{n:>{width}} = {_text(v, sh.null)}" for n, v in zip(names, row)) for row in rows]
        return "\n\n".join(blocks) + "\n" if blocks else ""
    if mode in ("column", "table", "markdown", "box"):
        return _grid(sh, names, rows)
    lines: list[str] = []
    if mode == "quote":
        if sh.headers:
            lines.append(",".join(_quote_value(n) for n in names))
        lines += [",".join(_quote_value(v) for v in row) for row in rows]
    elif mode == "csv":
        if sh.headers:
            lines.append(sh.separator.join(_csv_field(n, sh.separator) for n in names))
        lines += [sh.separator.join(_csv_field(_text(v, sh.null), sh.separator) for v in row) for row in rows]
        return "".join(line + sh.row_end for line in lines)
    else:
        if sh.headers:
            lines.append(sh.separator.join(names))
        lines += [sh.separator.join(_text(v, sh.null) for v in row) for row in rows]
    return "".join(line + "\n" for line in lines)


def _grid(sh: _Shell, names: list[str], rows: list[tuple[object, ...]]) -> str:
    cells = [[_text(v, sh.null) for v in row] for row in rows]
    widths = [max([len(n)] + [len(r[k]) for r in cells]) for k, n in enumerate(names)]
    if sh.mode == "column":
        lines = []
        if sh.headers:
            lines.append("  ".join(n.ljust(w) for n, w in zip(names, widths)))
            lines.append("  ".join("-" * w for w in widths))
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in cells]
        return "".join(line + "\n" for line in lines)
    if not rows and not names:
        return ""
    left, mid, right, bar = {"table": ("+", "+", "+", "-"), "markdown": ("|", "|", "|", "-"),
                             "box": ("\u251c", "\u253c", "\u2524", "\u2500")}[sh.mode]
    vertical = "\u2502" if sh.mode == "box" else "|"

    def rule(lft: str, mdl: str, rgt: str) -> str:
        return lft + mdl.join(bar * (w + 2) for w in widths) + rgt

    def line(values: list[str], centre: bool) -> str:
        parts = [(_centre(v, w) if centre else v.ljust(w)) for v, w in zip(values, widths)]
        return vertical + vertical.join(f" {p} " for p in parts) + vertical

    out: list[str] = []
    if sh.mode == "table":
        out.append(rule("+", "+", "+"))
    elif sh.mode == "box":
        out.append(rule("\u250c", "\u252c", "\u2510"))
    out.append(line(names, True))
    out.append(rule(left, mid, right))
    out += [line(r, False) for r in cells]
    if sh.mode == "table":
        out.append(rule("+", "+", "+"))
    elif sh.mode == "box":
        out.append(rule("\u2514", "\u2534", "\u2518"))
    return "".join(o + "\n" for o in out)


def _centre(text: str, width: int) -> str:
    extra = max(0, width - len(text))
    return " " * (extra // 2) + text + " " * (extra - extra // 2)


def run_sql(sh: _Shell, sql: str, line: int) -> bool:
    """Run every statement in ``sql``; False at the first error (reported like the shell)."""
    for statement in _statements(sql):
        try:
            cursor = sh.db.execute(statement)
            rows = cursor.fetchall() if cursor.description else []
            if cursor.description:
                names = [d[0] for d in cursor.description]
                sh.emit(render(sh, names, rows))
            sh.db.commit()
        except sqlite3.Error as exc:
            sh.ctx.error(f"Parse error near line {line}: {exc}" if line else f"Error: in prepare, {exc}")
            sh.failed = True
            return False
    return True


def _statements(sql: str) -> Iterator[str]:
    buf = ""
    for piece in re.split(r"(;)", sql):
        buf += piece
        if piece == ";" and sqlite3.complete_statement(buf):
            if buf.strip(" \t\n;"):
                yield buf
            buf = ""
    if buf.strip():
        yield buf


def dot_command(sh: _Shell, text: str) -> None:
    words = _dot_words(text)
    name, args = words[0], words[1:]
    if name in (".quit", ".exit"):
        sh.quit = True
    elif name == ".tables":
        found = [r[0] for r in sh.db.execute(
            "select name from sqlite_schema where type in ('table','view') and name not like 'sqlite_%' "
            "and name like ? order by 1", (args[0] if args else "%",))]
        if found:
            width = max(len(n) for n in found)
            per_line = max(1, 80 // (width + 2))
            for k in range(0, len(found), per_line):
                sh.emit("  ".join(n.ljust(width) for n in found[k:k + per_line]).rstrip() + "\n")
    elif name == ".schema":
        query = "select sql from sqlite_schema where sql is not null and name not like 'sqlite_%'"
        params: tuple[str, ...] = ()
        if args:
            query += " and (name like ? or tbl_name like ?)"
            params = (args[0], args[0])
        for (sql,) in sh.db.execute(query + " order by tbl_name, type desc, name", params):
            sh.emit(sql + ";\n")
    elif name == ".indexes" or name == ".indices":
        query = "select name from sqlite_schema where type='index'" + (" and tbl_name like ?" if args else "")
        for (index,) in sh.db.execute(query + " order by 1", tuple(args[:1])):
            sh.emit(index + "\n")
    elif name == ".mode":
        if not args:
            sh.emit(f"current output mode: {sh.mode}\n")
        else:
            sh.set_mode(args[0])
            sh.row_end = "\r\n" if args[0] == "csv" else "\n"
    elif name in (".headers", ".header"):
        sh.headers = bool(args) and args[0].lower() in ("on", "1", "yes", "true")
        sh._explicit_headers = True
    elif name == ".separator" and args:
        sh.separator = _unescape(args[0])
    elif name == ".nullvalue" and args:
        sh.null = args[0]
    elif name == ".import":
        _import(sh, args)
    elif name == ".read" and args:
        with fs.open(sh.ctx.host_path(args[0]), encoding="utf-8", errors="surrogateescape") as handle:
            run_lines(sh, handle.read())
    elif name == ".dump":
        _dump(sh)
    elif name in (".bail", ".echo", ".timer", ".changes", ".width", ".print") and name != ".print":
        pass
    elif name == ".print":
        sh.emit(" ".join(args) + "\n")
    else:
        raise DotError(f'Error: unknown command or invalid arguments:  "{name[1:]}". Enter ".help" for help')


def _dump(sh: _Shell) -> None:
    """``.dump``: the schema and an INSERT per row, values written by SQL's own quote()."""
    sh.emit("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
    tables = sh.db.execute("select name, sql from sqlite_schema where type='table' and name not like 'sqlite_%'"
                           " order by rowid").fetchall()
    for name, sql in tables:
        sh.emit(sql + ";\n")
        quoted = '"' + name.replace('"', '""') + '"'
        shown = name if re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", name) else quoted
        columns = [row[1] for row in sh.db.execute(f"pragma table_info({quoted})")]
        values = " || ',' || ".join(f'quote("{c.replace(chr(34), chr(34) * 2)}")' for c in columns) or "''"
        for (row,) in sh.db.execute(f"select {values} from {quoted}"):
            sh.emit(f"INSERT INTO {shown} VALUES({row});\n")
    for (sql,) in sh.db.execute("select sql from sqlite_schema where type in ('index','trigger','view')"
                                " and sql is not null order by rowid"):
        sh.emit(sql + ";\n")
    sh.emit("COMMIT;\n")


def _dot_words(text: str) -> list[str]:
    words: list[str] = []
    for m in re.finditer(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)""", text.strip()):
        words.append(m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3))
    return words


def _unescape(text: str) -> str:
    return text.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r")


def _import(sh: _Shell, args: list[str]) -> None:
    skip = 0
    csv_mode = sh.mode == "csv"
    rest: list[str] = []
    k = 0
    while k < len(args):
        if args[k] == "--csv":
            csv_mode = True
        elif args[k] == "--skip" and k + 1 < len(args):
            k += 1
            skip = int(args[k])
        elif args[k].startswith("--"):
            pass
        else:
            rest.append(args[k])
        k += 1
    if len(rest) != 2:
        raise DotError("Usage: .import FILE TABLE")
    path, table = rest
    if path == "-":
        data = b"".join(sh.ctx.stdin)
    else:
        with fs.open(sh.ctx.host_path(path), "rb") as handle:
            data = handle.read()
    text = data.decode("utf-8", "surrogateescape")
    sep = "," if csv_mode else sh.separator
    rows = list(csv.reader(io.StringIO(text), delimiter=sep)) if csv_mode or len(sep) == 1 else \
        [line.split(sep) for line in text.splitlines()]
    rows = rows[skip:]
    if not rows:
        return
    exists = sh.db.execute("select 1 from sqlite_schema where type='table' and name=?", (table,)).fetchone()
    quoted = '"' + table.replace('"', '""') + '"'
    if not exists:
        header, rows = rows[0], rows[1:]
        cols = ", ".join('"' + h.replace('"', '""') + '" TEXT' for h in header)
        sh.db.execute(f"CREATE TABLE IF NOT EXISTS {quoted}(\n{cols})")
    width = len(sh.db.execute(f"select * from {quoted} limit 0").description)
    for row in rows:
        values = (row + [""] * width)[:width] if len(row) < width else row[:width]
        sh.db.execute(f"insert into {quoted} values({','.join('?' * width)})", values)
    sh.db.commit()


def run_lines(sh: _Shell, text: str) -> None:
    """Standard input (or ``.read``): dot commands one per line, SQL until complete."""
    buf = ""
    start = 0
    for number, line in enumerate(text.split("\n"), 1):
        if not buf.strip() and line.lstrip().startswith("."):
            try:
                dot_command(sh, line)
            except (DotError, OSError, ValueError, sqlite3.Error) as exc:
                sh.ctx.error(str(exc) if isinstance(exc, DotError) else f"Error: {exc}")
                sh.failed = True
            if sh.quit:
                return
            continue
        if not buf.strip():
            start = number
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            run_sql(sh, buf, start)
            buf = ""
    if buf.strip():
        run_sql(sh, buf, start)


def run_sqlite3(ctx: CommandContext, argv: list[str]) -> CommandResult:
    args = argv[1:]
    mode: str | None = None
    headers: bool | None = None
    separator: str | None = None
    commands: list[str] = []
    readonly = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        opt = args.pop(0).lstrip("-")
        if opt in _MODES:
            mode = opt
        elif opt == "header":
            headers = True
        elif opt == "noheader":
            headers = False
        elif opt in ("separator", "nullvalue", "cmd") and args:
            value = args.pop(0)
            if opt == "separator":
                separator = _unescape(value)
            elif opt == "cmd":
                commands.append(value)
        elif opt == "readonly":
            readonly = True
        elif opt == "version":
            yield f"{sqlite3.sqlite_version}\n".encode()
            return 0
        elif opt in ("batch", "bail", "interactive", "echo"):
            pass
        else:
            ctx.error(f"sqlite3: Error: unknown option: -{opt}\nUse -help for a list of options.")
            return 1
    filename = args.pop(0) if args else ":memory:"
    try:
        if filename == ":memory:":
            db = sqlite3.connect(":memory:")
        else:
            target = ctx.host_path(filename)
            if not readonly and fs.isdir(target):
                raise sqlite3.OperationalError("unable to open database file")
            db = fs_os.connect_sqlite(target, readonly)
    except sqlite3.Error as exc:
        ctx.error(f'Error: unable to open database "{filename}": {exc}')
        return 1
    sh = _Shell(ctx, db)
    try:
        if mode:
            sh.set_mode(mode)
        if headers is not None:
            sh.headers, sh._explicit_headers = headers, True
        if separator is not None:
            sh.separator = separator
        for text in commands + args:
            if text.lstrip().startswith("."):
                try:
                    dot_command(sh, text)
                except (DotError, OSError, ValueError, sqlite3.Error) as exc:
                    ctx.error(str(exc) if isinstance(exc, DotError) else f"Error: {exc}")
                    sh.failed = True
                    break
            elif not run_sql(sh, text, 0):
                break
            yield from _flush(sh)
        if not args:
            run_lines(sh, b"".join(ctx.stdin).decode("utf-8", "surrogateescape"))
        yield from _flush(sh)
    finally:
        fs_os.close_sqlite(db)
    return 1 if sh.failed else 0


def _flush(sh: _Shell) -> Iterator[bytes]:
    if sh.out:
        data = b"".join(sh.out)
        sh.out.clear()
        yield data


COMMANDS = {"sqlite3": run_sqlite3}

"""gzip, gunzip and zcat over ``gzipfmt``, with GNU messages.

gunzip and zcat are gzip under other names, and their messages say "gzip" as GNU's do.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
import os
import stat as st
import time
from typing import Callable, Generator, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import effective_mode, host, set_mode, strerror
from .gzipfmt import (
    GzipFormatError,
    compress_stream,
    decompress_stream,
    member_info,
    header_end,
    gzip_compress,
    gzip_decompress,
)
from ..base import CommandContext, CommandResult
from ... import fs
from ...tz import zone_of

__all__ = ["COMMANDS"]


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def gzip_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "gzip")


def gunzip_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "gunzip")


def zcat_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "zcat")


# GNU gzip's flags; the digits are compression levels (``-1`` is ``--fast``, ``-9`` ``--best``).
_SPEC = FlagSpec("cdkfvqltnN123456789rS:", {
    "stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d", "keep": "k",
    "force": "f", "verbose": "v", "quiet": "q", "list": "l", "test": "t", "no-name": "n",
    "name": "N", "fast": "1", "best": "9", "recursive": "r", "suffix": "S=",
})


@dataclass
class _Options:
    """What gzip's command line asks for."""

    decompress: bool
    to_stdout: bool
    keep: bool = False
    force: bool = False
    verbose: bool = False
    quiet: bool = False
    listing: bool = False
    test: bool = False
    save_name: bool = True
    recursive: bool = False
    level: int = 6
    suffix: str = ".gz"


def _parse_options(argv: list[str], prog: str) -> tuple[_Options, list[str]]:
    """The options and file names of a gzip, gunzip or zcat command line (``UsageError``)."""
    o = _Options(decompress=prog in ("gunzip", "zcat"), to_stdout=prog == "zcat")
    opts, names = parse_flags(_SPEC, argv[1:])
    for c, value in opts:
        if c == "c":
            o.to_stdout = True
        elif c == "d":
            o.decompress = True
        elif c == "k":
            o.keep = True
        elif c == "f":
            o.force = True
        elif c == "v":
            o.verbose, o.quiet = True, False
        elif c == "q":
            o.quiet, o.verbose = True, False
        elif c == "l":
            o.listing = True
        elif c == "t":
            o.test = True
        elif c == "n":
            o.save_name = False
        elif c == "N":
            o.save_name = True
        elif c in "123456789":
            o.level = int(c)
        elif c == "r":
            o.recursive = True
        elif c == "S" and value is not None:
            o.suffix = value
    if o.test or o.listing:
        o.decompress = True
    return o, names


def _gzip(ctx: CommandContext, argv: list[str], prog: str) -> CommandResult:
    # gunzip and zcat are gzip under another name, and GNU's messages say "gzip".
    try:
        o, names = _parse_options(argv, prog)
    except UsageError as err:
        ctx.error(f"gzip: {err.message}")
        ctx.error("Try `gzip --help' for more information.")
        return 1
    prog = "gzip"
    status = 0

    def warn(code: int) -> None:
        # An error (1) overrides a warning (2); a warning never hides an error.
        nonlocal status
        if code == 1 or status == 0:
            status = code

    if o.listing:
        return (yield from _gzip_list(ctx, prog, names or ["-"], o.verbose))
    if o.recursive:
        names = _expand_recursive(ctx, names, o.suffix if o.decompress else None)
    for name in names or ["-"]:
        if name == "-":
            try:
                for piece in _transform(ctx.stdin, o.decompress, o.force, o.level, None, 0):
                    if not o.test:
                        yield piece
            except GzipFormatError as err:
                ctx.error(_gzip_error(prog, "stdin", err))
                warn(1 if "trailing garbage" not in err.message else 2)
            continue
        code = yield from _gzip_file(ctx, prog, o, name)
        if code:
            warn(code)
    return status


def _gzip_file(ctx: CommandContext, prog: str, o: _Options, name: str) -> Generator[bytes, None, int]:
    """Compress, decompress or test one named file; returns 0, or the status it asks for
    (1 an error, 2 a warning)."""
    real = host(ctx, name)
    shown = name
    if o.decompress and not fs.exists(real) and not name.endswith(o.suffix):
        alt = host(ctx, name + o.suffix)
        if fs.exists(alt):
            real, shown = alt, name + o.suffix
        else:
            shown = name + o.suffix
    try:
        info = fs.stat(real)
    except OSError as exc:
        if not o.quiet:
            ctx.error(f"{prog}: {shown}: {strerror(exc)}")
        return 1
    if st.S_ISDIR(info.st_mode):
        if not o.quiet:
            ctx.error(f"{prog}: {shown} is a directory -- ignored")
        return 2
    if not o.decompress and shown.endswith(o.suffix) and not o.to_stdout:
        if not o.quiet:
            ctx.error(f"{prog}: {shown} already has {o.suffix} suffix -- unchanged")
        return 0
    if o.decompress and not o.to_stdout and not o.test and not shown.endswith(o.suffix) \
            and not shown.endswith((".tgz", ".taz")):
        if not o.quiet:
            ctx.error(f"{prog}: {shown}: unknown suffix -- ignored")
        return 2
    if o.to_stdout or o.test:
        base = shown.rsplit("/", 1)[-1]
        try:
            with fs.open(real, "rb") as fh:
                chunks = iter(lambda: fh.read(1 << 16), b"")
                stream = _transform(chunks, o.decompress, o.force and o.to_stdout, o.level,
                                    base if o.save_name else None,
                                    int(info.st_mtime) if o.save_name else 0)
                for piece in stream:
                    if not o.test:
                        yield piece
        except GzipFormatError as err:
            ctx.error(_gzip_error(prog, shown, err))
            return 1 if "trailing garbage" not in err.message else 2
        if o.test and o.verbose:
            ctx.error(f"{shown}:\t OK")
        return 0
    with fs.open(real, "rb") as fh:
        data = fh.read()
    try:
        if o.decompress:
            if data[:2] != b"\x1f\x8b" and o.force and o.to_stdout:
                result = data
            else:
                result = gzip_decompress(data)
        else:
            base = shown.rsplit("/", 1)[-1]
            if o.save_name:
                result = gzip_compress(data, o.level, base, int(info.st_mtime))
            else:
                result = gzip_compress(data, o.level)
    except GzipFormatError as err:
        ctx.error(_gzip_error(prog, shown, err))
        return 1
    if o.test:
        if o.verbose:
            ctx.error(f"{shown}:\t OK")
        return 0
    if o.to_stdout:
        yield result
        return 0
    if o.decompress:
        target = shown[: -len(o.suffix)] if shown.endswith(o.suffix) else shown[:-4] + ".tar"
    else:
        target = shown + o.suffix
    target_real = host(ctx, target)
    if fs.lexists(target_real) and not o.force:
        ctx.error(f"{prog}: {target} already exists;\tnot overwritten")
        return 2
    with fs.open(target_real, "wb") as out:
        out.write(result)
    try:
        set_mode(ctx, target_real, st.S_IMODE(effective_mode(ctx, real, info)))
    except OSError:
        pass
    fs.utime(target_real, ns=(info.st_atime_ns, info.st_mtime_ns))
    if o.verbose:
        ratio = _ratio(data, len(result)) if o.decompress else _ratio(result, len(data))
        ctx.error(f"{shown}:\t{ratio} -- replaced with {target}")
    if not o.keep:
        fs.unlink(real)
    return 0


def _transform(
    chunks: Iterator[bytes], decompress: bool, passthrough: bool, level: int,
    name: str | None, mtime: int,
) -> Iterator[bytes]:
    """Compress or decompress a stream; with ``passthrough`` (-dcf) non-gzip data is copied."""
    if not decompress:
        return compress_stream(chunks, level, name, mtime)
    if not passthrough:
        return decompress_stream(chunks)
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= 2:
            break
    rest = itertools.chain([head], chunks)
    if head[:2] == b"\x1f\x8b":
        return decompress_stream(rest)
    return (piece for piece in rest if piece)


def _expand_recursive(ctx: CommandContext, names: list[str], only_suffix: str | None) -> list[str]:
    """``-r``: a directory operand stands for every file beneath it, in name order.

    When decompressing, files found this way without the suffix are skipped quietly.
    """
    out: list[str] = []
    for name in names:
        real = host(ctx, name)
        if name == "-" or not fs.isdir(real):
            out.append(name)
            continue
        for base, dirs, files in _sorted_walk(real):
            rel = os.path.relpath(base, real)
            prefix = name.rstrip("/") + ("" if rel == "." else "/" + rel)
            out.extend(prefix + "/" + f for f in files
                       if only_suffix is None or f.endswith(only_suffix))
            del dirs
    return out


def _sorted_walk(real: str) -> list[tuple[str, list[str], list[str]]]:
    result: list[tuple[str, list[str], list[str]]] = []
    for base, dirs, files in fs.walk(real):
        dirs.sort()
        result.append((base, dirs, sorted(files)))
    return result


def _gzip_error(prog: str, name: str, err: GzipFormatError) -> str:
    # GNU gzip starts its data-error messages on a fresh line.
    if "trailing garbage" not in err.message:
        return f"\n{prog}: {name}: {err.message}"
    return f"{prog}: {name}: {err.message}"


def _ratio(gz: bytes, original: int) -> str:
    """gzip's ratio: deflate payload (without header and trailer) against the original."""
    try:
        overhead = header_end(gz, 0) + 8
    except GzipFormatError:
        overhead = 18
    payload = len(gz) - overhead
    value = 0.0 if original == 0 else 100.0 * (original - payload) / original
    return f"{value:5.1f}%"


def _gzip_list(
    ctx: CommandContext, prog: str, names: list[str], verbose: bool
) -> Generator[bytes, None, int]:
    """``gzip -l``: the header comes with the first readable file; totals for several."""
    header = "         compressed        uncompressed  ratio uncompressed_name\n"
    if verbose:
        header = "method  crc     date  time  " + header
    status = 0
    shown_header = False
    total_c = total_u = 0
    last: bytes = b""
    for name in names:
        if name == "-":
            data = ctx.read_all_stdin()
            label, target, mtime_default = "stdin", "stdout", time.time()
        else:
            real = host(ctx, name)
            try:
                with fs.open(real, "rb") as fh:
                    data = fh.read()
                mtime_default = fs.stat(real).st_mtime
            except OSError as exc:
                ctx.error(f"{prog}: {name}: {strerror(exc)}")
                status = 1
                continue
            label, target = name, name[:-3] if name.endswith(".gz") else name
        if len(data) < 18 or data[:2] != b"\x1f\x8b":
            why = "unexpected end of file" if len(data) < 2 or data[:2] == b"\x1f\x8b" else "not in gzip format"
            ctx.error(f"\n{prog}: {label}: {why}")
            status = 1
            continue
        if not shown_header:
            yield _b(header)
            shown_header = True
        crc, size, mtime = member_info(data)
        total_c += len(data)
        total_u += size
        last = data
        line = f"{len(data):>19} {size:>19} {_ratio(data, size)} {target}\n"
        if verbose:
            when = time.strftime("%b %e %H:%M", zone_of(ctx.env).localtime(int((mtime or mtime_default) // 1))[0])
            line = f"defla {crc:08x} {when} " + line
        yield _b(line)
    if len(names) > 1 and shown_header:
        # GNU's totals ratio discounts only the last file's header and trailer.
        try:
            overhead = header_end(last, 0) + 8
        except GzipFormatError:
            overhead = 18
        payload = total_c - overhead
        value = 0.0 if total_u == 0 else 100.0 * (total_u - payload) / total_u
        line = f"{total_c:>19} {total_u:>19} {value:5.1f}% (totals)\n"
        yield _b(" " * 28 + line if verbose else line)
    return status


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "gzip": gzip_cmd, "gunzip": gunzip_cmd, "zcat": zcat_cmd,
}

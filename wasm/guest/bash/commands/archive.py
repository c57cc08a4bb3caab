"""Archive commands: gzip, gunzip, zcat and tar, with GNU messages and listing formats.

Compression uses zlib with gzip's parameters (raw deflate, window 15, memLevel 8), so a
``.gz`` written here matches GNU gzip byte for byte when the header fields (name, mtime)
match. tar writes GNU-format archives through ``tarfile``; members are added in name order
(GNU tar uses readdir order, which no filesystem fixes) and owned by ``user/user``
(uid/gid 1000), the sandbox's only account.
"""

from __future__ import annotations

import io
import os
import stat as st
import struct
import tarfile
import time
import zlib
from typing import Callable, Generator, Iterator

from ._files_common import (
    OWNER_ID,
    OWNER_NAME,
    c_sort_key,
    effective_mode,
    host,
    mode_string,
    quote_always,
    set_mode,
    strerror,
)
from ._files_glob import glob_regex
from ._files_copy import make_symlink
from .base import CommandContext, CommandResult


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- gzip format -------------------------------------------------------------------------


class GzipFormatError(Exception):
    """Input is not gzip data; ``message`` is GNU's wording."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def gzip_compress(data: bytes, level: int = 6, name: str | None = None, mtime: int = 0) -> bytes:
    """A single-member gzip file laid out as GNU gzip writes it."""
    flags = 0x08 if name else 0
    xfl = 2 if level == 9 else (4 if level == 1 else 0)
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime & 0xFFFFFFFF)
    header += bytes([xfl, 3])
    if name:
        header += name.encode("latin-1", "replace") + b"\0"
    comp = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
    body = comp.compress(data) + comp.flush()
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return header + body + trailer


def gzip_decompress(data: bytes) -> bytes:
    """Decompress every member of a gzip stream (trailing zero padding is allowed)."""
    if len(data) < 2:
        raise GzipFormatError("unexpected end of file")
    if data[:2] != b"\x1f\x8b":
        raise GzipFormatError("not in gzip format")
    out: list[bytes] = []
    pos = 0
    while pos < len(data):
        if data[pos : pos + 2] != b"\x1f\x8b":
            if data[pos:].strip(b"\0") == b"":
                break
            raise GzipFormatError("decompression OK, trailing garbage ignored")
        pos = _skip_header(data, pos)
        engine = zlib.decompressobj(-15)
        try:
            chunk = engine.decompress(data[pos:])
        except zlib.error:
            raise GzipFormatError("invalid compressed data--format violated") from None
        if not engine.eof:
            raise GzipFormatError("unexpected end of file")
        rest = engine.unused_data
        if len(rest) < 8:
            raise GzipFormatError("unexpected end of file")
        crc, size = struct.unpack("<II", rest[:8])
        if crc != zlib.crc32(chunk) & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--crc error")
        if size != len(chunk) & 0xFFFFFFFF:
            raise GzipFormatError("invalid compressed data--length error")
        out.append(chunk)
        pos = len(data) - len(rest) + 8
    return b"".join(out)


def _skip_header(data: bytes, pos: int) -> int:
    if len(data) < pos + 10:
        raise GzipFormatError("unexpected end of file")
    if data[pos + 2] != 8:
        raise GzipFormatError(f"unknown method {data[pos + 2]} -- not supported")
    flags = data[pos + 3]
    cursor = pos + 10
    if flags & 0x04:
        if len(data) < cursor + 2:
            raise GzipFormatError("unexpected end of file")
        cursor += 2 + struct.unpack("<H", data[cursor : cursor + 2])[0]
    for bit in (0x08, 0x10):
        if flags & bit:
            end = data.find(b"\0", cursor)
            if end < 0:
                raise GzipFormatError("unexpected end of file")
            cursor = end + 1
    if flags & 0x02:
        cursor += 2
    return cursor


def _gzip_info(data: bytes) -> tuple[int, int, int]:
    """(crc, uncompressed size, mtime) from a gzip file's header and trailer."""
    mtime = struct.unpack("<I", data[4:8])[0] if len(data) >= 8 else 0
    if len(data) < 18:
        return 0, 0, mtime
    crc, size = struct.unpack("<II", data[-8:])
    return crc, size, mtime


# --- gzip / gunzip / zcat ----------------------------------------------------------------


def gzip_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "gzip")


def gunzip_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "gunzip")


def zcat_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return _gzip(ctx, argv, "zcat")


def _gzip(ctx: CommandContext, argv: list[str], prog: str) -> CommandResult:
    decompress = prog in ("gunzip", "zcat")
    to_stdout = prog == "zcat"
    # gunzip and zcat are gzip under another name, and GNU's messages say "gzip".
    prog = "gzip"
    keep = force = verbose = quiet = listing = test = False
    save_name = True
    level = 6
    suffix = ".gz"
    names: list[str] = []
    args = argv[1:]
    long = {"stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d",
            "keep": "k", "force": "f", "verbose": "v", "quiet": "q", "list": "l",
            "test": "t", "no-name": "n", "name": "N", "fast": "1", "best": "9",
            "recursive": "r"}
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            names.extend(args[i:])
            break
        letters: str
        if a.startswith("--"):
            key = a[2:]
            if key.startswith("suffix="):
                suffix = key.split("=", 1)[1]
                continue
            if key == "suffix":
                if i >= len(args):
                    ctx.error(f"{prog}: option '--suffix' requires an argument")
                    return 1
                suffix = args[i]
                i += 1
                continue
            if key not in long:
                ctx.error(f"{prog}: unrecognized option '{a}'")
                ctx.error(f"Try `{prog} --help' for more information.")
                return 1
            letters = long[key]
        elif a.startswith("-") and a != "-":
            letters = a[1:]
        else:
            names.append(a)
            continue
        for pos, c in enumerate(letters):
            if c == "c":
                to_stdout = True
            elif c == "d":
                decompress = True
            elif c == "k":
                keep = True
            elif c == "f":
                force = True
            elif c == "v":
                verbose, quiet = True, False
            elif c == "q":
                quiet, verbose = True, False
            elif c == "l":
                listing = True
            elif c == "t":
                test = True
            elif c == "n":
                save_name = False
            elif c == "N":
                save_name = True
            elif c in "123456789":
                level = int(c)
            elif c == "r":
                pass
            elif c == "S":
                rest = letters[pos + 1 :]
                if rest:
                    suffix = rest
                elif i < len(args):
                    suffix = args[i]
                    i += 1
                else:
                    ctx.error(f"{prog}: option requires an argument -- 'S'")
                    return 1
                break
            else:
                ctx.error(f"{prog}: invalid option -- '{c}'")
                ctx.error(f"Try `{prog} --help' for more information.")
                return 1
    if test or listing:
        decompress = True
    status = 0

    def warn(code: int) -> None:
        # An error (1) overrides a warning (2); a warning never hides an error.
        nonlocal status
        if code == 1 or status == 0:
            status = code

    if listing:
        return (yield from _gzip_list(ctx, prog, names or ["-"], verbose))
    for name in names or ["-"]:
        if name == "-":
            data = ctx.read_all_stdin()
            try:
                if decompress:
                    result = gzip_decompress(data) if (data[:2] == b"\x1f\x8b" or not force) else data
                else:
                    result = gzip_compress(data, level)
            except GzipFormatError as err:
                ctx.error(_gzip_error(prog, "stdin", err))
                warn(1 if "trailing garbage" not in err.message else 2)
                continue
            if not test:
                yield result
            continue
        real = host(ctx, name)
        shown = name
        if decompress and not os.path.exists(real) and not name.endswith(suffix):
            alt = host(ctx, name + suffix)
            if os.path.exists(alt):
                real, shown = alt, name + suffix
            else:
                shown = name + suffix
        try:
            info = os.stat(real)
        except OSError as exc:
            if not quiet:
                ctx.error(f"{prog}: {shown}: {strerror(exc)}")
            warn(1)
            continue
        if st.S_ISDIR(info.st_mode):
            if not quiet:
                ctx.error(f"{prog}: {shown} is a directory -- ignored")
            warn(2)
            continue
        if not decompress and shown.endswith(suffix) and not to_stdout:
            if not quiet:
                ctx.error(f"{prog}: {shown} already has {suffix} suffix -- unchanged")
            continue
        if decompress and not to_stdout and not test and not shown.endswith(suffix) \
                and not shown.endswith((".tgz", ".taz")):
            if not quiet:
                ctx.error(f"{prog}: {shown}: unknown suffix -- ignored")
            warn(2)
            continue
        with open(real, "rb") as fh:
            data = fh.read()
        try:
            if decompress:
                if data[:2] != b"\x1f\x8b" and force and to_stdout:
                    result = data
                else:
                    result = gzip_decompress(data)
            else:
                base = shown.rsplit("/", 1)[-1]
                if save_name:
                    result = gzip_compress(data, level, base, int(info.st_mtime))
                else:
                    result = gzip_compress(data, level)
        except GzipFormatError as err:
            ctx.error(_gzip_error(prog, shown, err))
            warn(1)
            continue
        if test:
            if verbose:
                ctx.error(f"{shown}:\t OK")
            continue
        if to_stdout:
            yield result
            continue
        if decompress:
            target = shown[: -len(suffix)] if shown.endswith(suffix) else shown[:-4] + ".tar"
        else:
            target = shown + suffix
        target_real = host(ctx, target)
        if os.path.lexists(target_real) and not force:
            ctx.error(f"{prog}: {target} already exists;\tnot overwritten")
            warn(2)
            continue
        with open(target_real, "wb") as out:
            out.write(result)
        try:
            set_mode(ctx, target_real, st.S_IMODE(effective_mode(ctx, real, info)))
        except OSError:
            pass
        os.utime(target_real, ns=(info.st_atime_ns, info.st_mtime_ns))
        if verbose:
            ratio = _ratio(data, len(result)) if decompress else _ratio(result, len(data))
            ctx.error(f"{shown}:\t{ratio} -- replaced with {target}")
        if not keep:
            os.unlink(real)
    return status


def _gzip_error(prog: str, name: str, err: GzipFormatError) -> str:
    # GNU gzip starts its data-error messages on a fresh line.
    if "trailing garbage" not in err.message:
        return f"\n{prog}: {name}: {err.message}"
    return f"{prog}: {name}: {err.message}"


def _ratio(gz: bytes, original: int) -> str:
    """gzip's ratio: deflate payload (without header and trailer) against the original."""
    try:
        overhead = _skip_header(gz, 0) + 8
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
                with open(real, "rb") as fh:
                    data = fh.read()
                mtime_default = os.stat(real).st_mtime
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
        crc, size, mtime = _gzip_info(data)
        total_c += len(data)
        total_u += size
        last = data
        line = f"{len(data):>19} {size:>19} {_ratio(data, size)} {target}\n"
        if verbose:
            when = time.strftime("%b %e %H:%M", time.gmtime(mtime or mtime_default))
            line = f"defla {crc:08x} {when} " + line
        yield _b(line)
    if len(names) > 1 and shown_header:
        # GNU's totals ratio discounts only the last file's header and trailer.
        try:
            overhead = _skip_header(last, 0) + 8
        except GzipFormatError:
            overhead = 18
        payload = total_c - overhead
        value = 0.0 if total_u == 0 else 100.0 * (total_u - payload) / total_u
        line = f"{total_c:>19} {total_u:>19} {value:5.1f}% (totals)\n"
        yield _b(" " * 28 + line if verbose else line)
    return status


# --- tar ---------------------------------------------------------------------------------


class _TarExit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def tar_cmd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        return (yield from _tar(ctx, argv[1:]))
    except _TarExit as stop:
        return stop.status


def _usage(ctx: CommandContext, message: str, status: int = 2) -> _TarExit:
    """A command-line error; the option parser's own complaints exit 64 (EX_USAGE)."""
    ctx.error(f"tar: {message}")
    ctx.error("Try 'tar --help' or 'tar --usage' for more information.")
    return _TarExit(status)


def _tar(ctx: CommandContext, args: list[str]) -> CommandResult:
    mode = ""
    archive: str | None = None
    verbose = 0
    gz = to_stdout = keep_old = False
    directory: str | None = None
    excludes: list[str] = []
    strip = 0
    members: list[str] = []
    old_style = bool(args) and not args[0].startswith("-")
    if old_style:
        args = ["-" + args[0]] + args[1:]
    i = 0

    def value(opt: str) -> str:
        nonlocal i
        if i >= len(args):
            if old_style and i == 1:
                raise _usage(ctx, f"Old option '{opt}' requires an argument.")
            if len(opt) > 1:
                raise _usage(ctx, f"option '--{opt}' requires an argument", 64)
            raise _usage(ctx, f"option requires an argument -- '{opt}'", 64)
        i += 1
        return args[i - 1]

    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            members.extend(args[i:])
            break
        if a.startswith("--"):
            key, eq, val = a[2:].partition("=")
            if key in ("create", "extract", "get", "list"):
                mode = {"create": "c", "extract": "x", "get": "x", "list": "t"}[key]
            elif key == "file":
                archive = val if eq else value("file")
            elif key == "directory":
                directory = val if eq else value("directory")
            elif key in ("gzip", "gunzip", "ungzip"):
                gz = True
            elif key == "verbose":
                verbose += 1
            elif key == "exclude":
                excludes.append(val if eq else value("exclude"))
            elif key == "strip-components":
                text = val if eq else value("strip-components")
                if not text.isdigit():
                    raise _usage(ctx, f"Invalid number of elements: {quote_always(text)}")
                strip = int(text)
            elif key == "to-stdout":
                to_stdout = True
            elif key in ("keep-old-files", "skip-old-files"):
                keep_old = True
            elif key in ("no-same-owner", "same-owner", "preserve-permissions", "same-permissions",
                         "no-same-permissions", "overwrite", "numeric-owner", "totals",
                         "warning", "wildcards", "no-recursion", "auto-compress", "sort",
                         "owner", "group", "mtime", "mode", "format"):
                pass
            else:
                raise _usage(ctx, f"unrecognized option '{a}'", 64)
            continue
        if a.startswith("-") and len(a) > 1:
            letters = a[1:]
            for pos, c in enumerate(letters):
                if c in "cxt":
                    if mode and mode != c:
                        raise _usage(ctx, "You may not specify more than one '-Acdtrux', "
                                          "'--delete' or  '--test-label' option")
                    mode = c
                elif c == "v":
                    verbose += 1
                elif c == "z":
                    gz = True
                elif c == "O":
                    to_stdout = True
                elif c == "k":
                    keep_old = True
                elif c in "pPmo":
                    pass
                elif c in "jJ":
                    ctx.error(f"tar: {'bzip2' if c == 'j' else 'xz'}: Cannot exec: "
                              "compression is not available in this sandbox")
                    raise _TarExit(2)
                elif c in "fC":
                    rest = letters[pos + 1 :]
                    arg = rest if rest else value(c)
                    if c == "f":
                        archive = arg
                    else:
                        directory = arg
                    break
                else:
                    raise _usage(ctx, f"invalid option -- '{c}'", 64)
            continue
        members.append(a)
    if not mode:
        raise _usage(ctx, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' "
                          "options")
    archive = archive or "-"
    info_out = ctx.stderr if archive == "-" and mode == "c" else None
    if mode == "c":
        return (yield from _tar_create(ctx, archive, members, gz, verbose, directory, excludes,
                                       info_out))
    return (yield from _tar_read(ctx, mode, archive, members, verbose, directory, excludes, strip,
                                 to_stdout, keep_old))


def _excluded(name: str, patterns: list[str]) -> bool:
    for pattern in patterns:
        rx = glob_regex(pattern.rstrip("/"))
        parts = name.rstrip("/").split("/")
        if rx.match(name.rstrip("/")) or any(rx.match(p) for p in parts):
            return True
        if any(rx.match("/".join(parts[k:])) for k in range(len(parts))):
            return True
    return False


def _tar_create(
    ctx: CommandContext, archive: str, members: list[str], gz: bool, verbose: int,
    directory: str | None, excludes: list[str], info_out: object,
) -> CommandResult:
    if not members:
        raise _usage(ctx, "Cowardly refusing to create an empty archive")
    base_cwd = ctx.cwd
    if directory is not None:
        base_cwd = ctx.resolve(directory)
        if not os.path.isdir(host(ctx, directory)):
            ctx.error(f"tar: {directory}: Cannot open: No such file or directory")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2)
    buffer = io.BytesIO()
    status = 0
    listing: list[bytes] = []
    warned_abs = False
    archive_real = os.path.normpath(host(ctx, archive)) if archive != "-" else ""
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for member in members:
            script_path = member if member.startswith("/") else base_cwd.rstrip("/") + "/" + member
            real = host(ctx, script_path, follow=False)
            arcname = member
            if arcname.startswith("/"):
                arcname = arcname.lstrip("/")
                if not warned_abs:
                    ctx.error("tar: Removing leading `/' from member names")
                    warned_abs = True
            try:
                os.lstat(real)
            except OSError as exc:
                ctx.error(f"tar: {member}: Cannot stat: {strerror(exc)}")
                status = 2
                continue
            for path_real, name in _tar_walk(real, arcname.rstrip("/") or ".", excludes):
                if os.path.normpath(path_real) == archive_real:
                    ctx.error(f"tar: {name}: file is the archive; not dumped")
                    continue
                entry = _tar_info(ctx, tar, path_real, name)
                if entry is None:
                    continue
                if entry.isreg():
                    with open(path_real, "rb") as fh:
                        tar.addfile(entry, fh)
                else:
                    tar.addfile(entry)
                if verbose:
                    listing.append(_b(_tar_line(entry, verbose) + "\n"))
    data = buffer.getvalue()
    if gz:
        data = gzip_compress(data, 6)
    if info_out is not None:
        for line in listing:
            ctx.stderr.write(line)
        listing = []
    if archive == "-":
        yield data
    else:
        try:
            with open(host(ctx, archive), "wb") as out:
                out.write(data)
        except OSError as exc:
            ctx.error(f"tar: {archive}: Cannot open: {strerror(exc)}")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2) from None
    for line in listing:
        yield line
    if status:
        ctx.error("tar: Exiting with failure status due to previous errors")
    return status


def _tar_walk(real: str, name: str, excludes: list[str]) -> Iterator[tuple[str, str]]:
    if _excluded(name, excludes):
        return
    yield real, name
    if os.path.isdir(real) and not os.path.islink(real):
        try:
            children = sorted(os.listdir(real), key=c_sort_key)
        except OSError:
            return
        for child in children:
            yield from _tar_walk(os.path.join(real, child), name + "/" + child, excludes)


def _tar_info(ctx: CommandContext, tar: tarfile.TarFile, real: str, name: str) -> tarfile.TarInfo | None:
    info = os.lstat(real)
    entry = tarfile.TarInfo(name)
    entry.mode = st.S_IMODE(effective_mode(ctx, real, info))
    entry.mtime = int(info.st_mtime)
    entry.uid = entry.gid = OWNER_ID
    entry.uname = entry.gname = OWNER_NAME
    if st.S_ISDIR(info.st_mode):
        entry.type = tarfile.DIRTYPE
        entry.name = name.rstrip("/") + "/"
    elif st.S_ISLNK(info.st_mode):
        entry.type = tarfile.SYMTYPE
        entry.linkname = os.readlink(real)
    elif st.S_ISREG(info.st_mode):
        entry.type = tarfile.REGTYPE
        entry.size = info.st_size
    else:
        return None
    return entry


def _tar_line(entry: tarfile.TarInfo, verbose: int) -> str:
    name = entry.name
    if entry.isdir() and not name.endswith("/"):
        name += "/"
    if verbose < 2:
        return name
    kind = {tarfile.DIRTYPE: st.S_IFDIR, tarfile.SYMTYPE: st.S_IFLNK}.get(entry.type, st.S_IFREG)
    mode = mode_string(kind | entry.mode)
    if entry.islnk():
        mode = "h" + mode[1:]
    owner = f"{entry.uname or entry.uid}/{entry.gname or entry.gid}"
    size = str(entry.size if entry.isreg() else 0)
    width = max(19 - len(owner) - 1, len(size))
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(entry.mtime))
    line = f"{mode} {owner} {size:>{width}} {when} {name}"
    if entry.issym():
        line += f" -> {entry.linkname}"
    elif entry.islnk():
        line += f" link to {entry.linkname}"
    return line


def _safe_name(ctx: CommandContext, name: str, warned: set[str]) -> str:
    """Strip leading ``/`` and ``../`` like GNU tar so extraction stays inside ``-C``."""
    if name.startswith("/"):
        name = name.lstrip("/")
        if "/" not in warned:
            ctx.error("tar: Removing leading `/' from member names")
            warned.add("/")
    parts = name.split("/")
    cut = 0
    for k, part in enumerate(parts):
        if part == "..":
            cut = k + 1
    if cut:
        prefix = "/".join(parts[:cut]) + "/"
        if prefix not in warned:
            ctx.error(f"tar: Removing leading `{prefix}' from member names")
            warned.add(prefix)
        name = "/".join(parts[cut:])
    return name


def _tar_read(
    ctx: CommandContext, mode: str, archive: str, members: list[str], verbose: int,
    directory: str | None, excludes: list[str], strip: int, to_stdout: bool, keep_old: bool,
) -> CommandResult:
    if archive == "-":
        data = ctx.read_all_stdin()
    else:
        try:
            with open(host(ctx, archive), "rb") as fh:
                data = fh.read()
        except OSError as exc:
            ctx.error(f"tar: {archive}: Cannot open: {strerror(exc)}")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip_decompress(data)
        except GzipFormatError as err:
            ctx.error(f"gzip: stdin: {err.message}")
            ctx.error("tar: Child returned status 1")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2) from None
    if not data:
        ctx.error("tar: This does not look like a tar archive")
        ctx.error("tar: Exiting with failure status due to previous errors")
        raise _TarExit(2)
    target_root = ctx.cwd
    if directory is not None:
        if not os.path.isdir(host(ctx, directory)):
            ctx.error(f"tar: {directory}: Cannot open: No such file or directory")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2)
        target_root = ctx.resolve(directory)
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data), mode="r:")
        entries = tar.getmembers()
    except tarfile.TarError:
        ctx.error("tar: This does not look like a tar archive")
        ctx.error("tar: Exiting with failure status due to previous errors")
        raise _TarExit(2) from None
    status = 0
    found = {m: False for m in members}
    warned: set[str] = set()
    deferred_dirs: list[tuple[str, tarfile.TarInfo]] = []
    for entry in entries:
        name = entry.name
        if members:
            hit = [m for m in members if name.rstrip("/") == m.rstrip("/")
                   or name.startswith(m.rstrip("/") + "/")]
            if not hit:
                continue
            for m in hit:
                found[m] = True
        if _excluded(name, excludes):
            continue
        if mode == "t":
            yield _b(_tar_line(entry, 2 if verbose >= 1 else 0) + "\n")
            continue
        safe = _safe_name(ctx, name, warned)
        if strip:
            parts = safe.rstrip("/").split("/")
            if len(parts) <= strip:
                continue
            safe = "/".join(parts[strip:])
        if not safe:
            continue
        if verbose:
            yield _b(_tar_line(entry, verbose) + "\n")
        if to_stdout:
            if entry.isreg():
                handle = tar.extractfile(entry)
                if handle is not None:
                    yield handle.read()
            continue
        dest_script = target_root.rstrip("/") + "/" + safe
        dest = host(ctx, dest_script, follow=False).rstrip("/")
        try:
            _extract_one(ctx, tar, entry, dest, keep_old, deferred_dirs, target_root, dest_script)
        except OSError as exc:
            ctx.error(f"tar: {safe}: Cannot open: {strerror(exc)}")
            status = 2
    for dest, entry in reversed(deferred_dirs):
        try:
            os.utime(dest, (entry.mtime, entry.mtime))
        except OSError:
            pass
    for member, seen in found.items():
        if not seen:
            ctx.error(f"tar: {member}: Not found in archive")
            status = 2
    if status:
        ctx.error("tar: Exiting with failure status due to previous errors")
    return status


def _extract_one(
    ctx: CommandContext, tar: tarfile.TarFile, entry: tarfile.TarInfo, dest: str,
    keep_old: bool, deferred_dirs: list[tuple[str, tarfile.TarInfo]], root: str,
    script_path: str,
) -> None:
    parent = os.path.dirname(dest)
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, exist_ok=True)
    existing = os.path.lexists(dest)
    if entry.isdir():
        if not os.path.isdir(dest):
            if existing:
                os.unlink(dest)
            os.mkdir(dest)
        set_mode(ctx, dest, entry.mode & 0o7777)
        deferred_dirs.append((dest, entry))
        return
    if existing:
        if keep_old:
            return
        if os.path.isdir(dest) and not os.path.islink(dest):
            os.rmdir(dest)
        else:
            os.unlink(dest)
    if entry.issym():
        make_symlink(ctx, entry.linkname, script_path, dest)
        return
    if entry.islnk():
        source = host(ctx, root.rstrip("/") + "/" + entry.linkname.lstrip("/"), follow=False)
        with open(source, "rb") as src, open(dest, "wb") as out:
            out.write(src.read())
    elif entry.isreg():
        handle = tar.extractfile(entry)
        with open(dest, "wb") as out:
            if handle is not None:
                while True:
                    chunk = handle.read(1 << 16)
                    if not chunk:
                        break
                    out.write(chunk)
    else:
        return
    set_mode(ctx, dest, entry.mode & 0o7777)
    os.utime(dest, (entry.mtime, entry.mtime))


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "gzip": gzip_cmd, "gunzip": gunzip_cmd, "zcat": zcat_cmd, "tar": tar_cmd,
}

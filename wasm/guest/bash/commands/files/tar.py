"""``tar``: create, list and extract GNU-format archives through ``tarfile``.

Members are added in name order (GNU tar uses readdir order, which no filesystem fixes) and
owned by ``user/user`` (uid/gid 1000), the sandbox's only account. Listings (``tf``, ``tvf``)
use GNU tar's columns. Extraction strips leading ``/`` and ``../`` so nothing lands outside
the directory given with ``-C``. ``--no-recursion`` (archive or pick a directory's entry,
not what it holds) and ``--recursion`` apply to every name, the last given winning, where GNU
applies each to the names after it.
"""

from __future__ import annotations

import io
import itertools
import os
import stat as st
import tarfile
import time
from typing import BinaryIO, Callable, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import (
    OWNER_ID,
    OWNER_NAME,
    c_sort_key,
    effective_mode,
    host,
    mode_string,
    set_mode,
    strerror,
)
from .copy import make_symlink
from .glob import glob_regex
from .gzipfmt import GzipFormatError, compress_stream, decompress_stream
from ..base import CommandContext, CommandResult
from ... import fs
from ...tz import Zone, zone_of


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


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


# Long options that choose the mode replace it (only the short letters refuse a second mode).
_LONG_MODES = {"create": "c", "extract": "x", "get": "x", "list": "t"}
# Accepted and ignored: what they control has one answer in the sandbox. The ones GNU gives an
# argument take it only as ``--name=value`` here.
_IGNORED = ("no-same-owner", "same-owner", "preserve-permissions", "same-permissions",
            "no-same-permissions", "overwrite", "numeric-owner", "totals", "warning", "wildcards",
            "auto-compress", "sort", "owner", "group", "mtime", "mode", "format")
_SPEC = FlagSpec("cxtvzOkpPmojJf:C:", {
    **{name: name for name in _LONG_MODES},
    "file": "f=", "directory": "C=", "gzip": "z", "gunzip": "z", "ungzip": "z", "verbose": "v",
    "exclude": "exclude=", "strip-components": "strip-components=", "to-stdout": "O",
    "keep-old-files": "k", "skip-old-files": "k", "no-recursion": "no-recursion",
    "recursion": "recursion",
    **{name: "ignored?" if name in ("owner", "group", "mtime", "mode", "format", "warning",
                                    "sort") else "ignored" for name in _IGNORED},
})


def _tar(ctx: CommandContext, args: list[str]) -> CommandResult:
    mode = ""
    archive: str | None = None
    verbose = 0
    gz = to_stdout = keep_old = False
    directory: str | None = None
    excludes: list[str] = []
    strip = 0
    recurse = True
    members: list[str] = []
    old_style = bool(args) and not args[0].startswith("-")
    if old_style:
        args = ["-" + args[0]] + args[1:]
    try:
        opts, members = parse_flags(_SPEC, args)
    except UsageError as err:
        if old_style and len(args) == 1 and err.missing:
            raise _usage(ctx, f"Old option '{err.missing}' requires an argument.") from None
        raise _usage(ctx, err.message, 64) from None
    for key, val in opts:
        if key in ("c", "x", "t"):
            if mode and mode != key:
                raise _usage(ctx, "You may not specify more than one '-Acdtrux', "
                                  "'--delete' or  '--test-label' option")
            mode = key
        elif key in _LONG_MODES:
            mode = _LONG_MODES[key]
        elif key == "f":
            archive = val
        elif key == "C":
            directory = val
        elif key == "z":
            gz = True
        elif key == "v":
            verbose += 1
        elif key == "exclude" and val is not None:
            excludes.append(val)
        elif key == "strip-components" and val is not None:
            if not (val.isascii() and val.isdigit()):
                raise _usage(ctx, f"{val}: Invalid number of elements")
            strip = int(val)
        elif key == "O":
            to_stdout = True
        elif key == "k":
            keep_old = True
        elif key in ("recursion", "no-recursion"):
            recurse = key == "recursion"
        elif key in ("j", "J"):
            ctx.error(f"tar: {'bzip2' if key == 'j' else 'xz'}: Cannot exec: "
                      "compression is not available in this sandbox")
            raise _TarExit(2)
    if not mode:
        raise _usage(ctx, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' "
                          "options")
    archive = archive or "-"
    info_out = ctx.stderr if archive == "-" and mode == "c" else None
    if mode == "c":
        return (yield from _tar_create(ctx, archive, members, gz, verbose, directory, excludes,
                                       info_out, recurse=recurse))
    return (yield from _tar_read(ctx, mode, archive, members, verbose, directory, excludes, strip,
                                 to_stdout, keep_old, recurse=recurse))


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
    directory: str | None, excludes: list[str], info_out: object, recurse: bool = True,
) -> CommandResult:
    """Write the archive as it is built (stream mode), like GNU tar feeding its output."""
    if not members:
        raise _usage(ctx, "Cowardly refusing to create an empty archive")
    base_cwd = ctx.cwd
    if directory is not None:
        base_cwd = ctx.resolve(directory)
        if not fs.isdir(host(ctx, directory)):
            ctx.error(f"tar: {directory}: Cannot open: No such file or directory")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2)
    out: BinaryIO | None = None
    archive_real = ""
    if archive != "-":
        # Opened first, as GNU does, so archiving the directory that holds it is noticed.
        try:
            out = fs.open(host(ctx, archive), "wb")
        except OSError as exc:
            ctx.error(f"tar: {archive}: Cannot open: {strerror(exc)}")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2) from None
        archive_real = os.path.normpath(host(ctx, archive))
    state = {"status": 0}
    listing: list[bytes] = []
    raw = _build(ctx, members, base_cwd, excludes, archive_real, verbose, listing, state, recurse)
    stream = compress_stream(raw, 6) if gz else raw
    try:
        for chunk in stream:
            if out is not None:
                out.write(chunk)
            elif chunk:
                yield chunk
            if listing:
                # Names go to stdout unless the archive itself is written there.
                for line in listing:
                    if info_out is not None:
                        ctx.stderr.write(line)
                    else:
                        yield line
                listing.clear()
    finally:
        if out is not None:
            out.close()
    if state["status"]:
        ctx.error("tar: Exiting with failure status due to previous errors")
    return state["status"]


class _Sink(io.RawIOBase):
    """Collects what tarfile writes so it can be passed on chunk by chunk."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: "bytes | bytearray | memoryview") -> int:  # type: ignore[override]
        self.parts.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


def _build(
    ctx: CommandContext, members: list[str], base_cwd: str, excludes: list[str],
    archive_real: str, verbose: int, listing: list[bytes], state: dict[str, int],
    recurse: bool = True,
) -> Iterator[bytes]:
    sink = _Sink()
    warned_abs = False
    tar = tarfile.open(fileobj=sink, mode="w|", format=tarfile.GNU_FORMAT)
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
            fs.lstat(real)
        except OSError as exc:
            ctx.error(f"tar: {member}: Cannot stat: {strerror(exc)}")
            state["status"] = 2
            continue
        for path_real, name in _tar_walk(real, arcname.rstrip("/") or ".", excludes, recurse):
            if os.path.normpath(path_real) == archive_real:
                ctx.error(f"tar: {name}: file is the archive; not dumped")
                continue
            entry = _tar_info(ctx, tar, path_real, name)
            if entry is None:
                continue
            if entry.isreg():
                with fs.open(path_real, "rb") as fh:
                    tar.addfile(entry, fh)
            else:
                tar.addfile(entry)
            if verbose:
                listing.append(_b(_tar_line(entry, verbose, zone_of(ctx.env)) + "\n"))
            yield sink.drain()
    tar.close()
    yield sink.drain()


def _tar_walk(real: str, name: str, excludes: list[str],
              recurse: bool = True) -> Iterator[tuple[str, str]]:
    """``real`` and, unless --no-recursion, what lies under it, as archive names."""
    if _excluded(name, excludes):
        return
    yield real, name
    if recurse and fs.isdir(real) and not fs.islink(real):
        try:
            children = sorted(fs.listdir(real), key=c_sort_key)
        except OSError:
            return
        for child in children:
            yield from _tar_walk(os.path.join(real, child), name + "/" + child, excludes)


def _tar_info(ctx: CommandContext, tar: tarfile.TarFile, real: str, name: str) -> tarfile.TarInfo | None:
    info = fs.lstat(real)
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
        entry.linkname = fs.readlink(real)
    elif st.S_ISREG(info.st_mode):
        entry.type = tarfile.REGTYPE
        entry.size = info.st_size
    else:
        return None
    return entry


def _tar_line(entry: tarfile.TarInfo, verbose: int, where: Zone) -> str:
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
    when = time.strftime("%Y-%m-%d %H:%M", where.localtime(int(entry.mtime // 1))[0])
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
    recurse: bool = True,
) -> CommandResult:
    # The archive is read as a stream (tarfile's "r|" mode), so a pipeline such as
    # ``tar cf - d | tar tf -`` lists members as they arrive.
    if archive == "-":
        chunks: Iterator[bytes] = ctx.stdin
    else:
        try:
            handle = fs.open(host(ctx, archive), "rb")
        except OSError as exc:
            ctx.error(f"tar: {archive}: Cannot open: {strerror(exc)}")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2) from None
        chunks = _file_chunks(handle)
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= 2:
            break
    if not head:
        ctx.error("tar: This does not look like a tar archive")
        ctx.error("tar: Exiting with failure status due to previous errors")
        raise _TarExit(2)
    chunks = itertools.chain([head], chunks)
    if head[:2] == b"\x1f\x8b":
        chunks = decompress_stream(chunks)
    target_root = ctx.cwd
    if directory is not None:
        if not fs.isdir(host(ctx, directory)):
            ctx.error(f"tar: {directory}: Cannot open: No such file or directory")
            ctx.error("tar: Error is not recoverable: exiting now")
            raise _TarExit(2)
        target_root = ctx.resolve(directory)
    try:
        tar = tarfile.open(fileobj=io.BufferedReader(_ChunkFile(chunks)), mode="r|")
    except tarfile.TarError:
        ctx.error("tar: This does not look like a tar archive")
        ctx.error("tar: Exiting with failure status due to previous errors")
        raise _TarExit(2) from None
    except GzipFormatError as err:
        raise _gzip_failure(ctx, err) from None
    try:
        return (yield from _tar_members(ctx, tar, mode, members, verbose, target_root, excludes,
                                        strip, to_stdout, keep_old, recurse))
    except GzipFormatError as err:
        raise _gzip_failure(ctx, err) from None
    except tarfile.TarError:
        ctx.error("tar: Unexpected EOF in archive")
        ctx.error("tar: Error is not recoverable: exiting now")
        raise _TarExit(2) from None


def _gzip_failure(ctx: CommandContext, err: GzipFormatError) -> _TarExit:
    ctx.error(f"gzip: stdin: {err.message}")
    ctx.error("tar: Child returned status 1")
    ctx.error("tar: Error is not recoverable: exiting now")
    return _TarExit(2)


def _file_chunks(handle: BinaryIO) -> Iterator[bytes]:
    with handle:
        while True:
            chunk = handle.read(1 << 16)
            if not chunk:
                return
            yield chunk


class _ChunkFile(io.RawIOBase):
    """A read-only raw file over byte chunks, for tarfile's stream mode."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        super().__init__()
        self.chunks = chunks
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "bytearray | memoryview") -> int:  # type: ignore[override]
        while not self.pending:
            chunk = next(self.chunks, None)
            if chunk is None:
                return 0
            self.pending = chunk
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


def _tar_members(
    ctx: CommandContext, tar: tarfile.TarFile, mode: str, members: list[str], verbose: int,
    target_root: str, excludes: list[str], strip: int, to_stdout: bool, keep_old: bool,
    recurse: bool = True,
) -> CommandResult:
    status = 0
    found = {m: False for m in members}
    warned: set[str] = set()
    deferred_dirs: list[tuple[str, tarfile.TarInfo]] = []
    for entry in tar:
        name = entry.name
        if members:
            hit = [m for m in members if name.rstrip("/") == m.rstrip("/")
                   or (recurse and name.startswith(m.rstrip("/") + "/"))]
            if not hit:
                continue
            for m in hit:
                found[m] = True
        if _excluded(name, excludes):
            continue
        if mode == "t":
            yield _b(_tar_line(entry, 2 if verbose >= 1 else 0, zone_of(ctx.env)) + "\n")
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
            yield _b(_tar_line(entry, verbose, zone_of(ctx.env)) + "\n")
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
            fs.utime(dest, (entry.mtime, entry.mtime))
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
    if parent and not fs.isdir(parent):
        fs.makedirs(parent, exist_ok=True)
    existing = fs.lexists(dest)
    if entry.isdir():
        if not fs.isdir(dest):
            if existing:
                fs.unlink(dest)
            fs.mkdir(dest)
        set_mode(ctx, dest, entry.mode & 0o7777)
        deferred_dirs.append((dest, entry))
        return
    if existing:
        if keep_old:
            return
        if fs.isdir(dest) and not fs.islink(dest):
            fs.rmdir(dest)
        else:
            fs.unlink(dest)
    if entry.issym():
        make_symlink(ctx, entry.linkname, script_path, dest)
        return
    if entry.islnk():
        source = host(ctx, root.rstrip("/") + "/" + entry.linkname.lstrip("/"), follow=False)
        with fs.open(source, "rb") as src, fs.open(dest, "wb") as out:
            out.write(src.read())
    elif entry.isreg():
        handle = tar.extractfile(entry)
        with fs.open(dest, "wb") as out:
            if handle is not None:
                while True:
                    chunk = handle.read(1 << 16)
                    if not chunk:
                        break
                    out.write(chunk)
    else:
        return
    set_mode(ctx, dest, entry.mode & 0o7777)
    fs.utime(dest, (entry.mtime, entry.mtime))


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"tar": tar_cmd}

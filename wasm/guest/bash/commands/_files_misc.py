"""tree, du, file, split and tee.

``du`` charges each file its apparent size rounded up to 4 KiB blocks and each directory
4 KiB (see ``_files_common``); ``--apparent-size``/``-b`` use byte sizes. ``tree`` draws with
Unicode lines when the locale variables name UTF-8 and with ASCII otherwise, as tree does.
``file`` recognises the common formats and words them as file 5.44 does.
"""

from __future__ import annotations

import os
import re
import stat as st
import time
from typing import IO, Callable, Generator, Iterator

from ._files_common import (
    OptSpec,
    UsageError,
    c_sort_key,
    host,
    human,
    parse,
    quote_always,
    strerror,
    usage_blocks,
    usage_fail,
)
from ._files_find import glob_regex
from .base import CommandContext, CommandResult

q = quote_always


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _sorted_names(real: str) -> list[str]:
    with os.scandir(real) as it:
        names = [e.name for e in it]
    names.sort(key=c_sort_key)
    return names


# --- tree --------------------------------------------------------------------------------


def tree(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec("adfL:FI:P:", {"noreport": "noreport", "dirsfirst": "dirsfirst"})
    try:
        opts, roots = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "tree", err)
        return 2
    show_all = dirs_only = full = classify = noreport = dirs_first = False
    level: int | None = None
    ignore: list[re.Pattern[str]] = []
    only: list[re.Pattern[str]] = []
    for key, value in opts:
        if key in ("I", "P"):
            # tree patterns are wildcards joined with "|"; -I hides, -P keeps (files only).
            patterns = [glob_regex(p) for p in (value or "").split("|") if p]
            (ignore if key == "I" else only).extend(patterns)
        elif key == "a":
            show_all = True
        elif key == "d":
            dirs_only = True
        elif key == "f":
            full = True
        elif key == "F":
            classify = True
        elif key == "L":
            if not (value or "").isdigit() or int(value or "0") < 1:
                ctx.error("tree: Invalid level, must be greater than 0.")
                return 1
            level = int(value or "1")
        elif key == "noreport":
            noreport = True
        elif key == "dirsfirst":
            dirs_first = True
    utf8 = _utf8_locale(ctx.env)
    branch, last, pipe, blank = (
        ("\u251c\u2500\u2500 ", "\u2514\u2500\u2500 ", "\u2502\u00a0\u00a0 ", "    ")
        if utf8 else ("|-- ", "`-- ", "|   ", "    ")
    )
    counts = [0, 0]  # directories, files
    status = 0

    def label(name: str, path: str, real: str, info: os.stat_result) -> str:
        text = path if full else name
        if st.S_ISLNK(info.st_mode):
            try:
                target = os.readlink(real)
            except OSError:
                target = "?"
            return text + ("@" if classify else "") + " -> " + target
        if classify:
            if st.S_ISDIR(info.st_mode):
                text += "/"
            elif info.st_mode & 0o111:
                text += "*"
        return text

    def walk(real: str, path: str, prefix: str, depth: int) -> Iterator[bytes]:
        try:
            names = _sorted_names(real)
        except OSError:
            return
        if not show_all:
            names = [n for n in names if not n.startswith(".")]
        entries = []
        for name in names:
            child = os.path.join(real, name)
            try:
                info = os.lstat(child)
            except OSError:
                continue
            is_dir = st.S_ISDIR(info.st_mode)
            if dirs_only and not is_dir:
                continue
            if any(rx.match(name) for rx in ignore):
                continue
            if only and not is_dir and not any(rx.match(name) for rx in only):
                continue
            entries.append((name, child, info, is_dir))
        if dirs_first:
            entries.sort(key=lambda e: 0 if e[3] else 1)
        for index, (name, child, info, is_dir) in enumerate(entries):
            final = index == len(entries) - 1
            child_path = path.rstrip("/") + "/" + name
            yield _b(prefix + (last if final else branch) + label(name, child_path, child, info)) + b"\n"
            if is_dir:
                counts[0] += 1
                if level is None or depth + 1 < level:
                    yield from walk(child, child_path, prefix + (blank if final else pipe), depth + 1)
            else:
                counts[1] += 1

    for root in roots or ["."]:
        real = host(ctx, root)
        if not os.path.isdir(real):
            suffix = "[error opening dir]" if not os.path.exists(real) else ""
            if suffix:
                yield _b(f"{root} {suffix}") + b"\n"
                status = 2
            else:
                yield _b(root) + b"\n"
                counts[1] += 1
            continue
        yield _b(root) + b"\n"
        yield from walk(real, root, "", 0)
    if not noreport:
        dirs = f"{counts[0]} director{'y' if counts[0] == 1 else 'ies'}"
        if dirs_only:
            yield _b(f"\n{dirs}\n")
        else:
            yield _b(f"\n{dirs}, {counts[1]} file{'' if counts[1] == 1 else 's'}\n")
    return status


def _utf8_locale(env: dict[str, str]) -> bool:
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False


# --- du ----------------------------------------------------------------------------------


def du(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "ashckmbd:SxLB:",
        {"all": "a", "summarize": "s", "human-readable": "h", "total": "c", "bytes": "b",
         "max-depth": "d=", "apparent-size": "apparent", "separate-dirs": "S",
         "dereference": "L", "one-file-system": "x", "block-size": "B="},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "du", err)
        return 1
    show_all = summarize = human_sizes = total = apparent = separate = False
    unit = 1024
    unit_suffix = ""
    max_depth: int | None = None
    for key, value in opts:
        if key == "a":
            show_all = True
        elif key == "s":
            summarize = True
        elif key == "h":
            human_sizes = True
        elif key == "c":
            total = True
        elif key == "k":
            unit, human_sizes = 1024, False
        elif key == "m":
            unit, human_sizes = 1024 * 1024, False
        elif key == "b":
            apparent, unit, human_sizes = True, 1, False
        elif key == "apparent":
            apparent = True
        elif key == "S":
            separate = True
        elif key == "d":
            if not (value or "").isdigit():
                ctx.error(f"du: invalid maximum depth {q(value or '')}")
                return 1
            max_depth = int(value or "0")
        elif key == "B":
            sizes = {"1": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "k": 1024}
            if value not in sizes:
                ctx.error(f"du: invalid -B argument {q(value or '')}")
                return 1
            unit = sizes[value or "1"]
            # A unit letter is printed after each size, as GNU does for -BK, -BM.
            unit_suffix = (value or "").upper() if (value or "").isalpha() else ""
    if summarize and max_depth not in (None, 0):
        ctx.error(f"du: warning: summarizing conflicts with --max-depth={max_depth}")
        ctx.error("Try 'du --help' for more information.")
        return 1
    if summarize:
        max_depth = 0
    if show_all and summarize:
        ctx.error("du: cannot both summarize and show all entries")
        ctx.error("Try 'du --help' for more information.")
        return 1

    def show(size: int) -> str:
        if human_sizes:
            return human(size)
        return str(-(-size // unit)) + unit_suffix

    def charge(info: os.stat_result) -> int:
        if apparent:
            if st.S_ISDIR(info.st_mode):
                return 4096
            return info.st_size
        return usage_blocks(info) * 1024

    status = 0
    grand = 0
    seen: set[tuple[int, int]] = set()

    def walk(real: str, path: str, info: os.stat_result, depth: int) -> Generator[bytes, None, int]:
        nonlocal status
        # Like GNU, anything reached twice (a directory named twice, a hard link) counts once.
        ident = (info.st_dev, info.st_ino)
        if ident in seen and info.st_ino:
            return 0
        seen.add(ident)
        size = charge(info)
        if st.S_ISDIR(info.st_mode):
            try:
                names = _sorted_names(real)
            except OSError as exc:
                ctx.error(f"du: cannot read directory {q(path)}: {strerror(exc)}")
                status = 1
                names = []
            for name in names:
                child = os.path.join(real, name)
                try:
                    child_info = os.lstat(child)
                except OSError:
                    continue
                child_path = path.rstrip("/") + "/" + name if path != "/" else "/" + name
                sub = yield from walk(child, child_path, child_info, depth + 1)
                if not (separate and st.S_ISDIR(child_info.st_mode)):
                    size += sub
            if max_depth is None or depth <= max_depth:
                yield _b(f"{show(size)}\t{path}\n")
        elif depth == 0 or (show_all and (max_depth is None or depth <= max_depth)):
            yield _b(f"{show(size)}\t{path}\n")
        return size

    for name in names or ["."]:
        real = host(ctx, name)
        try:
            info = os.lstat(real.rstrip("/") or "/")
            if st.S_ISLNK(info.st_mode) and name.endswith("/"):
                info = os.stat(real)
        except OSError as exc:
            ctx.error(f"du: cannot access {q(name)}: {strerror(exc)}")
            status = 1
            continue
        grand += yield from walk(real.rstrip("/") or "/", name, info, 0)
    if total:
        yield _b(f"{show(grand)}\ttotal\n")
    return status


# --- file --------------------------------------------------------------------------------


def file(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "bihLz",
        {"brief": "b", "mime": "i", "mime-type": "mime-type", "dereference": "L",
         "no-dereference": "h"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "file", err)
        return 1
    flags = {k for k, _ in opts}
    if not names:
        ctx.error("Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"
                  "            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"
                  "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
                  "            <file> ...\n       file -C [-m <magicfiles>]\n"
                  "       file [--help]")
        return 1
    width = max(len(n) for n in names) + 1
    for name in names:
        desc = describe(ctx, name, follow="L" in flags, mime="i" in flags or "mime-type" in flags)
        if "mime-type" in flags:
            desc = desc.split(";")[0]
        if "b" in flags:
            yield _b(desc) + b"\n"
        else:
            yield _b(f"{name + ':':<{width}} {desc}") + b"\n"
    return 0


def describe(ctx: CommandContext, name: str, follow: bool, mime: bool) -> str:
    real = host(ctx, name, follow=follow)
    try:
        info = os.stat(real) if follow else os.lstat(real)
    except OSError as exc:
        if follow and os.path.lexists(real):
            target = os.readlink(real)
            return "inode/symlink; charset=binary" if mime else f"broken symbolic link to {target}"
        return f"cannot open `{name}' ({strerror(exc)})"
    if st.S_ISLNK(info.st_mode):
        if mime:
            return "inode/symlink; charset=binary"
        target = os.readlink(real)
        broken = not os.path.exists(real)
        return ("broken symbolic link to " if broken else "symbolic link to ") + target
    if st.S_ISDIR(info.st_mode):
        return "inode/directory; charset=binary" if mime else "directory"
    if not st.S_ISREG(info.st_mode):
        return "inode/fifo; charset=binary" if mime else "fifo (named pipe)"
    try:
        with open(real, "rb") as fh:
            head = fh.read(65536)
    except OSError as exc:
        return f"cannot open `{name}' ({strerror(exc)})"
    if not head:
        return "inode/x-empty; charset=binary" if mime else "empty"
    return sniff(head, mime)


def sniff(data: bytes, mime: bool) -> str:
    """Name the format of ``data`` (a file's first bytes) the way file(1) does."""
    if len(data) == 1:
        return "application/octet-stream; charset=binary" if mime else "very short file (no magic)"
    binary = _binary_magic(data)
    if binary is not None:
        kind, text = binary
        return f"{kind}; charset=binary" if mime else text
    kind_of_text = _text_kind(data)
    if kind_of_text is None:
        return "application/octet-stream; charset=binary" if mime else "data"
    encoding, charset = kind_of_text
    template, mime_type = _language(data)
    if mime:
        return f"{mime_type}; charset={charset}"
    desc = template.replace("{enc}", encoding)
    if template == "JSON text data" or template.startswith("SVG"):
        return desc
    extras = _line_notes(data)
    return desc + (", " + ", ".join(extras) if extras else "")


def _binary_magic(data: bytes) -> tuple[str, str] | None:
    import struct

    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 29 and data[12:16] == b"IHDR":
        w, h, depth, color, _c, _f, interlace = struct.unpack(">IIBBBBB", data[16:29])
        colors = {0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}
        return "image/png", (f"PNG image data, {w} x {h}, {depth}-bit/color "
                             f"{colors.get(color, 'unknown')}, "
                             f"{'interlaced' if interlace else 'non-interlaced'}")
    if data.startswith(b"\xff\xd8\xff"):
        text = "JPEG image data"
        if data[6:11] == b"JFIF\0" and len(data) >= 18:
            major, minor = data[11], data[12]
            units, xd, yd = data[13], struct.unpack(">H", data[14:16])[0], struct.unpack(">H", data[16:18])[0]
            seg = struct.unpack(">H", data[4:6])[0]
            density = {0: "aspect ratio", 1: "resolution (DPI)", 2: "resolution (DPCM)"}.get(units, "")
            text += f", JFIF standard {major}.{minor:02d}, {density}, density {xd}x{yd}, segment length {seg}"
        return "image/jpeg", text
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return "image/gif", f"GIF image data, version {data[3:6].decode()}, {w} x {h}"
    if data.startswith(b"\x1f\x8b"):
        return "application/gzip", _gzip_text(data)
    if data.startswith(b"%PDF-"):
        version = data[5:8].decode("ascii", "replace")
        return "application/pdf", f"PDF document, version {version}"
    if len(data) >= 512 and data[257:262] == b"ustar":
        gnu = data[257:265] == b"ustar  \0"
        return "application/x-tar", "POSIX tar archive (GNU)" if gnu else "POSIX tar archive"
    if data.startswith(b"\x7fELF"):
        return "application/x-executable", "ELF executable"
    if data.startswith(b"BZh"):
        return "application/x-bzip2", "bzip2 compressed data, block size = " + f"{chr(data[3])}00k"
    if data.startswith(b"\xfd7zXZ\0"):
        return "application/x-xz", "XZ compressed data, checksum CRC64"
    if data.startswith(b"\0asm"):
        return "application/wasm", "WebAssembly (wasm) binary module version 0x1 (MVP)"
    return None


def _gzip_text(data: bytes) -> str:
    import struct

    parts = ["gzip compressed data"]
    flags = data[3] if len(data) > 3 else 0
    mtime = struct.unpack("<I", data[4:8])[0] if len(data) >= 8 else 0
    offset = 10
    if flags & 4 and len(data) >= 12:
        offset += 2 + struct.unpack("<H", data[10:12])[0]
    if flags & 8:
        end = data.find(b"\0", offset)
        if end > 0:
            parts.append(f'was "{data[offset:end].decode("latin-1")}"')
    if mtime:
        parts.append("last modified: " + time.strftime("%a %b %e %H:%M:%S %Y", time.gmtime(mtime)))
    if len(data) > 9:
        if data[8] == 2:
            parts.append("max compression")
        elif data[8] == 4:
            parts.append("max speed")
    osname = {0: "FAT filesystem (MS-DOS, OS/2, NT)", 3: "Unix", 7: "Macintosh",
              11: "NTFS filesystem (NT)"}.get(data[9] if len(data) > 9 else 255)
    if osname:
        parts.append("from " + osname)
    if len(data) >= 18:
        parts.append(f"original size modulo 2^32 {struct.unpack('<I', data[-4:])[0]}")
    return ", ".join(parts)


def _text_kind(data: bytes) -> tuple[str, str] | None:
    if data.startswith(b"\xef\xbb\xbf"):
        body = data[3:]
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return None
        return "Unicode text, UTF-8 (with BOM) text", "utf-8"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        endian = "little" if data[:2] == b"\xff\xfe" else "big"
        return f"Unicode text, UTF-16, {endian}-endian text", f"utf-16{endian[0]}e"
    if any(b < 7 or 13 < b < 27 or 27 < b < 32 or b == 127 for b in data if b not in (8, 9, 10, 11, 12, 13, 27)):
        return None
    if all(b < 128 for b in data):
        return "ASCII text", "us-ascii"
    try:
        data.decode("utf-8")
        return "Unicode text, UTF-8 text", "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and len(data) == 65536:
            return "Unicode text, UTF-8 text", "utf-8"
    if all(b >= 0xA0 or b < 0x80 for b in data):
        return "ISO-8859 text", "iso-8859-1"
    return "Non-ISO extended-ASCII text", "unknown-8bit"


# Interpreter -> (description template, MIME type); "{enc}" becomes the text encoding.
# The odd wordings (perl, node) are file 5.44's own.
_SCRIPTS = {
    "bash": ("Bourne-Again shell script, {enc} executable", "text/x-shellscript"),
    "sh": ("POSIX shell script, {enc} executable", "text/x-shellscript"),
    "zsh": ("Paul Falstad's zsh script, {enc} executable", "text/x-shellscript"),
    "node": ("Node.js script executable, {enc}", "application/javascript"),
    "perl": ("Perl script text executable", "text/x-perl"),
    "ruby": ("Ruby script, {enc} executable", "text/x-ruby"),
    "awk": ("awk script, {enc} executable", "text/x-awk"),
    "tclsh": ("Tcl/Tk script, {enc} executable", "text/x-tcl"),
    "lua": ("Lua script, {enc} executable", "text/x-lua"),
}


def _language(data: bytes) -> tuple[str, str]:
    first = data.split(b"\n", 1)[0]
    if first.startswith(b"#!"):
        line = first[2:].decode("latin-1").strip()
        words = line.split()
        name = words[0].rsplit("/", 1)[-1] if words else ""
        shown = line
        if name == "env" and len(words) > 1:
            name = words[1]
            shown = " ".join(words[1:])
        if name.startswith("python"):
            return "Python script, {enc} executable", "text/x-script.python"
        if name in _SCRIPTS:
            return _SCRIPTS[name]
        return f"a {shown} script, {{enc}} executable", "text/plain"
    stripped = data.lstrip()
    low = stripped[:256].lower()
    if low.startswith(b"<?xml"):
        return "XML 1.0 document, {enc}", "text/xml"
    if low.startswith(b"<svg"):
        return "SVG Scalable Vector Graphics image", "image/svg+xml"
    if low.startswith(b"<!doctype html") or low.startswith(b"<html"):
        return "HTML document, {enc}", "text/html"
    if stripped[:1] in (b"{", b"[") and _is_json(data):
        return "JSON text data", "application/json"
    if b"#include" in data[:4096] and (b"int main" in data or b"{" in data):
        return "C source, {enc}", "text/x-c"
    return "{enc}", "text/plain"


def _is_json(data: bytes) -> bool:
    import json

    try:
        json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def _line_notes(data: bytes) -> list[str]:
    notes: list[str] = []
    longest = max((len(line) for line in data.split(b"\n")), default=0)
    if longest > 300:
        notes.append(f"with very long lines ({longest})")
    crlf = data.count(b"\r\n")
    lone_cr = data.count(b"\r") - crlf
    lf = data.count(b"\n") - crlf
    if crlf and not lf and not lone_cr:
        notes.append("with CRLF line terminators")
    elif crlf and lf:
        notes.append("with CRLF, LF line terminators")
    elif lone_cr and not lf and not crlf:
        notes.append("with CR line terminators")
    elif not crlf and not lf and not lone_cr:
        notes.append("with no line terminators")
    if b"\x1b" in data:
        notes.append("with escape sequences")
    if b"\b" in data:
        notes.append("with overstriking")
    return notes


# --- split -------------------------------------------------------------------------------


def split(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "l:b:C:n:da:x",
        {"lines": "l=", "bytes": "b=", "line-bytes": "C=", "number": "n=", "numeric-suffixes": "d?",
         "suffix-length": "a=", "additional-suffix": "additional-suffix=", "hex-suffixes": "x?",
         "verbose": "verbose"},
    )
    try:
        opts, operands = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "split", err)
        return 1
    mode, amount = "l", 1000
    chunks: tuple[str, int] | None = None
    digits = hexa = verbose = False
    suffix_len = 2
    explicit_len = False
    extra = ""
    for key, value in opts:
        v = value or ""
        if key == "l":
            if not v.isdigit() or int(v) == 0:
                why = ": Numerical result out of range" if v.isdigit() else ""
                ctx.error(f"split: invalid number of lines: {q(v)}{why}")
                return 1
            mode, amount = "l", int(v)
        elif key == "b":
            size = _parse_size(v)
            if size is None or size == 0:
                ctx.error(f"split: invalid number of bytes: {q(v)}")
                return 1
            mode, amount = "b", size
        elif key == "C":
            size = _parse_size(v)
            if size is None or size == 0:
                ctx.error(f"split: invalid number of bytes: {q(v)}")
                return 1
            mode, amount = "C", size
        elif key == "n":
            kind, _, count = v.rpartition("/")
            if kind not in ("", "l") or not count.isdigit() or int(count) == 0:
                ctx.error(f"split: invalid number of chunks: {q(count)}")
                return 1
            chunks = (kind or "b", int(count))
        elif key == "d":
            digits = True
        elif key == "x":
            hexa = True
        elif key == "a":
            if not v.isdigit():
                ctx.error(f"split: invalid suffix length: {q(v)}")
                return 1
            suffix_len, explicit_len = int(v), True
        elif key == "additional-suffix":
            if "/" in v:
                ctx.error(f"split: invalid suffix {q(v)}, contains directory separator")
                return 1
            extra = v
        elif key == "verbose":
            verbose = True
    if len(operands) > 2:
        ctx.error(f"split: extra operand {q(operands[2])}")
        ctx.error("Try 'split --help' for more information.")
        return 1
    source = operands[0] if operands else "-"
    prefix = operands[1] if len(operands) > 1 else "x"
    alphabet = "0123456789abcdef" if hexa else ("0123456789" if digits else "abcdefghijklmnopqrstuvwxyz")
    if chunks is not None and not explicit_len:
        while len(alphabet) ** suffix_len < chunks[1]:
            suffix_len += 1
    if source == "-":
        stream: Iterator[bytes] = ctx.stdin
    else:
        real = host(ctx, source)
        try:
            handle = open(real, "rb")
        except OSError as exc:
            ctx.error(f"split: cannot open {q(source)} for reading: {strerror(exc)}")
            return 1
        stream = _read_chunks(handle)
    writer = _SplitWriter(ctx, prefix, alphabet, suffix_len, extra, verbose, auto_widen=chunks is None and not explicit_len and not digits and not hexa)
    try:
        if chunks is not None:
            data = b"".join(stream)
            n = chunks[1]
            size = len(data) // n
            if chunks[0] == "b":
                for k in range(n):
                    end = len(data) if k == n - 1 else (k + 1) * size
                    writer.new().write(data[k * size : end])
            else:
                pieces: list[list[bytes]] = [[] for _ in range(n)]
                offset = 0
                for line in data.splitlines(keepends=True):
                    pieces[min(n - 1, offset // size if size else n - 1)].append(line)
                    offset += len(line)
                for piece in pieces:
                    writer.new().write(b"".join(piece))
        elif mode == "C":
            # Whole lines, as many as fit in each file; a longer line is cut into pieces.
            room = 0
            for text_line in _lines(stream):
                while text_line:
                    if len(text_line) > room and room < amount:
                        writer.new()
                        room = amount
                    if len(text_line) <= room:
                        writer.write(text_line)
                        room -= len(text_line)
                        text_line = b""
                    else:
                        writer.write(text_line[:room])
                        text_line = text_line[room:]
                        room = 0
        elif mode == "l":
            in_file = amount
            for text_line in _lines(stream):
                if in_file == amount:
                    writer.new()
                    in_file = 0
                writer.write(text_line)
                in_file += 1
        else:
            room = 0
            for block in stream:
                while block:
                    if room == 0:
                        writer.new()
                        room = amount
                    writer.write(block[:room])
                    taken = min(room, len(block))
                    room -= taken
                    block = block[taken:]
    except _Exhausted:
        ctx.error("split: output file suffixes exhausted")
        writer.close()
        return 1
    except OSError as exc:
        ctx.error(f"split: {q(writer.name)}: {strerror(exc)}")
        writer.close()
        return 1
    writer.close()
    yield from writer.messages
    return 0


class _Exhausted(Exception):
    pass


def _read_chunks(handle: object) -> Iterator[bytes]:
    import io

    assert isinstance(handle, io.BufferedReader)
    with handle:
        while True:
            chunk = handle.read(65536)
            if not chunk:
                return
            yield chunk


def _lines(stream: Iterator[bytes]) -> Iterator[bytes]:
    pending = b""
    for chunk in stream:
        pending += chunk
        while True:
            cut = pending.find(b"\n")
            if cut < 0:
                break
            yield pending[: cut + 1]
            pending = pending[cut + 1 :]
    if pending:
        yield pending


def _parse_size(text: str) -> int | None:
    units = {"": 1, "b": 512, "K": 1024, "k": 1024, "KiB": 1024, "KB": 1000, "M": 1024**2,
             "MiB": 1024**2, "MB": 1000**2, "G": 1024**3, "GiB": 1024**3, "GB": 1000**3}
    i = 0
    while i < len(text) and text[i].isdigit():
        i += 1
    if i == 0 or text[i:] not in units:
        return None
    return int(text[:i]) * units[text[i:]]


class _SplitWriter:
    """Opens x-aa, x-ab, ... in turn; GNU widens default alphabetic suffixes on the fly."""

    def __init__(self, ctx: CommandContext, prefix: str, alphabet: str, length: int, extra: str,
                 verbose: bool, auto_widen: bool) -> None:
        self.ctx = ctx
        self.prefix = prefix
        self.alphabet = alphabet
        self.length = length
        self.extra = extra
        self.verbose = verbose
        self.index = 0
        self.handle: object = None
        self.name = ""
        self.messages: list[bytes] = []
        self.auto_widen = auto_widen

    def _suffix(self) -> str:
        base = len(self.alphabet)
        n = self.index
        if n >= base**self.length:
            raise _Exhausted()
        chars = []
        for _ in range(self.length):
            chars.append(self.alphabet[n % base])
            n //= base
        return "".join(reversed(chars))

    def new(self) -> "_SplitWriter":
        self.close()
        base = len(self.alphabet)
        if self.auto_widen and self.index == (base - 1) * base ** (self.length - 1):
            self.prefix += self.alphabet[-1]
            self.length += 1
            self.index = 0
        self.name = self.prefix + self._suffix() + self.extra
        self.index += 1
        self.handle = open(host(self.ctx, self.name), "wb")
        if self.verbose:
            self.messages.append(_b(f"creating file {q(self.name)}\n"))
        return self

    def write(self, data: bytes) -> None:
        import io

        assert isinstance(self.handle, io.BufferedWriter)
        self.handle.write(data)

    def close(self) -> None:
        import io

        if isinstance(self.handle, io.BufferedWriter):
            self.handle.close()
        self.handle = None


# --- tee ---------------------------------------------------------------------------------


def tee(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec("aip", {"append": "a", "ignore-interrupts": "i", "output-error": "p?"})
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "tee", err)
        return 1
    append = any(k == "a" for k, _ in opts)
    status = 0
    handles: list[IO[bytes]] = []
    to_stdout = 0
    to_stderr = 0
    for name in names:
        # The sandbox has no /dev; the usual device names behave as they do on Linux.
        where = ctx.resolve(name)
        if where == "/dev/null":
            continue
        if where == "/dev/stdout":
            to_stdout += 1
            continue
        if where == "/dev/stderr":
            to_stderr += 1
            continue
        # GNU tee writes an operand "-" to a file of that name, not to stdout.
        try:
            handles.append(open(host(ctx, name), "ab" if append else "wb"))
        except OSError as exc:
            ctx.error(f"tee: {name}: {strerror(exc)}")
            status = 1
    try:
        for chunk in ctx.stdin:
            for handle in handles:
                handle.write(chunk)
                handle.flush()
            for _ in range(to_stderr):
                ctx.stderr.write(chunk)
            for _ in range(1 + to_stdout):
                yield chunk
    finally:
        for handle in handles:
            handle.close()
    return status


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "tree": tree, "du": du, "file": file, "split": split, "tee": tee,
}

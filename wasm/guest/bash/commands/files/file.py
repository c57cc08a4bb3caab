"""``file``: names the common formats the way file 5.44 words them.

There is no magic database in the guest; the formats people meet in a workspace (text
encodings and line endings, scripts, JSON, markup, images, archives, PDF) are recognised
from their first bytes.
"""

from __future__ import annotations

import stat as st
import time
from typing import Callable

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import host, quote_always, strerror
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- file --------------------------------------------------------------------------------


def file(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "bihLz",
        {"brief": "b", "mime": "i", "mime-type": "mime-type", "dereference": "L",
         "no-dereference": "h"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "file", err)
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
        info = fs.stat(real) if follow else fs.lstat(real)
    except OSError as exc:
        if follow and fs.lexists(real):
            target = fs.readlink(real)
            return "inode/symlink; charset=binary" if mime else f"broken symbolic link to {target}"
        return f"cannot open `{name}' ({strerror(exc)})"
    if st.S_ISLNK(info.st_mode):
        if mime:
            return "inode/symlink; charset=binary"
        target = fs.readlink(real)
        broken = not fs.exists(real)
        return ("broken symbolic link to " if broken else "symbolic link to ") + target
    if st.S_ISDIR(info.st_mode):
        return "inode/directory; charset=binary" if mime else "directory"
    if not st.S_ISREG(info.st_mode):
        return "inode/fifo; charset=binary" if mime else "fifo (named pipe)"
    try:
        with fs.open(real, "rb") as fh:
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


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"file": file}

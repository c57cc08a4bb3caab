"""Byte-level dump and encoding commands: od, xxd, base64, md5sum, sha1sum, sha256sum.

``od`` follows GNU coreutils (types ``a c d o u x f`` with sizes, field alignment across
several ``-t`` types, ``*`` for repeated lines); ``xxd`` follows vim's xxd (default dump,
``-p``, ``-i``, ``-r``, ``-l``, ``-s``, ``-c``, ``-g``, ``-u``).
"""

from __future__ import annotations

import base64 as b64
import binascii
import hashlib
import math
import re
import struct
from dataclasses import dataclass
from typing import Callable

from ..base import CommandContext, CommandResult
from .basic import file_error, with_usage
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import describe_oserror, open_input, split_lines
from ... import fs

# --- od ------------------------------------------------------------------------------------

OD_SPEC = FlagSpec(
    "A:j:N:t:vw::abcdfhilosx",
    {
        "address-radix": "A=",
        "skip-bytes": "j=",
        "read-bytes": "N=",
        "format": "t=",
        "output-duplicates": "v",
        "width": "w?",
        "endian": "endian=",
        "traditional": "traditional",
    },
)

_CHAR_NAMES = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}
_ASCII_NAMES = (
    "nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak syn etb can em sub esc fs gs rs us sp"
).split()
_INT_WIDTH = {
    ("o", 1): 3, ("o", 2): 6, ("o", 4): 11, ("o", 8): 22,
    ("x", 1): 2, ("x", 2): 4, ("x", 4): 8, ("x", 8): 16,
    ("u", 1): 3, ("u", 2): 5, ("u", 4): 10, ("u", 8): 20,
    ("d", 1): 4, ("d", 2): 6, ("d", 4): 11, ("d", 8): 20,
}
_FLOAT_WIDTH = {4: 15, 8: 24}


@dataclass
class OdType:
    kind: str
    size: int
    width: int
    show_text: bool = False

    big_endian: bool = False

    def render(self, chunk: bytes) -> list[str]:
        if self.kind == "c":
            return [_od_char(b) for b in chunk]
        if self.kind == "a":
            return [_od_named(b) for b in chunk]
        values: list[str] = []
        for start in range(0, len(chunk), self.size):
            piece = chunk[start : start + self.size].ljust(self.size, b"\0")
            order = ">" if self.big_endian else "<"
            if self.kind == "f":
                number = struct.unpack(order + ("f" if self.size == 4 else "d"), piece)[0]
                values.append(_od_float(number, self.size))
                continue
            value = int.from_bytes(piece, "big" if self.big_endian else "little", signed=self.kind == "d")
            if self.kind == "o":
                values.append(format(value, "o").rjust(self.width, "0"))
            elif self.kind == "x":
                values.append(format(value, "x").rjust(self.width, "0"))
            else:
                values.append(str(value))
        return values


def _od_char(byte: int) -> str:
    if byte in _CHAR_NAMES:
        return _CHAR_NAMES[byte]
    if 32 <= byte < 127:
        return chr(byte)
    return format(byte, "03o")


def _od_named(byte: int) -> str:
    byte &= 0x7F
    if byte < 33:
        return _ASCII_NAMES[byte]
    if byte == 127:
        return "del"
    return chr(byte)


def _od_float(number: float, size: int) -> str:
    """The shortest ``%g`` text that reads back as the same float (what GNU od prints)."""
    if number != number:
        return "nan" if math.copysign(1.0, number) > 0 else "-nan"
    if number in (math.inf, -math.inf):
        return "inf" if number > 0 else "-inf"
    # Like gnulib's ftoastr: start at FLT_DIG/DBL_DIG digits (1 for subnormals), then widen.
    smallest_normal = 1.1754943508222875e-38 if size == 4 else 2.2250738585072014e-308
    start = 1 if abs(number) < smallest_normal else (6 if size == 4 else 15)
    for precision in range(start, 18):
        text = f"{number:.{precision}g}"
        back = float(text)
        if size == 4:
            back = struct.unpack("<f", struct.pack("<f", back))[0]
        if back == number:
            return text
    return f"{number:.17g}"


def _parse_od_type(spec: str) -> list[OdType]:
    types: list[OdType] = []
    i = 0
    while i < len(spec):
        kind = spec[i]
        i += 1
        if kind in "ac":
            types.append(OdType(kind, 1, 3))
            continue
        if kind not in "doux" and kind != "f":
            raise UsageError(f"invalid character '{kind}' in type string '{spec}'")
        size_text = ""
        if i < len(spec) and spec[i] in "CSIL":
            size_text = {"C": "1", "S": "2", "I": "4", "L": "8"}[spec[i]]
            i += 1
        elif i < len(spec) and spec[i] in "FDL" and kind == "f":
            size_text = {"F": "4", "D": "8", "L": "8"}[spec[i]]
            i += 1
        else:
            while i < len(spec) and (spec[i].isascii() and spec[i].isdigit()):
                size_text += spec[i]
                i += 1
        size = int(size_text) if size_text else (8 if kind == "f" else 4)
        if kind == "f":
            if size not in _FLOAT_WIDTH:
                raise UsageError(f"invalid type string '{spec}';\nthis system doesn't provide a {size}-byte floating point type", hint=False)
            odtype = OdType(kind, size, _FLOAT_WIDTH[size])
        else:
            if (kind, size) not in _INT_WIDTH:
                raise UsageError(f"invalid type string '{spec}';\nthis system doesn't provide a {size}-byte integral type", hint=False)
            odtype = OdType(kind, size, _INT_WIDTH[(kind, size)])
        if i < len(spec) and spec[i] == "z":
            odtype.show_text = True
            i += 1
        types.append(odtype)
    return types


def _od_number(text: str) -> int:
    match = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(b|k|K|m|M|G|kB|MB)?", text)
    if not match:
        raise UsageError(f"invalid number '{text}'", hint=False)
    base_text, suffix = match.groups()
    value = int(base_text, 0) if not base_text.startswith("0") or base_text[:2].lower() == "0x" or base_text == "0" else int(base_text, 8)
    scale = {None: 1, "b": 512, "k": 1024, "K": 1024, "m": 1024**2, "M": 1024**2, "G": 1024**3, "kB": 1000, "MB": 1000**2}[suffix]
    return value * scale


@with_usage("od")
def od(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(OD_SPEC, argv[1:])
    radix = "o"
    skip = 0
    limit: int | None = None
    types: list[OdType] = []
    duplicates = False
    width = 16
    shorthand = {"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "f4", "h": "x2", "i": "d4", "l": "d8", "o": "o2", "s": "d2", "x": "x2"}
    for key, value in opts:
        v = value or ""
        if key == "A":
            if v not in ("d", "o", "x", "n"):
                raise UsageError(f"invalid output address radix '{v}'; it must be one character from [doxn]", hint=False)
            radix = v
        elif key == "j":
            skip = _od_number(v)
        elif key == "N":
            limit = _od_number(v)
        elif key == "t":
            types.extend(_parse_od_type(v))
        elif key == "v":
            duplicates = True
        elif key == "w":
            width = int(v) if v else 32
        elif key in shorthand:
            types.extend(_parse_od_type(shorthand[key]))
    if not types:
        types = _parse_od_type("o2")
    for key, value in opts:
        if key == "endian":
            if value not in ("big", "little"):
                raise UsageError(f"invalid argument '{value}' for '--endian'")
            for odtype in types:
                odtype.big_endian = value == "big"
    data_parts: list[bytes] = []
    status = 0
    for name in files or ["-"]:
        try:
            data_parts.append(b"".join(open_input(ctx, name)))
        except OSError as err:
            file_error(ctx, "od", name, err)
            status = 1
    data = b"".join(data_parts)
    if skip > len(data):
        ctx.error("od: cannot skip past end of combined input")
        return 1
    data = data[skip:]
    if limit is not None:
        data = data[:limit]
    if status and not data:
        return status
    yield _od_render(data, types, radix, skip, width, duplicates)
    return status


def _od_address(offset: int, radix: str) -> str:
    if radix == "n":
        return ""
    if radix == "d":
        return str(offset).rjust(7, "0")
    if radix == "x":
        return format(offset, "x").rjust(6, "0")
    return format(offset, "o").rjust(7, "0")


def _od_render(data: bytes, types: list[OdType], radix: str, start: int, width: int, duplicates: bool) -> bytes:
    block_widths = [(width // t.size) * (t.width + 1) for t in types]
    full = max(block_widths)
    out: list[str] = []
    previous: bytes | None = None
    starred = False
    address_width = len(_od_address(0, radix))
    for offset in range(0, len(data), width):
        chunk = data[offset : offset + width]
        if not duplicates and chunk == previous and len(chunk) == width:
            if not starred:
                out.append("*\n")
                starred = True
            continue
        previous = chunk
        starred = False
        for index, odtype in enumerate(types):
            fields = odtype.render(chunk)
            total_fields = width // odtype.size
            pad = full - block_widths[index]
            line = [_od_address(start + offset, radix) if index == 0 else " " * address_width]
            pad_remaining = pad
            for position, text in enumerate(fields):
                remaining = total_fields - position
                next_pad = pad * (remaining - 1) // total_fields
                field_width = pad_remaining - next_pad + odtype.width
                line.append(" " + text.rjust(field_width))
                pad_remaining = next_pad
            if odtype.show_text:
                used = sum(len(p) for p in line[1:])
                text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
                line.append(" " * (full - used) + "  >" + text + "<")
            out.append("".join(line) + "\n")
    if radix != "n":
        out.append(_od_address(start + len(data), radix) + "\n")
    return "".join(out).encode("latin-1")


# --- xxd -----------------------------------------------------------------------------------

XXD_SPEC = FlagSpec(
    "c:g:l:s:upribeaCdo:n:",
    {"cols": "c=", "groupsize": "g=", "len": "l=", "seek": "s=",
     "plain": "p", "ps": "p", "postscript": "p", "revert": "r",
     "include": "i", "bits": "b", "uppercase": "u"},
)


def _xxd_int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        digits = re.match(r"[-+]?\d*", text)
        return int(digits.group()) if digits and digits.group() not in ("", "-", "+") else 0


def xxd(ctx: CommandContext, argv: list[str]) -> CommandResult:
    # xxd accepts single-dash long options (-plain, -cols 8); fold them to short ones.
    aliases = {"-plain": "-p", "-ps": "-p", "-postscript": "-p", "-revert": "-r", "-include": "-i",
               "-cols": "-c", "-groupsize": "-g", "-len": "-l", "-seek": "-s", "-bits": "-b", "-uppercase": "-u"}
    argv = [argv[0]] + [aliases.get(a, a) for a in argv[1:]]
    try:
        opts, files = parse_flags(XXD_SPEC, argv[1:])
    except UsageError as err:
        ctx.error(f"xxd: {err.message}")
        return 1
    cols: int | None = None
    group: int | None = None
    length: int | None = None
    seek = shown_offset = 0
    plain = revert = include = bits = upper = little = autoskip = decimal = capital = False
    name: str | None = None
    for key, value in opts:
        v = value or ""
        if key == "c":
            cols = _xxd_int(v)
        elif key == "g":
            group = _xxd_int(v)
        elif key == "l":
            length = _xxd_int(v)
        elif key == "s":
            seek = _xxd_int(v.lstrip("+"))
        elif key == "p":
            # The dump styles override each other: the last one given wins.
            plain, include, bits, little = True, False, False, False
        elif key == "r":
            revert = True
        elif key == "i":
            plain, include, bits, little = False, True, False, False
        elif key == "b":
            plain, include, bits, little = False, False, True, False
        elif key == "e":
            plain, include, bits, little = False, False, False, True
        elif key == "u":
            upper = True
        elif key == "a":
            autoskip = not autoskip  # xxd's -a toggles
        elif key == "d":
            decimal = True
        elif key == "o":
            shown_offset = _xxd_int(v)
        elif key == "C":
            capital = True
        elif key == "n":
            name = v
    if len(files) > 2:
        ctx.error("xxd: too many arguments")
        return 1
    if little and group is not None and group & (group - 1):
        ctx.error("xxd: number of octets per group must be a power of 2 with -e.")
        return 1
    if little and revert:
        ctx.error("xxd: Sorry, cannot revert this type of hexdump")
        return 255
    source = files[0] if files else "-"
    try:
        data = b"".join(open_input(ctx, source))
    except OSError as err:
        ctx.error(f"xxd: {source}: {describe_oserror(err)}")
        return 2
    if revert:
        result = _xxd_revert(data, plain, cols or 16)
    else:
        if seek < 0:
            seek = max(len(data) + seek, 0)
        elif seek > len(data) and source == "-":
            # A pipe cannot be skipped past its end.
            ctx.error("xxd: Sorry, cannot seek.")
            return 4
        data = data[seek:]
        if length is not None:
            data = data[:length]
        if plain:
            width = cols or 30
            hexed = data.hex()
            if upper:
                hexed = hexed.upper()
            step = width * 2
            result = "".join(hexed[i : i + step] + "\n" for i in range(0, len(hexed), step)).encode()
        elif include:
            result = _xxd_include(data, cols or 12, upper, name if name is not None else
                                  None if source == "-" else source, capital)
        else:
            width = cols or (6 if bits else 16)
            gsize = group if group is not None else (1 if bits else 4 if little else 2)
            lines = _xxd_dump(data, width, gsize, upper, seek + shown_offset, bits, little, decimal)
            result = "".join(_autoskipped(lines, data, width) if autoskip else lines).encode("latin-1")
    if len(files) == 2:
        try:
            with fs.open(ctx.host_path(files[1]), "wb") as handle:
                handle.write(result)
        except OSError as err:
            ctx.error(f"xxd: {files[1]}: {describe_oserror(err)}")
            return 3
        return 0
    if result:
        yield result
    return 0


def _xxd_dump(data: bytes, width: int, group: int, upper: bool, base: int, bits: bool,
              little: bool = False, decimal: bool = False) -> list[str]:
    """The hex dump's lines; ``little`` (-e) shows each group's bytes in reverse, a short last
    group at the right of its place. An offset is ``base`` plus the line's, printed as C's
    ``%08lx`` prints it (a negative one as its 64-bit two's complement) or, ``decimal``
    (-d), as ``%08ld``."""
    per_byte = 8 if bits else 2
    if group <= 0 or group > width:
        group = width
    hex_width = width * per_byte + (width - 1) // group
    out: list[str] = []
    for offset in range(0, len(data), width):
        chunk = data[offset : offset + width]
        parts: list[str] = []
        if little:
            groups = [chunk[at : at + group][::-1] for at in range(0, len(chunk), group)]
            parts = [" ".join(g.hex().upper() if upper else g.hex() for g in groups[:-1])]
            last = groups[-1].hex().upper() if upper else groups[-1].hex()
            parts.append((" " if len(groups) > 1 else "") + last.rjust(group * 2))
        for index, byte in enumerate(chunk if not little else b""):
            if bits:
                parts.append(format(byte, "08b"))
            else:
                parts.append(format(byte, "02X" if upper else "02x"))
            if (index + 1) % group == 0 and index != width - 1:
                parts.append(" ")
        hexed = "".join(parts)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        at = base + offset
        shown = f"{at:08d}" if decimal else f"{at & 0xFFFF_FFFF_FFFF_FFFF:08x}"
        out.append(f"{shown}: " + hexed.ljust(hex_width) + "  " + text + "\n")
    return out


def _autoskipped(lines: list[str], data: bytes, width: int) -> list[str]:
    """``-a``: xxd's own rule for lines of nothing but zero bytes. The first of a run is
    shown; a run's later lines become one ``*`` line, or the line itself when it is the only
    one hidden; and the dump's last line is always shown, so a run that ends the data shows
    its last line (its second too, when it hid only that one)."""
    out: list[str] = []
    zero_seen = 0
    saved = ""

    def line(text: str, nonzero: int) -> None:  # nonzero: 1, 0, or -1 for the end's flush
        nonlocal zero_seen, saved
        if nonzero == 0:
            if zero_seen == 1:
                saved = text
            zero_seen += 1
            if zero_seen > 1:
                return
        else:
            if nonzero < 0:
                zero_seen -= 1
            if zero_seen == 2:
                out.append(saved)
            elif zero_seen > 2:
                out.append("*\n")
        if nonzero >= 0 or zero_seen > 0:
            out.append(text)
        if nonzero:
            zero_seen = 0

    partial = len(data) % width != 0
    for number, text in enumerate(lines):
        if partial and number == len(lines) - 1:
            line(text, 1)
        else:
            chunk = data[number * width : (number + 1) * width]
            line(text, 1 if chunk.strip(b"\0") else 0)
    if not partial:
        line(lines[-1] if lines else "", -1)
    return out


def _xxd_include(data: bytes, width: int, upper: bool, name: str | None,
                 capital: bool = False) -> bytes:
    """``-i``: C source; with a name (the file's, or ``-n``'s) a declaration around it, the
    name made an identifier, upper case with ``-C`` (its ``_LEN`` too)."""
    lines: list[str] = []
    fmt = "0X%02X" if upper else "0x%02x"
    for offset in range(0, len(data), width):
        chunk = data[offset : offset + width]
        lines.append("  " + ", ".join(fmt % b for b in chunk))
    body = ",\n".join(lines) + ("\n" if lines else "")
    if name is None:
        return body.encode("latin-1")
    ident = re.sub(r"[^0-9A-Za-z]", "_", name)
    if ident[:1].isascii() and ident[:1].isdigit():
        ident = "__" + ident
    length = f"{ident}_len"
    if capital:
        ident, length = ident.upper(), length.upper()
    return (f"unsigned char {ident}[] = {{\n" + body + f"}};\nunsigned int {length} = {len(data)};\n").encode("latin-1")


def _xxd_revert(data: bytes, plain: bool, cols: int) -> bytes:
    if plain:
        digits = re.sub(rb"[^0-9a-fA-F]", b"", data)
        if len(digits) % 2:
            digits = digits[:-1]
        return binascii.unhexlify(digits)
    out = bytearray()
    for line in split_lines([data]):
        match = re.match(rb"\s*([0-9a-fA-F]+):?\s?(.*)", line)
        if not match:
            continue
        address = int(match.group(1), 16)
        rest = match.group(2)
        # The hex area ends where two spaces separate it from the text column.
        hex_area = rest.split(b"  ")[0]
        digits = re.sub(rb"[^0-9a-fA-F]", b"", hex_area)
        if len(digits) % 2:
            digits = digits[:-1]
        chunk = binascii.unhexlify(digits)
        if address > len(out):
            out.extend(b"\0" * (address - len(out)))
        out[address : address + len(chunk)] = chunk
    return bytes(out)


# --- base64 --------------------------------------------------------------------------------

BASE64_SPEC = FlagSpec("diw:", {"decode": "d", "ignore-garbage": "i", "wrap": "w="})


@with_usage("base64")
def base64(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(BASE64_SPEC, argv[1:])
    decode = ignore = False
    wrap = 76
    for key, value in opts:
        if key == "d":
            decode = True
        elif key == "i":
            ignore = True
        elif key == "w":
            v = value or ""
            if not (v.isascii() and v.isdigit()):
                raise UsageError(f"invalid wrap size: '{v}'", hint=False)
            wrap = int(v)
    if len(files) > 1:
        raise UsageError(f"extra operand '{files[1]}'")
    source = files[0] if files else "-"
    try:
        data = b"".join(open_input(ctx, source))
    except OSError as err:
        file_error(ctx, "base64", source, err)
        return 1
    if decode:
        if ignore:
            cleaned = re.sub(rb"[^A-Za-z0-9+/=]", b"", data)
        else:
            cleaned = re.sub(rb"\n", b"", data)
        decoded, ok = _b64_decode(cleaned)
        if decoded:
            yield decoded
        if not ok:
            ctx.error("base64: invalid input")
            return 1
        return 0
    encoded = b64.b64encode(data)
    if wrap:
        lines = [encoded[i : i + wrap] for i in range(0, len(encoded), wrap)]
        yield b"".join(line + b"\n" for line in lines)
    else:
        yield encoded
    return 0


def _b64_decode(data: bytes) -> tuple[bytes, bool]:
    """Decode like GNU: output every complete group before the first invalid one."""
    valid = re.match(rb"[A-Za-z0-9+/]*", data)
    assert valid is not None
    body_end = valid.end()
    tail = data[body_end:]
    usable = body_end - body_end % 4
    out = b64.b64decode(data[:usable]) if usable else b""
    remainder = data[usable:body_end]
    if not tail and not remainder:
        return out, True
    padded_ok = re.fullmatch(rb"={1,2}", tail or b"") is not None and len(remainder) + len(tail) == 4
    if remainder and padded_ok:
        try:
            return out + b64.b64decode(remainder + tail), True
        except binascii.Error:
            return out, False
    if remainder and not tail:
        # Unpadded trailing group: GNU decodes what it can, then reports invalid input.
        try:
            out += b64.b64decode(remainder + b"=" * (-len(remainder) % 4))
        except binascii.Error:
            pass
        return out, False
    return out, False


# --- checksums -----------------------------------------------------------------------------

SUM_SPEC = FlagSpec(
    "bctwz",
    {
        "binary": "b",
        "check": "c",
        "text": "t",
        "warn": "w",
        "quiet": "quiet",
        "status": "status",
        "strict": "strict",
        "tag": "tag",
        "zero": "z",
        "ignore-missing": "ignore-missing",
    },
)


def _make_sum(prog: str, algorithm: str, tag: str) -> Callable[[CommandContext, list[str]], CommandResult]:
    @with_usage(prog)
    def run(ctx: CommandContext, argv: list[str]) -> CommandResult:
        opts, files = parse_flags(SUM_SPEC, argv[1:])
        flags = {key for key, _ in opts}
        files = files or ["-"]
        if "c" in flags:
            return (yield from _check(ctx, prog, algorithm, files, flags))
        status = 0
        binary = "b" in flags
        for name in files:
            try:
                digest = hashlib.new(algorithm)
                for chunk in open_input(ctx, name):
                    digest.update(chunk)
            except OSError as err:
                file_error(ctx, prog, name, err)
                status = 1
                continue
            escaped = "\\" in name or "\n" in name
            shown = name.replace("\\", "\\\\").replace("\n", "\\n") if escaped else name
            if "tag" in flags:
                line = f"{tag} ({shown}) = {digest.hexdigest()}\n"
            else:
                line = f"{digest.hexdigest()} {'*' if binary else ' '}{shown}\n"
            yield (("\\" if escaped else "") + line).encode("utf-8", "surrogateescape")
        return status

    return run


def _check(ctx: CommandContext, prog: str, algorithm: str, files: list[str], flags: set[str]) -> CommandResult:
    digest_len = hashlib.new(algorithm).digest_size * 2
    line_re = re.compile(rb"^(\\?)([0-9a-fA-F]{%d}) [ *](.+)$" % digest_len)
    tag_re = re.compile(rb"^(\\?)[A-Z0-9]+ \((.+)\) = ([0-9a-fA-F]{%d})$" % digest_len)
    status = 0
    quiet = "quiet" in flags
    silent = "status" in flags
    for listing in files:
        try:
            lines = list(split_lines(open_input(ctx, listing)))
        except OSError as err:
            file_error(ctx, prog, listing, err)
            status = 1
            continue
        bad_format = mismatched = unreadable = 0
        matched_any = False
        for number, raw in enumerate(lines, 1):
            body = raw.rstrip(b"\n")
            match = line_re.match(body)
            if match:
                escaped, expected, name = match.group(1), match.group(2), match.group(3)
            else:
                tagged = tag_re.match(body)
                if not tagged:
                    bad_format += 1
                    if "w" in flags:
                        shown = "standard input" if listing == "-" else listing
                        ctx.error(f"{prog}: {shown}: {number}: improperly formatted {algorithm.upper()} checksum line")
                    continue
                escaped, name, expected = tagged.group(1), tagged.group(2), tagged.group(3)
            if escaped:
                name = name.replace(b"\\n", b"\n").replace(b"\\\\", b"\\")
            filename = name.decode("utf-8", "surrogateescape")
            try:
                digest = hashlib.new(algorithm)
                for chunk in open_input(ctx, filename):
                    digest.update(chunk)
            except OSError as err:
                if "ignore-missing" in flags and isinstance(err, FileNotFoundError):
                    continue
                file_error(ctx, prog, filename, err)
                unreadable += 1
                if not silent:
                    yield f"{filename}: FAILED open or read\n".encode("utf-8", "surrogateescape")
                continue
            matched_any = True
            ok = digest.hexdigest() == expected.decode().lower()
            if not ok:
                mismatched += 1
            if not silent and not (ok and quiet):
                yield f"{filename}: {'OK' if ok else 'FAILED'}\n".encode("utf-8", "surrogateescape")
        shown = "standard input" if listing == "-" else listing
        if not matched_any and not unreadable and not mismatched:
            ctx.error(f"{prog}: {shown}: no properly formatted checksum lines found")
            status = 1
            continue
        if not silent:
            if bad_format:
                plural = "line is" if bad_format == 1 else "lines are"
                ctx.error(f"{prog}: WARNING: {bad_format} {plural} improperly formatted")
            if unreadable:
                plural = "file" if unreadable == 1 else "files"
                ctx.error(f"{prog}: WARNING: {unreadable} listed {plural} could not be read")
            if mismatched:
                plural = "checksum" if mismatched == 1 else "checksums"
                ctx.error(f"{prog}: WARNING: {mismatched} computed {plural} did NOT match")
        if mismatched or unreadable or (bad_format and "strict" in flags):
            status = 1
    return status


COMMANDS = {
    "od": od,
    "xxd": xxd,
    "base64": base64,
    "md5sum": _make_sum("md5sum", "md5", "MD5"),
    "sha1sum": _make_sum("sha1sum", "sha1", "SHA1"),
    "sha256sum": _make_sum("sha256sum", "sha256", "SHA256"),
}

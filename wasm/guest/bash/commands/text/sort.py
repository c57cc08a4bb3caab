"""sort: GNU coreutils sort in the C locale (byte order), with keys, orderings and checks.

Keys follow GNU's field rules: without ``-t`` a field is its leading blanks plus the
following non-blanks; ``-k F.C`` counts characters from the field start (after blanks when
``b`` applies); options on a key replace the global ones. When every key compares equal, the
whole lines are compared bytewise (the "last resort"), unless ``-s`` or ``-u``. ``-R`` shuffles
by a hash of the key, like GNU, but with a fixed seed (GNU's random seed differs per run).
``-m`` merges the files as GNU does, each taken as already sorted: the least of the files'
next lines goes out first, the earlier file's on a tie, so unsorted input comes out merged,
not sorted.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable

from ..base import CommandContext, CommandResult
from .basic import with_usage
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import (
    arg_bytes,
    describe_oserror,
    files0_names,
    open_input,
    split_lines,
)
from ... import fs

SORT_SPEC = FlagSpec(
    "bcCdfghik:mMno:rRsS:t:T:uVz",
    {
        "ignore-leading-blanks": "b",
        "check": "check?",
        "dictionary-order": "d",
        "ignore-case": "f",
        "general-numeric-sort": "g",
        "human-numeric-sort": "h",
        "ignore-nonprinting": "i",
        "key": "k=",
        "merge": "m",
        "month-sort": "M",
        "numeric-sort": "n",
        "output": "o=",
        "reverse": "r",
        "random-sort": "R",
        "stable": "s",
        "buffer-size": "S=",
        "field-separator": "t=",
        "temporary-directory": "T=",
        "unique": "u",
        "version-sort": "V",
        "zero-terminated": "z",
        "parallel": "parallel=",
        "sort": "sort=",
        "random-source": "random-source=",
        "files0-from": "files0-from=",
        "compress-program": "compress-program=",
    },
)

ORDERING = "dfgMhinRrV"
BLANKS = b" \t"


@dataclass
class Key:
    start_field: int
    start_char: int
    end_field: int  # 0 means end of line
    end_char: int  # 0 means end of field
    flags: str
    skip_start_blanks: bool
    skip_end_blanks: bool


def _parse_key(text: str, global_flags: str) -> Key:
    match = re.fullmatch(r"(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?", text)
    if not match:
        raise UsageError(f"invalid number at field start: invalid count at start of '{text}'")
    sf, sc, sflags, ef, ec, eflags = match.groups()
    if int(sf) == 0:
        raise UsageError(f"invalid number at field start: invalid count at start of '{text}'")
    if sc is not None and int(sc) == 0:
        raise UsageError(f"character offset is zero: invalid field specification '{text}'")
    for flag in (sflags or "") + (eflags or ""):
        if flag not in "bdfghiMnRrV":
            raise UsageError(f"stray character in field spec: invalid field specification '{text}'")
    flags = (sflags or "") + (eflags or "")
    own = "".join(sorted(set(flags)))
    if not own:
        flags = global_flags
        skip_start = "b" in global_flags
        skip_end = "b" in global_flags
    else:
        skip_start = "b" in (sflags or "")
        skip_end = "b" in (eflags or "")
    return Key(
        start_field=int(sf),
        start_char=int(sc) if sc else 1,
        end_field=int(ef) if ef else 0,
        end_char=int(ec) if ec else 0,
        flags=flags,
        skip_start_blanks=skip_start,
        skip_end_blanks=skip_end,
    )


def _field_starts(line: bytes, tab: bytes | None) -> list[tuple[int, int]]:
    """(start, end) of every field; ends exclude the separator."""
    spans: list[tuple[int, int]] = []
    if tab is not None:
        pos = 0
        while True:
            cut = line.find(tab, pos)
            if cut < 0:
                spans.append((pos, len(line)))
                return spans
            spans.append((pos, cut))
            pos = cut + 1
    pos = 0
    n = len(line)
    while pos < n or not spans:
        start = pos
        while pos < n and line[pos] in BLANKS:
            pos += 1
        while pos < n and line[pos] not in BLANKS:
            pos += 1
        spans.append((start, pos))
        if pos >= n:
            break
    return spans


def _extract(line: bytes, key: Key, tab: bytes | None) -> bytes:
    spans = _field_starts(line, tab)
    n = len(line)
    if key.start_field > len(spans):
        begin = n
    else:
        begin = spans[key.start_field - 1][0]
        if key.skip_start_blanks:
            while begin < n and line[begin] in BLANKS:
                begin += 1
        begin = min(n, begin + key.start_char - 1)
    if key.end_field == 0:
        end = n
    elif key.end_field > len(spans):
        end = n
    elif key.end_char == 0:
        end = spans[key.end_field - 1][1]
    else:
        end = spans[key.end_field - 1][0]
        if key.skip_end_blanks:
            while end < n and line[end] in BLANKS:
                end += 1
        end = min(n, end + key.end_char)
    if end <= begin:
        return b""
    return line[begin:end]


_NUMERIC = re.compile(rb"[ \t]*(-?)(\d*)(?:\.(\d*))?")
_GENERAL = re.compile(rb"[ \t\n\v\f\r]*([-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan))", re.I)
_HUMAN_SUFFIX = {b"": 0, b"K": 1, b"k": 1, b"M": 2, b"G": 3, b"T": 4, b"P": 5, b"E": 6, b"Z": 7, b"Y": 8, b"R": 9, b"Q": 10}
MONTHS = [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"]


def _numeric_value(text: bytes) -> Decimal | int:
    """The leading number of ``text`` as ``sort -n`` reads it; an integer stays an ``int``
    (which orders exactly against a ``Decimal``), a third of the time of making one."""
    m = _NUMERIC.match(text)
    assert m is not None
    sign, whole, frac = m.groups()
    if not frac:
        return (-int(whole) if sign else int(whole)) if whole else 0
    value = Decimal((whole or b"0").decode() + "." + frac.decode())
    return -value if sign else value


def _general_value(text: bytes) -> tuple[int, float]:
    m = _GENERAL.match(text)
    if not m:
        return (0, 0.0)
    value = float(m.group(1))
    if value != value:
        return (1, 0.0)
    return (2, value)


def _human_value(text: bytes) -> tuple[int, int, Decimal]:
    m = re.match(rb"[ \t]*(-?)(\d*)(?:\.(\d*))?([KkMGTPEZYRQ]?)", text)
    assert m is not None
    sign, whole, frac, suffix = m.groups()
    number = Decimal((whole or b"0").decode() + "." + (frac or b"0").decode())
    if number == 0:
        return (0, 0, Decimal(0))
    magnitude = _HUMAN_SUFFIX[suffix]
    if sign:
        return (-1, -magnitude, -number)
    return (1, magnitude, number)


def _month_value(text: bytes) -> int:
    word = text.lstrip(b" \t")[:3].upper()
    return MONTHS.index(word) + 1 if word in MONTHS else 0


def _version_order(byte: int) -> int:
    if 48 <= byte <= 57:
        return 0
    if 65 <= byte <= 90 or 97 <= byte <= 122:
        return byte
    if byte == 126:  # "~" sorts before everything, even the end of the string
        return -1
    return byte + 256


def _verrevcmp(a: bytes, b: bytes) -> int:
    """Debian version comparison: non-digit runs by weight, digit runs numerically."""
    i = j = 0
    while i < len(a) or j < len(b):
        while (i < len(a) and not 48 <= a[i] <= 57) or (j < len(b) and not 48 <= b[j] <= 57):
            wa = _version_order(a[i]) if i < len(a) else 0
            wb = _version_order(b[j]) if j < len(b) else 0
            if wa != wb:
                return wa - wb
            i += 1
            j += 1
        while i < len(a) and a[i] == 48:
            i += 1
        while j < len(b) and b[j] == 48:
            j += 1
        first_diff = 0
        while i < len(a) and j < len(b) and 48 <= a[i] <= 57 and 48 <= b[j] <= 57:
            if not first_diff:
                first_diff = a[i] - b[j]
            i += 1
            j += 1
        if i < len(a) and 48 <= a[i] <= 57:
            return 1
        if j < len(b) and 48 <= b[j] <= 57:
            return -1
        if first_diff:
            return first_diff
    return 0


def _suffix_start(text: bytes) -> int:
    """Where a trailing run of file suffixes (``(\\.[A-Za-z~][A-Za-z0-9~]*)*``) begins."""
    prefix = 0
    i = 0
    n = len(text)
    while i < n:
        i += 1
        prefix = i
        while i + 1 < n and text[i] == 46 and (chr(text[i + 1]).isalpha() and text[i + 1] < 128 or text[i + 1] == 126):
            i += 2
            while i < n and (chr(text[i]).isalnum() and text[i] < 128 or text[i] == 126):
                i += 1
    return prefix


def filevercmp(a: bytes, b: bytes) -> int:
    """GNU ``sort -V`` order: hidden-file and suffix rules, then version comparison."""
    if not a or not b:
        return (len(a) > 0) - (len(b) > 0)
    if a[:1] == b"." or b[:1] == b".":
        if a[:1] != b[:1]:
            return -1 if a[:1] == b"." else 1
        for special in (b".", b".."):
            if a == special or b == special:
                return (a != special) - (b != special)
    pa, pb = _suffix_start(a), _suffix_start(b)
    result = _verrevcmp(a[:pa], b[:pb])
    if result or (pa == len(a) and pb == len(b)):
        return result
    return _verrevcmp(a, b)


_VERSION_KEY = functools.cmp_to_key(filevercmp)


def _cmp(a: object, b: object) -> int:
    return int((a > b) - (a < b))  # type: ignore[operator]


def _filter_text(text: bytes, flags: str) -> bytes:
    if "d" in flags:
        text = bytes(c for c in text if c in BLANKS or chr(c).isalnum() and c < 128)
    elif "i" in flags:
        text = bytes(c for c in text if 32 <= c < 127)
    if "f" in flags:
        text = text.upper()
    return text


def compare_values(a: bytes, b: bytes, flags: str) -> int:
    if "d" in flags or "i" in flags or "f" in flags:
        a, b = _filter_text(a, flags), _filter_text(b, flags)
    if "n" in flags:
        return _cmp(_numeric_value(a), _numeric_value(b))
    if "g" in flags:
        return _cmp(_general_value(a), _general_value(b))
    if "h" in flags:
        return _cmp(_human_value(a), _human_value(b))
    if "M" in flags:
        return _cmp(_month_value(a), _month_value(b))
    if "V" in flags:
        return filevercmp(a, b)
    if "R" in flags:
        return _cmp(hashlib.md5(a).digest(), hashlib.md5(b).digest())
    return _cmp(a, b)


def make_comparator(keys: list[Key], global_flags: str, tab: bytes | None,
                    last_resort: bool) -> Callable[[bytes, bytes], int]:
    def compare(a: bytes, b: bytes) -> int:
        if keys:
            for key in keys:
                result = compare_values(_extract(a, key, tab), _extract(b, key, tab), key.flags)
                if result:
                    return -result if "r" in key.flags else result
        else:
            ka, kb = a, b
            if "b" in global_flags:
                ka, kb = a.lstrip(BLANKS), b.lstrip(BLANKS)
            result = compare_values(ka, kb, global_flags)
            if result:
                return -result if "r" in global_flags else result
        if not last_resort:
            return 0
        result = _cmp(a, b)
        return -result if "r" in global_flags else result

    return compare


def sort_value(text: bytes, flags: str) -> object:
    """A value whose natural order is ``compare_values``' order for these flags."""
    if "d" in flags or "i" in flags or "f" in flags:
        # GNU translates/filters the key first, whatever the comparison kind.
        text = _filter_text(text, flags)
    if "n" in flags:
        return _numeric_value(text)
    if "g" in flags:
        return _general_value(text)
    if "h" in flags:
        return _human_value(text)
    if "M" in flags:
        return _month_value(text)
    if "V" in flags:
        return _VERSION_KEY(text)
    if "R" in flags:
        return hashlib.md5(text).digest()
    return text


def _ordered(lines: list[bytes], keys: list[Key], global_flags: str, tab: bytes | None,
             no_last_resort: bool) -> list[bytes]:
    """Sort with one stable pass per key, least significant first (plus the last resort).

    Stable passes compose into the lexicographic key order, and computing each key once per
    line is far cheaper than extracting fields inside every comparison.
    """
    if not no_last_resort:
        lines = sorted(lines, reverse="r" in global_flags)
    if not keys:
        if not global_flags.replace("r", ""):
            return lines if not no_last_resort else sorted(lines, reverse="r" in global_flags)
        strip = "b" in global_flags
        return sorted(
            lines,
            key=lambda line: sort_value(line.lstrip(BLANKS) if strip else line, global_flags),  # type: ignore[arg-type, return-value]
            reverse="r" in global_flags,
        )
    for key in reversed(keys):
        values = [sort_value(_extract(line, key, tab), key.flags) for line in lines]
        order = sorted(range(len(lines)), key=values.__getitem__, reverse="r" in key.flags)  # type: ignore[arg-type]
        lines = [lines[i] for i in order]
    return lines


def _check_compatible(flags: str) -> None:
    kinds = sum(1 for f in "nghM" if f in flags) + (1 if any(f in flags for f in "VRdi") else 0)
    if kinds > 1:
        letters = "".join(f for f in "bdfgiMhnRrV" if f in flags)
        raise UsageError(f"options '-{letters}' are incompatible", hint=False)


def _files0(ctx: CommandContext, source: str, operands: list[str]) -> list[str]:
    """The files ``--files0-from=source`` names, every one checked before any is read: a
    ``UsageError`` for a list unreadable or empty, an empty name, or ``-`` (which GNU refuses
    even in a list read from a file)."""
    if operands:
        raise UsageError(f"extra operand '{operands[0]}'\nfile operands cannot be combined with --files0-from")
    try:
        names, _ = files0_names(ctx, source)
    except OSError as err:
        raise UsageError(f"open failed: {source}: {describe_oserror(err)}", hint=False) from None
    if not names:
        raise UsageError(f"no input from '{source}'", hint=False)
    for index, name in enumerate(names, 1):
        if not name:
            raise UsageError(f"{source}:{index}: invalid zero-length file name", hint=False)
        if name == "-":
            raise UsageError("when reading file names from stdin, no file name of '-' allowed", hint=False)
    return names


@with_usage("sort", status=2)
def sort(ctx: CommandContext, argv: list[str]) -> CommandResult:
    opts, files = parse_flags(SORT_SPEC, argv[1:])
    global_flags = ""
    key_texts: list[str] = []
    tab: bytes | None = None
    unique = stable = merge = False
    check = ""
    output: str | None = None
    files0: str | None = None
    eol = b"\n"
    for key, value in opts:
        if len(key) == 1 and key in "bdfghiMnRrV":
            global_flags += key
        elif key == "k":
            assert value is not None
            key_texts.append(value)
        elif key == "t":
            assert value is not None
            raw = arg_bytes(value)
            if raw == b"\\0":
                raw = b"\0"
            if len(raw) != 1:
                if not raw:
                    raise UsageError("empty tab")
                raise UsageError(f"multi-character tab '{value}'", hint=False)
            if tab is not None and tab != raw:
                raise UsageError("incompatible tabs", hint=False)
            tab = raw
        elif key == "u":
            unique = True
        elif key == "s":
            stable = True
        elif key == "m":
            merge = True
        elif key == "c":
            check = "c"
        elif key == "C":
            check = "C"
        elif key == "check":
            check = "C" if value in ("quiet", "silent") else "c"
        elif key == "o":
            output = value
        elif key == "z":
            eol = b"\0"
        elif key == "files0-from":
            files0 = value
        elif key == "sort":
            names = {"general-numeric": "g", "human-numeric": "h", "month": "M", "numeric": "n", "random": "R", "version": "V"}
            if value not in names:
                raise UsageError(f"invalid argument '{value}' for '--sort'")
            global_flags += names[value]
    keys = [_parse_key(text, global_flags) for text in key_texts]
    # GNU checks each key after inheritance (the global options only when there is no key).
    for flags in [k.flags for k in keys] or [global_flags]:
        _check_compatible(flags)
    files = _files0(ctx, files0, files) if files0 is not None else files or ["-"]
    if check and len(files) > 1:
        raise UsageError(f"extra operand '{files[1]}' not allowed with -{check}")
    per_file: list[list[bytes]] = []
    for name in files:
        lines: list[bytes] = []
        try:
            for line in split_lines(open_input(ctx, name), eol):
                lines.append(line[:-1] if line.endswith(eol) else line)
        except OSError as err:
            ctx.error(f"sort: {'cannot read' if name != '-' else 'read failed'}: {name}: {describe_oserror(err)}")
            return 2
        per_file.append(lines)
    lines = per_file[0] if len(per_file) == 1 else [line for one in per_file for line in one]
    compare = make_comparator(keys, global_flags, tab, last_resort=not (stable or unique))
    if check:
        for index in range(1, len(lines)):
            result = compare(lines[index - 1], lines[index])
            if result > 0 or (unique and result == 0):
                if check == "c":
                    shown = files[0] if files[0] != "-" else "-"
                    ctx.error(f"sort: {shown}:{index + 1}: disorder: " + lines[index].decode("latin-1"))
                return 1
        return 0
    if merge:  # (a check ignores -m, as GNU's does)
        lines = list(heapq.merge(*per_file, key=functools.cmp_to_key(compare)))
    else:
        lines = _ordered(lines, keys, global_flags, tab, stable or unique)
    if unique:
        key_compare = make_comparator(keys, global_flags, tab, last_resort=False)
        kept: list[bytes] = []
        for line in lines:
            if not kept or key_compare(kept[-1], line) != 0:
                kept.append(line)
        lines = kept
    data = eol.join(lines) + eol if lines else b""  # each line and its eol, without a loop step per line
    if output is not None:
        try:
            with fs.open(ctx.host_path(output), "wb") as handle:
                handle.write(data)
        except OSError as err:
            ctx.error(f"sort: open failed: {output}: {describe_oserror(err)}")
            return 2
        return 0
    if data:
        yield data
    return 0


COMMANDS = {"sort": sort}

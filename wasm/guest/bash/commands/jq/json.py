"""JSON values for jq: parsing input streams, printing exactly as jq 1.6, and jq's ordering.

Numbers are Python floats throughout (jq uses doubles). Printing uses the shortest
round-trip digits, laid out like jq 1.6's ``jvp_dtoa_fmt``: exponential when the decimal
exponent is below -4 or more than 15 past the last significant digit.
"""

from __future__ import annotations

import json
import json.encoder
import math
import operator
import re
from itertools import accumulate, repeat
from typing import Any, Iterator

DBL_MAX = 1.7976931348623157e308


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def format_number(x: float) -> str:
    if -1e16 < x < 1e16 and x == int(x) and (x != 0 or math.copysign(1.0, x) > 0):
        return str(int(x))
    if x != x:
        return "null"
    if x > DBL_MAX:
        x = DBL_MAX
    elif x < -DBL_MAX:
        x = -DBL_MAX
    if isinstance(x, int) and not isinstance(x, bool):
        x = float(x)
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    text = repr(x)
    sign = ""
    if text[0] == "-":
        sign = "-"
        text = text[1:]
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    # decpt: position of the decimal point relative to the first significant digit.
    lead_zeros = len(whole + frac) - len((whole + frac).lstrip("0"))
    decpt = len(whole) - lead_zeros + exponent
    digits = digits.rstrip("0") or "0"
    n = len(digits)
    if decpt <= -4 or decpt > n + 15:
        e = decpt - 1
        body = digits[0] + ("." + digits[1:] if n > 1 else "")
        return f"{sign}{body}e{'+' if e >= 0 else '-'}{abs(e):02d}"
    if decpt <= 0:
        return f"{sign}0.{'0' * (-decpt)}{digits}"
    if decpt >= n:
        return sign + digits + "0" * (decpt - n)
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


_ENCODE = json.encoder.encode_basestring
_ENCODE_ASCII = json.encoder.encode_basestring_ascii


def _encode_string(s: str, ascii_only: bool) -> str:
    out = _ENCODE_ASCII(s) if ascii_only else _ENCODE(s)
    if "\x7f" in out:
        out = out.replace("\x7f", "\\u007f")
    return out


def dumps(v: Any, indent: int | str = 0, sort_keys: bool = False, ascii_only: bool = False) -> str:
    """Serialise like jq: ``indent`` 0 is compact, a number of spaces, or ``"\\t"``."""
    parts: list[str] = []
    unit = indent if isinstance(indent, str) else " " * indent
    pretty = bool(unit)

    def emit(x: Any, level: int) -> None:
        if x is None:
            parts.append("null")
        elif x is True:
            parts.append("true")
        elif x is False:
            parts.append("false")
        elif isinstance(x, (int, float)):
            parts.append(format_number(x))
        elif isinstance(x, str):
            parts.append(_encode_string(x, ascii_only))
        elif isinstance(x, list):
            if not x:
                parts.append("[]")
                return
            parts.append("[")
            for i, item in enumerate(x):
                if i:
                    parts.append(",")
                if pretty:
                    parts.append("\n" + unit * (level + 1))
                emit(item, level + 1)
            if pretty:
                parts.append("\n" + unit * level)
            parts.append("]")
        else:
            if not x:
                parts.append("{}")
                return
            parts.append("{")
            keys = sorted(x) if sort_keys else list(x)
            for i, key in enumerate(keys):
                if i:
                    parts.append(",")
                if pretty:
                    parts.append("\n" + unit * (level + 1))
                parts.append(_encode_string(key, ascii_only))
                parts.append(": " if pretty else ":")
                emit(x[key], level + 1)
            if pretty:
                parts.append("\n" + unit * level)
            parts.append("}")

    emit(v, 0)
    return "".join(parts)


def sort_keys_deep(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: sort_keys_deep(v[k]) for k in sorted(v)}
    if isinstance(v, list):
        return [sort_keys_deep(x) for x in v]
    return v


_ORDER = {"null": 0, "boolean": 1, "number": 3, "string": 4, "array": 5, "object": 6}


def compare(a: Any, b: Any) -> int:
    ta, tb = type_name(a), type_name(b)
    if ta != tb:
        ra = _ORDER[ta] if ta != "boolean" else (1 if a is False else 2)
        rb = _ORDER[tb] if tb != "boolean" else (1 if b is False else 2)
        return -1 if ra < rb else 1
    if ta == "boolean":
        return int(a) - int(b)
    if ta == "number":
        # jq sorts nan below every number (nan < nan is true as well).
        if a != a:
            return -1
        if b != b:
            return 1
        return -1 if a < b else (1 if a > b else 0)
    if ta == "string":
        return -1 if a < b else (1 if a > b else 0)
    if ta == "null":
        return 0
    if ta == "array":
        for x, y in zip(a, b):
            c = compare(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    ka, kb = sorted(a), sorted(b)
    c = compare(ka, kb)
    if c:
        return c
    for k in ka:
        c = compare(a[k], b[k])
        if c:
            return c
    return 0


class SortKey:
    """Wraps a value so Python's sort uses jq ordering (sort is stable, like jq's)."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        self.v = v

    def __lt__(self, other: "SortKey") -> bool:
        return compare(self.v, other.v) < 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SortKey) and compare(self.v, other.v) == 0

    __hash__ = None  # type: ignore[assignment]


def equal(a: Any, b: Any) -> bool:
    return compare(a, b) == 0


class JSONParseError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    if name == "NaN":
        return math.nan
    raise ValueError(f"Invalid literal {name}")


_DECODER = json.JSONDecoder(parse_int=float, parse_constant=_reject_constant)
_WS = " \t\n\r"
_DELIM = re.compile(r"[ \t\n\r\[\]{}\",:]")

MAX_PARSING_DEPTH = 256
"""jq 1.6's bound on how deep its input nests: its parser's stack, where an array, an object
and an object's pending key take a place each. It matters here too: Python's JSON scanner
recurses in C once a level, and overflows the guest's wasm stack at about 1,100 levels."""
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}:,]', re.DOTALL)
_NOT_BRACKETS_OR_QUOTES = bytes(c for c in range(256) if c not in b'[]{}"')
_PARENS = bytes.maketrans(b"[{]}", b"(())")
_STEPS = bytes.maketrans(b"()", b"\x02\x00")


def _shallow(text: str, pos: int) -> bool:
    """Whether the brackets of ``text`` from ``pos`` (a value's start), strings aside, nest
    at most half jq's bound: then no value there can reach it.

    In C loops only: escaped backslashes and quotes go, then all but brackets and quotes;
    two quotes in a row then close a string and open the next with nothing between, or
    enclose nothing, so they go too; what is left between quotes is in strings. Empty
    pairs are dropped a few rounds (each lowers the deepest level by one at most) before
    the levels are summed up."""
    half = MAX_PARSING_DEPTH // 2
    if text.count("[", pos) + text.count("{", pos) <= half:
        return True
    data = text[pos:].encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    data = data.translate(None, _NOT_BRACKETS_OR_QUOTES).replace(b'""', b"")
    parens = b"".join(data.split(b'"')[0::2]).translate(_PARENS)
    for rounds in range(8):
        fewer = parens.replace(b"()", b"")
        if len(fewer) == len(parens):
            break
        parens = fewer
    else:
        rounds = 8
    steps = parens.translate(_STEPS)
    return max(accumulate(map(operator.sub, steps, repeat(1))), default=0) <= half - rounds


def _too_deep_at(text: str, pos: int) -> int | None:
    """Where the array or object at ``pos`` first nests past jq's bound (its parser's count),
    or None when it closes before (or the text ends)."""
    stack: list[str] = []
    for m in _STRUCTURE.finditer(text, pos):
        c = text[m.start()]
        if c in "[{":
            if len(stack) >= MAX_PARSING_DEPTH:
                return m.start()
            stack.append(c)
        elif c in "]}":
            if stack and stack[-1] == ":":
                stack.pop()
            if stack:
                stack.pop()
            if not stack:
                return None
        elif c == ":":
            if stack and stack[-1] == "{":
                stack.append(c)
        elif c == "," and stack and stack[-1] == ":":
            stack.pop()
    return None


def _depth_error(text: str, pos: int, at: int) -> JSONParseError:
    """The error jq meets first in a value nesting too deep at ``at``: one before it, or the
    depth. (The scanner sees the text only up to ``at``, never deeper than the bound.)"""
    try:
        _DECODER.raw_decode(text[:at], pos)
    except ValueError as exc:
        if getattr(exc, "pos", at) < at:
            return JSONParseError(f"{exc}")
    return JSONParseError("Exceeds depth limit for parsing")


def loads(text: str) -> Any:
    """Parse exactly one JSON text (surrounding whitespace allowed)."""
    values = list(iter_values(iter([text])))
    if len(values) != 1:
        raise JSONParseError("Expected exactly one JSON value")
    return values[0]


class StreamPosition:
    """Where the parser is: ``line`` is what jq reports in "error (at <stdin>:N)"."""

    def __init__(self) -> None:
        self.line = 0
        self.parsed = False


def iter_values(chunks: Iterator[str], where: StreamPosition | None = None) -> Iterator[Any]:
    """Parse a stream of whitespace-separated JSON texts from text chunks, lazily.

    When a value is incomplete, more input is read until the unparsed text has at least
    doubled before parsing again, so a large value split into many small chunks costs
    O(n log n), not O(n^2).
    """
    buf = ""
    eof = False
    pos = 0
    lines_before = 0  # newlines in text already dropped from the front of buf
    # The buffer whose brackets from the current value on are known shallow, and one known
    # not to be (each value in it is then measured before the scanner sees it).
    shallow: str | None = None
    deep: str | None = None

    def more(minimum: int) -> bool:
        """Append chunks until ``minimum`` new characters arrived (or the input ended)."""
        nonlocal buf, pos, eof, lines_before
        if eof:
            return False
        lines_before += buf.count("\n", 0, pos)
        pieces = [buf[pos:]]
        got = 0
        while got < minimum:
            try:
                chunk = next(chunks)
            except StopIteration:
                eof = True
                break
            pieces.append(chunk)
            got += len(chunk)
        buf = "".join(pieces)
        pos = 0
        return got > 0

    while True:
        while pos < len(buf) and buf[pos] in _WS:
            pos += 1
        if pos >= len(buf):
            if eof or not more(1):
                if eof and pos >= len(buf):
                    return
            continue
        if buf[pos] in "[{" and buf is not shallow:
            if buf is not deep and _shallow(buf, pos):
                shallow = buf
            else:
                deep = buf
                at = _too_deep_at(buf, pos)
                if at is not None:
                    raise _depth_error(buf, pos, at)
        try:
            value, end = _DECODER.raw_decode(buf, pos)
        except (ValueError, RecursionError) as exc:
            if not eof:
                more(max(len(buf) - pos, 4096))
                continue
            raise JSONParseError(f"{exc}") from None
        # A number or literal may continue in the next chunk ("1.5" then "e3"): decide
        # only once the token is followed by a delimiter or the input has ended.
        if not eof and not isinstance(value, (dict, list, str)) and not _DELIM.search(buf, end):
            more(1)
            continue
        if not eof and end == len(buf) and where is not None and more(1):
            # Look at the character after the value first: jq counts a newline there.
            continue
        if end < len(buf) and buf[end] not in _WS + "[{\"" and not isinstance(value, (dict, list, str)):
            raise JSONParseError("Invalid numeric literal")
        if where is not None:
            # jq counts the newline that ends the value's line as consumed.
            where.line = lines_before + buf.count("\n", 0, end) + (1 if buf.startswith("\n", end) else 0)
            where.parsed = True
        pos = end
        yield value


_COLORS = {"null": "1;30", "boolean": "0;39", "number": "0;39", "string": "0;32", "array": "1;39",
           "object": "1;39"}
_FIELD = "\x1b[34;1m"
_RESET = "\x1b[0m"


def dumps_color(v: Any, indent: int | str = 2) -> str:
    """``jq -C`` output, byte for byte as jq 1.6's jv_dump_term with its default colours."""
    parts: list[str] = []
    unit = indent if isinstance(indent, str) else " " * indent
    pretty = bool(unit)

    def emit(x: Any, level: int) -> None:
        kind = type_name(x)
        color = "\x1b[" + _COLORS[kind] + "m"
        parts.append(color)
        if kind == "array" and x:
            parts.append("[")
            for i, item in enumerate(x):
                if i:
                    parts.append(",")
                if pretty:
                    parts.append("\n" + unit * (level + 1))
                emit(item, level + 1)
                parts.append(color)
            if pretty:
                parts.append("\n" + unit * level)
            parts.append(color + "]")
        elif kind == "object" and x:
            parts.append("{")
            if pretty:
                parts.append("\n" + unit * (level + 1))
            for i, (key, value) in enumerate(x.items()):
                if i:
                    parts.append(",\n" + unit * (level + 1) if pretty else ",")
                parts.append(_RESET + _FIELD + _encode_string(key, False) + _RESET)
                parts.append(color + (": " if pretty else ":") + _RESET)
                emit(value, level + 1)
                parts.append(color)
            if pretty:
                parts.append("\n" + unit * level)
            parts.append(color + "}")
        else:
            parts.append(dumps(x))
        parts.append(_RESET)

    emit(v, 0)
    return "".join(parts)
